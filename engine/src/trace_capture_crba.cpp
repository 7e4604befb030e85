// What a lecture shows of each CRBA step (Featherstone Part 2, Fig. 7, eqs. 46-48), link coordinates.
#include "trace_captures.hpp"

namespace dyn::trace_capture {
namespace {

std::string compositeSymbol(int i) { return "**I**^{c}_{" + std::to_string(i) + "}"; }

// "H_{3,2}" with 1-based dofs (for one-dof joints the body numbers of the paper).
std::string entrySymbol(int row, int col) { return "H_{" + dofLabel(row) + "," + dofLabel(col) + "}"; }

}  // namespace

// Fig. 7 line 7 for body i: its composite inertia is complete and is added to its parent's (eq. 46).
void crbaComposite(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const Data& d = rec.data();
  const int lambda = m.parent[i];
  const TraceTerm* before = rec.previous("IC", lambda);
  const int tBefore =
      b.show(inertiaTerm(compositeSymbol(lambda) + " (before)",
                         before ? Mat6<double>(before->value) : Mat6<double>::Zero(), TraceFrame::Link));
  const int tMoved =
      b.show(inertiaTerm(transformSymbol(lambda, i, true) + " " + compositeSymbol(i) + " " + transformSymbol(i, lambda),
                         d.IC[i].transformToA(d.Xup[i]).toMatrix(), TraceFrame::Link));
  const int tAfter =
      b.write(inertiaTerm(compositeSymbol(lambda), d.IC[lambda].toMatrix(), TraceFrame::Link, "IC", lambda));
  b.line("**I**^{c}_{λ(i)} = **I**^{c}_{λ(i)} + ^{λ(i)}**X**_{i}^{*} **I**^{c}_{i} ^{i}**X**_{λ(i)}",
         "Featherstone Part 2, eq. 46 (Fig. 7 line 7)", {tAfter, "=", tBefore, "\n", "+", tMoved});
}

// Fig. 7 lines 9-16 for body i: f = IC_i S_i, H_ii, then up the tree H_ij = f^T S_j (eqs. 47-48).
// The step writes the entries of H it computed (a patch); the walk shows its first ancestors.
void crbaColumn(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const Data& d = rec.data();
  const JointModel<double>& Ji = m.joints[i];
  const int tIC = b.show(inertiaTerm(compositeSymbol(i), d.IC[i].toMatrix(), TraceFrame::Link));
  const int tSi = b.show(subspaceTerm(indexed("**S**", i), &d.S[Ji.idx_v], Ji.nv, TraceFrame::Link));
  std::vector<std::pair<int, int>> entries;
  // The locals are the force f after each move, in order: at body i for each of its columns, then
  // at every ancestor j.
  int column = -1, shown = 0, hidden = 0;
  std::vector<StepBuilder::Token> walk;
  for (const TraceTerm& local : rec.locals()) {
    const int j = local.index;
    const Force<double> f = Force<double>::fromVector(local.value);
    if (j == i) {  // a new column of joint i
      ++column;
      const int row = Ji.idx_v + column;
      const int tf =
          b.show(forceTerm("^{" + std::to_string(i) + "}**f**_{" + std::to_string(i) + "}", f, TraceFrame::Link));
      for (int l = 0; l < Ji.nv; ++l) entries.emplace_back(Ji.idx_v + l, row);
      const int tH = b.show(scalarTerm(entrySymbol(row, row), d.M(row, row)));
      b.line("**f** = **I**^{c}_{i} **S**_{i},   H_{ii} = **f**^{T} **S**_{i}",
             "Featherstone Part 2, eq. 47 (^{i}**f**_{i} = **I**^{c}_{i} **s**_{i}), eq. 48 (Fig. 7 lines 9–10)",
             {tf, "=", tIC, tSi, "\n", tH, "=", tf, "ᵀ", tSi});
      continue;
    }
    const int row = Ji.idx_v + column;
    const JointModel<double>& Jj = m.joints[j];
    for (int l = 0; l < Jj.nv; ++l) {
      entries.emplace_back(row, Jj.idx_v + l);
      entries.emplace_back(Jj.idx_v + l, row);
    }
    if (shown >= kShownAtMost) {
      ++hidden;
      continue;
    }
    ++shown;
    const int tf =
        b.show(forceTerm("^{" + std::to_string(j) + "}**f**_{" + std::to_string(i) + "}", f, TraceFrame::Link));
    const int tSj = b.show(subspaceTerm(indexed("**S**", j), &d.S[Jj.idx_v], Jj.nv, TraceFrame::Link));
    const int tH =
        b.show(scalarTerm(entrySymbol(row, Jj.idx_v) + " = " + entrySymbol(Jj.idx_v, row), d.M(row, Jj.idx_v)));
    if (!walk.empty()) walk.push_back("\n");
    for (StepBuilder::Token t :
         {StepBuilder::Token(tf), StepBuilder::Token("⇒"), StepBuilder::Token(tH), StepBuilder::Token("="),
          StepBuilder::Token(tf), StepBuilder::Token("ᵀ"), StepBuilder::Token(tSj)})
      walk.push_back(t);
  }
  if (hidden > 0) walk.insert(walk.end(), {"\n", moreAncestors(hidden)});
  if (!walk.empty())
    b.line("**f** = ^{λ(j)}**X**_{j}^{*} **f**,  j = λ(j),  H_{ij} = **f**^{T} **S**_{j},  H_{ji} = H_{ij}",
           "Featherstone Part 2, eqs. 47–48 (Fig. 7 lines 12–17: the walk to the root)", walk);
  else
    b.line("λ(i) = 0: the walk ends at once (no ancestor)", "Featherstone Part 2, Fig. 7 line 12", {});
  b.write(patchTerm("**H**", "H", -1, std::move(entries), d.M));
}

}  // namespace dyn::trace_capture
