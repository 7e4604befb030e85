// Articulated-body algorithm (Featherstone Part 2, Fig. 9, eqs. 49-68): forward dynamics
// qdd = FD(q, qd, tau) in O(N), three passes, in link coordinates as Fig. 9 writes it. Each body's
// quantities are expressed in its own frame, where the joint axis is z: S_i selects a column
// (U_i = IA_i S_i is a column of IA_i, D_i one entry, S_i^T pA_i one component), and the numbers
// stay the size of the body, wherever it is. (The world-coordinate form of the Orin-Featherstone
// review, eqs. 12-14, saves the congruence X^T Ia X but carries every inertia to frame 0: a body
// 1e5 m out has entries m |p|^2 = 1e10 m, and q̈ lost up to ten digits there; docs/benchmarks.md.)
// A free joint (S = 1) is one 6-dof block: U = IA, D = IA, solved with its 6x6 Cholesky factor.
#pragma once
#include "../trace/trace_policy.hpp"
#include "kinematics.hpp"
#include "pivot_check.hpp"

namespace dyn {

// The Cholesky factor D = L L^T of a free joint's D_i (6x6, S = 1), refused as H singular at the first
// pivot not above the rounding floor (pivotFloorFromTrace; S's columns are unit vectors). Written out for
// the fixed size: Eigen's LLT with a matrix right-hand side took the blocked path, a third of the
// quadruped's ABA. A NaN pivot passes (the inputs are at fault, pivot_check.hpp).
template <class S>
void factorFreeJointInertia(const ModelTpl<S>& model, int i, const Mat6<S>& D, Mat6<S>& L) {
  using std::sqrt;
  const S floor = pivotFloorFromTrace(D);
  for (int j = 0; j < 6; ++j) {
    S pivot = D(j, j);  // the Schur complement's diagonal: firstNonPositivePivot's pivot
    for (int k = 0; k < j; ++k) pivot -= L(j, k) * L(j, k);
    if (pivot <= floor) refuseNonPositivePivot(model, i, pivotUpToRounding(pivot, floor), PivotSource::Aba, j);
    L(j, j) = sqrt(pivot);
    const S inv = S(1) / L(j, j);
    for (int r = j + 1; r < 6; ++r) {
      S x = D(r, j);
      for (int k = 0; k < j; ++k) x -= L(r, k) * L(j, k);
      L(r, j) = x * inv;
    }
  }
}

// x = D^-1 b with D = L L^T: forward then back substitution.
template <class S>
Vec6<S> solveFreeJoint(const Mat6<S>& L, Vec6<S> b) {
  for (int j = 0; j < 6; ++j) {
    for (int k = 0; k < j; ++k) b[j] -= L(j, k) * b[k];
    b[j] /= L(j, j);
  }
  for (int j = 5; j >= 0; --j) {
    for (int k = j + 1; k < 6; ++k) b[j] -= L(k, j) * b[k];
    b[j] /= L(j, j);
  }
  return b;
}

// Ia c_i. For a revolute joint c_i = v_i x e_z qd_i has no z components (angular or linear): four
// columns of Ia instead of six.
template <class S>
DYN_INLINE Force<S> articulatedTimesBias(const JointModel<S>& J, const Mat6<S>& Ia, const Motion<S>& c) {
  if (J.type != JointType::Revolute) return Ia * c;
  Vec6<S> x;
  x.noalias() = Ia.col(0) * c.w.x();
  x.noalias() += Ia.col(1) * c.w.y();
  x.noalias() += Ia.col(3) * c.v.x();
  x.noalias() += Ia.col(4) * c.v.y();
  return Force<S>::fromVector(x);
}

// Pass 2 of a free joint (S = 1): U_i = IA_i, D_i = IA_i (+ armature) factored once, u_i; false for a root
// (nothing passed on), else Ia_i (in place) and pa_i.
template <class S, class T>
[[gnu::noinline]] bool abaFreeJointInertias(const ModelTpl<S>& model, DataTpl<S>& data, int i,
                                            const Eigen::MatrixBase<T>& tau, Force<S>& pa) {
  const int iv = model.joints[i].idx_v;
  Mat6<S>& Ia = data.IA[i];
  Mat6<S> D = Ia;
  if (model.armature.size()) D.diagonal() += model.armature.template segment<6>(iv);
  factorFreeJointInertia(model, i, D, data.Lfree[i]);  // D_i = L L^T
  for (int k = 0; k < 6; ++k) data.U[iv + k] = Force<S>::fromVector(Ia.col(k));
  data.u.template segment<6>(iv) = tau.template segment<6>(iv) - data.pA[i].toVector();  // u_i = tau_i - pA_i
  if (model.parent[i] == 0) return false;
  Mat6<S> UD;  // U D^-1 = (D^-1 U^T)^T, D and U^T = IA symmetric
  for (int k = 0; k < 6; ++k) UD.row(k) = solveFreeJoint(data.Lfree[i], Vec6<S>(Ia.col(k))).transpose();
  Ia -= UD * Ia;  // Ia = IA - U D^-1 U^T (0 without armature: a free joint transmits no inertia)
  pa = data.pA[i] + Ia * data.c[i] + Force<S>::fromVector(UD * data.u.template segment<6>(iv));
  return true;
}

// Pass 2 of a planar, spherical or helical joint: the columns of S as they are. As abaFreeJointInertias.
template <class S, class T>
[[gnu::noinline]] bool abaMultiDofInertias(const ModelTpl<S>& model, DataTpl<S>& data, int i,
                                           const Eigen::MatrixBase<T>& tau, Force<S>& pa) {
  const JointModel<S>& J = model.joints[i];
  const int iv = J.idx_v;
  Mat6<S>& Ia = data.IA[i];
  Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> Um(6, J.nv);
  SmallMat<S> D(J.nv, J.nv);
  for (int k = 0; k < J.nv; ++k) {
    data.U[iv + k] = Ia * data.S[iv + k];  // U_i = IA_i S_i
    Um.col(k) = data.U[iv + k].toVector();
    data.u[iv + k] = S(tau[iv + k]) - data.S[iv + k].dot(data.pA[i]);  // u_i = tau_i - S_i^T pA_i
  }
  for (int k = 0; k < J.nv; ++k)
    for (int l = 0; l < J.nv; ++l) D(k, l) = data.S[iv + k].dot(data.U[iv + l]);  // D_i = S_i^T U_i
  if (model.armature.size())
    for (int k = 0; k < J.nv; ++k) D(k, k) += model.armature[iv + k];
  SmallVec<S> floor(J.nv);
  for (int k = 0; k < J.nv; ++k) floor[k] = pivotFloor(Ia, data.S[iv + k]);
  S pivot;
  if (const int k = firstNonPositivePivot(D, floor, &pivot); k >= 0)  // D_i singular or not positive definite
    refuseNonPositivePivot(model, i, pivotUpToRounding(pivot, floor[k]), PivotSource::Aba, k);
  data.Dinv[i] = D.inverse();
  if (model.parent[i] == 0) return false;
  const Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> UD = Um * data.Dinv[i];
  Ia -= UD * Um.transpose();  // Ia = IA - U D^-1 U^T
  pa = data.pA[i] + Ia * data.c[i] + Force<S>::fromVector(UD * data.u.segment(iv, J.nv));
  return true;
}

// The three passes are separate functions (not inlined): as one, the function outgrew GCC's inlining
// budget, and small helpers (Transform::apply, Eigen's 3x3 products) became calls whose results came back
// through memory (store-forwarding stalls); how much depended on the caller (docs/benchmarks.md).

// Pass 1: velocities, bias accelerations, rigid-body terms.
template <class S, class Q, class V, class Trace>
[[gnu::noinline]] void abaPass1(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                                const Eigen::MatrixBase<V>& qd, const std::vector<Force<S>>* fext, Trace& trace) {
  data.v[0].setZero();
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v, lambda = model.parent[i];
    {
      const OpCountScope<S> jointWork(OpCategory::JointTransforms);
      jcalcPosition(J, q, model.Xtree[i], data.Xup[i], &data.S[iv]);  // i_X_l = XJ X_T (eq. 14)
    }
    jcalcVelocity(J, &data.S[iv], qd, data.vJ[i], data.cJ[i]);  // vJ = S_i qd_i, cJ = Sdot_i qd_i
    if (lambda > 0)
      data.v[i] = data.Xup[i].apply(data.v[lambda]) + data.vJ[i];  // v_i = i_X_l v_l + vJ   (eq. 9)
    else
      data.v[i] = data.vJ[i];
    data.c[i] = data.cJ[i] + crossJointVelocity(J, data.v[i], data.vJ[i]);  // c_i = cJ + v_i x vJ   (eq. 55)
    const Inertia<S>& I = model.I[i];
    data.IA[i] = I.toMatrix();                         // IA_i = I_i
    data.pA[i] = data.v[i].crossForce(I * data.v[i]);  // pA_i = v_i x* I_i v_i   (eq. 54)
    if (fext) data.pA[i] -= (*fext)[i];                //        - f_ext,i
    trace.step(StepKind::AbaVelocities, i);
  }
}

// Pass 2: articulated inertias and bias forces, leaves to root.
template <class S, class T, class Trace>
[[gnu::noinline]] void abaPass2(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<T>& tau,
                                Trace& trace) {
  for (int i = model.N; i >= 1; --i) {
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v, lambda = model.parent[i];
    Mat6<S>& Ia = data.IA[i];  // IA_i, then Ia_i in place
    Force<S> pa;
    if (J.nv == 1) {
      const Force<S> U = data.U[iv] = inertiaTimesS(J, Ia, data.S[iv]);  // U_i = IA_i S_i   (a column)
      S D = projectForce(J, data.S[iv], U);                              // D_i = S_i^T U_i (+ armature)
      if (model.armature.size()) D += model.armature[iv];
      const bool unit = J.type == JointType::Revolute || J.type == JointType::Prismatic;  // |S| = 1
      if (const S floor = unit ? pivotFloorFromTrace(Ia) : pivotFloorFromTrace(Ia, data.S[iv]); D <= floor)
        refuseNonPositivePivot(model, i, pivotUpToRounding(D, floor), PivotSource::Aba);
      const S dinv = data.Dinv[i](0, 0) = S(1) / D;                                   // D_i^-1
      const S u = data.u[iv] = S(tau[iv]) - projectForce(J, data.S[iv], data.pA[i]);  // u_i = tau_i - S_i^T pA_i
      // Pass 3's eq. 67 with a'_i = i_X_l a_l + c_i expanded, from two parts ready here:
      // qdd_i = D^-1 (u_i - U_i^T c_i) - UDl_i^T a_l, UDl_i = l_X_i^* U_i D^-1
      // (pass 3's chain from a_l to a_i then has no dot product with a'_i and no multiplication by D^-1).
      data.qdd0[iv] = (u - U.dot(data.c[i])) * dinv;
      data.UDl[iv] = data.Xup[i].applyTranspose(U * dinv);
      if (lambda == 0) {
        trace.step(StepKind::AbaInertias, i);
        continue;
      }
      const Vec6<S> Uv = U.toVector();
      if (J.type == JointType::Revolute && !(model.armature.size() && model.armature[iv] != 0)) {
        // Eqs. 62-64 scaled by D: D Ia = D IA - U U^T, pa = pA + D^-1 (D Ia c + U u),
        // IA_l += D^-1 l_X_i^* (D Ia) i_X_l: the division runs beside the congruence, not before it.
        for (int k = 0; k < 6; ++k) Ia.col(k) = D * Ia.col(k) - Uv * Uv[k];  // D Ia (row and column 2 zero)
        pa = data.pA[i] + (articulatedTimesBias(J, Ia, data.c[i]) + U * u) * dinv;
        trace.local("pa", i, pa);
        addCongruenceToAFreeZ(data.Xup[i], Ia, dinv, data.IA[lambda]);  // IA_l += l_X_i^* Ia_i i_X_l  (eq. 64)
        data.pA[lambda] += data.Xup[i].applyTranspose(pa);              // pA_l += l_X_i^* pa_i   (eq. 65)
        trace.step(StepKind::AbaInertias, i);
        continue;
      }
      Ia.noalias() -= (Uv * dinv) * Uv.transpose();                               // Ia = IA - U D^-1 U^T   (eq. 62)
      pa = data.pA[i] + articulatedTimesBias(J, Ia, data.c[i]) + U * (u * dinv);  // pa = pA + Ia c + U D^-1 u (eq. 63)
    } else if (!(J.type == JointType::Floating ? abaFreeJointInertias(model, data, i, tau, pa)
                                               : abaMultiDofInertias(model, data, i, tau, pa))) {
      trace.step(StepKind::AbaInertias, i);  // a root: nothing passed on
      continue;
    }
    trace.local("pa", i, pa);
    data.IA[lambda] += congruenceToA(data.Xup[i], Ia);  // IA_l += l_X_i^* Ia_i i_X_l   (eq. 64)
    data.pA[lambda] += data.Xup[i].applyTranspose(pa);  // pA_l += l_X_i^* pa_i   (eq. 65)
    trace.step(StepKind::AbaInertias, i);
  }
}

// Pass 3: accelerations, root to leaves.
template <class S, class Trace>
[[gnu::noinline]] void abaPass3(const ModelTpl<S>& model, DataTpl<S>& data, Trace& trace) {
  data.a[0] = -model.gravity;  // a_0 = -a_g
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v;
    const Motion<S>& al = data.a[model.parent[i]];
    const Motion<S> ap = data.Xup[i].apply(al) + data.c[i];  // a'_i = i_X_l a_l + c_i (eq. 66)
    trace.local("a'", i, ap);
    Motion<S>& a = data.a[i] = ap;
    if (J.nv == 1) {
      const S qdd = data.qdd[iv] = data.qdd0[iv] - data.UDl[iv].dot(al);  // qdd_i = D^-1 (u_i - U_i^T a'_i) (eq. 67)
      if (J.type == JointType::Revolute)                                  // a_i = a'_i + S_i qdd_i   (eq. 68)
        a.w.z() += qdd;
      else if (J.type == JointType::Prismatic)
        a.v.z() += qdd;
      else
        a += data.S[iv] * qdd;
    } else if (J.type == JointType::Floating) {
      Vec6<S> r;
      for (int k = 0; k < 6; ++k) r[k] = data.u[iv + k] - data.U[iv + k].dot(ap);
      data.qdd.template segment<6>(iv) = solveFreeJoint(data.Lfree[i], r);  // eq. 67, D_i = L L^T
      a += Motion<S>::fromVector(data.qdd.template segment<6>(iv));         // S = 1
    } else {
      SmallVec<S> r(J.nv);
      for (int k = 0; k < J.nv; ++k) r[k] = data.u[iv + k] - data.U[iv + k].dot(ap);
      data.qdd.segment(iv, J.nv) = data.Dinv[i] * r;  // eq. 67
      for (int k = 0; k < J.nv; ++k) a += data.S[iv + k] * data.qdd[iv + k];
    }
    trace.step(StepKind::AbaAccelerations, i);
  }
}

// trace: see trace/trace_policy.hpp (one step per body in each of the three passes).
template <class S, class Q, class V, class T, class Trace = NoTrace>
const VecX<S>& aba(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                   const Eigen::MatrixBase<V>& qd, const Eigen::MatrixBase<T>& tau,
                   const std::vector<Force<S>>* fext = nullptr, Trace&& trace = Trace{}) {
  checkSize("q", q.size(), model.nq);
  checkSize("qd", qd.size(), model.nv);
  checkSize("tau", tau.size(), model.nv);
  prefetchInputs(q, qd, tau);  // tau is first read in pass 2
  trace.begin(TraceAlgorithm::Aba, q, qd, tau, fext);
  abaPass1(model, data, q, qd, fext, trace);
  abaPass2(model, data, tau, trace);
  abaPass3(model, data, trace);
  return data.qdd;
}

}  // namespace dyn
