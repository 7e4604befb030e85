// Points that bound the robot over its joint range, for framing it once at load: the corners of
// every geometry box (GeometryLayer::boxes) at configurations sampled within the joint limits, by
// the engine's forward kinematics. Each 1-dof joint swept alone from its lower to its upper limit
// (an arm raised straight up is one joint away from the home pose), then random configurations,
// within a budget of corner points. A floating base stays where it is now (`current`); spherical
// joints turn at random; models with closed loops keep their current pose (an open tree's random
// poses would tear the loops apart).
#pragma once
#include <vector>

#include "scene/geometry_layer.hpp"

namespace scene {

std::vector<Vec3> reachEnvelope(const dyn::Model& model, const dyn::Data& current,
                                const std::vector<GeometryLayer::Box>& boxes, size_t maxPoints = 400000);

// The same corners at given configurations (a trajectory's samples): what a motion sweeps.
std::vector<Vec3> sweptCorners(const dyn::Model& model, const std::vector<GeometryLayer::Box>& boxes,
                               const std::vector<Eigen::VectorXd>& configurations);

}  // namespace scene
