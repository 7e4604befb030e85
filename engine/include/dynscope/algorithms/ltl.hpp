// Sparse factorisation H = L^T L of the joint-space inertia matrix (Featherstone, "Efficient
// factorization of the JSIM for branched kinematic trees", 2005; cited in Part 2): with
// lambda(i) < i the factor has no fill-in, so only ancestor pairs are visited.
#pragma once
#include "../model/model.hpp"

namespace dyn {

// In place: the lower triangle of H (ancestor entries) becomes L; the rest is left untouched.
template <class S> void factorLTL(const ModelTpl<S>& model, MatX<S>& H) {
  using std::sqrt;
  const std::vector<int>& lambda = model.dofParent;
  for (int k = model.nv - 1; k >= 0; --k) {
    H(k, k) = sqrt(H(k, k));                                               // L_kk = sqrt(H_kk)
    for (int i = lambda[k]; i >= 0; i = lambda[i]) H(k, i) /= H(k, k);     // L_ki = H_ki / L_kk
    for (int i = lambda[k]; i >= 0; i = lambda[i])
      for (int j = i; j >= 0; j = lambda[j]) H(i, j) -= H(k, i) * H(k, j); // H_ij -= L_ki L_kj
  }
}

// Solves (L^T L) x = b in place, given L from factorLTL.
template <class S, class B> void solveLTL(const ModelTpl<S>& model, const MatX<S>& L, Eigen::MatrixBase<B>& x) {
  const std::vector<int>& lambda = model.dofParent;
  for (int i = model.nv - 1; i >= 0; --i) {  // L^T y = b
    x[i] /= L(i, i);
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[j] -= L(i, j) * x[i];
  }
  for (int i = 0; i < model.nv; ++i) {  // L x = y
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[i] -= L(i, j) * x[j];
    x[i] /= L(i, i);
  }
}

}  // namespace dyn
