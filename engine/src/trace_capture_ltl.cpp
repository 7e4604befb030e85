// What a lecture shows of CRBA forward dynamics (Featherstone Part 2, eqs. 36-37) after H:
// the right-hand side tau - C, the sparse factorisation H = L^T L and the two triangular solves
// (Featherstone 2005, cited in Part 2). Indices are 1-based dofs, as in the paper.
#include "trace_captures.hpp"

namespace dyn::trace_capture {
namespace {

std::string entry(const char* name, int r, int c) {
  return std::string(name) + "_{" + dofLabel(r) + "," + dofLabel(c) + "}";
}

// The dof's ancestors (lambda(k), lambda(lambda(k)), ...), nearest first.
std::vector<int> ancestors(const Model& m, int k) {
  std::vector<int> a;
  for (int i = m.dofParent[k]; i >= 0; i = m.dofParent[i]) a.push_back(i);
  return a;
}

}  // namespace

void fdRightHandSide(TraceRecorder& rec, StepBuilder& b, int) {
  const Data& d = rec.data();
  const Eigen::MatrixXd& tau = rec.argument(TraceAlgorithm::ForwardDynamicsCrba, 2);
  const int ttau = b.show(vectorTerm("**τ**", tau.col(0)));
  const int tC = b.write(vectorTerm("**C**", d.tau, "C", -1));
  const int tb = b.write(vectorTerm("**b**", d.qdd, "b", -1));
  b.line("**C** = ID(q, q̇, **0**),   **b** = **τ** − **C**   (then **H** q̈ = **b**)",
         "Featherstone Part 2, eqs. 36–37 (C from the RNEA steps with q̈ = 0)", {tb, "=", ttau, "−", tC});
}

// Step k writes row k of L (a patch of those entries; it also updates the block of k's ancestors in
// place, shown in words: on a chain that is O(n^2) numbers per step).
void ltlFactor(TraceRecorder& rec, StepBuilder& b, int k) {
  const Model& m = rec.model();
  const Eigen::Map<const Eigen::MatrixXd> L = rec.view("L");
  const int tHkk = b.show(scalarTerm(entry("H", k, k), rec.locals().at(0).value(0, 0)));
  const int tLkk = b.show(scalarTerm(entry("L", k, k), L(k, k)));
  b.line("L_{kk} = √H_{kk}", "Featherstone 2005, LᵀL factorisation (tips first)", {tLkk, "=", "√", tHkk});
  const std::vector<int> up = ancestors(m, k);
  std::vector<std::pair<int, int>> entries{{k, k}};
  for (int i : up) entries.emplace_back(k, i);
  if (up.empty()) {
    b.line("λ(k) = −1: dof k has no ancestor, its row of L is complete", "", {});
  } else {
    std::vector<StepBuilder::Token> row;
    for (size_t a = 0; a < up.size() && a < size_t(kShownAtMost); ++a) {
      if (!row.empty()) row.push_back(",");
      row.push_back(b.show(scalarTerm(entry("L", k, up[a]), L(k, up[a]))));
    }
    if (up.size() > size_t(kShownAtMost)) row.insert(row.end(), {"\n", moreAncestors(int(up.size()) - kShownAtMost)});
    b.line("L_{ki} = H_{ki} / L_{kk}   for i = λ(k), λ(λ(k)), …", "Featherstone 2005 (no fill-in: ancestors only)",
           row);
    b.line("H_{ij} = H_{ij} − L_{ki} L_{kj}   for the ancestors i, j of k (j an ancestor of i)",
           "Featherstone 2005: the remaining block, updated in place", {});
  }
  b.write(patchTerm("**L**", "L", -1, std::move(entries), L));
}

// x_i, then x_j for the ancestors j of i.
void ltlSolveTranspose(TraceRecorder& rec, StepBuilder& b, int i) {
  const Eigen::Map<const Eigen::MatrixXd> x = rec.view("x");
  const int txi = b.show(scalarTerm("x_{" + dofLabel(i) + "}", x(i, 0)));
  b.line("x_{i} = x_{i} / L_{ii},   x_{j} = x_{j} − L_{ij} x_{i}   for j = λ(i), λ(λ(i)), …",
         "Featherstone 2005, back-substitution Lᵀ**y** = **b** (from the last dof to the first)", {txi});
  std::vector<std::pair<int, int>> entries{{i, 0}};
  for (int j : ancestors(rec.model(), i)) entries.emplace_back(j, 0);
  b.write(patchTerm("**x**", "x", -1, std::move(entries), x));
}

void ltlSolve(TraceRecorder& rec, StepBuilder& b, int i) {
  const Eigen::Map<const Eigen::MatrixXd> x = rec.view("x");
  const int txi = b.show(scalarTerm("q̈_{" + dofLabel(i) + "} = x_{" + dofLabel(i) + "}", x(i, 0)));
  b.line("x_{i} = (x_{i} − Σ_{j} L_{ij} x_{j}) / L_{ii}   over j = λ(i), λ(λ(i)), …",
         "Featherstone 2005, forward substitution L**x** = **y** (from the first dof to the last); **x** = q̈", {txi});
  b.write(patchTerm("**x**", "x", -1, {{i, 0}}, x));
}

}  // namespace dyn::trace_capture
