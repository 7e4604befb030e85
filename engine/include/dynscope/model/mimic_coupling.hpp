// Mimic joints as a holonomic constraint with a constant Jacobian, solved by the null-space method
// (Featherstone and Orin 2000, §3.4, eq. 22; Featherstone 2008, §8.2 "implicit constraints"):
// a mimic relation q_m = a q_master + b (URDF <mimic>, MJCF <equality><joint>) makes the joint
// velocities qd = G yd, with yd the independent (master and free) velocities and G a constant
// nv x ny selection-and-scaling matrix: G's column space is the null space of the constraint
// Jacobian, exactly the K of loop_method3_null_space.hpp, but known in closed form and sparse (one
// non-zero per row), so no QR is needed. Since G is constant (Gdot = 0),
//   qd = G yd,  qdd = G ydd,  q = G_q y + b  (1-DOF followers; multi-DOF joints are never followers),
//   tau_y = G^T ID(q, qd, qdd),  H_y = G^T H G,  ydd = H_y^-1 (tau_y - G^T C).
// tau_y is the generalized force on the independent coordinates: each master's own torque plus its
// followers' torques times their multipliers (the virtual work of the constraint forces is zero).
// The null-space method of the review, G applied around the full-coordinate algorithms (RNEA, CRBA),
// not inside them (docs/mimic.md).
//
// Chains of mimics (a mimic of a mimic) resolve to the root master; cycles and mimics of multi-DOF
// joints are dropped at load with a mimic.dropped warning (model_builder.cpp), so every relation
// in Model::mimics has a 1-DOF follower and a 1-DOF master and the chains end.
#pragma once
#include <Eigen/Cholesky>
#include <stdexcept>
#include <vector>

#include "../algorithms/check.hpp"
#include "../algorithms/crba.hpp"
#include "../algorithms/rnea.hpp"
#include "data.hpp"

namespace dyn {

template <class S>
struct MimicCouplingTpl {
  int nq = 0, nv = 0;   // the full model's sizes
  int nqy = 0, ny = 0;  // the independent coordinates' sizes: y (positions), yd (velocities)
  // G, one non-zero per row: qd[k] = multiplier[k] * yd[column[k]] (1 and itself for independent dofs).
  std::vector<int> column;
  std::vector<S> multiplier;
  // The positions: q[i] = qMultiplier[i] * y[qColumn[i]] + qOffset[i].
  std::vector<int> qColumn;
  std::vector<S> qMultiplier, qOffset;
  std::vector<int> independentDofs;  // the full v index of each yd entry (ascending)
  std::vector<int> independentQ;     // the full q index of each y entry (ascending)
  std::vector<int> rootMaster;       // per body 0..N: the body whose joint it follows (itself if none)

  bool active() const { return ny < nv; }
  bool isFollower(int body) const { return rootMaster[size_t(body)] != body; }
  // G as a dense nv x ny matrix (tests, teaching views).
  MatX<S> denseG() const {
    MatX<S> G = MatX<S>::Zero(nv, ny);
    for (int k = 0; k < nv; ++k) G(k, column[k]) = multiplier[k];
    return G;
  }
};
using MimicCoupling = MimicCouplingTpl<double>;

// Builds the coupling of model (allocates; once per model). Throws std::invalid_argument on a chain
// that does not end or a multi-DOF joint in a relation (the builder drops those, so only a model made
// in code can have them).
template <class S>
MimicCouplingTpl<S> mimicCoupling(const ModelTpl<S>& model) {
  MimicCouplingTpl<S> c;
  c.nq = model.nq;
  c.nv = model.nv;
  const int n1 = model.N + 1;
  std::vector<int> master(size_t(n1), -1);
  std::vector<S> a(size_t(n1), S(1)), b(size_t(n1), S(0));  // q_i = a q_master + b, resolved to the root
  for (const MimicInfo& mi : model.mimics) {
    if (model.joints[size_t(mi.joint)].nv != 1 || model.joints[size_t(mi.mimicked)].nv != 1)
      throw std::invalid_argument("mimic relation of a joint with more than one degree of freedom");
    master[size_t(mi.joint)] = mi.mimicked;
  }
  c.rootMaster.resize(size_t(n1));
  for (int i = 0; i < n1; ++i) {
    int r = i, steps = 0;
    S ai = S(1), bi = S(0);
    while (master[size_t(r)] >= 0) {  // q_r = a_r q_m + b_r: compose
      const MimicInfo* mi = nullptr;
      for (const MimicInfo& m : model.mimics)
        if (m.joint == r) mi = &m;
      bi = ai * S(mi->offset) + bi;
      ai = ai * S(mi->multiplier);
      r = master[size_t(r)];
      if (++steps > n1) throw std::invalid_argument("mimic relations form a cycle");
    }
    c.rootMaster[size_t(i)] = r;
    a[size_t(i)] = ai;
    b[size_t(i)] = bi;
  }
  // Independent coordinates: the q and v entries of every joint that follows no one, in model order.
  std::vector<int> yOfQ(size_t(model.nq), -1), yOfV(size_t(model.nv), -1);
  for (int i = 1; i < n1; ++i) {
    if (c.isFollower(i)) continue;
    const JointModel<S>& J = model.joints[size_t(i)];
    for (int k = 0; k < J.nq; ++k) {
      yOfQ[size_t(J.idx_q + k)] = int(c.independentQ.size());
      c.independentQ.push_back(J.idx_q + k);
    }
    for (int k = 0; k < J.nv; ++k) {
      yOfV[size_t(J.idx_v + k)] = int(c.independentDofs.size());
      c.independentDofs.push_back(J.idx_v + k);
    }
  }
  c.nqy = int(c.independentQ.size());
  c.ny = int(c.independentDofs.size());
  c.column.assign(size_t(model.nv), 0);
  c.multiplier.assign(size_t(model.nv), S(1));
  c.qColumn.assign(size_t(model.nq), 0);
  c.qMultiplier.assign(size_t(model.nq), S(1));
  c.qOffset.assign(size_t(model.nq), S(0));
  for (int i = 1; i < n1; ++i) {
    const JointModel<S>& J = model.joints[size_t(i)];
    const JointModel<S>& R = model.joints[size_t(c.rootMaster[size_t(i)])];
    for (int k = 0; k < J.nq; ++k) {
      c.qColumn[size_t(J.idx_q + k)] = yOfQ[size_t(R.idx_q + k)];
      c.qMultiplier[size_t(J.idx_q + k)] = a[size_t(i)];
      c.qOffset[size_t(J.idx_q + k)] = b[size_t(i)];
    }
    for (int k = 0; k < J.nv; ++k) {
      c.column[size_t(J.idx_v + k)] = yOfV[size_t(R.idx_v + k)];
      c.multiplier[size_t(J.idx_v + k)] = a[size_t(i)];
    }
  }
  return c;
}

// q = G_q y + b: every follower's position from its root master's.
template <class S, class Y, class Q>
void expandPositions(const MimicCouplingTpl<S>& c, const Eigen::MatrixBase<Y>& y, Eigen::MatrixBase<Q>& q) {
  checkSize("y", y.size(), c.nqy);
  for (int i = 0; i < c.nq; ++i) q[i] = c.qMultiplier[size_t(i)] * y[c.qColumn[size_t(i)]] + c.qOffset[size_t(i)];
}
// qd = G yd (and qdd = G ydd: G is constant).
template <class S, class Y, class V>
void expandVelocities(const MimicCouplingTpl<S>& c, const Eigen::MatrixBase<Y>& yd, Eigen::MatrixBase<V>& qd) {
  checkSize("yd", yd.size(), c.ny);
  for (int k = 0; k < c.nv; ++k) qd[k] = c.multiplier[size_t(k)] * yd[c.column[size_t(k)]];
}
// The independent entries of a full q (followers are dropped, not checked).
template <class S, class Q, class Y>
void selectPositions(const MimicCouplingTpl<S>& c, const Eigen::MatrixBase<Q>& q, Eigen::MatrixBase<Y>& y) {
  for (int j = 0; j < c.nqy; ++j) y[j] = q[c.independentQ[size_t(j)]];
}
template <class S, class V, class Y>
void selectVelocities(const MimicCouplingTpl<S>& c, const Eigen::MatrixBase<V>& qd, Eigen::MatrixBase<Y>& yd) {
  for (int j = 0; j < c.ny; ++j) yd[j] = qd[c.independentDofs[size_t(j)]];
}
// tau_y = G^T tau: a force per full dof as the generalized force on the independent coordinates.
template <class S, class T, class Y>
void reduceForces(const MimicCouplingTpl<S>& c, const Eigen::MatrixBase<T>& tau, Eigen::MatrixBase<Y>& tauY) {
  checkSize("tau", tau.size(), c.nv);
  tauY.setZero();
  for (int k = 0; k < c.nv; ++k) tauY[c.column[size_t(k)]] += c.multiplier[size_t(k)] * tau[k];
}
// H_y = G^T H G, O(nv^2) with one non-zero per row of G.
template <class S, class H, class R>
void reduceMassMatrix(const MimicCouplingTpl<S>& c, const Eigen::MatrixBase<H>& M, Eigen::MatrixBase<R>& Hy) {
  Hy.setZero();
  for (int j = 0; j < c.nv; ++j)
    for (int i = 0; i < c.nv; ++i)
      Hy(c.column[size_t(i)], c.column[size_t(j)]) += c.multiplier[size_t(i)] * M(i, j) * c.multiplier[size_t(j)];
}

// The workspace of the reduced algorithms, sized once: no allocation per call (after the first crba,
// which allocates Data::M unless Data::reserveMassMatrix() was called).
template <class S>
struct MimicDataTpl {
  VecX<S> q, qd, qdd;   // the full coordinates, expanded
  VecX<S> tauY, biasY;  // G^T tau, G^T C
  VecX<S> ydd;          // the reduced forward dynamics' result
  MatX<S> Hy;           // G^T H G
  Eigen::LLT<MatX<S>> llt;
  MimicDataTpl() = default;
  explicit MimicDataTpl(const MimicCouplingTpl<S>& c)
      : q(VecX<S>::Zero(c.nq)),
        qd(VecX<S>::Zero(c.nv)),
        qdd(VecX<S>::Zero(c.nv)),
        tauY(VecX<S>::Zero(c.ny)),
        biasY(VecX<S>::Zero(c.ny)),
        ydd(VecX<S>::Zero(c.ny)),
        Hy(MatX<S>::Zero(c.ny, c.ny)),
        llt(c.ny) {}
};
using MimicData = MimicDataTpl<double>;

// tau_y = G^T ID(q(y), G yd, G ydd): the independent coordinates' generalized forces (data.tau holds
// the full-coordinate torques, the followers' included, e.g. for effort limits).
template <class S, class Y, class V, class A>
const VecX<S>& reducedInverseDynamics(const ModelTpl<S>& model, DataTpl<S>& data, const MimicCouplingTpl<S>& c,
                                      MimicDataTpl<S>& w, const Eigen::MatrixBase<Y>& y, const Eigen::MatrixBase<V>& yd,
                                      const Eigen::MatrixBase<A>& ydd, const std::vector<Force<S>>* fext = nullptr) {
  expandPositions(c, y, w.q);
  expandVelocities(c, yd, w.qd);
  expandVelocities(c, ydd, w.qdd);
  rnea(model, data, w.q, w.qd, w.qdd, fext);
  reduceForces(c, data.tau, w.tauY);
  return w.tauY;
}

// H_y(y) = G^T H(q(y)) G.
template <class S, class Y>
const MatX<S>& reducedMassMatrix(const ModelTpl<S>& model, DataTpl<S>& data, const MimicCouplingTpl<S>& c,
                                 MimicDataTpl<S>& w, const Eigen::MatrixBase<Y>& y) {
  expandPositions(c, y, w.q);
  crba(model, data, w.q);
  reduceMassMatrix(c, data.M, w.Hy);
  return w.Hy;
}

// ydd = H_y^-1 (tau_y - G^T C(q, qd)), tau_y per INDEPENDENT dof (a full tau: reduceForces first).
// w.qdd = G ydd afterwards. NaN when H_y is not positive definite (a master that moves no mass).
template <class S, class Y, class V, class T>
const VecX<S>& reducedForwardDynamics(const ModelTpl<S>& model, DataTpl<S>& data, const MimicCouplingTpl<S>& c,
                                      MimicDataTpl<S>& w, const Eigen::MatrixBase<Y>& y, const Eigen::MatrixBase<V>& yd,
                                      const Eigen::MatrixBase<T>& tauY, const std::vector<Force<S>>* fext = nullptr) {
  checkSize("tau_y", tauY.size(), c.ny);
  expandPositions(c, y, w.q);
  expandVelocities(c, yd, w.qd);
  w.qdd.setZero();
  rnea(model, data, w.q, w.qd, w.qdd, fext);  // C = ID(q, qd, 0)
  reduceForces(c, data.tau, w.biasY);
  crba(model, data, w.q);
  reduceMassMatrix(c, data.M, w.Hy);
  w.llt.compute(w.Hy);
  w.ydd = tauY - w.biasY;
  if (w.llt.info() == Eigen::Success)
    w.llt.solveInPlace(w.ydd);
  else
    w.ydd.setConstant(S(std::numeric_limits<double>::quiet_NaN()));
  expandVelocities(c, w.ydd, w.qdd);
  return w.ydd;
}

}  // namespace dyn
