// The main() of a test batch (test_batch.hpp): `program SUITE [QtTest options]` runs one suite.
#include <cstdio>
#include <map>
#include <string>

namespace dyn::testing {
using SuiteMain = int (*)(int argc, char** argv);

namespace {
std::map<std::string, SuiteMain>& suites() {  // filled by the suites' static initializers
  static std::map<std::string, SuiteMain> registered;
  return registered;
}
}  // namespace

bool registerSuite(const char* name, SuiteMain main) {
  suites()[name] = main;
  return true;
}
}  // namespace dyn::testing

int main(int argc, char** argv) {
  const auto& suites = dyn::testing::suites();
  const auto suite = argc > 1 ? suites.find(argv[1]) : suites.end();
  if (suite == suites.end()) {
    std::fprintf(stderr, "usage: %s SUITE [QtTest options]\nThe suites of this program:\n", argv[0]);
    for (const auto& [name, main] : suites) std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
  }
  return suite->second(argc - 1, argv + 1);  // the suite sees its own name as argv[0]
}
