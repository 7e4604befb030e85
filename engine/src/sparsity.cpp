// Permutations, symbolic elimination and the dense reference factorisation (sparsity.hpp).
#include "dynscope/algorithms/sparsity.hpp"

#include <Eigen/Cholesky>

namespace dyn {

const char* dofRelationName(DofRelation r) {
  switch (r) {
    case DofRelation::SameDof:
      return "same dof";
    case DofRelation::SameJoint:
      return "same joint";
    case DofRelation::Ancestor:
      return "ancestor";
    case DofRelation::Descendant:
      return "descendant";
    case DofRelation::DifferentBranches:
      return "different branches";
  }
  return "?";
}

void checkPermutation(const std::vector<int>& order, int n, const char* what) {
  if ((int)order.size() != n)
    throw std::invalid_argument(std::string(what) + ": size " + std::to_string(order.size()) + ", expected " +
                                std::to_string(n));
  std::vector<bool> seen(n, false);
  for (int k : order) {
    if (k < 0 || k >= n || seen[k])
      throw std::invalid_argument(std::string(what) + ": entry " + std::to_string(k) + " is out of range or repeated");
    seen[k] = true;
  }
}

SparsityPattern permutePattern(const SparsityPattern& pattern, const std::vector<int>& order) {
  const int n = (int)pattern.rows();
  checkPermutation(order, n, "order");
  SparsityPattern R(n, n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) R(a, b) = pattern(order[a], order[b]);
  return R;
}

Eigen::MatrixXd permuteSymmetric(const Eigen::MatrixXd& A, const std::vector<int>& order) {
  const int n = (int)A.rows();
  checkPermutation(order, n, "order");
  Eigen::MatrixXd R(n, n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) R(a, b) = A(order[a], order[b]);
  return R;
}

SparsityPattern symbolicCholesky(const SparsityPattern& pattern, const std::vector<int>& order, CholeskyForm form) {
  if (pattern.rows() != pattern.cols()) throw std::invalid_argument("pattern: not square");
  SparsityPattern A = permutePattern(pattern, order);
  const int n = (int)A.rows();
  // Eliminating pivot k couples every pair of its not-yet-eliminated neighbours (the Schur
  // complement update A_ij -= A_ik A_kj / A_kk): that is where fill appears.
  std::vector<int> nb;
  for (int step = 0; step < n; ++step) {
    const int k = form == CholeskyForm::LLT ? step : n - 1 - step;
    nb.clear();
    for (int i = 0; i < n; ++i)
      if (i != k && A(i, k) && (form == CholeskyForm::LLT ? i > k : i < k)) nb.push_back(i);
    for (int i : nb)
      for (int j : nb) A(i, j) = true;
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) A(i, j) = false;  // keep the lower triangle: L
  return A;
}

SparsityPattern choleskyFillIn(const SparsityPattern& pattern, const std::vector<int>& order, CholeskyForm form) {
  const SparsityPattern L = symbolicCholesky(pattern, order, form);
  const SparsityPattern A = permutePattern(pattern, order);
  const int n = (int)A.rows();
  SparsityPattern F = SparsityPattern::Constant(n, n, false);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) F(i, j) = L(i, j) && !A(i, j);
  return F;
}

Eigen::MatrixXd denseCholesky(const Eigen::MatrixXd& A, CholeskyForm form, const char* what) {
  if (A.rows() != A.cols())
    throw std::invalid_argument(std::string(what) + ": not square (" + std::to_string(A.rows()) + "x" +
                                std::to_string(A.cols()) + ")");
  if (!A.allFinite()) throw std::invalid_argument(std::string(what) + ": contains NaN or infinity");
  // L^T L of A is the L L^T of the reversed matrix J A J, read back reversed and transposed.
  const bool reverse = form == CholeskyForm::LTL;
  const Eigen::MatrixXd B = reverse ? Eigen::MatrixXd(A.reverse()) : A;
  Eigen::LLT<Eigen::MatrixXd> llt(B);
  if (llt.info() != Eigen::Success)
    throw std::invalid_argument(std::string(what) + ": not positive definite, no Cholesky factor");
  const Eigen::MatrixXd Lb = llt.matrixL();
  return reverse ? Eigen::MatrixXd(Lb.transpose().reverse()) : Lb;
}

}  // namespace dyn
