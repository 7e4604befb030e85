// Fuzz target: the URDF reader and the model builder (engine/src/urdf_parser.cpp, model_builder.cpp).
#include <cstddef>
#include <cstdint>

#include "dynscope/io/urdf_parser.hpp"
#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  return fuzz::fuzzRobotReader(bytes, size, "fuzz.urdf", [](const std::string& text, const char* source) {
    return dyn::parseUrdfString(text, source);
  });
}
