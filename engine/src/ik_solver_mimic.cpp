// Mimic joints in the IK solver (ik_solver.hpp; docs/mimic.md): the independent coordinates y with
// q = G_q y + b, qd = G yd (dynscope/model/mimic_coupling.hpp). G has one non-zero per row, so J G
// and G dy are column and entry copies, not products.
#include "dynscope/ik/ik_solver.hpp"

namespace dyn {

// J <- J G: a follower's column, times its multiplier, joins its root master's; its own is dropped.
void IkSolver::foldFollowerColumns() {
  for (int v = 0; v < model_.nv; ++v) {
    const int m = masterDof_[size_t(v)];
    if (m < 0) continue;
    J_.col(m) += gain_[size_t(v)] * J_.col(v);
    J_.col(v).setZero();
  }
}

// v <- G (v's independent entries): each follower's entry from its root master's.
void IkSolver::spreadToFollowers(VecX<double>& v) const {
  for (int k = 0; k < model_.nv; ++k)
    if (const int m = masterDof_[size_t(k)]; m >= 0) v[k] = gain_[size_t(k)] * v[m];
}

// q <- G_q y + b, y the independent entries of q.
void IkSolver::enforceMimic(VecX<double>& q) {
  selectPositions(coupling_, q, y_);
  expandPositions(coupling_, y_, q);
}

}  // namespace dyn
