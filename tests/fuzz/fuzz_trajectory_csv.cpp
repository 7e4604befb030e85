// Fuzz target: the trajectory CSV reader (engine/src/trajectory_csv.cpp), as a plain table and as a
// trajectory of a fixed robot with every kind of q entry: revolute j1, prismatic j2, a spherical
// joint (ball_qx..ball_qw) and a floating base (root_joint_x..root_joint_qw). The seeds in
// corpus/trajectory_csv/ use these names.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "dynscope/io/model_builder.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/io/urdf_parser.hpp"
#include "fuzz_checks.hpp"

namespace {

const dyn::Model& robot() {
  static const dyn::Model model = dyn::buildModel(dyn::parseUrdfString(R"(<robot name="fuzz">
  <link name="base"><inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="a"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="c"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  <joint name="j2" type="prismatic"><parent link="a"/><child link="b"/><origin xyz="0 0 0.5"/><axis xyz="1 0 0"/>
    <limit lower="-0.5" upper="0.5" effort="10" velocity="1"/></joint>
  <joint name="ball" type="spherical"><parent link="b"/><child link="c"/><origin xyz="0.3 0 0"/></joint>
</robot>)",
                                                                       "fuzz-robot.urdf"),
                                                  dyn::BuildOptions{.floatingBase = true});
  return model;
}

void checkTrajectory(const dyn::TrajectoryCsv& r, const dyn::Model& m, bool torques) {
  const dyn::SampledTrajectory& s = r.trajectory;
  const int n = s.samples();
  FUZZ_REQUIRE(n >= 1 && s.t.size() == n, "sample count");
  FUZZ_REQUIRE(s.q.rows() == m.nq && s.q.cols() == n && s.qd.rows() == m.nv && s.qd.cols() == n, "sizes");
  FUZZ_REQUIRE(s.t.allFinite() && s.q.allFinite(), "t or q not finite");
  for (int k = 1; k < n; ++k) FUZZ_REQUIRE(s.t[k] > s.t[k - 1], "t not increasing");
  FUZZ_REQUIRE(s.qd.allFinite(), "velocities not finite");
  FUZZ_REQUIRE(s.qdd.allFinite(), "accelerations not finite");
  if (torques) FUZZ_REQUIRE(r.tau.rows() == m.nv && r.tau.cols() == n && r.tau.allFinite(), "torques");
  for (const auto& name : r.ignoredColumns) fuzz::requireUtf8(name, "an ignored column name");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  try {  // the plain table
    std::istringstream in(text);
    const dyn::CsvTable table = dyn::readCsv(in, "fuzz.csv");
    FUZZ_REQUIRE(table.values.allFinite(), "table values not finite");
    FUZZ_REQUIRE(table.values.rows() == Eigen::Index(table.header.size()), "table shape");
    for (const auto& name : table.header) fuzz::requireUtf8(name, "a column name");
  } catch (const std::runtime_error& e) {
    fuzz::checkError(e, "fuzz.csv");
  }
  for (const bool torques : {false, true}) {
    try {
      std::istringstream in(text);
      const dyn::TrajectoryCsvOptions options{.accelerations = true, .torques = torques};
      checkTrajectory(dyn::readTrajectoryCsv(robot(), in, "fuzz.csv", options), robot(), torques);
    } catch (const std::runtime_error& e) {
      fuzz::checkError(e, "fuzz.csv");
    }
  }
  return 0;
}
