// A payload rigidly attached to a link: a point mass at an offset from the link's own frame.
#pragma once
#include <string>

#include "../model/model.hpp"

namespace dyn {

struct Payload {
  std::string link;                               // a model frame: any URDF link, or a DH frame such as tool
  double mass = 0;                                // kg, >= 0
  Eigen::Vector3d com = Eigen::Vector3d::Zero();  // position of the mass in the link's frame, m
};

// A copy of model with the payload's spatial inertia mcI(m, c, 0) added to the body that carries
// the link's frame (c converted from the link frame to the body frame through the frame placement).
// Throws std::invalid_argument for an unknown link, a link fixed to the base (it would change no
// joint force), a negative, NaN or infinite mass, or a non-finite offset.
Model withPayload(const Model& model, const Payload& payload);

}  // namespace dyn
