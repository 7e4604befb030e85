// The DeNOC generalized inertia matrix (GIM) I and matrix of convective inertia terms C of
// I th'' + C th' = tau (eq. 20): S. K. Saha, "Dynamics of Serial Multibody Systems Using the
// Decoupled Natural Orthogonal Complement Matrices", ASME J. Appl. Mech. 66 (1999), section 4,
// eqs. 20-29.
//
// GIM (section 4.1): the mass matrix of composite body i (links i..n rigidly joined),
//   M~_i = M_i + B_{i+1,i}^T M~_{i+1} B_{i+1,i}                                             (eq. 23b)
//   I_ij = I_ji = p_i^T M~_i B_ij p_j,  i >= j,  B_ij = B_{i,i-1} ... B_{j+1,j}                (eqs. 24, 14)
// We evaluate eq. 24 transposed, (B_ij^T (M~_i p_i))^T p_j, carrying the force M~_i p_i from link i
// towards the base: the same products as Featherstone's composite-rigid-body algorithm.
//
// Convective inertia (section 4.2): C = N_d^T M' N_d with M' = N_l^T M N_l' + M~ Omega + N_l^T M' N_l
// (eq. 25; Omega = diag(W_i) since p'_i = W_i p_i, and M_i' t_i = W_i M_i E_i t_i with twists at O_i,
// see denoc_workspace.hpp). Worked out element by element (eqs. 28-29), for link j an ancestor of
// (or equal to) link i and y_j = p'_j + B'-terms = t_j x p_j (spatial cross product):
//   c_ij = p_i^T (M~_i B_ij y_j + Z_i e_j)        (eq. 29, i >= j; the e_j term for revolute j only)
//   c_ji = p_j^T B_ij^T (M~_i y_i + Z_i e_i)      (eq. 29, j < i)
// where Z_i (6x3) gathers the composite convective terms acting on a joint axis e:
//   Z_i e = sum over links k of composite body i of B_ki^T (M_k [0; e x o'_k] + W_k M_k E_k [e; 0])
//   Z_i = z_i + B_{i+1,i}^T Z_{i+1} R_{i+1,i}       (the recursions of eq. 28)
// The first term is H~_ij p_j of eq. 28 (from B'_kj p_j = [0; (o'_j - o'_k) x e_j]), the second the
// composite mass-rate matrix M~'_i. C th' is the Coriolis and centrifugal vector: C th' + g = ID(th, th', 0).
// On a tree, "i >= j" means j is an ancestor of i and the sums run over i's descendants; C and I are
// zero for two links on different branches. Revolute and prismatic joints only.
#pragma once
#include "denoc_inverse_dynamics.hpp"

namespace dyn {

// The GIM I(th) of eq. 24 into ws.I (returned). O(n) composite bodies, then O(n d) elements (d: depth).
// trace: a composite-body step and a column walk per body, as CRBA's (trace/trace_policy.hpp).
template <class S, class Q, class Trace = NoTrace>
const MatX<S>& denocGeneralizedInertia(const ModelTpl<S>& model, DenocWorkspaceTpl<S>& ws,
                                       const Eigen::MatrixBase<Q>& q, Trace&& trace = Trace{}) {
  requireRevolutePrismatic(model, "the DeNOC generalized inertia matrix");
  checkDenocWorkspace(model, ws);
  checkSize("q", q.size(), model.nq);
  trace.begin(TraceAlgorithm::DenocGim, q);
  for (int i = 1; i <= model.N; ++i) {
    {
      const OpCountScope<S> jointWork(OpCategory::JointTransforms);
      Motion<S> pi;
      jcalcPosition(model.joints[i], q, model.Xtree[i], ws.A[i], &pi);  // A_i
    }
    ws.Mtilde[i] = model.I[i];  // M~_i = M_i, then the descendants are added
    trace.ahead(i);
  }
  for (int i = model.N; i >= 1; --i) {
    const JointModel<S>& Ji = model.joints[i];
    const int l = model.parent[i];
    if (l > 0) {
      ws.Mtilde[l] += ws.Mtilde[i].transformToA(ws.A[i]);  // M~_l += B_{i,l}^T M~_i B_{i,l}   (eq. 23b)
      trace.step(StepKind::DenocComposite, i);
    }
    Force<S> psi = inertiaTimesS(Ji, ws.Mtilde[i], jointRateVector(Ji));  // M~_i p_i
    const int col = Ji.idx_v;
    ws.I(col, col) = jointComponent(Ji, psi);  // I_ii = p_i^T M~_i p_i   (eq. 24)
    for (int j = i; model.parent[j] > 0;) {
      psi = ws.A[j].applyTranspose(psi);  // B_ij^T M~_i p_i, one link further: B_ij = B_{i,i-1} B_{i-1,j}   (eq. 14)
      j = model.parent[j];
      const JointModel<S>& Jj = model.joints[j];
      const S Iij = jointComponent(Jj, psi);  // I_ij = I_ji = p_i^T M~_i B_ij p_j   (eq. 24)
      ws.I(col, Jj.idx_v) = Iij;
      ws.I(Jj.idx_v, col) = Iij;
    }
    trace.step(StepKind::DenocGimColumn, i);
  }
  return ws.I;
}

// The matrix of convective inertia terms C(th, th') of eqs. 25-29 into ws.C (returned).
template <class S, class Q, class V>
const MatX<S>& denocConvectiveInertia(const ModelTpl<S>& model, DenocWorkspaceTpl<S>& ws, const Eigen::MatrixBase<Q>& q,
                                      const Eigen::MatrixBase<V>& qd) {
  requireRevolutePrismatic(model, "the DeNOC convective inertia matrix");
  denocTwists(model, ws, q, qd);  // A_i, t_i   (eq. 12)
  for (int i = 1; i <= model.N; ++i) {
    const Inertia<S>& M = model.I[i];
    const Motion<S>& t = ws.t[i];
    ws.Mtilde[i] = M;                                     // M~_i = M_i
    ws.y[i] = t.cross(jointRateVector(model.joints[i]));  // y_i = t_i x p_i = p'_i + [0; o'_i x e_i]
    // z_i e = M_i [0; e x o'_i] + W_i M_i E_i [e; 0]
    //       = [(w x I_i - (m d) x o'_i x) e;  -(m o'_i x + w x (m d) x) e]   (eqs. 25, 28 for k = i)
    const Mat3<S> W = skew(t.w), O = skew(t.v), H = skew(M.h);
    ws.Z[i].template topRows<3>() = W * M.Ibar - H * O;
    ws.Z[i].template bottomRows<3>() = -(M.m * O + W * H);
  }
  for (int i = model.N; i >= 1; --i) {
    const int l = model.parent[i];
    if (l == 0) continue;
    const Transform<S>& A = ws.A[i];
    ws.Mtilde[l] += ws.Mtilde[i].transformToA(A);  // M~_l += B_{i,l}^T M~_i B_{i,l}   (eq. 23b)
    const Mat63<S> ZR = ws.Z[i] * A.E;             // Z_i acting on an axis given in parent axes
    for (int c = 0; c < 3; ++c) {                  // Z_l += B_{i,l}^T Z_i R_{i,l}   (eq. 28)
      const Force<S> col(ZR.col(c).template head<3>(), ZR.col(c).template tail<3>());
      const Force<S> up = A.applyTranspose(col);
      ws.Z[l].col(c) += up.toVector();
    }
  }
  for (int i = model.N; i >= 1; --i) {
    const JointModel<S>& Ji = model.joints[i];
    const bool revolute = Ji.type == JointType::Revolute;
    const int row = Ji.idx_v;
    // Column i on and above the diagonal: c_ji = p_j^T B_ij^T phi_i, phi_i = M~_i y_i + Z_i e_i   (eq. 29)
    Force<S> phi = ws.Mtilde[i] * ws.y[i];
    if (revolute) phi += Force<S>(ws.Z[i].col(2).template head<3>(), ws.Z[i].col(2).template tail<3>());
    ws.C(row, row) = jointComponent(Ji, phi);
    for (int j = i; model.parent[j] > 0;) {
      phi = ws.A[j].applyTranspose(phi);
      j = model.parent[j];
      const JointModel<S>& Jj = model.joints[j];
      ws.C(Jj.idx_v, row) = jointComponent(Jj, phi);
    }
    // Row i left of the diagonal: c_ij = (B_ij^T M~_i p_i)^T y_j + (Z_i^T p_i)^T e_j   (eq. 29)
    Force<S> psi = inertiaTimesS(Ji, ws.Mtilde[i], jointRateVector(Ji));  // M~_i p_i
    Vec3<S> zeta = ws.Z[i].row(revolute ? 2 : 5).transpose();             // Z_i^T p_i
    for (int j = i; model.parent[j] > 0;) {
      psi = ws.A[j].applyTranspose(psi);
      zeta = ws.A[j].E.transpose() * zeta;  // to the parent's axes, where e_j is known
      j = model.parent[j];
      const JointModel<S>& Jj = model.joints[j];
      S cij = psi.dot(ws.y[j]);
      if (Jj.type == JointType::Revolute) cij += zeta.z();
      ws.C(row, Jj.idx_v) = cij;
    }
  }
  return ws.C;
}

}  // namespace dyn
