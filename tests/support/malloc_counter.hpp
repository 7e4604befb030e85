// Counts heap allocations by replacing malloc, calloc and realloc (every C++ and Eigen
// allocation ends in one of them on glibc): countAllocations(f) runs f and returns how many
// allocations it made on this thread. Include in exactly one translation unit per test program
// (it defines the C functions).
#pragma once
#include <cstddef>

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
}

namespace dyn::testing::malloc_counter {
inline thread_local bool armed = false;
inline thread_local long allocations = 0;
}  // namespace dyn::testing::malloc_counter

extern "C" void* malloc(size_t n) {
  if (dyn::testing::malloc_counter::armed) ++dyn::testing::malloc_counter::allocations;
  return __libc_malloc(n);
}
extern "C" void* calloc(size_t a, size_t b) {
  if (dyn::testing::malloc_counter::armed) ++dyn::testing::malloc_counter::allocations;
  return __libc_calloc(a, b);
}
extern "C" void* realloc(void* p, size_t n) {
  if (dyn::testing::malloc_counter::armed) ++dyn::testing::malloc_counter::allocations;
  return __libc_realloc(p, n);
}

namespace dyn::testing {

template <class F>
long countAllocations(F&& f) {
  malloc_counter::allocations = 0;
  malloc_counter::armed = true;
  f();
  malloc_counter::armed = false;
  return malloc_counter::allocations;
}

}  // namespace dyn::testing
