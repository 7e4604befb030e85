// The classical formulations (Saha's DeNOC, Hollerbach's Lagrangian family, the 3-vector
// Newton-Euler of Luh, Walker and Paul) are written for one-degree-of-freedom revolute and
// prismatic joints, as in their papers. They run on serial chains and branched trees of such
// joints and refuse any other model here, naming the joint and the formulation. Nor do their papers
// have rotor inertia: a model with armature (MJCF) is refused too, rather than given an H that
// differs from CRBA's by diag(armature).
#pragma once
#include <stdexcept>
#include <string>

#include "../model/model.hpp"

namespace dyn {

// Throws std::invalid_argument "<formulation> handles revolute and prismatic joints only: joint 'x'
// is spherical" for the first joint of another type.
template <class S>
void requireRevolutePrismatic(const ModelTpl<S>& model, const char* formulation) {
  for (int i = 1; i <= model.N; ++i) {
    const JointType t = model.joints[i].type;
    if (t == JointType::Revolute || t == JointType::Prismatic) continue;
    throw std::invalid_argument(std::string(formulation) + " handles revolute and prismatic joints only: joint '" +
                                model.jointNames[i] + "' is " + jointTypeName(t) +
                                (model.floatingBase && i == 1 ? " (the floating base)" : ""));
  }
  for (Eigen::Index k = 0; k < model.armature.size(); ++k)
    if (model.armature[k] != S(0))
      throw std::invalid_argument(std::string(formulation) + " has no rotor inertia (armature), which joint '" +
                                  model.jointNames[size_t(model.dofBody[size_t(k)])] +
                                  "' has: RNEA, CRBA and ABA include it");
}

}  // namespace dyn
