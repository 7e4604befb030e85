// Pushing a body while simulating (issue 25): the spring-damper that pulls a grabbed point towards
// the cursor (or turns the body towards a dragged orientation), as an external wrench computed from
// the simulation's current state. Pure Eigen and engine: no Qt, no VTK, testable on its own.
//
// Gains scale with what the pull has to move: the mass (rotational inertia) of the grabbed body's
// subtree, i.e. the body and everything outboard it carries. Its own mass alone would make the
// upper arm of a loaded arm respond as sluggishly as a bare link; the subtree is also what moves
// first when the body's own joint gives. The spring is a mass-spring of natural frequency
// kFrequency, critically damped: k = m w^2, c = 2 m w (rotation: K = I_p w^2, C = 2 I_p w with I_p
// the subtree's rotational inertia about the grab point, world axes). The pull is capped at
// kMaxWeights times the subtree's weight (a cursor far off the robot must not fling it apart).
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>

#include "dynscope/algorithms/external_wrench.hpp"
#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"

namespace perturb {

constexpr double kFrequency = 2.0;         // Hz: the spring's natural frequency on the subtree's mass
constexpr double kMaxWeights = 5.0;        // the largest pull, in weights of the subtree
constexpr double kGravityFallback = 9.81;  // m/s^2: for the cap when the model has no gravity

struct Perturbation {
  enum class Kind { Force, Torque };
  Kind kind = Kind::Force;
  int body = 0;                                            // 1..N
  Eigen::Vector3d point = Eigen::Vector3d::Zero();         // the grabbed point, body coordinates
  Eigen::Vector3d target = Eigen::Vector3d::Zero();        // Force: where the point is pulled (world)
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  // Torque: the body's target orientation (world)
};

// The subtree's mass and its rotational inertia about world point p (world axes). Call
// forwardKinematics first.
struct SubtreeInertia {
  double mass = 0;
  Eigen::Matrix3d aboutPoint = Eigen::Matrix3d::Zero();
};
SubtreeInertia subtreeInertia(const dyn::Model& model, const dyn::Data& data, int body, const Eigen::Vector3d& p);

// The spring's pull on a point of mass m at p moving at v towards target: f = k (target - p) - c v,
// k = m w^2, c = 2 m w, |f| capped at kMaxWeights m g.
Eigen::Vector3d springForce(double mass, double g, const Eigen::Vector3d& p, const Eigen::Vector3d& v,
                            const Eigen::Vector3d& target);
// The rotational spring: M = I (w^2 e - 2 w omega), e the rotation vector from R to the target
// (world), |M| capped at kMaxWeights m g times the radius of gyration sqrt(lambda_max(I) / m).
Eigen::Vector3d springMoment(double mass, double g, const Eigen::Matrix3d& inertia, const Eigen::Matrix3d& R,
                             const Eigen::Vector3d& omega, const Eigen::Matrix3d& target);

// The wrench the perturbation applies at the state (q, qd): data gets forwardKinematics(q, qd).
// Force: at the grabbed point; Torque: a couple (force zero, the point kept for the arrow).
dyn::ExternalWrench perturbationWrench(const dyn::Model& model, dyn::Data& data, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& qd, const Perturbation& p);

// The world position of a body point (after forwardKinematics).
inline Eigen::Vector3d worldPoint(const dyn::Data& data, int body, const Eigen::Vector3d& point) {
  return data.X0[body].pointToA(point);
}

}  // namespace perturb
