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

// The same arm on an x-y gantry (a mobile manipulator's base): the rail along x, then a 20 kg
// carriage moving along y carries the arm. Joints 1 and 2 are the gantry's.
inline Model ur5OnAGantry() {
  RobotDescription d = loadDescription(std::string(DYNSCOPE_ROBOTS_DIR) + "/ur5.urdf");
  std::string root;
  for (const LinkDesc& l : d.links)
    if (std::none_of(d.joints.begin(), d.joints.end(), [&](const JointDesc& j) { return j.child == l.name; }))
      root = l.name;
  LinkDesc rail, carriage;
  rail.name = "rail";
  carriage.name = "carriage";
  InertialDesc in;
  in.mass = 20;
  in.ixx = in.iyy = 0.4;
  in.izz = 0.6;
  carriage.inertial = in;
  d.links.insert(d.links.begin(), {rail, carriage});
  JointDesc x, y;
  x.name = "gantry_x";
  x.kind = y.kind = JointKind::Prismatic;
  x.parent = "rail";
  x.child = y.parent = "carriage";
  y.name = "gantry_y";
  y.child = root;
  x.axis = Eigen::Vector3d::UnitX();
  y.axis = Eigen::Vector3d::UnitY();
  d.joints.insert(d.joints.begin(), {x, y});
  return buildModel(d);
}

}  // namespace dyn::testing
