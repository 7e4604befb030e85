// The closed-loop part of IkSolver (dynscope/ik/ik_solver.hpp): steps restricted to the motions the
// mechanism can make, phi' dq = -phi (review §3.4, eqs. 16-18), with the locked and limit-stopped
// dofs as further rows, and the re-assembly of each trial configuration.
#include "dynscope/ik/ik_solver.hpp"
#include "dynscope/loops/loop_constraints.hpp"

namespace dyn {

// C = [phi'; e_v^T for the locked and stopped dofs v], d = [-phi; 0 or the stopped dof's move to its
// limit]. From the column-pivoted QR of C^T = Q R: the minimum-norm dq_p with C dq_p = d (into
// fixed_, which the normal equations already subtract: e - J fixed_) and T = Q diag(0_r, 1) Q^T,
// the orthogonal projector onto null(C), column by column. Needs ld_'s phi and phi' at q.
void IkSolver::constrainStep() {
  const int nv = model_.nv, m = model_.constraintRows;
  Ct_.setZero();
  Ct_.leftCols(m) = ld_.Jc.transpose();
  d_.head(m) = -ld_.phi;
  d_.tail(nv).setZero();
  for (int v = 0; v < nv; ++v)
    if (locked_[v] || blocked_[v]) {
      Ct_(v, m + v) = 1;
      if (blocked_[v]) d_[m + v] = limitMove_[v];
    }
  const int r = cqr_.compute(Ct_, 1e-10);
  cqr_.solveTransposedMinNorm(d_, fixed_);
  for (int k = 0; k < nv; ++k) {
    tmp_.setZero();
    tmp_[k] = 1;
    cqr_.applyQt(tmp_);
    tmp_.head(r).setZero();
    cqr_.applyQ(tmp_);
    T_.col(k) = tmp_;
  }
}

// Both levels' normal equations in the null space of C: (J T)^T (J T) = T H T and (J T)^T e = T g.
// Their damped solutions (H + lambda 1) y = g then lie in T's range (H and g vanish outside it).
void IkSolver::projectSystem() {
  for (auto [H, g] : {std::pair{&H_, &g_}, std::pair{&H1_, &g1_}}) {
    M_.noalias() = *H * T_;
    H->noalias() = T_ * M_;  // T is symmetric
    tmp_.noalias() = T_ * *g;
    *g = tmp_;
  }
}

bool IkSolver::closeLoops(VecX<double>& q, bool independent, int restarts) {
  assembly_.held.clear();  // reserved for nv entries: no allocation
  for (int v = 0; v < model_.nv; ++v)
    if (locked_[v] || blocked_[v] || (independent && model_.isIndependent(v))) assembly_.held.push_back(v);
  assembly_.restarts = restarts;
  const AssemblyResult& r = assembler_->solve(q, assembly_);
  if (!r.converged || !r.q.allFinite()) return false;
  q = r.q;
  return true;
}

}  // namespace dyn
