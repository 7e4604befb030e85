// Inverse dynamics along a whole sampled trajectory, in parallel across samples, with the
// lecture decomposition, joint power and energy; and the effort-limit check for the plots.
//
//   tau = RNEA(q, q̇, q̈) = M(q) q̈ + c(q, q̇) + g(q)   with
//   g = RNEA(q, 0, 0),  c = RNEA(q, q̇, 0) - g,  M q̈ = tau - RNEA(q, q̇, 0)
// (RNEA is affine in q̈, so tau - RNEA(q, q̇, 0) is M q̈; taking it as the difference makes the
// three terms sum to tau up to rounding by construction).
// Closed-loop mechanisms (model.hasLoops()): tau is the actuator torque of the closed-loop inverse
// dynamics (dynscope/loops/loop_inverse_dynamics.hpp; zero on passive dofs) and the three terms are
// its parts, taken the same way; the trajectory must be consistent (closeTrajectory).
//
// Forces from outside (a recorded simulation with a push or ground contact, options.tauExternal =
// J^T f per sample): RNEA(q, q̇, q̈) is then what the joints and the outside give together, so the
// joints give tau = M q̈ + c + g - J^T f, and the decomposition has a fourth term, external = -J^T f.
// Without tauExternal the results are exactly those of the three-term decomposition.
#pragma once
#include <atomic>
#include <functional>
#include <vector>

#include "../model/model.hpp"
#include "sampled_trajectory.hpp"

namespace dyn {

struct TrajectoryDynamicsOptions {
  bool decompose = false;  // fill inertial, coriolis, gravity (three RNEA calls per sample instead of one)
  bool energy = true;      // fill kinetic, potential, total (computeEnergy: one more pass per sample)
  int threads = 0;         // worker threads; 0 = std::thread::hardware_concurrency()
  // Optional external force on each body (N + 1 entries, link coordinates), the same at every
  // sample; enters tau only, so it cannot be combined with decompose.
  const std::vector<Force<double>>* fext = nullptr;
  // Optional joint forces from outside, nv x n (J^T f per sample, e.g. SimulationRecord::externalTorques()):
  // tau is the joints' share RNEA - J^T f, and with decompose `external` = -J^T f is filled. Not for
  // closed loops, nor together with fext. With tauGiven, out.tau must already be the joints' share.
  const Eigen::MatrixXd* tauExternal = nullptr;
  // Called on the calling thread with the fraction of samples done (0..1], after each chunk.
  std::function<void(double)> progress = nullptr;
  // Checked before each chunk; when it becomes true the run stops early and `cancelled` is set.
  const std::atomic<bool>* cancel = nullptr;
  // `out.tau` already holds tau for this model and trajectory (an earlier run): it is kept, not
  // recomputed, so adding the decomposition later costs two RNEA calls per sample, not three.
  bool tauGiven = false;
};

struct TrajectoryDynamics {
  Eigen::MatrixXd tau;                          // nv x n
  Eigen::MatrixXd power;                        // nv x n: tau_i q̇_i, the power delivered by each joint
  Eigen::MatrixXd inertial, coriolis, gravity;  // nv x n with decompose (else empty): M q̈, c, g
  Eigen::MatrixXd external;                     // nv x n with decompose and tauExternal (else empty): -J^T f
  Eigen::VectorXd kinetic, potential, total;    // n with energy (else empty)
  bool cancelled = false;                       // the run was cancelled: the results are incomplete
};

// Throws std::invalid_argument when the trajectory does not fit the model (sizes), decompose is
// combined with fext, tauExternal has the wrong size or comes with fext or closed loops, or tauGiven with an out.tau of
// the wrong size. Reuses the storage of `out` when the sizes are unchanged.
void computeTrajectoryDynamics(const Model& model, const SampledTrajectory& trajectory,
                               const TrajectoryDynamicsOptions& options, TrajectoryDynamics& out);
TrajectoryDynamics computeTrajectoryDynamics(const Model& model, const SampledTrajectory& trajectory,
                                             const TrajectoryDynamicsOptions& options = {});

// Per dof (nv entries): the sample indices where |tau| exceeds the model's effort limit; empty
// for dofs without a finite limit.
struct EffortLimitViolations {
  std::vector<std::vector<int>> samples;
  int count() const {
    int c = 0;
    for (const auto& s : samples) c += int(s.size());
    return c;
  }
};
EffortLimitViolations effortLimitViolations(const Model& model, const Eigen::MatrixXd& tau);

}  // namespace dyn
