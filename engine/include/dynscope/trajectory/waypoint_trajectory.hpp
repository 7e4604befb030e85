// Joint-space trajectories through waypoints (t_k, q_k). Every kind works in velocity coordinates:
// a segment is q(t) = integrate(q_k, u(t)) with u in the tangent space at q_k, so spherical and
// floating joints move on their manifolds (a 2-waypoint spherical segment is slerp) and q̇, q̈ are
// in the engine's v coordinates (size nv), exact (no finite differences).
//
// - Quintic: rest-to-rest quintic per segment, u = s(t) difference(q_k, q_k+1); q̇ = q̈ = 0 at every
//   waypoint; C² everywhere.
// - Trapezoidal: rest-to-rest trapezoidal velocity per segment (accelerate during `trapezoidFraction`
//   of the segment, coast, decelerate); q̇ = 0 at every waypoint, C¹, q̈ jumps at the phase changes
//   (at a waypoint it is the value of the segment that starts there).
// - CubicSpline: one C² cubic spline through all waypoints, clamped to zero velocity at both ends;
//   the end accelerations are NOT zero (use Quintic for that), and the waypoints in between are
//   passed without stopping. The spline runs through the accumulated displacements
//   U_k = U_k-1 + difference(q_k-1, q_k); on joints whose configuration space is flat (revolute,
//   prismatic, helical, planar) q = q_k + U(t) - U_k exactly. Spherical and floating joints take the
//   spline's U'(t_k), U''(t_k) as their body velocity and acceleration at each waypoint and follow,
//   in each segment's chart, the quintic that matches them at both ends through the exact
//   exponential-map Jacobian: so the motion is C² on the manifold, not only in the chart.
//
// Revolute joints, continuous ones included, interpolate linearly in their angle as written (no
// wrapping to the short way): waypoints at 350° and 10° turn back through 180°; write 370° for the
// short way. Multi-turn motions stay expressible that way.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "../model/model.hpp"

namespace dyn {

enum class Interpolation { Quintic, Trapezoidal, CubicSpline };

// "quintic", "trapezoidal", "cubic-spline".
const char* interpolationName(Interpolation kind);
std::optional<Interpolation> interpolationByName(std::string_view name);

struct Waypoint {
  double t = 0;
  Eigen::VectorXd q;  // nq entries
};

struct SampledTrajectory;

class WaypointTrajectory {
 public:
  // Throws std::invalid_argument naming the waypoint (1-based) for: fewer than 2 waypoints, times
  // not strictly increasing, a q of the wrong size, NaN/inf, a zero quaternion; and for a
  // trapezoidFraction outside (0, 1/2].
  WaypointTrajectory(const Model& model, std::vector<Waypoint> waypoints, Interpolation kind,
                     double trapezoidFraction = 1.0 / 3.0);

  Interpolation interpolation() const { return kind_; }
  const std::vector<Waypoint>& waypoints() const { return waypoints_; }
  double startTime() const { return waypoints_.front().t; }
  double endTime() const { return waypoints_.back().t; }
  int nq() const { return skeleton_.nq; }
  int nv() const { return skeleton_.nv; }

  // q, q̇, q̈ at t, clamped to [startTime, endTime]. q must have nq entries, qd and qdd nv; no
  // heap allocation (safe to call from several threads at once).
  void evaluate(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> qd,
                Eigen::Ref<Eigen::VectorXd> qdd) const;

  // Samples at startTime + k / rate, plus endTime when the duration is not a multiple of 1/rate.
  // Throws std::invalid_argument when rate is not positive or would give more than 10^7 samples.
  SampledTrajectory sample(double rate) const;

 private:
  int segment(double t) const;

  Model skeleton_;  // the joints of the model (all integrate/difference need), without inertias or geometry
  std::vector<Waypoint> waypoints_;
  Eigen::VectorXd times_;
  Interpolation kind_;
  double trapezoidFraction_;
  Eigen::MatrixXd delta_;          // nv x segments: difference(q_k, q_k+1)
  Eigen::MatrixXd coefficients_;   // CubicSpline: nv x 6 per segment, the chart quintic in x = (t - t_k)/h
  std::vector<int> curvedJoints_;  // spherical and floating joints (their chart is not flat)
};

}  // namespace dyn
