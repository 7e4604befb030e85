// Loop-closure constraints (Featherstone and Orin 2000, §3.4, eqs. 16-18):
// phi(q) = 0, its Jacobian phi' and the velocity-product term c with phi' qdd = c, and the
// reduction of phi' to n_c linearly independent rows L (eq. 18) by the rank-revealing QR.
//
// For loop joint k with frames F1 on body p and F2 on body s (model/loop_joint.hpp):
//   phi_k:  the position error of F2 against F1 in F1 coordinates, one entry per constrained
//           component: rotation rows from R = E1 E2^T (revolute: the tilt of F2's z axis,
//           (-u_y, u_x) with u = R e_z; prismatic and fixed: log R), translation rows from
//           d = E1 (r2 - r1);
//   phi'_k: T^T 1_X_0 (J_s - J_p), the constrained components of the relative velocity
//           v_s - v_p in F1 coordinates (J_b: the world Jacobian of body b, Featherstone Part 2,
//           eq. 21); only the joints between s and p and their common ancestor have columns;
//   c_k:    -T^T 1_X_0 (avp_s - avp_p - v_p x (v_s - v_p)): differentiating T_p^T (v_s - v_p),
//           with T_p moving with body p, gives T_p^T (a_s - a_p - v_p x (v_s - v_p)) = 0 (eq. 17),
//           and a_b = J_b qdd + avp_b (Part 2, eqs. 30-33).
// phi' equals d phi / dq on the constraint manifold (phi = 0); elsewhere to first order in phi,
// which is all Newton's method and Baumgarte's stabilization need.
#pragma once
#include <string>

#include "../algorithms/configuration.hpp"
#include "../algorithms/kinematics.hpp"
#include "loop_data.hpp"

namespace dyn {

namespace detail {

// phi rows of one loop joint from the world poses of its frames (F1_X_0 and F2_X_0).
template <class S, class Out>
DYN_INLINE void loopPositionError(const LoopJoint<S>& J, const Transform<S>& o1, const Transform<S>& o2, Out&& out) {
  const Mat3<S> R = o1.E * o2.E.transpose();  // orientation of F2 in F1 (vector-rotating)
  const Vec3<S> d = o1.E * (o2.r - o1.r);     // origin of F2 in F1 coordinates
  switch (J.type) {
    case LoopJointType::Revolute:  // z axes aligned: (e_z x u)_xy, u = R e_z
      out[0] = -R(1, 2);
      out[1] = R(0, 2);
      for (int k = 0; k < 3; ++k) out[2 + k] = d[k];
      break;
    case LoopJointType::Prismatic: {  // orientations equal, origins on F1's z axis
      const Vec3<S> w = logSO3<S>(R);
      for (int k = 0; k < 3; ++k) out[k] = w[k];
      out[3] = d[0];
      out[4] = d[1];
      break;
    }
    case LoopJointType::Spherical:  // origins coincide
      for (int k = 0; k < 3; ++k) out[k] = d[k];
      break;
    case LoopJointType::Fixed: {
      const Vec3<S> w = logSO3<S>(R);
      for (int k = 0; k < 3; ++k) {
        out[k] = w[k];
        out[3 + k] = d[k];
      }
      break;
    }
  }
}

// World poses of the loop frames, phi and phi' (needs Xup, X0 and S of data).
template <class S>
void loopPositionTerms(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld) {
  ld.Jc.setZero();
  for (size_t k = 0; k < model.loops.size(); ++k) {
    const LoopJoint<S>& J = model.loops[k];
    const Transform<S>& o1 = ld.oXp[k] = J.Xp * data.X0[J.predecessor];  // F1_X_0
    const Transform<S>& o2 = ld.oXs[k] = J.Xs * data.X0[J.successor];    // F2_X_0
    loopPositionError(J, o1, o2, ld.phi.segment(J.row, J.rows()));       // phi_k (eq. 16)
    // phi'_k = T^T F1_X_0 (J_s - J_p): walk up from s (+) and p (-) to their common ancestor.
    for (int a = J.successor, b = J.predecessor; a != b;) {
      const bool fromS = a > b;  // lambda(i) < i: the deeper-numbered side steps up first
      const int i = fromS ? a : b;
      const JointModel<S>& Ji = model.joints[i];
      for (int col = Ji.idx_v; col < Ji.idx_v + Ji.nv; ++col) {
        const Motion<S> s1 = o1.apply(data.X0[i].applyInverse(data.S[col]));  // F1_X_0 0_S_i
        for (int r = 0; r < J.rows(); ++r) {
          const S x = motionComponent(s1, loopJointComponent(J.type, r));
          ld.Jc(J.row + r, col) = fromS ? x : S(-x);
        }
      }
      (fromS ? a : b) = model.parent[i];
    }
  }
}

}  // namespace detail

// phi(q) and phi' (m x nv) into ld, and the world poses of the loop frames (ld.oXp, ld.oXs);
// also leaves forward kinematics (Xup, X0, S) in data.
template <class S, class Q>
void loopConstraints(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld, const Eigen::MatrixBase<Q>& q) {
  forwardKinematics(model, data, q);  // Xup, X0, S (Part 2, eq. 14)
  detail::loopPositionTerms(model, data, ld);
}

// Also the velocity terms: phidot = phi' qd and c = -phi'dot qd - 2 alpha phidot - beta^2 phi
// (eq. 17 with Baumgarte's stabilization phi'' + 2 alpha phi' + beta^2 phi = 0; alpha = beta = 0: none).
// Leaves v, vJ, cJ and the velocity-product accelerations avp (link coordinates) in data too.
template <class S, class Q, class V>
void loopConstraints(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld, const Eigen::MatrixBase<Q>& q,
                     const Eigen::MatrixBase<V>& qd, const S& alpha = S(0), const S& beta = S(0)) {
  jointTransformsAndVelocities(model, data, q, qd);  // Xup, S, v, vJ, cJ (Part 2, eq. 9)
  data.X0[0] = Transform<S>::Identity();
  data.avp[0].setZero();
  for (int i = 1; i <= model.N; ++i) {
    data.X0[i] = data.Xup[i] * data.X0[model.parent[i]];  // i_X_0 (eq. 14)
    data.avp[i] = data.Xup[i].apply(data.avp[model.parent[i]]) + data.cJ[i] + data.v[i].cross(data.vJ[i]);  // (eq. 31)
  }
  detail::loopPositionTerms(model, data, ld);
  for (size_t l = 0; l < model.loops.size(); ++l) {
    const LoopJoint<S>& J = model.loops[l];
    const int p = J.predecessor, s = J.successor;
    const Transform<S>& o1 = ld.oXp[l];
    const Motion<S> vp = data.X0[p].applyInverse(data.v[p]);  // world coordinates
    const Motion<S> vrel = data.X0[s].applyInverse(data.v[s]) - vp;
    const Motion<S> arel = data.X0[s].applyInverse(data.avp[s]) - data.X0[p].applyInverse(data.avp[p]);
    const Motion<S> v1 = o1.apply(vrel);                   // v_s - v_p in F1 coordinates
    const Motion<S> a1 = o1.apply(arel - vp.cross(vrel));  // avp_s - avp_p - v_p x (v_s - v_p)
    for (int r = 0; r < J.rows(); ++r) {
      const int k = loopJointComponent(J.type, r), row = J.row + r;
      ld.phiDot[row] = motionComponent(v1, k);                                                          // phi' qd
      ld.c[row] = -motionComponent(a1, k) - S(2) * alpha * ld.phiDot[row] - beta * beta * ld.phi[row];  // (eq. 17)
    }
  }
}

// L and c_L from the rows chosen last time. Methods 1 and 2 reuse the selection between rank-
// revealing factorizations (it changes only at singular configurations): they check that every row
// of phi' qdd = c holds (loopRowsHold) and choose afresh when one does not, or when L M^-1 L^T
// turns out singular.
template <class S>
int cachedLoopRows(LoopDataTpl<S>& ld) {
  for (int k = 0; k < ld.rank; ++k) {
    ld.L.row(k) = ld.Jc.row(ld.rows[size_t(k)]);
    ld.cL[k] = ld.c[ld.rows[size_t(k)]];
  }
  return ld.rank;
}

// Eq. 18: the rank n_c of phi' and n_c linearly independent rows of it, L, with their c, by the
// column-pivoted QR of phi'^T (a planar loop modelled in 3D has redundant rows: they are left out).
// relTol: a row counts as dependent when its remaining norm is below relTol times the largest row's.
template <class S>
int selectLoopRows(LoopDataTpl<S>& ld, const S& relTol = S(1e-10)) {
  ld.rank = ld.qr.compute(ld.Jc.transpose(), relTol);
  const std::vector<int>& perm = ld.qr.permutation();
  for (int k = 0; k < ld.rank; ++k) ld.rows[size_t(k)] = perm[size_t(k)];
  ld.rowsKnown = true;
  return cachedLoopRows(ld);
}

// The last selection when there is one, else a fresh one.
template <class S>
int loopRows(LoopDataTpl<S>& ld, const S& relTol) {
  return ld.rowsKnown ? cachedLoopRows(ld) : selectLoopRows(ld, relTol);
}

// Do all m rows of phi' qdd = c hold (to relTol of the size of their terms), not only the chosen
// ones? False after the rank grew, e.g. leaving a singular configuration with the rows chosen there.
template <class S, class A>
bool loopRowsHold(const LoopDataTpl<S>& ld, const Eigen::MatrixBase<A>& qdd, const S& relTol = S(1e-7)) {
  using std::abs;
  for (int i = 0; i < ld.Jc.rows(); ++i) {
    S lhs = S(0), size = abs(ld.c[i]);
    for (int j = 0; j < ld.Jc.cols(); ++j) {
      const S t = ld.Jc(i, j) * qdd[j];
      lhs += t;
      size += abs(t);
    }
    if (!(abs(lhs - ld.c[i]) <= relTol * size + S(1e-12))) return false;
  }
  return true;
}

// Largest absolute entry of a vector (of phi, of phidot): what "the loops are closed" is measured by.
template <class D>
typename D::Scalar maxAbs(const Eigen::MatrixBase<D>& x) {
  using std::abs;
  using S = typename D::Scalar;
  S m = S(0);
  for (int i = 0; i < x.size(); ++i)
    if (abs(x[i]) > m) m = abs(x[i]);
  return m;
}

// "coupler_rocker_joint:vx": the loop joint and the relative-motion component ([w; v], F1 coordinates)
// that row `row` of phi holds; "?" outside 0 .. constraintRows - 1. For messages and tables.
template <class S>
std::string loopRowName(const ModelTpl<S>& model, int row) {
  static const char* components[6] = {"wx", "wy", "wz", "vx", "vy", "vz"};
  for (const auto& J : model.loops)
    if (row >= J.row && row < J.row + J.rows())
      return J.name + ":" + components[loopJointComponent(J.type, row - J.row)];
  return "?";
}

}  // namespace dyn
