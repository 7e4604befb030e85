// What a lecture shows of the Lagrangian formulations that sum over bodies (Hollerbach 1980): Waters'
// (eq. 6 with the recurrences 8-10) and Uicker/Kahn's (eqs. 3-5), as waters_lagrangian.hpp and
// uicker_kahn_lagrangian.hpp run them, one step per body j of each loop. The generalized forces are
// one vector F that every body j adds to along its path: each step writes its entries (a patch).
// Only the first few matrices of a path are shown (kShownAtMost); every one is in the workspace.
#include "dynscope/formulations/uicker_kahn_lagrangian.hpp"
#include "dynscope/formulations/waters_lagrangian.hpp"
#include "trace_captures.hpp"

namespace dyn::trace_capture {
namespace {

using Eigen::MatrixXd;

std::string eq(const std::string& which) { return std::string(kHollerbach) + ", " + which; }

std::string pre(int k, const char* name, int j) {
  return "^{" + std::to_string(k) + "}" + name + "_{" + std::to_string(j) + "}";
}

// Shows a matrix per joint on the path of j (up to kShownAtMost) as one line of tokens.
template <class Symbol, class Value>
std::vector<StepBuilder::Token> pathMatrices(StepBuilder& b, int count, Symbol symbol, Value value) {
  std::vector<StepBuilder::Token> tokens;
  for (int a = 0; a < count && a < kShownAtMost; ++a) tokens.push_back(b.show(matrixTerm(symbol(a), value(a))));
  if (count > kShownAtMost) tokens.insert(tokens.end(), {"\n", moreAncestors(count - kShownAtMost)});
  return tokens;
}

// Body j's terms of F_i for the joints i on its path: the change of each entry, then the patch.
void sumStep(TraceRecorder& rec, StepBuilder& b, int j, const TreePaths& P, const VecX<double>& tau,
             const char* equation, const std::string& reference) {
  const Model& m = rec.model();
  const TraceTerm* before = rec.previous("tau", -1);
  const int tJ = b.show(matrixTerm(indexed("J", j), pseudoInertia(m.I[j])));
  const int tmr =
      b.show(vectorTerm("m_{" + std::to_string(j) + "} r_{" + std::to_string(j) + "}", firstMoment4(m.I[j])));
  std::vector<std::pair<int, int>> entries;
  std::vector<StepBuilder::Token> terms;
  for (int a = 0; a < P.depth[j]; ++a) {
    const int i = P.at(j, a), dof = m.joints[i].idx_v;
    entries.emplace_back(dof, 0);
    if (a >= kShownAtMost) continue;
    const double added = tau[dof] - (before ? before->value(dof, 0) : 0.0);
    if (!terms.empty()) terms.push_back(",");
    terms.push_back(b.show(scalarTerm("F_{" + std::to_string(i) + "} += ", added)));
  }
  if (P.depth[j] > kShownAtMost) terms.insert(terms.end(), {"\n", moreAncestors(P.depth[j] - kShownAtMost)});
  std::vector<StepBuilder::Token> all{tJ, tmr, "\n"};
  all.insert(all.end(), terms.begin(), terms.end());
  b.line(equation, reference, all);
  b.write(patchTerm("**F**", "tau", -1, std::move(entries), tau));
}

}  // namespace

// ---- Waters ---------------------------------------------------------------------------------

// Eqs. 8-10 for body j, and dW_j/dq_i = dW_{j-1}/dq_i A_j for the joints i above it.
void watersRecurrence(TraceRecorder& rec, StepBuilder& b, int j) {
  const Model& m = rec.model();
  const auto& ws = rec.workspace<WatersWorkspace<double>>();
  const TreePaths& P = ws.paths;
  const int o = P.offset[j], dj = P.depth[j];
  const JointModel<double>& J = m.joints[j];
  const LagrangianLink k{j,
                         m.parent[j],
                         ws.A[j],
                         ws.dA[j],
                         ws.d2A[j],
                         ws.W[j],
                         ws.U[o + dj - 1],
                         ws.Wd[j],
                         ws.Wdd[j],
                         rec.qd()[J.idx_v],
                         rec.accelerationsOrForces()[J.idx_v]};
  lagrangianRecurrences(rec, b, k, true);
  if (dj < 2) return;
  b.line("∂W_{j}/∂q_{i} = ∂W_{j−1}/∂q_{i} A_{j}   for the joints i above j",
         eq("eq. 5 (the same recurrence: one 4×4 product per term, the n² of Table I)"),
         pathMatrices(
             b, dj - 1, [&](int a) { return partialSymbol("W", j, P.at(j, a)); },
             [&](int a) { return MatrixXd(ws.U[o + a]); }));
}

// Eq. 6, body j's terms.
void watersSum(TraceRecorder& rec, StepBuilder& b, int j) {
  const auto& ws = rec.workspace<WatersWorkspace<double>>();
  sumStep(rec, b, j, ws.paths, ws.tau,
          "F_{i} += tr(∂W_{j}/∂q_{i} J_{j} Ẅ_{j}^{T}) − m_{j} g^{T} ∂W_{j}/∂q_{i} r_{j}   for each joint i ≤ j",
          eq("eq. 6 (the sum over j ≥ i, taken body by body; J_{j} Ẅ_{j}^{T} formed once)"));
}

// ---- Uicker/Kahn ----------------------------------------------------------------------------

void ukPoses(TraceRecorder& rec, StepBuilder& b, int j) {
  const auto& ws = rec.workspace<UickerKahnWorkspace<double>>();
  const TreePaths& P = ws.paths;
  const int o = P.offset[j], dj = P.depth[j];
  const int tW = b.write(matrixTerm(indexed("W", j), ws.W[j], "W", j));
  b.line("W_{j} = W_{j−1} A_{j}", eq("eq. 3"), {tW});
  if (dj < 2) return;
  b.line("^{k}W_{j} = ^{k}W_{j−1} A_{j}   for the joints k above j (^{j−1}W_{j} = A_{j})",
         eq("eq. 3: 'the terms ^{k}W_{j} were computed first and stored'"),
         pathMatrices(
             b, dj - 1, [&](int a) { return pre(P.at(j, a), "W", j); }, [&](int a) { return MatrixXd(ws.kW[o + a]); }));
}

void ukFirstDerivatives(TraceRecorder& rec, StepBuilder& b, int j) {
  const auto& ws = rec.workspace<UickerKahnWorkspace<double>>();
  const TreePaths& P = ws.paths;
  const int o = P.offset[j], dj = P.depth[j];
  const int tU = b.write(matrixTerm(partialSymbol("W", j, j), ws.U[o + dj - 1], "∂W/∂q", j));
  b.line("∂W_{j}/∂q_{j} = W_{j−1} ∂A_{j}/∂q_{j}", eq("eq. 5, first line (k = j)"), {tU});
  if (dj < 2) return;
  b.line("∂W_{j}/∂q_{k} = W_{k−1} ∂A_{k}/∂q_{k} ^{k}W_{j}   for the joints k above j", eq("eq. 5, first line"),
         pathMatrices(
             b, dj - 1, [&](int a) { return partialSymbol("W", j, P.at(j, a)); },
             [&](int a) { return MatrixXd(ws.U[o + a]); }));
}

void ukSecondFactors(TraceRecorder& rec, StepBuilder& b, int l) {
  const Model& m = rec.model();
  const auto& ws = rec.workspace<UickerKahnWorkspace<double>>();
  const TreePaths& P = ws.paths;
  const std::string L = std::to_string(l), Lp = std::to_string(m.parent[l]);
  const int tG = b.write(matrixTerm("W_{" + Lp + "} ∂²A_{" + L + "}/∂q_{" + L + "}²", ws.G2[l], "W ∂²A", l));
  b.line("W_{l−1} ∂²A_{l}/∂q_{l}²", eq("eq. 5, third line (k = l): its first factor"), {tG});
  if (P.depth[l] < 2) return;
  b.line("∂W_{l−1}/∂q_{k} ∂A_{l}/∂q_{l}   for the joints k above l", eq("eq. 5, second line: its first factors"),
         pathMatrices(
             b, P.depth[l] - 1,
             [&](int a) { return partialSymbol("W", m.parent[l], P.at(l, a)) + " ∂A_{" + L + "}/∂q_{" + L + "}"; },
             [&](int a) { return MatrixXd(ws.H[P.offset[l] + a]); }));
}

void ukSecondDerivatives(TraceRecorder& rec, StepBuilder& b, int j) {
  const auto& ws = rec.workspace<UickerKahnWorkspace<double>>();
  const TreePaths& P = ws.paths;
  const int dj = P.depth[j], ov = ws.vOffset[j];
  const std::string J = std::to_string(j);
  const int tV =
      b.write(matrixTerm("∂²W_{" + J + "}/∂q_{" + J + "}²", ws.V[ov + (dj - 1) * dj + (dj - 1)], "∂²W/∂q²", j));
  b.line(
      "∂²W_{j}/∂q_{k}∂q_{l} = W_{k−1} ∂A_{k}/∂q_{k} ^{k}W_{l−1} ∂A_{l}/∂q_{l} ^{l}W_{j} (k < l),  W_{k−1} "
      "∂²A_{k}/∂q_{k}² ^{k}W_{j} (k = l)",
      eq("eq. 5, second and third lines: " + std::to_string(dj * dj) + " matrices stored for body " + J), {tV});
  if (dj < 2) return;
  // The pairs k <= l in order, the first few shown.
  std::vector<std::pair<int, int>> pairs;
  for (int c = 0; c < dj; ++c)
    for (int a = 0; a <= c; ++a) pairs.emplace_back(a, c);
  b.line("…  (symmetric in k and l)", "",
         pathMatrices(
             b, int(pairs.size()),
             [&](int n) {
               return "∂²W_{" + J + "}/∂q_{" + std::to_string(P.at(j, pairs[n].first)) + "}∂q_{" +
                      std::to_string(P.at(j, pairs[n].second)) + "}";
             },
             [&](int n) { return MatrixXd(ws.V[ov + pairs[n].first * dj + pairs[n].second]); }));
}

void ukSum(TraceRecorder& rec, StepBuilder& b, int j) {
  const auto& ws = rec.workspace<UickerKahnWorkspace<double>>();
  sumStep(rec, b, j, ws.paths, ws.tau,
          "F_{i} += Σ_{k≤j} tr(U_{ji} J_{j} U_{jk}^{T}) q̈_{k} + Σ_{k≤j} Σ_{l≤j} tr(U_{ji} J_{j} U_{jkl}^{T}) q̇_{k} "
          "q̇_{l} − m_{j} g^{T} U_{ji} r_{j}   for each joint i ≤ j",
          eq("eq. 4 (the outer sum over j ≥ i, taken body by body; U_{ji} J_{j} formed once per (i, j))"));
}

}  // namespace dyn::trace_capture
