// The host's scan of a test's items, the reference that the tests of CUB's
// and Thrust's device scans hold them to.
#pragma once

#include <optional>
#include <vector>

// The inclusive scan of `items` under `op`, in order, from `init` if given.
template <class T, class Op>
std::vector<T> host_inclusive_scan(const std::vector<T>& items, Op op, std::optional<T> init = std::nullopt) {
    std::vector<T> scanned;
    for (const T& item : items) {
        init = init ? op(*init, item) : item;
        scanned.push_back(*init);
    }
    return scanned;
}
