// Fuzz target: the project file reader (ui/project/project_file.cpp, json_lines.cpp; QtCore JSON).
// A project that reads must write back and read again to the same content.
#include <QByteArray>
#include <cstddef>
#include <cstdint>

#include "fuzz_checks.hpp"
#include "project/project_file.hpp"

namespace {

void checkProject(const dyn::ProjectFile& p) {
  fuzz::requireUtf8(p.robotPath, "the robot path");
  if (p.payload) {
    fuzz::requireUtf8(p.payload->link, "the payload link");
    FUZZ_REQUIRE(std::isfinite(p.payload->mass) && p.payload->mass >= 0 && p.payload->com.allFinite(), "payload");
  }
  if (p.gravity) FUZZ_REQUIRE(p.gravity->allFinite(), "gravity");
  const dyn::ProjectTrajectory& t = p.trajectory;
  FUZZ_REQUIRE(std::isfinite(t.sampleRate) && t.sampleRate > 0, "sample rate");
  for (const auto& w : t.waypoints) {
    FUZZ_REQUIRE(std::isfinite(w.t), "waypoint time");
    for (const auto& [joint, values] : w.joints) {
      fuzz::requireUtf8(joint, "a waypoint's joint name");
      for (double x : values) FUZZ_REQUIRE(std::isfinite(x), "a waypoint value");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  const QByteArray json(reinterpret_cast<const char*>(bytes), qsizetype(size));
  const QString path = QStringLiteral("/fuzz/project.json");
  dyn::ProjectFile p;
  try {
    p = dyn::parseProject(json, path);
  } catch (const dyn::ProjectError& e) {
    fuzz::checkError(e, "/fuzz/project.json");
    return 0;
  }
  checkProject(p);
  dyn::ProjectFile again;
  try {
    again = dyn::parseProject(dyn::serializeProject(p, path), path);
  } catch (const dyn::ProjectError& e) {
    fuzz::violated("a project that was read writes back readable", e.what());
  }
  FUZZ_REQUIRE(again.robotPath == p.robotPath && again.floatingBase == p.floatingBase, "round trip: robot");
  FUZZ_REQUIRE(again.trajectory.waypoints.size() == p.trajectory.waypoints.size(), "round trip: waypoints");
  return 0;
}
