// Test batches (docs/building.md): several QtTest suites compiled as one unit and linked as one
// program, so that Qt, Eigen and the engine's templates are parsed and instantiated once per batch
// rather than once per suite. ctest runs `batch_program test_x [QtTest options]`, one suite per
// process as before. tests/CMakeLists.txt writes each batch's unit: it includes this header, then
// every suite inside a namespace of its own, with DYNSCOPE_SUITE naming it; the QTEST_*_MAIN at the
// end of a suite then registers the suite here instead of defining main().
#pragma once
#include <QtTest>

namespace dyn::testing {
using SuiteMain = int (*)(int argc, char** argv);
// Registers a suite under its program name (test_batch_main.cpp); returns true.
bool registerSuite(const char* name, SuiteMain main);
}  // namespace dyn::testing

// QtTest's QTEST_MAIN, QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN all expand this macro: the same
// body as Qt's (qtest.h), as a registered function instead of main().
#undef QTEST_MAIN_WRAPPER
#define QTEST_MAIN_WRAPPER(TestObject, ...)                                                         \
  [[maybe_unused]] const bool dynscopeSuiteRegistered =                                             \
      ::dyn::testing::registerSuite(DYNSCOPE_SUITE, [](int argc, char* argv[]) -> int {             \
        TESTLIB_SELFCOVERAGE_START(#TestObject)                                                      \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                          \
        __VA_ARGS__                                                                                  \
        TestObject tc;                                                                               \
        QTEST_SET_MAIN_SOURCE_PATH                                                                   \
        return QTest::qExec(&tc, argc, argv);                                                        \
      });
