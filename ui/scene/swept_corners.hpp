// What a motion sweeps, for framing it: the corners of every geometry box (GeometryLayer::boxes)
// at the motion's configurations, by the engine's forward kinematics.
#pragma once
#include <vector>

#include "scene/geometry_layer.hpp"

namespace scene {

// The corners at given configurations (a trajectory's samples).
std::vector<Vec3> sweptCorners(const dyn::Model& model, const std::vector<GeometryLayer::Box>& boxes,
                               const std::vector<Eigen::VectorXd>& configurations);

}  // namespace scene
