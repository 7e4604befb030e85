// Names of the entries of q and of v, in model order: what CSV headers, CLI messages and plots
// call each coordinate. 1-DOF joints use the joint name; multi-DOF joints add a suffix per entry.
#pragma once
#include <string>
#include <vector>

#include "model.hpp"

namespace dyn {

// Suffixes of a joint's q entries (empty for 1-DOF joints: the joint name alone).
inline std::vector<const char*> configurationSuffixes(JointType type) {
  switch (type) {
    case JointType::Planar:
      return {"_x", "_y", "_theta"};
    case JointType::Spherical:
      return {"_qx", "_qy", "_qz", "_qw"};
    case JointType::Floating:
      return {"_x", "_y", "_z", "_qx", "_qy", "_qz", "_qw"};
    default:
      return {""};
  }
}

// Suffixes of a joint's v entries: spherical and floating velocities are [w; v] in link coordinates.
inline std::vector<const char*> velocitySuffixes(JointType type) {
  switch (type) {
    case JointType::Planar:
      return {"_x", "_y", "_theta"};
    case JointType::Spherical:
      return {"_wx", "_wy", "_wz"};
    case JointType::Floating:
      return {"_wx", "_wy", "_wz", "_vx", "_vy", "_vz"};
    default:
      return {""};
  }
}

// One name per q entry (size nq).
template <class S>
std::vector<std::string> configurationNames(const ModelTpl<S>& model) {
  std::vector<std::string> names(model.nq);
  for (int i = 1; i <= model.N; ++i) {
    const auto suffixes = configurationSuffixes(model.joints[i].type);
    for (int k = 0; k < (int)suffixes.size(); ++k)
      names[model.joints[i].idx_q + k] = model.jointNames[i] + suffixes[k];
  }
  return names;
}

// One name per v entry (size nv); also the names of qdd and tau entries.
template <class S>
std::vector<std::string> velocityNames(const ModelTpl<S>& model) {
  std::vector<std::string> names(model.nv);
  for (int i = 1; i <= model.N; ++i) {
    const auto suffixes = velocitySuffixes(model.joints[i].type);
    for (int k = 0; k < (int)suffixes.size(); ++k)
      names[model.joints[i].idx_v + k] = model.jointNames[i] + suffixes[k];
  }
  return names;
}

}  // namespace dyn
