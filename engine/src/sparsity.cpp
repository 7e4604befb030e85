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

namespace {

// The pattern of L in A = L L^T, eliminating the first index first, from the elimination tree (Liu,
// "The role of elimination trees in sparse factorization", 1990): row i of L is the union of the tree
// paths from each k < i with A(i, k) != 0 up to i. O(n^2) to read the dense pattern plus O(nnz(L)):
// eliminating pivot by pivot and coupling its neighbours pairwise costs O(n^3) on a 1,000-dof chain.
SparsityPattern symbolicLLT(const SparsityPattern& A) {
  const int n = int(A.rows());
  std::vector<int> parent(n, -1), ancestor(n, -1), mark(n, -1);
  for (int i = 0; i < n; ++i)  // the elimination tree, with path compression
    for (int k = 0; k < i; ++k) {
      if (!A(i, k)) continue;
      int r = k;
      while (ancestor[r] != -1 && ancestor[r] != i) {
        const int next = ancestor[r];
        ancestor[r] = i;
        r = next;
      }
      if (ancestor[r] == -1) {
        ancestor[r] = i;
        parent[r] = i;
      }
    }
  SparsityPattern L = SparsityPattern::Constant(n, n, false);
  for (int i = 0; i < n; ++i) {
    L(i, i) = true;
    mark[i] = i;
    for (int k = 0; k < i; ++k) {
      if (!A(i, k)) continue;
      for (int j = k; mark[j] != i; j = parent[j]) {  // up the tree until a node of this row
        L(i, j) = true;
        mark[j] = i;
      }
    }
  }
  return L;
}

}  // namespace

SparsityPattern symbolicCholesky(const SparsityPattern& pattern, const std::vector<int>& order, CholeskyForm form) {
  if (pattern.rows() != pattern.cols()) throw std::invalid_argument("pattern: not square");
  const SparsityPattern A = permutePattern(pattern, order);
  if (form == CholeskyForm::LLT) return symbolicLLT(A);
  // L^T L eliminates the last index first: the L L^T pattern of the reversed matrix, read back
  // reversed and transposed (the filled pattern is symmetric).
  const int n = int(A.rows());
  const SparsityPattern LB = symbolicLLT(A.reverse());
  SparsityPattern L(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) L(i, j) = i >= j && LB(n - 1 - j, n - 1 - i);
  return L;
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
