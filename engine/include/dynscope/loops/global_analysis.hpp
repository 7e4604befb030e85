// Global analysis (Featherstone and Orin 2000, §3.5, eqs. 23-29): the N
// bodies as free rigid bodies in world coordinates, f = I a + v x* I v (eq. 23), held together by
// their joints' constraints. The 6N-dimensional matrices, dense here because they are for
// teaching and checking (the point is that they are large but sparse):
//   I    = diag(I_i)                                    6N x 6N  body inertias (world coordinates)
//   H    = diag(h_i)                                    6N x n   joint motion subspaces
//   P    : P_ii = 1, P_i,lambda(i) = -1 (eq. 29)        6N x 6N  incidence: P v = H qd
//   P^-1 : (P^-1)_ij = 1 for j on the path to i         6N x 6N  (lower triangular, the phi* of [29])
//   S    = P^-1 H                                       6N x n   range(S): the motions the joints allow (eq. 24)
//   T    = [P^T T_J, loop columns]                      6N x t   the constraint forces (T^T S = 0), t = 6N - n + n_c
// with M = H^T P^-T I P^-1 H = S^T I S (the Newton-Euler factorization of M, after eq. 29), and
// three forward dynamics for trees and loops:
//   eq. 26, null space:        S^T I S alpha = S^T (f_a - I a0 - v x* I v), alpha = qdd (with loops
//                              alpha = y, qdd = K y + qdd0 as in eq. 22);
//   eq. 27, augmented:         [I T; T^T 0] [a; -beta] = [f_a - v x* I v; T^T a0], one dense solve;
//   eq. 28, constraint forces: T^T I^-1 T beta = T^T a0 - T^T I^-1 (f_a - v x* I v), a = I^-1 (f + T beta)
//                              (every body's I_i must be invertible).
// Loops enter eq. 27/28 as more columns of T (the selected rows of phi', eq. 18, as forces between
// their two bodies) and eq. 26 through K. Double or any scalar; the workspace is sized once.
#pragma once
#include <stdexcept>

#include "../algorithms/configuration.hpp"
#include "loop_method3_null_space.hpp"

namespace dyn {

enum class GlobalFormulation { NullSpace /* eq. 26 */, Augmented /* eq. 27 */, ConstraintForces /* eq. 28 */ };

inline const char* globalFormulationName(GlobalFormulation f) {
  switch (f) {
    case GlobalFormulation::NullSpace:
      return "eq. 26 (null space)";
    case GlobalFormulation::Augmented:
      return "eq. 27 (augmented)";
    case GlobalFormulation::ConstraintForces:
      return "eq. 28 (constraint forces)";
  }
  return "?";
}

template <class S>
struct GlobalDataTpl {
  int N = 0, n = 0, t = 0;       // bodies, dofs, columns of T in use
  MatX<S> I, P, Pinv, H, Sg, T;  // the global matrices (see above); T has 6N - n + m columns of storage
  MatX<S> M;                     // S^T I S
  MatX<S> system;                // [I T; T^T 0] of eq. 27 (leading 6N + t block)
  MatX<S> factor;                // its factorization / the T^T I^-1 T of eq. 28
  std::vector<Mat6<S>> Iinv;     // eq. 28: I_i^-1
  VecX<S> a0;                    // velocity-product accelerations P^-1 Hdot qd (world, per body)
  VecX<S> f;                     // f_a - v x* I v: known forces on the free bodies
  VecX<S> b;                     // T^T a0 (with the loops' velocity terms and stabilization)
  VecX<S> sol, rhs, a, beta;     // solution [a; -beta], body accelerations, constraint-force coordinates
  VecX<S> qdd;
  std::vector<int> piv;
  std::vector<Motion<S>> v, c;  // world velocities and c_i = v_i x (h_i qd_i) per body

  GlobalDataTpl() = default;
  explicit GlobalDataTpl(const ModelTpl<S>& model) {
    N = model.N;
    n = model.nv;
    const int six = 6 * N, tmax = six - n + model.constraintRows;
    I = P = Pinv = MatX<S>::Zero(six, six);
    H = Sg = MatX<S>::Zero(six, n);
    T = MatX<S>::Zero(six, std::max(tmax, 0));
    M = MatX<S>::Zero(n, n);
    system = factor = MatX<S>::Zero(six + tmax, six + tmax);
    Iinv.resize(size_t(N + 1));
    a0 = f = a = VecX<S>::Zero(six);
    b = beta = VecX<S>::Zero(std::max(tmax, 0));
    sol = rhs = VecX<S>::Zero(six + tmax);
    qdd = VecX<S>::Zero(n);
    piv.assign(size_t(six + tmax), 0);
    v.resize(size_t(N + 1));
    c.resize(size_t(N + 1));
  }
};

using GlobalData = GlobalDataTpl<double>;

// I, H, P, P^-1 and S = P^-1 H at q (needs X0 and oS: runs worldJointTransforms).
template <class S, class Q>
void globalMatrices(const ModelTpl<S>& model, DataTpl<S>& data, GlobalDataTpl<S>& gd, const Eigen::MatrixBase<Q>& q) {
  worldJointTransforms(model, data, q);  // X0 = i_X_0, oS = 0_X_i S_i
  gd.I.setZero();
  gd.P.setZero();
  gd.Pinv.setZero();
  gd.H.setZero();
  for (int i = 1; i <= model.N; ++i) {
    const int r = 6 * (i - 1);
    gd.I.template block<6, 6>(r, r) = model.I[i].transformToA(data.X0[i]).toMatrix();  // I_i in world (eq. 23)
    gd.P.template block<6, 6>(r, r).setIdentity();                                     // P_ii = 1 (eq. 29)
    if (model.parent[i] > 0) gd.P.template block<6, 6>(r, 6 * (model.parent[i] - 1)) = -Mat6<S>::Identity();
    for (int j = i; j > 0; j = model.parent[j])  // P^-1: v_i = sum over j on the path of h_j qd_j
      gd.Pinv.template block<6, 6>(r, 6 * (j - 1)).setIdentity();
    const JointModel<S>& J = model.joints[i];
    for (int k = 0; k < J.nv; ++k) gd.H.col(J.idx_v + k).template segment<6>(r) = data.oS[J.idx_v + k].toVector();
  }
  gd.Sg.noalias() = gd.Pinv * gd.H;  // S = P^-1 H (eq. 24 with eq. 29)
}

// M = H^T P^-T I P^-1 H = S^T I S (after eq. 29) into gd.M; after globalMatrices().
template <class S>
const MatX<S>& globalMassMatrix(GlobalDataTpl<S>& gd) {
  gd.M.noalias() = gd.Sg.transpose() * (gd.I * gd.Sg);
  return gd.M;
}

namespace detail {

// World velocities v_i and c_i = v_i x (h_i qd_i) (+ the apparent derivative of a q-dependent h),
// a0 = P^-1 Hdot qd, and the known forces f = f_gravity + f_ext - v x* I v on the free bodies.
template <class S, class V>
void globalVelocityTerms(const ModelTpl<S>& model, DataTpl<S>& data, GlobalDataTpl<S>& gd,
                         const Eigen::MatrixBase<V>& qd, const std::vector<Force<S>>* fext) {
  gd.v[0].setZero();
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int r = 6 * (i - 1), lambda = model.parent[i];
    jcalcVelocity(J, &data.S[J.idx_v], qd, data.vJ[i], data.cJ[i]);     // link coordinates
    const Motion<S> vJ = data.X0[i].applyInverse(data.vJ[i]);           // h_i qd_i
    gd.v[i] = gd.v[lambda] + vJ;                                        // v_i = v_lambda + h_i qd_i (eq. 3)
    gd.c[i] = gd.v[i].cross(vJ) + data.X0[i].applyInverse(data.cJ[i]);  // hdot_i qd_i (eq. 4)
    const Motion<S> a0l =
        lambda > 0 ? Motion<S>::fromVector(gd.a0.template segment<6>(6 * (lambda - 1))) : Motion<S>::Zero();
    gd.a0.template segment<6>(r) = (a0l + gd.c[i]).toVector();  // a0 = P^-1 Hdot qd
    const Inertia<S> I0 = model.I[i].transformToA(data.X0[i]);
    Force<S> f = I0 * model.gravity - gd.v[i].crossForce(I0 * gd.v[i]);  // f_g - v x* I v
    if (fext) f += data.X0[i].applyTranspose((*fext)[i]);                // external force, to world
    gd.f.template segment<6>(r) = f.toVector();
  }
}

// An orthonormal basis (in the Euclidean coordinate metric) of the forces that do no work on the
// motions in cols[0..d): T_J of a joint, into the 6 x (6 - d) block out.
template <class S, class Out>
void complementColumns(const Motion<S>* cols, int d, Out&& out) {
  using std::sqrt;
  Eigen::Matrix<S, 6, 6> Q;
  int k = 0;
  for (int j = 0; j < d; ++j) {  // orthonormal basis of the motion subspace
    Vec6<S> x = cols[j].toVector();
    for (int pass = 0; pass < 2; ++pass)
      for (int l = 0; l < k; ++l) x -= Q.col(l) * Q.col(l).dot(x);
    Q.col(k++) = x / sqrt(x.squaredNorm());
  }
  for (int e = 0; e < 6 && k < 6; ++e) {  // unit vectors, orthogonalised against it
    Vec6<S> x = Vec6<S>::Unit(e);
    for (int pass = 0; pass < 2; ++pass)
      for (int l = 0; l < k; ++l) x -= Q.col(l) * Q.col(l).dot(x);
    const S norm = sqrt(x.squaredNorm());
    if (!(norm > S(0.1))) continue;
    Q.col(k) = x / norm;
    out.col(k - d) = Q.col(k);
    ++k;
  }
}

// T (tree columns P^T T_J, then the selected loop rows as forces between their two bodies) and
// b = T^T a0 with the loops' velocity terms; needs globalMatrices, globalVelocityTerms and, for
// loops, loopConstraints + selectLoopRows in ld. Sets gd.t.
template <class S>
void globalConstraintForces(const ModelTpl<S>& model, const DataTpl<S>& data, const LoopDataTpl<S>& ld,
                            GlobalDataTpl<S>& gd) {
  gd.T.setZero();
  int col = 0;
  for (int i = 1; i <= model.N; ++i) {  // joint i: T_J,i on body i, -T_J,i on lambda(i)
    const JointModel<S>& J = model.joints[i];
    const int cols = 6 - J.nv, r = 6 * (i - 1), lambda = model.parent[i];
    complementColumns(&data.oS[J.idx_v], J.nv, gd.T.block(r, col, 6, cols));
    for (int k = 0; k < cols; ++k) {
      const Vec6<S> tk = gd.T.col(col + k).template segment<6>(r);
      if (lambda > 0) gd.T.col(col + k).template segment<6>(6 * (lambda - 1)) = -tk;
      gd.b[col + k] = tk.dot(gd.c[i].toVector());  // T_J^T (a_i - a_lambda) = T_J^T hdot_i qd_i
    }
    col += cols;
  }
  for (int k = 0; k < ld.rank; ++k) {  // loop rows: unit force e_comp in F1, on s and (-) on p
    const int row = ld.rows[size_t(k)];
    int l = 0;
    while (!(row >= model.loops[size_t(l)].row && row < model.loops[size_t(l)].row + model.loops[size_t(l)].rows()))
      ++l;
    const LoopJoint<S>& J = model.loops[size_t(l)];
    const int comp = loopJointComponent(J.type, row - J.row);
    const Force<S> e = Force<S>::fromVector(Vec6<S>::Unit(comp));
    const Vec6<S> t0 = ld.oXp[size_t(l)].applyTranspose(e).toVector();  // in world coordinates
    Motion<S> da = Motion<S>::Zero();                                   // a0_s - a0_p
    if (J.successor > 0) {
      gd.T.col(col).template segment<6>(6 * (J.successor - 1)) += t0;
      da += Motion<S>::fromVector(gd.a0.template segment<6>(6 * (J.successor - 1)));
    }
    if (J.predecessor > 0) {
      gd.T.col(col).template segment<6>(6 * (J.predecessor - 1)) -= t0;
      da -= Motion<S>::fromVector(gd.a0.template segment<6>(6 * (J.predecessor - 1)));
    }
    gd.b[col] = ld.c[row] + t0.dot(da.toVector());  // T^T a = c + T^T (a0_s - a0_p)   (eq. 17)
    ++col;
  }
  gd.t = col;
}

}  // namespace detail

// [I T; T^T 0] of eq. 27 at (q, qd) into gd.system (leading 6N + gd.t block), with T, b, f, a0.
template <class S, class Q, class V>
void globalSystem(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld, GlobalDataTpl<S>& gd,
                  const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& qd, const S& alpha = S(0),
                  const S& beta = S(0), const S& rankTol = S(1e-10), const std::vector<Force<S>>* fext = nullptr) {
  loopConstraints(model, data, ld, q, qd, alpha, beta);  // phi', c (eqs. 16-17)
  selectLoopRows(ld, rankTol);                           // L (eq. 18)
  globalMatrices(model, data, gd, q);
  detail::globalVelocityTerms(model, data, gd, qd, fext);
  detail::globalConstraintForces(model, data, ld, gd);
  const int six = 6 * model.N, t = gd.t;
  gd.system.setZero();
  gd.system.topLeftCorner(six, six) = gd.I;
  gd.system.block(0, six, six, t) = gd.T.leftCols(t);
  gd.system.block(six, 0, t, six) = gd.T.leftCols(t).transpose();
}

// Forward dynamics in the global form: qdd into gd.qdd (and returned); gd.a holds the body
// accelerations and, for eqs. 27/28, gd.beta the constraint-force coordinates. Throws
// std::runtime_error for eq. 28 when a body's spatial inertia is singular (naming the link).
template <class S, class Q, class V, class Tv>
const VecX<S>& globalForwardDynamics(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld,
                                     GlobalDataTpl<S>& gd, const Eigen::MatrixBase<Q>& q,
                                     const Eigen::MatrixBase<V>& qd, const Eigen::MatrixBase<Tv>& tau,
                                     GlobalFormulation formulation, const S& alpha = S(0), const S& beta = S(0),
                                     const S& rankTol = S(1e-10), const std::vector<Force<S>>* fext = nullptr) {
  checkSize("tau", tau.size(), model.nv);
  globalSystem(model, data, ld, gd, q, qd, alpha, beta, rankTol, fext);
  const int six = 6 * model.N, t = gd.t, n = model.nv;
  if (formulation == GlobalFormulation::NullSpace) {  // eq. 26: S^T I S alpha = tau + S^T (f - I a0)
    globalMassMatrix(gd);
    gd.a.noalias() = gd.I * gd.a0;
    gd.a = gd.f - gd.a;
    auto rhs = gd.rhs.head(n);
    rhs = tau;
    rhs.noalias() += gd.Sg.transpose() * gd.a;
    detail::nullSpaceSolve(ld, gd.M, rhs);  // with loops: alpha = y, qdd = K y + qdd0 (eq. 22)
    gd.qdd = ld.qdd;
    gd.a.noalias() = gd.Sg * gd.qdd;  // a = a0 + S qdd
    gd.a += gd.a0;
    return gd.qdd;
  }
  for (int i = 1; i <= model.N; ++i) {  // joint forces on the bodies: f_a += P^T F_tau, h_i^T F_tau,i = tau_i
    const JointModel<S>& J = model.joints[i];
    Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> h(6, J.nv);
    for (int k = 0; k < J.nv; ++k) h.col(k) = data.oS[J.idx_v + k].toVector();
    const SmallMat<S> G = h.transpose() * h;
    const Vec6<S> F = h * (G.inverse() * tau.segment(J.idx_v, J.nv).template cast<S>());
    gd.f.template segment<6>(6 * (i - 1)) += F;
    if (model.parent[i] > 0) gd.f.template segment<6>(6 * (model.parent[i] - 1)) -= F;
  }
  if (formulation == GlobalFormulation::Augmented) {  // eq. 27
    gd.factor.topLeftCorner(six + t, six + t) = gd.system.topLeftCorner(six + t, six + t);
    gd.sol.head(six) = gd.f;
    gd.sol.segment(six, t) = gd.b.head(t);
    const bool ok = luInPlace(gd.factor.topLeftCorner(six + t, six + t), six + t, gd.piv, S(1e-15));
    luSolveInPlace<S>(gd.factor, six + t, gd.piv, gd.sol);
    gd.a = gd.sol.head(six);
    gd.beta.head(t) = -gd.sol.segment(six, t);
    if (!ok) gd.a.setConstant(S(std::numeric_limits<double>::quiet_NaN()));
  } else {  // eq. 28: T^T I^-1 T beta = b - T^T I^-1 f;  a = I^-1 (f + T beta)
    for (int i = 1; i <= model.N; ++i) {
      const Mat6<S> Ii = gd.I.template block<6, 6>(6 * (i - 1), 6 * (i - 1));
      Eigen::LLT<Mat6<S>> llt(Ii);
      if (llt.info() != Eigen::Success)
        throw std::runtime_error("eq. 28 needs every body's spatial inertia to be invertible; body '" +
                                 model.bodyNames[i] +
                                 "' has a singular one (a massless body or a slender rod): "
                                 "use eq. 27");
      gd.Iinv[size_t(i)] = llt.solve(Mat6<S>::Identity());
    }
    auto Z = gd.factor.topLeftCorner(t, t);
    auto IinvT = gd.system.block(0, six, six, t);  // overwritten by I^-1 T (rebuilt by globalSystem)
    for (int i = 1; i <= model.N; ++i)
      IinvT.middleRows(6 * (i - 1), 6) = gd.Iinv[size_t(i)] * gd.T.block(6 * (i - 1), 0, 6, t);
    Z.noalias() = gd.T.leftCols(t).transpose() * IinvT;
    for (int i = 1; i <= model.N; ++i)
      gd.a.template segment<6>(6 * (i - 1)) = gd.Iinv[size_t(i)] * gd.f.template segment<6>(6 * (i - 1));
    gd.beta.head(t) = gd.b.head(t);
    gd.beta.head(t).noalias() -= gd.T.leftCols(t).transpose() * gd.a;
    const bool ok = choleskyInPlace(Z, t, S(1e-15));
    choleskySolveInPlace<S>(Z, t, gd.beta.head(t));
    gd.a.noalias() += IinvT * gd.beta.head(t);
    if (!ok) gd.a.setConstant(S(std::numeric_limits<double>::quiet_NaN()));
    gd.system.block(0, six, six, t) = gd.T.leftCols(t);  // restore eq. 27's matrix
  }
  for (int i = 1; i <= model.N; ++i) {  // h_i qdd_i = a_i - a_lambda - hdot_i qd_i (eqs. 4, 29)
    const JointModel<S>& J = model.joints[i];
    Vec6<S> rel = gd.a.template segment<6>(6 * (i - 1)) - gd.c[i].toVector();
    if (model.parent[i] > 0) rel -= gd.a.template segment<6>(6 * (model.parent[i] - 1));
    Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> h(6, J.nv);
    for (int k = 0; k < J.nv; ++k) h.col(k) = data.oS[J.idx_v + k].toVector();
    const SmallMat<S> G = h.transpose() * h;
    gd.qdd.segment(J.idx_v, J.nv) = G.inverse() * (h.transpose() * rel);
  }
  return gd.qdd;
}

}  // namespace dyn
