// The serial chain root -> tip of a description (the links a KDL::Chain holds), as a
// description of its own, so our model of exactly those links can be compared with KDL's.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dynscope/io/robot_description.hpp"

namespace dyn::testing {

inline RobotDescription pathDescription(const RobotDescription& desc, const std::string& tip) {
  std::map<std::string, const JointDesc*> parentJoint;
  for (const auto& j : desc.joints) parentJoint[j.child] = &j;
  std::set<std::string> links{tip};
  std::vector<JointDesc> joints;
  for (std::string l = tip; parentJoint.count(l);) {
    const JointDesc* j = parentJoint[l];
    joints.push_back(*j);
    l = j->parent;
    links.insert(l);
  }
  RobotDescription sub = desc;
  sub.links.clear();
  sub.frames.clear();
  sub.joints.assign(joints.rbegin(), joints.rend());
  for (auto& j : sub.joints) j.mimic.reset();  // a mimicked joint may be off the path
  for (const auto& l : desc.links)
    if (links.count(l.name)) sub.links.push_back(l);
  sub.defaultEndEffector = tip;
  return sub;
}

}  // namespace dyn::testing
