// The UR5 on a rail along x: a prismatic joint between a massless root and the arm's base, so a
// test can move the whole arm far from the origin (external wrenches, ABA's accuracy out there).
#pragma once
#include <algorithm>
#include <string>

#include "dynscope/dynscope.hpp"

namespace dyn::testing {

inline Model ur5OnARail() {
  RobotDescription d = loadDescription(std::string(DYNSCOPE_ROBOTS_DIR) + "/ur5.urdf");
  std::string root;  // the link no joint moves
  for (const LinkDesc& l : d.links)
    if (std::none_of(d.joints.begin(), d.joints.end(), [&](const JointDesc& j) { return j.child == l.name; }))
      root = l.name;
  LinkDesc rail;
  rail.name = "rail";
  d.links.insert(d.links.begin(), rail);
  JointDesc slide;
  slide.name = "slide";
  slide.kind = JointKind::Prismatic;
  slide.parent = "rail";
  slide.child = root;
  slide.axis = Eigen::Vector3d::UnitX();
  d.joints.insert(d.joints.begin(), slide);
  return buildModel(d);
}

}  // namespace dyn::testing
