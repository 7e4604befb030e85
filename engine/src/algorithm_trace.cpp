// The traceable algorithms (algorithm_trace.hpp): each runs once on double with a TraceRecorder
// and once on CountingScalar with an OpCountRecorder; the two step sequences must agree.
#include "dynscope/trace/algorithm_trace.hpp"

#include <algorithm>
#include <stdexcept>

#include "dynscope/algorithms/aba.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/forward_dynamics_crba.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/formulations/configuration_space_method.hpp"
#include "dynscope/formulations/denoc_forward_dynamics.hpp"
#include "dynscope/formulations/denoc_generalized_inertia.hpp"
#include "dynscope/formulations/newton_euler_3vector.hpp"
#include "dynscope/formulations/recursive_lagrangian_3x3.hpp"
#include "dynscope/formulations/recursive_lagrangian_4x4.hpp"
#include "dynscope/formulations/uicker_kahn_lagrangian.hpp"
#include "dynscope/formulations/waters_lagrangian.hpp"
#include "dynscope/trace/trace_recorder.hpp"

namespace dyn {
namespace {

struct PassInfo {
  const char* name;
  const char* reference;
  TracePass::Direction direction;
};

// Steps of one kind form one pass; CRBA's (and the DeNOC GIM's) two kinds alternate in one loop.
int passKey(StepKind k) {
  if (k == StepKind::CrbaColumn) return int(StepKind::CrbaComposite);
  if (k == StepKind::DenocGimColumn) return int(StepKind::DenocComposite);
  return int(k);
}

PassInfo passInfo(StepKind k) {
  using D = TracePass::Direction;
  switch (k) {
    case StepKind::RneaOutward:
      return {"RNEA outward pass: velocities, accelerations and body forces",
              "Featherstone Part 2, Fig. 5 lines 3–9, eqs. 9–11", D::Outward};
    case StepKind::RneaInward:
      return {"RNEA inward pass: joint forces", "Featherstone Part 2, Fig. 5 lines 10–15, eqs. 12–13", D::Inward};
    case StepKind::CrbaComposite:
    case StepKind::CrbaColumn:
      return {"CRBA inward pass: composite inertias and the columns of H",
              "Featherstone Part 2, Fig. 7 lines 5–18, eqs. 46–48", D::Inward};
    case StepKind::AbaVelocities:
      return {"ABA pass 1 (outward): velocities, bias terms, rigid-body inertias",
              "Featherstone Part 2, Fig. 9 pass 1, eqs. 9, 54–55 (link coordinates)", D::Outward};
    case StepKind::AbaInertias:
      return {"ABA pass 2 (inward): articulated-body inertias and bias forces",
              "Featherstone Part 2, Fig. 9 pass 2, eqs. 57, 62–65", D::Inward};
    case StepKind::AbaAccelerations:
      return {"ABA pass 3 (outward): accelerations", "Featherstone Part 2, Fig. 9 pass 3, eqs. 66–68", D::Outward};
    case StepKind::FdRightHandSide:
      return {"right-hand side τ − C", "Featherstone Part 2, eqs. 36–37", D::None};
    case StepKind::LtlFactor:
      return {"H = LᵀL, from the last dof to the first", "Featherstone 2005 (cited in Part 2): sparse LᵀL", D::Inward};
    case StepKind::LtlSolveTranspose:
      return {"solve Lᵀy = b, from the last dof to the first", "Featherstone 2005: back-substitution", D::Inward};
    case StepKind::LtlSolve:
      return {"solve Lx = y, from the first dof to the last", "Featherstone 2005: forward substitution", D::Outward};
    case StepKind::DenocTwist:
      return {"DeNOC forward recursion: twists, twist rates and the links' wrenches",
              "Saha 1999, section 5.1, eqs. 7 and 12 (gravity: eq. 32)", D::Outward};
    case StepKind::DenocWrench:
      return {"DeNOC backward recursion: composite wrenches and joint torques", "Saha 1999, section 5.1, eq. 30",
              D::Inward};
    case StepKind::DenocComposite:
    case StepKind::DenocGimColumn:
      return {"DeNOC GIM: composite-body mass matrices and the columns of I", "Saha 1999, section 4.1, eqs. 23b–24",
              D::Inward};
    case StepKind::DenocFdPhi:
      return {"right-hand side φ = τ − C θ̇ − gravity (the inverse dynamics with θ̈ = 0)",
              "Saha 1999, section 5.2 (its input)", D::None};
    case StepKind::DenocFdStep1:
      return {"DeNOC step 1 with the UDUᵀ elimination: τ̂ = U⁻¹φ, from the last link to the first",
              "Saha 1999, section 5.2, eqs. 34–35; Appendix B, eqs. 47–50", D::Inward};
    case StepKind::DenocFdStep2:
      return {"DeNOC step 2: τ̄ = D⁻¹τ̂", "Saha 1999, section 5.2 (D = diag(m̂), eq. 54)", D::None};
    case StepKind::DenocFdStep3:
      return {"DeNOC step 3: θ̈ = U⁻ᵀτ̄, from the first link to the last", "Saha 1999, section 5.2, eqs. 36–37",
              D::Outward};
    case StepKind::NeForward:
      return {"Newton–Euler forward recursion (link coordinates): ω, ω̇, p̈, F and N",
              "Hollerbach 1980, 'Recursive Newton-Euler dynamics' (Luh, Walker and Paul), in link coordinates",
              D::Outward};
    case StepKind::NeBackward:
      return {"Newton–Euler backward recursion: f, n and τ",
              "Hollerbach 1980, 'Recursive Newton-Euler dynamics' (Luh, Walker and Paul), in link coordinates",
              D::Inward};
    case StepKind::Lagrange4Forward:
      return {"recursive Lagrangian (4×4), base to tip: W, Ẇ and Ẅ of each link",
              "Hollerbach 1980, eqs. 8–10 (and the own terms of eqs. 12–13)", D::Outward};
    case StepKind::Lagrange4Backward:
      return {"recursive Lagrangian (4×4), tip to base: D, c and the generalized force F",
              "Hollerbach 1980, eqs. 12–14", D::Inward};
    case StepKind::Lagrange3Forward:
      return {"recursive Lagrangian (3×3), base to tip: W, Ẇ, Ẅ and p̈ of each link",
              "Hollerbach 1980, eqs. 10 and 16 (and the own terms of eqs. 18, 13)", D::Outward};
    case StepKind::Lagrange3Backward:
      return {"recursive Lagrangian (3×3), tip to base: D, e, c and the generalized force F",
              "Hollerbach 1980, eqs. 17–18; Appendix B, eqs. B3–B5", D::Inward};
    case StepKind::WatersRecurrence:
      return {"Waters: the recurrences for W, Ẇ, Ẅ and ∂W/∂q of each link, base to tip", "Hollerbach 1980, eqs. 8–10",
              D::Outward};
    case StepKind::WatersSum:
      return {"Waters: the generalized forces, the terms of body j", "Hollerbach 1980, eq. 6", D::Outward};
    case StepKind::UkPoses:
      return {"Uicker/Kahn: each link's transforms from the base and from the joints above it, stored",
              "Hollerbach 1980, eq. 3", D::Outward};
    case StepKind::UkFirstDerivatives:
      return {"Uicker/Kahn: the first derivatives ∂W/∂q of each link, stored", "Hollerbach 1980, eq. 5", D::Outward};
    case StepKind::UkSecondFactors:
      return {"Uicker/Kahn: the factors of the second derivatives, link by link", "Hollerbach 1980, eq. 5", D::Outward};
    case StepKind::UkSecondDerivatives:
      return {"Uicker/Kahn: the second derivatives ∂²W/∂q∂q of each link, stored", "Hollerbach 1980, eq. 5",
              D::Outward};
    case StepKind::UkSum:
      return {"Uicker/Kahn: the generalized forces, the terms of body j (the outer sum over j)",
              "Hollerbach 1980, eq. 4", D::Outward};
    case StepKind::CsTabulate:
      return {"configuration space method: the tables G(q), J(q), C(q), off-line",
              "Hollerbach 1980, 'Configuration space method' (Horn and Raibert 1978)", D::None};
    case StepKind::CsVelocityProducts:
      return {"configuration space method: the velocity products q̇ q̇ᵀ", "Hollerbach 1980, 'Configuration space method'",
              D::None};
    case StepKind::CsRow:
      return {"configuration space method: the generalized forces F, row by row",
              "Hollerbach 1980, 'Configuration space method'", D::None};
  }
  return {"", "", D::None};
}

void checkInput(const Model& model, const TraceInput& in, TraceNeeds needs) {
  checkSize("q", in.q.size(), model.nq);
  if (needs == TraceNeeds::Positions) return;
  checkSize("qd", in.qd.size(), model.nv);
  if (needs == TraceNeeds::Accelerations) checkSize("qdd", in.qdd.size(), model.nv);
  if (needs == TraceNeeds::Forces) checkSize("tau", in.tau.size(), model.nv);
}

// Records on double (run(model, data, recorder)), counts on CountingScalar (the same call on the
// cast model), and joins the two.
template <class Run>
AlgorithmTrace record(const Model& model, const TraceInput& input, const std::string& name, Run run) {
  AlgorithmTrace trace;
  trace.algorithm = name;
  trace.input = input;
  Data data(model);
  TraceRecorder recorder(model, data, trace);
  trace.result = run(model, data, input, recorder);

  using C = CountingScalar;
  const ModelTpl<C> cm = model.cast<C>();
  DataTpl<C> cdata(cm);
  OpCountRecorder counter(model.dofBody);
  CountingScalar::reset();
  run(cm, cdata, input, counter);
  trace.total = CountingScalar::tally();
  if (counter.entries.size() != trace.steps.size())
    throw std::logic_error("trace: the counting run took another number of steps");
  for (size_t k = 0; k < trace.steps.size(); ++k) {
    TraceStepRecord& s = trace.steps[k];
    const int index = s.dof >= 0 ? s.dof : s.body;
    if (counter.entries[k].kind != s.kind || counter.entries[k].index != index)
      throw std::logic_error("trace: the counting run took other steps");
    s.counts = counter.entries[k].counts;
  }
  // Passes: runs of steps of one kind (CRBA's two kinds together).
  for (size_t k = 0; k < trace.steps.size(); ++k) {
    if (k == 0 || passKey(trace.steps[k].kind) != passKey(trace.steps[k - 1].kind)) {
      const PassInfo info = passInfo(trace.steps[k].kind);
      TracePass p;
      p.name = info.name;
      p.reference = info.reference;
      p.direction = info.direction;
      p.first = int(k);
      trace.passes.push_back(p);
    }
    trace.passes.back().last = int(k);
    trace.steps[k].pass = int(trace.passes.size()) - 1;
  }
  return trace;
}

template <class M>
struct ScalarOf;
template <class S>
struct ScalarOf<ModelTpl<S>> {
  using type = S;
};
template <class M>
using ScalarOfT = typename ScalarOf<std::decay_t<M>>::type;

template <class S>
const std::vector<Force<S>>* noForces() {
  return nullptr;
}

template <class S>
VecX<S> cast(const Eigen::VectorXd& x) {
  return x.template cast<S>();
}

template <class R>
Eigen::MatrixXd toDouble(const R& result) {
  return Eigen::MatrixXd(result.template cast<double>());
}

// The recorder's captures read a formulation's workspace; the counting policy starts counting.
template <class Trace, class W>
void expose(Trace& trace, const W& ws) {
  if constexpr (requires { trace.setWorkspace(ws); }) trace.setWorkspace(ws);
}

AlgorithmTrace runRnea(const Model& model, const TraceInput& in) {
  checkInput(model, in, TraceNeeds::Accelerations);
  return record(model, in, "rnea", [](const auto& m, auto& d, const TraceInput& x, auto& trace) {
    using S = ScalarOfT<decltype(m)>;
    return toDouble(rnea(m, d, cast<S>(x.q), cast<S>(x.qd), cast<S>(x.qdd), noForces<S>(), trace));
  });
}

AlgorithmTrace runCrba(const Model& model, const TraceInput& in) {
  checkInput(model, in, TraceNeeds::Positions);
  return record(model, in, "crba", [](const auto& m, auto& d, const TraceInput& x, auto& trace) {
    using S = ScalarOfT<decltype(m)>;
    return toDouble(crba(m, d, cast<S>(x.q), trace));
  });
}

AlgorithmTrace runAba(const Model& model, const TraceInput& in) {
  checkInput(model, in, TraceNeeds::Forces);
  return record(model, in, "aba", [](const auto& m, auto& d, const TraceInput& x, auto& trace) {
    using S = ScalarOfT<decltype(m)>;
    return toDouble(aba(m, d, cast<S>(x.q), cast<S>(x.qd), cast<S>(x.tau), noForces<S>(), trace));
  });
}

AlgorithmTrace runCrbaLtl(const Model& model, const TraceInput& in) {
  checkInput(model, in, TraceNeeds::Forces);
  return record(model, in, "crba-ltl", [](const auto& m, auto& d, const TraceInput& x, auto& trace) {
    using S = ScalarOfT<decltype(m)>;
    return toDouble(forwardDynamicsCrba(m, d, cast<S>(x.q), cast<S>(x.qd), cast<S>(x.tau), noForces<S>(), trace));
  });
}

// An inverse-dynamics formulation with its own workspace: Call(m, ws, q, qd, qdd, trace).
template <template <class> class Workspace, class Call>
AlgorithmTrace runInverseDynamics(const Model& model, const TraceInput& in, const char* name, Call call) {
  checkInput(model, in, TraceNeeds::Accelerations);
  return record(model, in, name, [call](const auto& m, auto&, const TraceInput& x, auto& trace) {
    using S = ScalarOfT<decltype(m)>;
    Workspace<S> ws(m);
    expose(trace, ws);
    return toDouble(call(m, ws, cast<S>(x.q), cast<S>(x.qd), cast<S>(x.qdd), trace));
  });
}

#define DYN_TRACED_ID(fn)                                                                                      \
  [](const auto& m, auto& ws, const auto& q, const auto& qd, const auto& qdd, auto& trace) -> decltype(auto) { \
    return fn(m, ws, q, qd, qdd, trace);                                                                       \
  }

AlgorithmTrace runDenocId(const Model& model, const TraceInput& in) {
  return runInverseDynamics<DenocWorkspaceTpl>(model, in, "denoc-id", DYN_TRACED_ID(denocInverseDynamics));
}
AlgorithmTrace runNewtonEuler3(const Model& model, const TraceInput& in) {
  return runInverseDynamics<NewtonEuler3WorkspaceTpl>(model, in, "newton-euler-3", DYN_TRACED_ID(newtonEuler3));
}
AlgorithmTrace runLagrange4x4(const Model& model, const TraceInput& in) {
  return runInverseDynamics<RecursiveLagrangian4x4Workspace>(model, in, "lagrange-4x4",
                                                             DYN_TRACED_ID(recursiveLagrangian4x4InverseDynamics));
}
AlgorithmTrace runLagrange3x3(const Model& model, const TraceInput& in) {
  return runInverseDynamics<RecursiveLagrangian3x3Workspace>(model, in, "lagrange-3x3",
                                                             DYN_TRACED_ID(recursiveLagrangian3x3InverseDynamics));
}
AlgorithmTrace runWaters(const Model& model, const TraceInput& in) {
  return runInverseDynamics<WatersWorkspace>(model, in, "waters", DYN_TRACED_ID(watersInverseDynamics));
}
AlgorithmTrace runUickerKahn(const Model& model, const TraceInput& in) {
  return runInverseDynamics<UickerKahnWorkspace>(model, in, "uicker-kahn", DYN_TRACED_ID(uickerKahnInverseDynamics));
}
AlgorithmTrace runConfigurationSpace(const Model& model, const TraceInput& in) {
  return runInverseDynamics<ConfigurationSpaceWorkspace>(model, in, "configuration-space",
                                                         DYN_TRACED_ID(configurationSpaceInverseDynamics));
}
#undef DYN_TRACED_ID

AlgorithmTrace runDenocGim(const Model& model, const TraceInput& in) {
  checkInput(model, in, TraceNeeds::Positions);
  return record(model, in, "denoc-gim", [](const auto& m, auto&, const TraceInput& x, auto& trace) {
    using S = ScalarOfT<decltype(m)>;
    DenocWorkspaceTpl<S> ws(m);
    expose(trace, ws);
    return toDouble(denocGeneralizedInertia(m, ws, cast<S>(x.q), trace));
  });
}

AlgorithmTrace runDenocFd(const Model& model, const TraceInput& in) {
  checkInput(model, in, TraceNeeds::Forces);
  return record(model, in, "denoc-fd", [](const auto& m, auto&, const TraceInput& x, auto& trace) {
    using S = ScalarOfT<decltype(m)>;
    DenocWorkspaceTpl<S> ws(m);
    expose(trace, ws);
    return toDouble(denocForwardDynamics(m, ws, cast<S>(x.q), cast<S>(x.qd), cast<S>(x.tau), trace));
  });
}

}  // namespace

const std::vector<TraceableAlgorithm>& traceableAlgorithms() {
  using N = TraceNeeds;
  using P = Problem;
  static const std::vector<TraceableAlgorithm> list = {
      {"rnea", "RNEA (inverse dynamics)", "Recursive Newton–Euler algorithm (RNEA): inverse dynamics",
       "Featherstone Part 2, Fig. 5, eqs. 9–13; RNEA reference card", "link coordinates", N::Accelerations, "tau",
       runRnea, "rnea", P::InverseDynamics},
      {"crba", "CRBA (mass matrix H)", "Composite-rigid-body algorithm (CRBA): the joint-space inertia matrix H",
       "Featherstone Part 2, Fig. 7, eqs. 44–48", "link coordinates", N::Positions, "mass_matrix", runCrba, "crba",
       P::MassMatrix},
      {"aba", "ABA (forward dynamics)", "Articulated-body algorithm (ABA): forward dynamics",
       "Featherstone Part 2, Fig. 9, eqs. 49–68", "link coordinates", N::Forces, "qdd", runAba, "aba",
       P::ForwardDynamics},
      {"crba-ltl", "CRBA + LᵀL (forward dynamics)", "CRBA + LᵀL: forward dynamics by H q̈ = τ − C",
       "Featherstone Part 2, eqs. 35–37 and Fig. 7; sparse LᵀL (Featherstone 2005)", "link coordinates", N::Forces,
       "qdd", runCrbaLtl, "crba", P::ForwardDynamics},
      {"denoc-id", "DeNOC (inverse dynamics)",
       "DeNOC recursive inverse dynamics (Saha): twists outwards, wrenches inwards",
       "Saha 1999, section 5.1; eqs. 7, 12, 30, 32", "link coordinates (twists and wrenches at the link origins)",
       N::Accelerations, "tau", runDenocId, "denoc", P::InverseDynamics},
      {"newton-euler-3", "Newton–Euler with 3-vectors (inverse dynamics)",
       "Recursive Newton–Euler with 3-vectors (Luh, Walker and Paul, as Hollerbach presents it)",
       "Hollerbach 1980, 'Recursive Newton-Euler dynamics' and '... referred to link coordinates'", "link coordinates",
       N::Accelerations, "tau", runNewtonEuler3, "newton-euler-3", P::InverseDynamics},
      {"lagrange-4x4", "Recursive Lagrangian 4×4 (inverse dynamics)",
       "Hollerbach's recursive Lagrangian formulation with 4×4 matrices", "Hollerbach 1980, eqs. 8–14",
       "base coordinates (4×4 homogeneous matrices)", N::Accelerations, "tau", runLagrange4x4, "lagrange-4x4",
       P::InverseDynamics},
      {"lagrange-3x3", "Recursive Lagrangian 3×3 (inverse dynamics)",
       "Hollerbach's recursive Lagrangian formulation with 3×3 matrices",
       "Hollerbach 1980, eqs. 10, 15–18; Appendix B, eqs. B1–B5", "base coordinates (3×3 rotations)", N::Accelerations,
       "tau", runLagrange3x3, "lagrange-3x3", P::InverseDynamics},
      {"waters", "Waters, O(n²) (inverse dynamics)", "Waters' Lagrangian formulation with backward recurrences",
       "Hollerbach 1980, eqs. 6, 8–10", "base coordinates (4×4 homogeneous matrices)", N::Accelerations, "tau",
       runWaters, "waters", P::InverseDynamics},
      {"uicker-kahn", "Uicker/Kahn, O(n⁴) (inverse dynamics)", "The Uicker/Kahn Lagrangian formulation",
       "Hollerbach 1980, eqs. 3–5", "base coordinates (4×4 homogeneous matrices)", N::Accelerations, "tau",
       runUickerKahn, "uicker-kahn", P::InverseDynamics},
      {"configuration-space", "Configuration space method (inverse dynamics)",
       "Horn and Raibert's configuration space method: tabulated G, J, C",
       "Hollerbach 1980, 'Configuration space method'", "joint space", N::Accelerations, "tau", runConfigurationSpace,
       "configuration-space", P::InverseDynamics},
      {"denoc-gim", "DeNOC GIM (mass matrix)", "The DeNOC generalized inertia matrix I (Saha)",
       "Saha 1999, section 4.1, eqs. 23b–24", "link coordinates", N::Positions, "mass_matrix", runDenocGim, "denoc",
       P::MassMatrix},
      {"denoc-fd", "DeNOC (forward dynamics)",
       "DeNOC recursive forward dynamics (Saha): the UDUᵀ decomposition of the GIM in three steps",
       "Saha 1999, section 5.2, eqs. 33–37; Appendix B, eqs. 46–55", "link coordinates", N::Forces, "qdd", runDenocFd,
       "denoc", P::ForwardDynamics},
  };
  return list;
}

const TraceableAlgorithm* findTraceableAlgorithm(const std::string& name) {
  for (const TraceableAlgorithm& a : traceableAlgorithms())
    if (name == a.name) return &a;
  return nullptr;
}

AlgorithmTrace traceAlgorithm(const Model& model, const std::string& algorithm, const TraceInput& input) {
  const TraceableAlgorithm* a = findTraceableAlgorithm(algorithm);
  if (!a) {
    std::string names;
    for (const TraceableAlgorithm& t : traceableAlgorithms())
      names += (names.empty() ? "" : ", ") + std::string(t.name);
    throw std::invalid_argument("unknown algorithm '" + algorithm + "' (traceable: " + names + ")");
  }
  return a->run(model, input);
}

bool TraceState::wasChanged(const std::string& quantity, int index) const {
  return std::find(changed.begin(), changed.end(), std::pair(quantity, index)) != changed.end();
}

void TraceState::apply(const TraceTerm& written) {
  const Key key{written.quantity, written.index};
  if (!written.patch) {
    values[key] = written;
    return;
  }
  const auto it = values.find(key);
  if (it == values.end()) throw std::logic_error("trace: a patch of " + written.quantity + " before its matrix");
  for (size_t k = 0; k < written.entries.size(); ++k)
    it->second.value(written.entries[k].first, written.entries[k].second) = written.value(Eigen::Index(k), 0);
}

TraceCursor::TraceCursor(const AlgorithmTrace& trace) : trace_(&trace) {
  for (const TraceTerm& t : trace.initial) state_.apply(t);
}

void TraceCursor::seek(int position) {
  position = std::clamp(position, 0, int(trace_->steps.size()));
  while (position_ < position) forward();
  while (position_ > position) backward();
  state_.changed.clear();
  if (position_ > 0) {
    const TraceStepRecord& last = trace_->steps[size_t(position_) - 1];
    for (int w : last.written) state_.changed.emplace_back(last.terms[w].quantity, last.terms[w].index);
  }
}

void TraceCursor::forward() {
  const TraceStepRecord& step = trace_->steps[size_t(position_)];
  std::vector<Undo> undo;
  undo.reserve(step.written.size());
  for (int w : step.written) {
    const TraceTerm& t = step.terms[w];
    Undo u;
    u.key = {t.quantity, t.index};
    const auto it = state_.values.find(u.key);
    u.existed = it != state_.values.end();
    if (t.patch && u.existed) {  // keep only the entries the patch replaces
      u.before.patch = true;
      u.before.quantity = t.quantity;
      u.before.index = t.index;
      u.before.entries = t.entries;
      u.before.value.resize(Eigen::Index(t.entries.size()), 1);
      for (size_t k = 0; k < t.entries.size(); ++k)
        u.before.value(Eigen::Index(k), 0) = it->second.value(t.entries[k].first, t.entries[k].second);
    } else if (u.existed) {
      u.before = it->second;
    }
    undo.push_back(std::move(u));
    state_.apply(t);
  }
  undo_.push_back(std::move(undo));
  ++position_;
}

void TraceCursor::backward() {
  std::vector<Undo>& undo = undo_.back();
  for (auto u = undo.rbegin(); u != undo.rend(); ++u) {  // in reverse: a key written twice comes back right
    if (!u->existed)
      state_.values.erase(u->key);
    else if (u->before.patch)
      state_.apply(u->before);
    else
      state_.values[u->key] = std::move(u->before);
  }
  undo_.pop_back();
  --position_;
}

TraceState traceState(const AlgorithmTrace& trace, int position) {
  TraceCursor cursor(trace);
  cursor.seek(position);
  return cursor.state();
}

std::string plainMarkup(const std::string& markup) {
  std::string out;
  for (size_t k = 0; k < markup.size(); ++k) {
    if (markup.compare(k, 2, "**") == 0) {
      ++k;
      continue;
    }
    const char c = markup[k];
    if ((c == '_' || c == '^') && k + 1 < markup.size() && markup[k + 1] == '{') {
      const size_t close = markup.find('}', k + 2);
      if (close != std::string::npos) {
        out += c;
        out += plainMarkup(markup.substr(k + 2, close - k - 2));
        k = close;
        continue;
      }
    }
    out += c;
  }
  return out;
}

const char* stepKindName(StepKind k) {
  switch (k) {
    case StepKind::RneaOutward:
      return "rnea_outward";
    case StepKind::RneaInward:
      return "rnea_inward";
    case StepKind::CrbaComposite:
      return "crba_composite_inertia";
    case StepKind::CrbaColumn:
      return "crba_column";
    case StepKind::AbaVelocities:
      return "aba_pass1";
    case StepKind::AbaInertias:
      return "aba_pass2";
    case StepKind::AbaAccelerations:
      return "aba_pass3";
    case StepKind::FdRightHandSide:
      return "fd_right_hand_side";
    case StepKind::LtlFactor:
      return "ltl_factor";
    case StepKind::LtlSolveTranspose:
      return "ltl_solve_transpose";
    case StepKind::LtlSolve:
      return "ltl_solve";
    case StepKind::DenocTwist:
      return "denoc_twist";
    case StepKind::DenocWrench:
      return "denoc_wrench";
    case StepKind::DenocComposite:
      return "denoc_composite_mass";
    case StepKind::DenocGimColumn:
      return "denoc_gim_column";
    case StepKind::DenocFdPhi:
      return "denoc_phi";
    case StepKind::DenocFdStep1:
      return "denoc_step1";
    case StepKind::DenocFdStep2:
      return "denoc_step2";
    case StepKind::DenocFdStep3:
      return "denoc_step3";
    case StepKind::NeForward:
      return "newton_euler_forward";
    case StepKind::NeBackward:
      return "newton_euler_backward";
    case StepKind::Lagrange4Forward:
      return "lagrange4_forward";
    case StepKind::Lagrange4Backward:
      return "lagrange4_backward";
    case StepKind::Lagrange3Forward:
      return "lagrange3_forward";
    case StepKind::Lagrange3Backward:
      return "lagrange3_backward";
    case StepKind::WatersRecurrence:
      return "waters_recurrence";
    case StepKind::WatersSum:
      return "waters_sum";
    case StepKind::UkPoses:
      return "uicker_kahn_poses";
    case StepKind::UkFirstDerivatives:
      return "uicker_kahn_first_derivatives";
    case StepKind::UkSecondFactors:
      return "uicker_kahn_second_factors";
    case StepKind::UkSecondDerivatives:
      return "uicker_kahn_second_derivatives";
    case StepKind::UkSum:
      return "uicker_kahn_sum";
    case StepKind::CsTabulate:
      return "configuration_space_tables";
    case StepKind::CsVelocityProducts:
      return "configuration_space_products";
    case StepKind::CsRow:
      return "configuration_space_row";
  }
  return "";
}

const char* traceFrameName(TraceFrame f) {
  switch (f) {
    case TraceFrame::Link:
      return "link";
    case TraceFrame::World:
      return "world";
    case TraceFrame::None:
      break;
  }
  return "";
}

const char* traceRoleName(TraceRole r) {
  switch (r) {
    case TraceRole::Velocity:
      return "velocity";
    case TraceRole::Acceleration:
      return "acceleration";
    case TraceRole::BiasAcceleration:
      return "bias acceleration";
    case TraceRole::Force:
      return "force";
    case TraceRole::BiasForce:
      return "bias force";
    case TraceRole::TwistRate:
      return "twist rate";
    case TraceRole::AngularVelocity:
      return "angular velocity";
    case TraceRole::AngularAcceleration:
      return "angular acceleration";
    case TraceRole::OriginAcceleration:
      return "origin acceleration";
    case TraceRole::OriginAccelerationTrue:
      return "origin acceleration without gravity";
    case TraceRole::LinearForce:
      return "linear force";
    case TraceRole::MomentAboutOrigin:
      return "moment about the origin";
    case TraceRole::PoseRate:
      return "pose rate";
    case TraceRole::PoseAcceleration:
      return "pose acceleration";
    case TraceRole::None:
      break;
  }
  return "";
}

const char* passDirectionName(TracePass::Direction d) {
  switch (d) {
    case TracePass::Direction::Outward:
      return "outward";
    case TracePass::Direction::Inward:
      return "inward";
    case TracePass::Direction::None:
      break;
  }
  return "none";
}

const char* valueKindName(ValueKind k) {
  switch (k) {
    case ValueKind::Scalar:
      return "scalar";
    case ValueKind::Vector:
      return "vector";
    case ValueKind::Motion:
      return "motion";
    case ValueKind::Force:
      return "force";
    case ValueKind::Inertia:
      return "inertia";
    case ValueKind::Transform:
      return "transform";
    case ValueKind::Subspace:
      return "subspace";
    case ValueKind::Matrix:
      return "matrix";
  }
  return "";
}

}  // namespace dyn
