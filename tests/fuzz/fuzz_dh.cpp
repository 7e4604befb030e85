// Fuzz target: the DH table reader (engine/src/dh_parser.cpp) and the model builder; a table that
// reads also writes (dh_table.hpp) to text that reads again, in both conventions.
#include <cstddef>
#include <cstdint>

#include <cstdio>
#include <cstdlib>

#include "dynscope/io/dh_parser.hpp"
#include "dynscope/io/dh_table.hpp"
#include "dynscope/io/model_builder.hpp"
#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  try {
    const dyn::RobotDescription robot = dyn::parseDhString(text, "fuzz.dh");
    fuzz::checkModel(dyn::buildModel(robot));
    const dyn::DhTable table = dyn::parseDhTable(text, "fuzz.dh");
    for (dyn::DhConvention c : {table.convention, dyn::DhConvention::Standard, dyn::DhConvention::Modified}) {
      const std::string written = dyn::writeDhTable(dyn::toConvention(table, c));
      try {
        dyn::parseDhTable(written, "written.dh");
      } catch (const dyn::LoadError& e) {
        std::fprintf(stderr, "a table that reads wrote text that does not: %s\n%s", e.what(), written.c_str());
        std::abort();
      }
    }
  } catch (const dyn::LoadError& e) {
    fuzz::checkError(e, "fuzz.dh");
  }
  return 0;
}
