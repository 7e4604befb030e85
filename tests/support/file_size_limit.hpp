// Runs f with the process's file size limit at `bytes`: writes beyond it fail with EFBIG, like a
// full disk (SIGXFSZ is ignored meanwhile, so the write returns the error instead of killing the
// test). For the tests of atomic writes: a failed write must leave the old file.
#pragma once
#include <sys/resource.h>

#include <csignal>

namespace dyn::testing {

template <class F>
void withFileSizeLimit(rlim_t bytes, F&& f) {
  rlimit old{};
  getrlimit(RLIMIT_FSIZE, &old);
  rlimit limited = old;
  limited.rlim_cur = bytes;
  auto* previous = signal(SIGXFSZ, SIG_IGN);
  setrlimit(RLIMIT_FSIZE, &limited);
  f();
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, previous);
}

}  // namespace dyn::testing
