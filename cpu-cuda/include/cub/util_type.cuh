// <cub/util_type.cuh> on the CPU backend, part of the subset of CUB that
// warpdrill's CPU backend provides, written from CUB's documented API (not
// CUB's code): cub::KeyValuePair, what ArgMin and ArgMax reduce and write.
#pragma once

namespace cub {

// A key (in CUB's use, an item's offset) with its value. As in CUB, the
// default constructor leaves both members as they were.
template <typename Key_, typename Value_>
struct KeyValuePair {
    using Key = Key_;
    using Value = Value_;

    Key key;
    Value value;

    KeyValuePair() {}
    KeyValuePair(const Key& key, const Value& value) : key(key), value(value) {}

    bool operator!=(const KeyValuePair& other) const { return value != other.value || key != other.key; }
};

}  // namespace cub
