#pragma once
// A byte vector whose growth leaves the new bytes as they are instead of zeroing them. A buffer that
// is written right after it grows (a file read into it, key blobs encoded into it) was otherwise
// written twice: the bench's profile had the zeroing as a tenth of the parallel stage. Written here
// because the standard library has no such vector and Boost.Container's default_init is not a
// dependency of this project.
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace animdex {

// std::allocator, except that a value-initialisation (what resize() asks for) is a default one,
// which for a trivial type writes nothing. Other constructions are std::allocator's.
template <typename T>
class DefaultInitAllocator : public std::allocator<T> {
 public:
  using std::allocator<T>::allocator;
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  template <typename U>
  void construct(U* place) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(place)) U;
  }
  template <typename U, typename... Args>
  void construct(U* place, Args&&... args) {
    std::allocator_traits<std::allocator<T>>::construct(static_cast<std::allocator<T>&>(*this), place,
                                                        std::forward<Args>(args)...);
  }
};

using ByteBuffer = std::vector<std::byte, DefaultInitAllocator<std::byte>>;

}  // namespace animdex
