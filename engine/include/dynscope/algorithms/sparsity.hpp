// Branch-induced sparsity of the joint-space inertia matrix (Featherstone Part 2, eq. 45):
// H_ij = 0 unless dof i is an ancestor of dof j or j of i on the dof tree (model.dofParent).
// Also the symbolic fill-in of a dense Cholesky factorisation under a renumbering, to show why
// factorLTL (ltl.hpp) needs none: with lambda(i) < i, eliminating from the last dof only ever
// couples ancestors, which are already coupled.
#pragma once
#include <Eigen/Core>
#include <stdexcept>
#include <string>
#include <vector>

#include "../model/model.hpp"

namespace dyn {

using SparsityPattern = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>;

// How dof i relates to dof j (i ancestor of j: i lies on j's path to the root).
enum class DofRelation { SameDof, SameJoint, Ancestor, Descendant, DifferentBranches };
const char* dofRelationName(DofRelation r);  // "same dof", "same joint", "ancestor", ...
inline bool structurallyNonZero(DofRelation r) { return r != DofRelation::DifferentBranches; }

// Which end the elimination starts from. LTL: A = L^T L, last index first (Featherstone's
// factorisation, ltl.hpp). LLT: A = L L^T, first index first (the textbook / Eigen Cholesky).
// In both, L is lower triangular.
enum class CholeskyForm { LTL, LLT };

namespace detail {
template <class S>
void checkDof(const ModelTpl<S>& model, int dof, const char* arg) {
  if (dof < 0 || dof >= model.nv)
    throw std::out_of_range(std::string(arg) + " = " + std::to_string(dof) + " is not a dof of model '" + model.name +
                            "' (nv = " + std::to_string(model.nv) + ")");
}
template <class S>
bool isDofAncestor(const ModelTpl<S>& model, int a, int b) {
  while (b > a) b = model.dofParent[b];  // dofParent[k] < k
  return a == b;
}
}  // namespace detail

template <class S>
DofRelation dofRelation(const ModelTpl<S>& model, int i, int j) {
  detail::checkDof(model, i, "i");
  detail::checkDof(model, j, "j");
  if (i == j) return DofRelation::SameDof;
  if (model.dofBody[i] == model.dofBody[j]) return DofRelation::SameJoint;
  if (detail::isDofAncestor(model, i, j)) return DofRelation::Ancestor;
  if (detail::isDofAncestor(model, j, i)) return DofRelation::Descendant;
  return DofRelation::DifferentBranches;
}

// nv x nv, true where H may be non-zero: the ancestor relation on dofs (eq. 45). The dofs of a
// multi-dof joint form a chain in dofParent, so they are mutually related.
template <class S>
SparsityPattern structuralPattern(const ModelTpl<S>& model) {
  SparsityPattern P = SparsityPattern::Constant(model.nv, model.nv, false);
  for (int j = 0; j < model.nv; ++j)
    for (int i = j; i >= 0; i = model.dofParent[i]) P(i, j) = P(j, i) = true;  // i in kappa(j)
  return P;
}

// A dof permutation numbering the tree breadth-first: order[k] = the model dof put at position k.
// Bodies are visited level by level (children in model order), each joint's dofs kept together.
template <class S>
std::vector<int> breadthFirstOrder(const ModelTpl<S>& model) {
  std::vector<std::vector<int>> children(model.N + 1);
  for (int i = 1; i <= model.N; ++i) children[model.parent[i]].push_back(i);
  std::vector<int> queue = children[0], order;
  order.reserve(model.nv);
  for (size_t h = 0; h < queue.size(); ++h) {
    const int b = queue[h];
    for (int k = 0; k < model.joints[b].nv; ++k) order.push_back(model.joints[b].idx_v + k);
    queue.insert(queue.end(), children[b].begin(), children[b].end());
  }
  return order;
}

// Checks that order is a permutation of 0..n-1 (throws std::invalid_argument naming `what`).
void checkPermutation(const std::vector<int>& order, int n, const char* what = "permutation");

// P A P^T for order: result(a, b) = A(order[a], order[b]).
SparsityPattern permutePattern(const SparsityPattern& pattern, const std::vector<int>& order);
Eigen::MatrixXd permuteSymmetric(const Eigen::MatrixXd& A, const std::vector<int>& order);

// Symbolic dense Cholesky of P A P^T: the lower-triangular pattern (diagonal included) of L.
SparsityPattern symbolicCholesky(const SparsityPattern& pattern, const std::vector<int>& order,
                                 CholeskyForm form = CholeskyForm::LTL);
// Fill-in, in the new numbering: strictly lower entries of L that are structurally zero in P A P^T.
SparsityPattern choleskyFillIn(const SparsityPattern& pattern, const std::vector<int>& order,
                               CholeskyForm form = CholeskyForm::LTL);

// Numeric dense factor L of an SPD matrix (no sparsity assumed), in the given form.
// Throws std::invalid_argument naming `what` if A is not square or not positive definite.
Eigen::MatrixXd denseCholesky(const Eigen::MatrixXd& A, CholeskyForm form, const char* what = "H");

}  // namespace dyn
