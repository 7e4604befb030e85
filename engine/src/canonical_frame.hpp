// The model builder's canonical joint frames (z along the joint axis), shared by the tree joints
// (model_builder.cpp) and the loop-closure joints (loop_closures.cpp).
#pragma once
#include <algorithm>
#include <cmath>

#include "dynscope/spatial/scalar.hpp"

namespace dyn {

// A rotation (vector-rotating) whose third column is the unit vector u; identity when u = z.
inline Mat3<double> rotationTakingZTo(const Vec3<double>& u) {
  const Vec3<double> z = Vec3<double>::UnitZ();
  const double c = z.dot(u);
  if (c > 1 - 1e-15) return Mat3<double>::Identity();
  if (c < -1 + 1e-15) return Vec3<double>(1, -1, -1).asDiagonal();  // half turn about x
  const Vec3<double> k = z.cross(u).normalized();
  return rotAxis<double>(k, std::acos(std::clamp(c, -1.0, 1.0))).transpose();
}

}  // namespace dyn
