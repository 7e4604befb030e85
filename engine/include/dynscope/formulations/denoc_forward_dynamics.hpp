// DeNOC recursive forward dynamics: S. K. Saha, "Dynamics of Serial Multibody Systems Using the
// Decoupled Natural Orthogonal Complement Matrices", ASME J. Appl. Mech. 66 (1999), section 5.2
// (eqs. 33-37) with the UDU^T decomposition of the GIM by reverse Gaussian elimination of
// Appendix B (eqs. 46-55).
//
//   phi = tau - C th' - (gravity) = tau - ID(th, th', 0), by the DeNOC inverse dynamics   (section 5.2, input)
//   I = U D U^T: for i = n..1, the articulated-body mass matrix
//     M^_i = M_i + B_{i+1,i}^T Mbar_{i+1} B_{i+1,i},  Mbar_i = M^_i - psi_i psi^_i^T          (eq. 50)
//     psi_i = M^_i p_i,  m^_i = p_i^T psi_i,  psi^_i = psi_i / m^_i                            (eqs. 47-48)
//     (D = diag(m^_i), U_ji = p_j^T B_ij^T psi^_i for j an ancestor of i: eqs. 46, 53-55)
//   Step 1, tau^ = U^-1 phi (i = n..1):  tau^_i = phi_i - p_i^T eta_{i,i+1},
//     eta_{i,i+1} = B_{i+1,i}^T eta_{i+1},  eta_i = psi^_i tau^_i + eta_{i,i+1}               (eqs. 34-35)
//   Step 2, taubar = D^-1 tau^:  taubar_i = tau^_i / m^_i
//   Step 3, th'' = U^-T taubar (i = 1..n):  th''_i = taubar_i - psi^_i^T mu_{i,i-1},
//     mu_{i,i-1} = B_{i,i-1} mu_{i-1},  mu_i = p_i th''_i + mu_{i,i-1}                         (eqs. 36-37)
// All O(n). On a branched tree eta_{i,.} sums over the children of link i and mu_{i,.} comes from
// its parent. A massless subtree makes m^_i = 0 (the GIM is singular), inconsistent inertias can make it
// negative: refused there, naming the joint (algorithms/pivot_check.hpp).
// Revolute and prismatic joints only.
#pragma once
#include <utility>

#include "../algorithms/pivot_check.hpp"
#include "denoc_inverse_dynamics.hpp"

namespace dyn {

// B_{i,l}^T Mbar_i B_{i,l} with Mbar_i = M^_i - psi_i psi^_i^T (eq. 50), in the parent's coordinates.
// Mbar_i p_i = psi_i - psi_i (psi^_i^T p_i) = 0, so Mbar_i has a zero row and column: 2 (w_z) for a
// revolute joint, 5 (v_z) for a prismatic one. Only the other entries are formed and rotated (as
// Featherstone's articulated-body algorithm does with Ia S = 0); then the shift by r_i.
template <class S>
Mat6<S> articulatedToParent(const JointModel<S>& J, const Transform<S>& A, const Mat6<S>& Mh, const Vec6<S>& psi,
                            const Vec6<S>& psiHat) {
  using Mat2 = Eigen::Matrix<S, 2, 2>;
  using Mat23 = Eigen::Matrix<S, 2, 3>;
  using Mat32 = Eigen::Matrix<S, 3, 2>;
  const Mat3<S>& E = A.E;  // rotates parent axes into link-i axes
  const Mat23 E2 = E.template topRows<2>();
  Mat3<S> a, b, c;  // the blocks [a b; b^T c] of Mbar_i rotated to the parent's axes: E^T (.) E
  if (J.type == JointType::Revolute) {
    const Mat2 a2 = Mh.template topLeftCorner<2, 2>() - psi.template head<2>() * psiHat.template head<2>().transpose();
    const Mat23 b2 = Mh.template block<2, 3>(0, 3) - psi.template head<2>() * psiHat.template tail<3>().transpose();
    const Mat3<S> c3 =
        Mh.template bottomRightCorner<3, 3>() - psi.template tail<3>() * psiHat.template tail<3>().transpose();
    a = E2.transpose() * (a2 * E2);
    b = E2.transpose() * (b2 * E);
    c = E.transpose() * (c3 * E);
  } else {
    const Mat3<S> a3 =
        Mh.template topLeftCorner<3, 3>() - psi.template head<3>() * psiHat.template head<3>().transpose();
    const Mat32 b2 = Mh.template block<3, 2>(0, 3) - psi.template head<3>() * psiHat.template segment<2>(3).transpose();
    const Mat2 c2 =
        Mh.template block<2, 2>(3, 3) - psi.template segment<2>(3) * psiHat.template segment<2>(3).transpose();
    a = E.transpose() * (a3 * E);
    b = (E.transpose() * b2) * E2;
    c = E2.transpose() * (c2 * E2);
  }
  return shiftedBlocksToA(A.r, a, b, c);
}

// trace: the steps of the DeNOC inverse dynamics for phi, phi itself, then one step per body (or
// dof) in each of the three steps of section 5.2 (trace/trace_policy.hpp; NoTrace compiles away).
template <class S, class Q, class V, class T, class Trace = NoTrace>
const VecX<S>& denocForwardDynamics(const ModelTpl<S>& model, DenocWorkspaceTpl<S>& ws, const Eigen::MatrixBase<Q>& q,
                                    const Eigen::MatrixBase<V>& qd, const Eigen::MatrixBase<T>& tau,
                                    Trace&& trace = Trace{}) {
  checkSize("tau", tau.size(), model.nv);
  trace.begin(TraceAlgorithm::DenocFd, q, qd, tau);
  // phi = tau - (C th' + gravity) = tau - ID(th, th', 0); this also leaves the joint transforms in ws.A
  // (forwarded: a plain call uses the plain instance of the inverse dynamics, inlined as before)
  denocInverseDynamics(model, ws, q, qd, ws.zero, std::forward<Trace>(trace));
  for (int k = 0; k < model.nv; ++k) ws.phi[k] = S(tau[k]) - ws.tau[k];
  trace.step(StepKind::DenocFdPhi, 0);
  for (int i = 1; i <= model.N; ++i) {
    ws.Mhat[i] = model.I[i].toMatrix();  // M^_i = M_i, then the articulated descendants are added
    ws.eta[i].setZero();
  }
  trace.begin(TraceAlgorithm::DenocElimination);
  // Reverse Gaussian elimination (UDU^T) and step 1, from the last link to the first.
  for (int i = model.N; i >= 1; --i) {
    const JointModel<S>& J = model.joints[i];
    const int k = J.idx_v, l = model.parent[i];
    const Mat6<S>& Mh = ws.Mhat[i];
    const Vec6<S> psi = Mh.col(J.type == JointType::Revolute ? 2 : 5);         // psi_i = M^_i p_i   (eq. 47)
    const S mh = ws.mhat[k] = psi[J.type == JointType::Revolute ? 2 : 5];      // m^_i = p_i^T psi_i   (eq. 47)
    if (const S floor = pivotFloorFromTrace(Mh); mh <= floor)  // GIM singular (up to rounding) or indefinite
      refuseNonPositivePivot(model, i, pivotUpToRounding(mh, floor), PivotSource::Denoc);
    const Vec6<S> psiHat = psi / mh;                                           // psi^_i = psi_i / m^_i   (eq. 48)
    ws.psiHat[i] = Force<S>::fromVector(psiHat);
    const S th = ws.tauHat[k] =
        ws.phi[k] - jointComponent(J, ws.eta[i]);  // tau^_i = phi_i - p_i^T eta_{i,i+1}   (eq. 34)
    ws.eta[i] += ws.psiHat[i] * th;                // eta_i = psi^_i tau^_i + eta_{i,i+1}   (eq. 35)
    if (l == 0) {                                  // (the step ends here for a root: the same code as without the hook)
      trace.step(StepKind::DenocFdStep1, i);
      continue;
    }
    // M^_l += B_{i,l}^T Mbar_i B_{i,l},  Mbar_i = M^_i - psi_i psi^_i^T   (eq. 50)
    ws.Mhat[l] += articulatedToParent(J, ws.A[i], Mh, psi, psiHat);
    ws.eta[l] += ws.A[i].applyTranspose(ws.eta[i]);  // eta_{l,i} = B_{i,l}^T eta_i   (eq. 35)
    trace.step(StepKind::DenocFdStep1, i);
  }
  // Step 2: taubar = D^-1 tau^.
  for (int k = 0; k < model.nv; ++k) {
    ws.tauBar[k] = ws.tauHat[k] / ws.mhat[k];
    trace.step(StepKind::DenocFdStep2, k);
  }
  // Step 3: th'' = U^-T taubar, from the first link to the last.
  ws.mu[0].setZero();
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int k = J.idx_v;
    const Motion<S> mul = ws.A[i].apply(ws.mu[model.parent[i]]);  // mu_{i,i-1} = B_{i,i-1} mu_{i-1}   (eq. 37)
    ws.qdd[k] = ws.tauBar[k] - ws.psiHat[i].dot(mul);             // th''_i = taubar_i - psi^_i^T mu_{i,i-1}   (eq. 36)
    ws.mu[i] = mul;
    addJointRate(J, ws.mu[i], ws.qdd[k]);  // mu_i = p_i th''_i + mu_{i,i-1}   (eq. 37)
    trace.step(StepKind::DenocFdStep3, i);
  }
  return ws.qdd;
}

}  // namespace dyn
