// Fuzz target: the DH table reader (engine/src/dh_parser.cpp) and the model builder.
#include <cstddef>
#include <cstdint>

#include "dynscope/io/dh_parser.hpp"
#include "dynscope/io/model_builder.hpp"
#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  try {
    const dyn::RobotDescription robot = dyn::parseDhString(text, "fuzz.dh");
    fuzz::checkModel(dyn::buildModel(robot));
  } catch (const dyn::LoadError& e) {
    fuzz::checkError(e, "fuzz.dh");
  }
  return 0;
}
