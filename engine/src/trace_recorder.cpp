// The recording policy (trace/trace_recorder.hpp): state, begin(), step() and the dispatch to the
// captures of each StepKind (trace_capture_*.cpp).
#include "dynscope/trace/trace_recorder.hpp"

#include <limits>
#include <stdexcept>

#include "trace_captures.hpp"

namespace dyn {
namespace {

trace_capture::Capture captureFor(StepKind kind) {
  switch (kind) {
    case StepKind::RneaOutward:
      return trace_capture::rneaOutward;
    case StepKind::RneaInward:
      return trace_capture::rneaInward;
    case StepKind::CrbaComposite:
      return trace_capture::crbaComposite;
    case StepKind::CrbaColumn:
      return trace_capture::crbaColumn;
    case StepKind::AbaVelocities:
      return trace_capture::abaVelocities;
    case StepKind::AbaInertias:
      return trace_capture::abaInertias;
    case StepKind::AbaAccelerations:
      return trace_capture::abaAccelerations;
    case StepKind::FdRightHandSide:
      return trace_capture::fdRightHandSide;
    case StepKind::LtlFactor:
      return trace_capture::ltlFactor;
    case StepKind::LtlSolveTranspose:
      return trace_capture::ltlSolveTranspose;
    case StepKind::LtlSolve:
      return trace_capture::ltlSolve;
    case StepKind::DenocTwist:
      return trace_capture::denocTwist;
    case StepKind::DenocWrench:
      return trace_capture::denocWrench;
    case StepKind::DenocComposite:
      return trace_capture::denocComposite;
    case StepKind::DenocGimColumn:
      return trace_capture::denocGimColumn;
    case StepKind::DenocFdPhi:
      return trace_capture::denocPhi;
    case StepKind::DenocFdStep1:
      return trace_capture::denocStep1;
    case StepKind::DenocFdStep2:
      return trace_capture::denocStep2;
    case StepKind::DenocFdStep3:
      return trace_capture::denocStep3;
    case StepKind::NeForward:
      return trace_capture::newtonEulerForward;
    case StepKind::NeBackward:
      return trace_capture::newtonEulerBackward;
    case StepKind::Lagrange4Forward:
      return trace_capture::lagrange4Forward;
    case StepKind::Lagrange4Backward:
      return trace_capture::lagrange4Backward;
    case StepKind::Lagrange3Forward:
      return trace_capture::lagrange3Forward;
    case StepKind::Lagrange3Backward:
      return trace_capture::lagrange3Backward;
    case StepKind::WatersRecurrence:
      return trace_capture::watersRecurrence;
    case StepKind::WatersSum:
      return trace_capture::watersSum;
    case StepKind::UkPoses:
      return trace_capture::ukPoses;
    case StepKind::UkFirstDerivatives:
      return trace_capture::ukFirstDerivatives;
    case StepKind::UkSecondFactors:
      return trace_capture::ukSecondFactors;
    case StepKind::UkSecondDerivatives:
      return trace_capture::ukSecondDerivatives;
    case StepKind::UkSum:
      return trace_capture::ukSum;
    case StepKind::CsTabulate:
      return trace_capture::csTabulate;
    case StepKind::CsVelocityProducts:
      return trace_capture::csVelocityProducts;
    case StepKind::CsRow:
      return trace_capture::csRow;
  }
  throw std::logic_error("trace: a step kind without a capture");
}

TraceTerm makeTerm(std::string symbol, ValueKind kind, Eigen::MatrixXd value, std::string quantity, int index,
                   TraceFrame frame = TraceFrame::None, TraceRole role = TraceRole::None) {
  TraceTerm t;
  t.symbol = std::move(symbol);
  t.quantity = std::move(quantity);
  t.index = index;
  t.kind = kind;
  t.frame = frame;
  t.role = role;
  t.value = std::move(value);
  return t;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

// ---- terms ------------------------------------------------------------------------------------

TraceTerm scalarTerm(std::string symbol, double x, std::string quantity, int index) {
  return makeTerm(std::move(symbol), ValueKind::Scalar, Eigen::MatrixXd::Constant(1, 1, x), std::move(quantity), index);
}
TraceTerm vectorTerm(std::string symbol, const Eigen::VectorXd& x, std::string quantity, int index) {
  if (x.size() == 1) return scalarTerm(std::move(symbol), x[0], std::move(quantity), index);
  return makeTerm(std::move(symbol), ValueKind::Vector, x, std::move(quantity), index);
}
TraceTerm motionTerm(std::string symbol, const Motion<double>& m, TraceFrame frame, TraceRole role,
                     std::string quantity, int index) {
  return makeTerm(std::move(symbol), ValueKind::Motion, m.toVector(), std::move(quantity), index, frame, role);
}
TraceTerm forceTerm(std::string symbol, const Force<double>& f, TraceFrame frame, TraceRole role, std::string quantity,
                    int index) {
  return makeTerm(std::move(symbol), ValueKind::Force, f.toVector(), std::move(quantity), index, frame, role);
}
TraceTerm inertiaTerm(std::string symbol, const Mat6<double>& I, TraceFrame frame, std::string quantity, int index) {
  return makeTerm(std::move(symbol), ValueKind::Inertia, I, std::move(quantity), index, frame);
}
TraceTerm transformTerm(std::string symbol, const Transform<double>& X) {
  return makeTerm(std::move(symbol), ValueKind::Transform, X.toMatrix(), {}, -1);
}
TraceTerm subspaceTerm(std::string symbol, const Motion<double>* columns, int count, TraceFrame frame) {
  return makeTerm(std::move(symbol), ValueKind::Subspace, trace_capture::columns(columns, count), {}, -1, frame);
}
TraceTerm matrixTerm(std::string symbol, const Eigen::MatrixXd& M, std::string quantity, int index) {
  return makeTerm(std::move(symbol), ValueKind::Matrix, M, std::move(quantity), index);
}

TraceTerm patchTerm(std::string symbol, std::string quantity, int index, std::vector<std::pair<int, int>> entries,
                    const Eigen::Ref<const Eigen::MatrixXd>& source) {
  Eigen::MatrixXd values(Eigen::Index(entries.size()), 1);
  for (size_t k = 0; k < entries.size(); ++k) values(Eigen::Index(k), 0) = source(entries[k].first, entries[k].second);
  TraceTerm t = makeTerm(std::move(symbol), ValueKind::Matrix, std::move(values), std::move(quantity), index);
  t.patch = true;
  t.entries = std::move(entries);
  return t;
}
TraceTerm vector3Term(std::string symbol, const Eigen::Vector3d& x, TraceFrame frame, TraceRole role,
                      std::string quantity, int index) {
  return makeTerm(std::move(symbol), ValueKind::Vector, x, std::move(quantity), index, frame, role);
}

std::string indexed(const std::string& name, int i) { return name + "_{" + std::to_string(i) + "}"; }

std::string transformSymbol(int to, int from, bool dual) {
  return "^{" + std::to_string(to) + "}**X**_{" + std::to_string(from) + "}" + (dual ? "^{*}" : "");
}

// ---- the builder ----------------------------------------------------------------------------

int StepBuilder::show(TraceTerm t) {
  r_.terms.push_back(std::move(t));
  return int(r_.terms.size()) - 1;
}

int StepBuilder::write(TraceTerm t) {
  if (t.quantity.empty()) throw std::logic_error("trace: a written term needs a quantity");
  const int k = show(std::move(t));
  r_.written.push_back(k);
  return k;
}

void StepBuilder::line(std::string equation, std::string reference, const std::vector<Token>& substituted) {
  TraceLine l;
  l.equation = std::move(equation);
  l.reference = std::move(reference);
  for (const Token& t : substituted) l.substituted.push_back(TraceToken{t.term, t.text});
  r_.lines.push_back(std::move(l));
}

void StepBuilder::line(std::string equation, std::string reference, std::initializer_list<Token> substituted) {
  line(std::move(equation), std::move(reference), std::vector<Token>(substituted));
}

// ---- the recorder ---------------------------------------------------------------------------

TraceRecorder::TraceRecorder(const Model& model, const Data& data, AlgorithmTrace& out)
    : model_(model), data_(data), out_(out) {}

TraceTerm TraceRecorder::localTerm(const char* name, int index, double x) { return scalarTerm(name, x, name, index); }
TraceTerm TraceRecorder::localTerm(const char* name, int index, const Force<double>& f) {
  return forceTerm(name, f, TraceFrame::None, TraceRole::None, name, index);
}
TraceTerm TraceRecorder::localTerm(const char* name, int index, const Motion<double>& m) {
  return motionTerm(name, m, TraceFrame::None, TraceRole::None, name, index);
}

const Eigen::MatrixXd& TraceRecorder::argument(TraceAlgorithm algorithm, int k) const {
  static const Eigen::MatrixXd none;
  for (auto it = arguments_.rbegin(); it != arguments_.rend(); ++it)
    if (it->first == algorithm) return k >= 0 && k < int(it->second.size()) ? it->second[k] : none;
  return none;
}

const TraceTerm* TraceRecorder::previous(const std::string& quantity, int index) const {
  return state_.find(quantity, index);
}

Eigen::Map<const Eigen::MatrixXd> TraceRecorder::view(const std::string& name) const {
  const auto it = views_.find(name);
  if (it == views_.end()) throw std::logic_error("trace: the algorithm reported no " + name);
  return {it->second.data, it->second.rows, it->second.cols};
}

void TraceRecorder::apply(const TraceTerm& written) { state_.apply(written); }

Eigen::MatrixXd TraceRecorder::unknownMassMatrix() const {
  const int nv = model_.nv;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(nv, nv);  // zero where two branches meet (eq. 45) ...
  for (int c = 0; c < nv; ++c)
    for (int r = c; r >= 0; r = model_.dofParent[r]) H(r, c) = H(c, r) = kNaN;  // ... NaN: not computed yet
  return H;
}

void TraceRecorder::onBegin(TraceAlgorithm algorithm, const std::vector<Eigen::MatrixXd>& values,
                            const std::vector<Force<double>>* fext) {
  arguments_.emplace_back(algorithm, values);
  const int N = model_.N, nv = model_.nv;
  const auto initial = [&](TraceTerm t) { pendingWrites_.push_back(std::move(t)); };
  const Motion<double> ag = model_.gravity;  // a_g
  const auto takeInputs = [&] {              // q, qd and qdd (or tau) of a dynamics algorithm
    q_ = values.at(0);
    qd_ = values.at(1);
    x_ = values.at(2);
  };
  switch (algorithm) {
    case TraceAlgorithm::Rnea:
    case TraceAlgorithm::Aba: {
      takeInputs();
      fext_ = fext;
      const TraceFrame frame = algorithm == TraceAlgorithm::Rnea ? TraceFrame::Link : TraceFrame::World;
      initial(motionTerm(indexed("**v**", 0), Motion<double>::Zero(), frame, TraceRole::Velocity, "v", 0));
      initial(motionTerm(indexed("**a**", 0), -ag, frame, TraceRole::Acceleration, "a", 0));
      pendingLines_.push_back({"**v**_{0} = **0**,  **a**_{0} = −**a**_{g}",
                               "Featherstone Part 2, Fig. 5 lines 1–2: gravity as a fictitious base acceleration",
                               {}});
      break;
    }
    case TraceAlgorithm::Crba: {
      for (int i = 1; i <= N; ++i)
        initial(
            inertiaTerm("**I**^{c}_{" + std::to_string(i) + "}", model_.I[i].toMatrix(), TraceFrame::Link, "IC", i));
      initial(matrixTerm("**H**", unknownMassMatrix(), "H", -1));
      pendingLines_.push_back({"**H** = **0**,  **I**^{c}_{i} = **I**_{i}  (i = 1 … N)",
                               "Featherstone Part 2, Fig. 7 lines 1–4 (eq. 44 starts from the bodies' own inertias)",
                               {}});
      break;
    }
    case TraceAlgorithm::DenocGim: {
      for (int i = 1; i <= N; ++i)
        initial(inertiaTerm(indexed("**M̃**", i), model_.I[i].toMatrix(), TraceFrame::Link, "M̃", i));
      // Quantity "H": the mass-matrix dock fills it in as it does for CRBA; Saha names it I.
      initial(matrixTerm("**I**", unknownMassMatrix(), "H", -1));
      pendingLines_.push_back({"**M̃**_{i} = **M**_{i}  (i = 1 … n), then the composite bodies from the last link",
                               "Saha 1999, eq. 23b (M̃_{n} = M_{n}); M_{i} about the link origin O_{i}",
                               {}});
      break;
    }
    case TraceAlgorithm::DenocId: {
      takeInputs();
      fext_ = nullptr;
      initial(motionTerm(indexed("**t**", 0), Motion<double>::Zero(), TraceFrame::Link, TraceRole::Velocity, "t", 0));
      initial(motionTerm(indexed("**ṫ**", 0), Motion<double>(Eigen::Vector3d::Zero(), -ag.v), TraceFrame::Link,
                         TraceRole::TwistRate, "ṫ", 0));
      pendingLines_.push_back({"**t**_{0} = **0**,  **ṫ**_{0} = [**0**; −**g**]",
                               "Saha 1999, eq. 32: gravity as an acceleration of the base",
                               {}});
      break;
    }
    case TraceAlgorithm::DenocFd:
      break;  // its inverse dynamics begins next (DenocId)
    case TraceAlgorithm::DenocElimination: {
      for (int i = 1; i <= N; ++i) {
        initial(inertiaTerm(indexed("**M̂**", i), model_.I[i].toMatrix(), TraceFrame::Link, "M̂", i));
        initial(forceTerm(indexed("**η**", i), Force<double>::Zero(), TraceFrame::Link, TraceRole::None, "η", i));
      }
      pendingLines_.push_back({"**M̂**_{i} = **M**_{i},  **η**_{i} = **0**  (i = 1 … n)",
                               "Saha 1999, Appendix B, eq. 50 (M̂_{n} = M_{n}); eq. 35 (η_{n,n+1} = 0)",
                               {}});
      break;
    }
    case TraceAlgorithm::NewtonEuler3: {
      takeInputs();
      using R = TraceRole;
      const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
      initial(vector3Term(indexed("ω", 0), zero, TraceFrame::Link, R::AngularVelocity, "ω", 0));
      initial(vector3Term(indexed("ω̇", 0), zero, TraceFrame::Link, R::AngularAcceleration, "ω̇", 0));
      initial(vector3Term(indexed("p̈", 0), -ag.v, TraceFrame::Link, R::OriginAcceleration, "p̈", 0));
      pendingLines_.push_back({"ω_{0} = ω̇_{0} = 0,  p̈_{0} = −g",
                               "Hollerbach 1980 (Luh, Walker and Paul): gravity as an acceleration of the base",
                               {}});
      break;
    }
    case TraceAlgorithm::RecursiveLagrangian4x4:
    case TraceAlgorithm::RecursiveLagrangian3x3:
    case TraceAlgorithm::Waters:
    case TraceAlgorithm::UickerKahn:
    case TraceAlgorithm::ConfigurationSpace: {
      takeInputs();
      // The sums add to one vector F (zero first); the configuration-space rows fill it in.
      if (algorithm == TraceAlgorithm::Waters || algorithm == TraceAlgorithm::UickerKahn)
        initial(vectorTerm("**F**", Eigen::VectorXd::Zero(nv), "tau", -1));
      if (algorithm == TraceAlgorithm::ConfigurationSpace)
        initial(vectorTerm("**F**", Eigen::VectorXd::Constant(nv, kNaN), "tau", -1));
      if (algorithm == TraceAlgorithm::UickerKahn || algorithm == TraceAlgorithm::ConfigurationSpace) break;
      const int n = algorithm == TraceAlgorithm::RecursiveLagrangian3x3 ? 3 : 4;
      const Eigen::MatrixXd one = Eigen::MatrixXd::Identity(n, n), zero = Eigen::MatrixXd::Zero(n, n);
      initial(matrixTerm(indexed("W", 0), one, "W", 0));
      initial(matrixTerm(indexed("Ẇ", 0), zero, "Ẇ", 0));
      initial(matrixTerm(indexed("Ẅ", 0), zero, "Ẅ", 0));
      pendingLines_.push_back({"W_{0} = 1,  Ẇ_{0} = Ẅ_{0} = 0" + std::string(n == 3 ? ",  p̈_{0} = 0" : ""),
                               "Hollerbach 1980, eqs. 8–10: the base does not move (gravity enters through g)",
                               {}});
      break;
    }
    case TraceAlgorithm::FactorLTL: {
      // Row k of L is final after step k; the updates of the ancestors' block in between (O(n³)
      // numbers on a chain) are not kept: L fills row by row from NaN, not computed yet.
      Eigen::MatrixXd L = unknownMassMatrix();  // no fill-in: L has H's structural zeros
      for (int r = 0; r < nv; ++r)
        for (int c = r + 1; c < nv; ++c) L(r, c) = kNaN;  // only the lower triangle takes part
      initial(matrixTerm("**L**", L, "L", -1));
      pendingLines_.push_back({"**L** ← **H** (lower triangle), factorised in place from the last dof to the first",
                               "Featherstone 2005, sparse LᵀL (cited in Part 2)",
                               {}});
      break;
    }
    case TraceAlgorithm::SolveLTL:
      initial(vectorTerm("**x**", values.at(1), "x", -1));
      pendingLines_.push_back({"**x** ← **b**, then Lᵀ**y** = **b** and L**x** = **y** in place", "", {}});
      break;
    case TraceAlgorithm::ForwardDynamicsCrba:
      break;
  }
}

void TraceRecorder::step(StepKind kind, int index) {
  TraceStepRecord record;
  record.kind = kind;
  const bool perDof = isPerDofStep(kind);
  record.dof = perDof ? index : -1;
  record.body = perDof ? model_.dofBody[index] : index;
  StepBuilder builder(record);
  // Initialisations of a begin() that came before this step: in the state before the first step,
  // otherwise part of this one.
  if (out_.steps.empty()) {
    for (const TraceTerm& t : pendingWrites_) {
      out_.initial.push_back(t);
      apply(t);
    }
    for (TraceLine& l : pendingLines_) out_.start.push_back(std::move(l));
  } else {
    for (TraceLine& l : pendingLines_) record.lines.push_back(std::move(l));
    for (TraceTerm& t : pendingWrites_) {
      apply(t);
      builder.write(std::move(t));
    }
  }
  pendingWrites_.clear();
  pendingLines_.clear();
  captureFor(kind)(*this, builder, index);
  for (int k : record.written) apply(record.terms[k]);
  locals_.clear();
  out_.steps.push_back(std::move(record));
}

// ---- the counting recorder ------------------------------------------------------------------

namespace {
OpTally plus(const OpTally& a, const OpTally& b) {
  return {a.algorithm + b.algorithm, a.jointTransforms + b.jointTransforms, a.tabulation + b.tabulation};
}
OpTally minus(const OpTally& a, const OpTally& b) {
  return {a.algorithm - b.algorithm, a.jointTransforms - b.jointTransforms, a.tabulation - b.tabulation};
}
}  // namespace

OpTally OpCountRecorder::sinceLast() {
  const OpTally now = CountingScalar::tally();
  const OpTally d = minus(now, last_);
  last_ = now;
  return d;
}

void OpCountRecorder::ahead(int body) {
  const OpTally d = sinceLast();
  for (auto& [b, t] : ahead_)
    if (b == body) {
      t = plus(t, d);
      return;
    }
  ahead_.emplace_back(body, d);
}

void OpCountRecorder::step(StepKind kind, int index) {
  const int body = isPerDofStep(kind) ? dofBody_[index] : index;
  OpTally own = sinceLast();
  for (auto it = ahead_.begin(); it != ahead_.end(); ++it)
    if (it->first == body) {
      own = plus(own, it->second);
      ahead_.erase(it);
      break;
    }
  booked_ = plus(booked_, own);
  entries.push_back({kind, index, booked_});
}

}  // namespace dyn

namespace dyn::trace_capture {

Eigen::MatrixXd columns(const Motion<double>* S, int count) {
  Eigen::MatrixXd M(6, count);
  for (int k = 0; k < count; ++k) M.col(k) = S[k].toVector();
  return M;
}

Eigen::MatrixXd columns(const Force<double>* U, int count) {
  Eigen::MatrixXd M(6, count);
  for (int k = 0; k < count; ++k) M.col(k) = U[k].toVector();
  return M;
}

Motion<double> combine(const Motion<double>* S, const Eigen::VectorXd& x) {
  Motion<double> m = S[0] * x[0];
  for (int k = 1; k < x.size(); ++k) m += S[k] * x[k];
  return m;
}

std::string dofLabel(int dof) { return std::to_string(dof + 1); }

std::string moreAncestors(int hidden) {
  return "… and " + std::to_string(hidden) + " more (every entry is in the matrix and the table)";
}

}  // namespace dyn::trace_capture
