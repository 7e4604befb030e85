// The 3D arrows of a trace state (lecture mode): the spatial quantities of each body turned into
// world 3-vectors at a point of the body (its COM or its frame origin), as a lecturer draws them:
//   w, v   angular velocity; linear velocity of the point
//   wd, a  angular acceleration; the point's classical acceleration (d/dt of its velocity), with the
//          fictitious base acceleration -a_g of gravity taken out again
//   n, f   force f and its moment n about the point (RNEA's f_i: I a + v x* I v, gravity included,
//          so on a lone body f = m a_c - m g)
//   pA     the ABA bias force (its force part), with its moment about the point
// Pure kinematics of the values the algorithm wrote (every formulation's, by the values' roles); the
// arrows are what the scene draws.
#pragma once
#include <string>
#include <vector>

#include "../model/data.hpp"
#include "algorithm_trace.hpp"

namespace dyn {

enum class ArrowKind {
  AngularVelocity,
  Velocity,
  AngularAcceleration,
  Acceleration,
  Moment,
  Force,
  BiasForce,
  BiasMoment,
  Count
};

// Unit of the arrow's quantity ("m/s", "rad/s²", "N", ...) and its name.
const char* arrowUnit(ArrowKind k);
const char* arrowName(ArrowKind k);
bool arrowIsAngular(ArrowKind k);

enum class ArrowPoint { CenterOfMass, FrameOrigin };

struct TraceArrow {
  int body = 0;
  ArrowKind kind = ArrowKind::Velocity;
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();  // world, metres
  Eigen::Vector3d vector = Eigen::Vector3d::Zero();  // world, in arrowUnit(kind)
  std::string quantity;  // the state's quantity it is drawn from ("v", "t", "Ẇ", ...): current when the step wrote it
};

// The point of body i the arrows start at, in world coordinates (data from forwardKinematics).
Eigen::Vector3d arrowPoint(const Model& model, const Data& data, int body, ArrowPoint point);

// Arrows of every body that has a velocity, acceleration, force or bias force in `state`, from the
// roles of its values (algorithm_trace.hpp: spatial vectors, DeNOC's twists and twist rates, the
// Newton-Euler 3-vectors, the Lagrangian W', W'' and p''), zero vectors included: the caller decides
// what to hide. data: forwardKinematics at the trace's q (X0 of every body; the Lagrangian base
// coordinates are the world's).
std::vector<TraceArrow> traceArrows(const Model& model, const Data& data, const TraceState& state,
                                    ArrowPoint point = ArrowPoint::CenterOfMass);

}  // namespace dyn
