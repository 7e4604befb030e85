// The workspace and results of the closed-loop algorithms (dynscope/loops/): sized once from the
// Model (nv tree dofs, m = model.constraintRows rows), so that the per-step algorithms never
// allocate. One LoopData per thread, used together with a Data of the same model.
#pragma once
#include <vector>

#include "../model/model.hpp"
#include "pivoted_qr.hpp"

namespace dyn {

template <class S>
struct LoopDataTpl {
  // Constraint terms over all m rows (review eqs. 16-17), from loopConstraints().
  VecX<S> phi;     // phi(q): the loop joints' position errors
  MatX<S> Jc;      // phi' = d phi / dq (m x nv): the relative motion across each loop joint
  VecX<S> phiDot;  // phi' qd
  VecX<S> c;       // -phi'dot qd (eq. 17), minus the Baumgarte terms 2 alpha phidot + beta^2 phi when asked
  std::vector<Transform<S>> oXp, oXs;  // per loop joint: F1_X_0 and F2_X_0, the world poses of its two frames

  // The independent rows (eq. 18), from selectLoopRows(): L = rows of phi' (m x nv storage, the
  // first `rank` rows used) and their c; rows[k] is the row of phi that L's row k is.
  PivotedQR<S> qr;  // of phi'^T: also the null space of L (Q's last nv - rank columns)
  int rank = 0;
  std::vector<int> rows;
  bool rowsKnown = false;  // methods 1 and 2 reuse `rows` while they stay independent (see cachedLoopRows)
  MatX<S> L;
  VecX<S> cL;

  // Results of a forward or inverse dynamics solve.
  VecX<S> qdd;     // nv
  VecX<S> lambda;  // the constraint forces of L's rows: tau_c = L^T lambda (eq. 19), the first `rank` entries
  // The last solve met a singular system; qdd is NaN then. (Methods 1 and 3 refuse instead, naming the
  // joint, when a motion the loops allow moves no mass: loop_motion_without_mass.hpp.)
  bool singular = false;

  // Workspaces of the methods.
  MatX<S> Y;     // nv x m: G^-T L^T with M = G^T G (method 2, velocity projection)
  MatX<S> A;     // m x m: L M^-1 L^T (method 2)
  MatX<S> K, W;  // nv x nv: the null-space basis K and M K (method 3)
  MatX<S> KKT;   // (nv + m) square: the augmented matrix of eq. 20 (method 1)
  std::vector<int> piv;
  VecX<S> rhs, t1, t2, t3;

  // Inverse dynamics (loop_inverse_dynamics.hpp): the dependent accelerations from phi' and the
  // actuator torques with the constraint forces from [B phi'^T] (tau_a, lambda) = tau_tree.
  std::vector<int> actuated, independent, dependent;  // the model's dofs, as lists
  MatX<S> JdepT;                                      // phi'[:, dependent]^T
  PivotedQR<S> qrDep;                                 // of JdepT
  MatX<S> Bphi;                                       // [B^T; phi'] ((n_a + m) x nv)
  PivotedQR<S> qrId;                                  // of Bphi
  VecX<S> tau;                                        // nv: actuator torques (0 on passive dofs)
  VecX<S> lambdaAll;  // m: the constraint forces of every row of phi (tau_c = phi'^T lambdaAll)
  VecX<S> x, td;      // n_a + m, n_dep
  S residual = S(0);  // |B tau_a + phi'^T lambda - tau_tree|: > 0 when the actuators cannot make the motion

  LoopDataTpl() = default;
  explicit LoopDataTpl(const ModelTpl<S>& model) {
    const int m = model.constraintRows, n = model.nv;
    phi = phiDot = c = cL = VecX<S>::Zero(m);
    Jc = L = MatX<S>::Zero(m, n);
    oXp.resize(model.loops.size());
    oXs.resize(model.loops.size());
    qr = PivotedQR<S>(n, m);
    rows.assign(size_t(m), 0);
    qdd = VecX<S>::Zero(n);
    lambda = VecX<S>::Zero(m);
    Y = MatX<S>::Zero(n, m);
    A = MatX<S>::Zero(m, m);
    K = W = MatX<S>::Zero(n, n);
    KKT = MatX<S>::Zero(n + m, n + m);
    piv.assign(size_t(n + m), 0);
    rhs = VecX<S>::Zero(n + m);
    t1 = t2 = VecX<S>::Zero(n);
    t3 = VecX<S>::Zero(m);
    actuated = model.actuatedDofs();
    independent = model.independentDofs();
    dependent = model.dependentDofs;
    const int na = int(actuated.size()), nd = int(dependent.size());
    JdepT = MatX<S>::Zero(nd, m);
    qrDep = PivotedQR<S>(nd, m);
    Bphi = MatX<S>::Zero(na + m, n);
    qrId = PivotedQR<S>(na + m, n);
    tau = VecX<S>::Zero(n);
    lambdaAll = VecX<S>::Zero(m);
    x = VecX<S>::Zero(na + m);
    td = VecX<S>::Zero(nd);
  }
};

using LoopData = LoopDataTpl<double>;

}  // namespace dyn
