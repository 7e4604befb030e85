// Composite-rigid-body algorithm (Featherstone Part 2, Fig. 7, eqs. 44-48): the joint-space
// inertia matrix H. Only the structurally non-zero entries (i ancestor of j or j of i) are
// written: the branch-induced zeros (eq. 45, third case) stay zero from M's allocation.
#pragma once
#include "../trace/trace_policy.hpp"
#include "kinematics.hpp"

namespace dyn {

// H_ij = H_ji = f^T S_j for the six columns of a free joint's S = 1 (j its first dof): f itself.
// Out of line, f by value: in the column walk's loop anything else made GCC keep f in memory.
template <class S>
[[gnu::noinline]] void storeFreeJointRow(MatX<S>& M, int row, int j, Force<S> f) {
  for (int l = 0; l < 3; ++l) {
    M(row, j + l) = M(j + l, row) = f.n[l];
    M(row, j + 3 + l) = M(j + 3 + l, row) = f.f[l];
  }
}

// trace: see trace/trace_policy.hpp (a composite-inertia step and a column walk per body).
template <class S, class Q, class Trace = NoTrace>
const MatX<S>& crba(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                    Trace&& trace = Trace{}) {
  trace.begin(TraceAlgorithm::Crba, q);
  data.reserveMassMatrix();  // nv x nv, allocated on the first call only
  jointTransforms(model, data, q, trace);  // Xup, S
  for (int i = 1; i <= model.N; ++i) data.IC[i] = model.I[i];  // IC_i = I_i
  for (int i = model.N; i >= 1; --i) {
    const int lambda = model.parent[i];
    if (lambda > 0) {
      data.IC[lambda] += data.IC[i].transformToA(data.Xup[i]);  // IC_l += l_X_i^* IC_i i_X_l (eq. 46)
      trace.step(StepKind::CrbaComposite, i);
    }
    const JointModel<S>& Ji = model.joints[i];
    for (int k = 0; k < Ji.nv; ++k) {
      const int row = Ji.idx_v + k;
      Force<S> F = inertiaTimesS(Ji, data.IC[i], data.S[row]);      // f = IC_i S_i
      trace.local("f", i, F);
      for (int l = 0; l < Ji.nv; ++l) data.M(Ji.idx_v + l, row) = projectForce(Ji, data.S[Ji.idx_v + l], F);  // H_ii = f^T S_i
      for (int j = i; model.parent[j] > 0;) {
        F = data.Xup[j].applyTranspose(F);                          // f = l(j)_X_j^* f   (eq. 47)
        j = model.parent[j];
        trace.local("f", j, F);
        const JointModel<S>& Jj = model.joints[j];
        if (Jj.type == JointType::Floating) {  // S_j = 1: H_ij = f (a free-flyer root: every walk ends here)
          storeFreeJointRow(data.M, row, Jj.idx_v, F);
          continue;
        }
        for (int l = 0; l < Jj.nv; ++l) {
          const S Hij = projectForce(Jj, data.S[Jj.idx_v + l], F);  // H_ij = f^T S_j, H_ji = H_ij (eq. 48)
          data.M(row, Jj.idx_v + l) = Hij;
          data.M(Jj.idx_v + l, row) = Hij;
        }
      }
    }
    trace.step(StepKind::CrbaColumn, i);
  }
  // Rotor inertia (armature) on the diagonal, as MuJoCo adds it (model.hpp); empty for most models.
  for (Eigen::Index k = 0; k < model.armature.size(); ++k) data.M(k, k) += model.armature[k];
  return data.M;
}

}  // namespace dyn
