// A trajectory as samples: what the timeline scrubs, the plots draw and batch inverse dynamics
// runs through. Built by WaypointTrajectory::sample, demoTrajectory or readTrajectoryCsv.
#pragma once
#include "../model/model.hpp"

namespace dyn {

struct SampledTrajectory {
  Eigen::VectorXd t;        // n sample times, strictly increasing
  Eigen::MatrixXd q;        // nq x n
  Eigen::MatrixXd qd, qdd;  // nv x n (engine v coordinates)

  int samples() const { return int(t.size()); }
  double startTime() const { return t.size() ? t[0] : 0.0; }
  double endTime() const { return t.size() ? t[t.size() - 1] : 0.0; }

  // Throws std::invalid_argument when the sizes do not fit the model, t is not strictly
  // increasing or a value is not finite (naming the sample).
  void validate(const Model& model) const;

  // Index of the sample nearest to t (ties go to the earlier one); -1 when there are no samples.
  int nearestSample(double t) const;
  // The state at any t (clamped to the sample range), for the scrubber: q moves on the joint
  // manifolds between the neighbouring samples (integrate(q_k, s difference(q_k, q_k+1)), slerp for
  // quaternions), q̇ and q̈ are interpolated linearly. Exact at the samples. q has nq entries, qd
  // and qdd nv; no heap allocation.
  void interpolate(const Model& model, double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> qd,
                   Eigen::Ref<Eigen::VectorXd> qdd) const;
};

}  // namespace dyn
