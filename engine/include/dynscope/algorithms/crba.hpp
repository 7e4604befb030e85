// Composite-rigid-body algorithm (Featherstone Part 2, Fig. 7, eqs. 44-48): the joint-space
// inertia matrix H. Only the structurally non-zero entries (i ancestor of j or j of i) are
// written: the branch-induced zeros (eq. 45, third case) stay zero from M's allocation.
#pragma once
#include "../trace/trace_policy.hpp"
#include "kinematics.hpp"

namespace dyn {

// trace: see trace/trace_policy.hpp (a composite-inertia step and a column walk per body).
template <class S, class Q, class Trace = NoTrace>
const MatX<S>& crba(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                    Trace&& trace = Trace{}) {
  trace.begin(TraceAlgorithm::Crba, q);
  data.reserveMassMatrix();                                    // nv x nv, allocated on the first call only
  jointTransforms(model, data, q, trace);                      // Xup, S
  for (int i = 1; i <= model.N; ++i) data.IC[i] = model.I[i];  // IC_i = I_i
  for (int i = model.N; i >= 1; --i) {
    const int lambda = model.parent[i];
    if (lambda > 0) {
      data.IC[i].addTransformedToA(data.Xup[i], data.IC[lambda]);  // IC_l += l_X_i^* IC_i i_X_l (eq. 46)
      trace.step(StepKind::CrbaComposite, i);
    }
    const JointModel<S>& Ji = model.joints[i];
    for (int k = 0; k < Ji.nv; ++k) {
      const int row = Ji.idx_v + k;
      Force<S> F = inertiaTimesS(Ji, data.IC[i], data.S[row]);  // f = IC_i S_i
      trace.local("f", i, F);
      for (int l = 0; l < Ji.nv; ++l)
        data.M(Ji.idx_v + l, row) = projectForce(Ji, data.S[Ji.idx_v + l], F);  // H_ii = f^T S_i
      // f as six scalars: held in a Force, GCC kept it on the stack, written with scalar stores and read
      // back with wide loads, a store-forwarding stall on every step of the walk (docs/benchmarks.md).
      S n0 = F.n.x(), n1 = F.n.y(), n2 = F.n.z(), f0 = F.f.x(), f1 = F.f.y(), f2 = F.f.z();
      for (int j = i; model.parent[j] > 0;) {
        {  // f = l(j)_X_j^* f = [E^T n + r x E^T f; E^T f]   (eq. 47)
          const Transform<S>& X = data.Xup[j];
          const S* E = X.E.data();  // column k of E: E[3k], E[3k+1], E[3k+2]
          const S g0 = E[0] * f0 + E[1] * f1 + E[2] * f2, g1 = E[3] * f0 + E[4] * f1 + E[5] * f2,
                  g2 = E[6] * f0 + E[7] * f1 + E[8] * f2;
          const S r0 = X.r.x(), r1 = X.r.y(), r2 = X.r.z();
          const S t0 = (r1 * g2 - r2 * g1) + E[0] * n0 + E[1] * n1 + E[2] * n2;
          const S t1 = (r2 * g0 - r0 * g2) + E[3] * n0 + E[4] * n1 + E[5] * n2;
          const S t2 = (r0 * g1 - r1 * g0) + E[6] * n0 + E[7] * n1 + E[8] * n2;
          n0 = t0, n1 = t1, n2 = t2;
          f0 = g0, f1 = g1, f2 = g2;
        }
        j = model.parent[j];
        const JointModel<S>& Jj = model.joints[j];
        trace.local("f", j, Force<S>(Vec3<S>(n0, n1, n2), Vec3<S>(f0, f1, f2)));
        if (Jj.type == JointType::Revolute) {  // H_ij = H_ji = f^T S_j = n_z   (eq. 48)
          data.M(row, Jj.idx_v) = data.M(Jj.idx_v, row) = n2;
          continue;
        }
        if (Jj.type == JointType::Floating) {  // S_j = 1: H_ij = f (a free-flyer root: every walk ends here)
          const int c = Jj.idx_v;
          data.M(row, c) = data.M(c, row) = n0;
          data.M(row, c + 1) = data.M(c + 1, row) = n1;
          data.M(row, c + 2) = data.M(c + 2, row) = n2;
          data.M(row, c + 3) = data.M(c + 3, row) = f0;
          data.M(row, c + 4) = data.M(c + 4, row) = f1;
          data.M(row, c + 5) = data.M(c + 5, row) = f2;
          continue;
        }
        const Force<S> Fj(Vec3<S>(n0, n1, n2), Vec3<S>(f0, f1, f2));
        for (int l = 0; l < Jj.nv; ++l) {
          const S Hij = projectForce(Jj, data.S[Jj.idx_v + l], Fj);  // H_ij = f^T S_j, H_ji = H_ij (eq. 48)
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
