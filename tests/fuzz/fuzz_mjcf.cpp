// Fuzz target: the MJCF reader and the model builder (engine/src/mjcf_*.cpp, model_builder.cpp).
#include <cstddef>
#include <cstdint>

#include "dynscope/io/mjcf_parser.hpp"
#include "dynscope/io/model_builder.hpp"
#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  dyn::RobotDescription robot;
  try {
    robot = dyn::parseMjcfString(text, "fuzz.xml");
  } catch (const dyn::LoadError& e) {
    fuzz::checkError(e, "fuzz.xml");
    return 0;
  }
  for (const auto& link : robot.links) {
    fuzz::requireUtf8(link.name, "a link name");
    for (const auto& g : link.visuals) fuzz::requireUtf8(g.shape.meshUri, "a mesh file name");
  }
  for (const auto& joint : robot.joints) fuzz::requireUtf8(joint.name, "a joint name");
  for (const bool floating : {false, true}) {
    try {
      fuzz::checkModel(dyn::buildModel(robot, dyn::BuildOptions{.floatingBase = floating}));
    } catch (const dyn::LoadError& e) {
      fuzz::checkError(e, "fuzz.xml");
    }
  }
  return 0;
}
