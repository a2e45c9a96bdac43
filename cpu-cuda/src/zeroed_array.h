// Arrays of zeroed, trivially copyable elements, from calloc: their large
// blocks are fresh zero pages, so a page costs something only once it is
// touched. The checkers' shadows of memory are made this way. Internal to the backend.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace warpdrill::cpu::detail {

struct FreeZeroed {
    void operator()(void* elements) const { std::free(elements); }
};
template <class T>
using ZeroedArray = std::unique_ptr<T[], FreeZeroed>;

// `count` elements, all bytes zero; nullptr for none.
template <class T>
ZeroedArray<T> make_zeroed(std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    if (count == 0) return nullptr;
    auto* elements = static_cast<T*>(std::calloc(count, sizeof(T)));
    if (!elements) throw std::bad_alloc();
    return ZeroedArray<T>(elements);
}

}  // namespace warpdrill::cpu::detail
