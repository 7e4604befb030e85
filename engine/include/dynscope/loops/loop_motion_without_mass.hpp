// Closed-loop forward dynamics has no answer when a motion that the loops allow moves no mass: the
// mass matrix on the loops' free motions, K^T M K (K: a basis of the null space of L, review §3.4,
// eq. 22), is singular. A massless link hanging from a loop does it, or a mechanism whose moving
// links have no mass. Methods 1 (eq. 20) and 3 (eq. 22) meet it as a failed factorization; method 2
// (eq. 21) already at M = G^T G, where the pivot names the joint. This names the joint for methods 1
// and 3: on the refusal path only (it allocates), it finds the motion (the eigenvector of the
// smallest eigenvalue of K^T M K) and names the joint with its largest component.
#pragma once
#include <Eigen/Eigenvalues>
#include <algorithm>

#include "../algorithms/pivot_check.hpp"
#include "loop_data.hpp"

namespace dyn {

// After a method found its system singular, with ld's QR of phi'^T current (rank rows chosen afresh):
// throws ForwardDynamicsError naming the joint that leads the motion without mass. Returns when there
// is no such motion (no free motion at all, or K^T M K is regular: the singularity lies elsewhere).
template <class S>
void refuseMotionWithoutMass(const ModelTpl<S>& model, const MatX<S>& M, const LoopDataTpl<S>& ld) {
  const int n = model.nv, r = ld.rank, f = n - r;
  if (f <= 0) return;
  MatX<S> K = MatX<S>::Zero(n, f);  // K = Q [0; 1]: the loops' free motions, orthonormal columns
  for (int j = 0; j < f; ++j) {
    K(r + j, j) = S(1);
    ld.qr.applyQ(K.col(j));
  }
  const auto value = [](const S& x) { return pivotValue(x); };
  const Eigen::MatrixXd Kd = K.unaryExpr(value), Md = M.unaryExpr(value);
  const Eigen::MatrixXd KMK = Kd.transpose() * Md * Kd;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(KMK);  // ascending eigenvalues
  const double smallest = eig.eigenvalues()[0], largest = std::max(eig.eigenvalues()[f - 1], 0.0);
  const double floor = 1e-12 * largest;  // the factorizations' tolerances are relative too
  if (smallest > floor) return;
  const Eigen::VectorXd motion = Kd * eig.eigenvectors().col(0);  // qd of the motion without mass
  int k = 0;
  motion.cwiseAbs().maxCoeff(&k);
  const int body = model.dofBody[k];
  throwNonPositivePivot(pivotContext(model), body, k - model.joints[body].idx_v, model.joints[body].nv,
                        smallest < -floor ? smallest : 0.0, PivotSource::Loops);
}

}  // namespace dyn
