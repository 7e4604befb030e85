// Fuzz target: the MJCF reader and the model builder (engine/src/mjcf_*.cpp, model_builder.cpp).
#include <cstddef>
#include <cstdint>

#include "dynscope/io/mjcf_parser.hpp"
#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  return fuzz::fuzzRobotReader(bytes, size, "fuzz.xml", [](const std::string& text, const char* source) {
    return dyn::parseMjcfString(text, source);
  });
}
