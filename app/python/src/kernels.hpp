// The engine calls behind the Python functions, compiled at the engine's optimisation (the binding
// glue is not): one state at a time on a caller's Data, or many states (rows) spread over threads,
// each with its own Data. No Python here: the batched calls run with the GIL released.
#pragma once
#include <Eigen/Core>
#include <vector>

#include "dynscope/algorithms/jacobian.hpp"
#include "dynscope/model/data.hpp"

namespace pyd::kernels {

using CVec = Eigen::Map<const Eigen::VectorXd>;
using Fext = std::vector<dyn::Force<double>>;

const Eigen::VectorXd& rnea(const dyn::Model& m, dyn::Data& d, CVec q, CVec qd, CVec qdd, const Fext* fext);
const Eigen::VectorXd& aba(const dyn::Model& m, dyn::Data& d, CVec q, CVec qd, CVec tau, const Fext* fext);
const Eigen::VectorXd& forwardDynamicsCrba(const dyn::Model& m, dyn::Data& d, CVec q, CVec qd, CVec tau,
                                           const Fext* fext);
const Eigen::MatrixXd& crba(const dyn::Model& m, dyn::Data& d, CVec q);
const Eigen::VectorXd& nonLinearEffects(const dyn::Model& m, dyn::Data& d, CVec q, CVec qd);
const Eigen::VectorXd& gravityVector(const dyn::Model& m, dyn::Data& d, CVec q);
// Forward kinematics (with velocities when qd is given) and every frame's pose (d.oMf).
void kinematics(const dyn::Model& m, dyn::Data& d, CVec q, const CVec* qd);
const dyn::Mat6X<double>& jacobian(const dyn::Model& m, dyn::Data& d, CVec q, int frame, dyn::ReferenceFrame ref);
// d.kinetic, d.potential, d.com.
void energy(const dyn::Model& m, dyn::Data& d, CVec q, CVec qd);

// What a batched call computes for each row.
enum class Batched {
  Rnea,       // a, b, c = Q, QD, QDD; out row: tau (nv)
  Aba,        // Q, QD, TAU; qdd (nv)
  FdCrba,     // Q, QD, TAU; qdd (nv)
  Crba,       // Q; H (nv x nv)
  Nle,        // Q, QD; C(q, qd) qd + g (nv)
  Gravity,    // Q; g (nv)
  FramePose,  // Q; frame's 4 x 4 pose in the world (frame = extra)
  Jacobian,   // Q; 6 x nv (frame = extra, reference frame = extra2)
};
// Rows 0..n-1 of the inputs (row-major, nq or nv columns) into out (row-major). threads <= 0: every
// core. Throws the first row's error, naming the row ("state 17: ...").
void batch(Batched what, const dyn::Model& m, Eigen::Index n, const double* a, const double* b, const double* c,
           double* out, int threads, int extra = 0, int extra2 = 0);
// The threads a batch of n rows would use.
int batchThreads(Eigen::Index n, int threads);

}  // namespace pyd::kernels
