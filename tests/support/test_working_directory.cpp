// Every test program runs in build/tests, wherever it is started from: the suites name robots, test
// data and the programs by paths relative to there (tests/CMakeLists.txt), so that no absolute path
// is compiled into their objects and every clone shares the compiler cache. This unit is the only
// one that knows the absolute path; it is compiled once per build tree.
#include <cstdio>
#include <unistd.h>

namespace {
const bool kInTestsDirectory = [] {
  if (chdir(DYNSCOPE_TESTS_BINARY_DIR) == 0) return true;
  std::perror("cannot enter the tests' build directory " DYNSCOPE_TESTS_BINARY_DIR);
  return false;
}();
}  // namespace
