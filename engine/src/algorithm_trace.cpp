// The traceable algorithms (algorithm_trace.hpp): each runs once on double with a TraceRecorder
// and once on CountingScalar with an OpCountRecorder; the two step sequences must agree.
#include "dynscope/trace/algorithm_trace.hpp"

#include <algorithm>
#include <stdexcept>

#include "dynscope/algorithms/aba.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/forward_dynamics_crba.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/trace/trace_recorder.hpp"

namespace dyn {
namespace {

struct PassInfo {
  const char* name;
  const char* reference;
  TracePass::Direction direction;
};

// Steps of one kind form one pass; CRBA's composite and column steps alternate in one loop.
int passKey(StepKind k) { return k == StepKind::CrbaColumn ? int(StepKind::CrbaComposite) : int(k); }

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
              "Featherstone Part 2, Fig. 9 pass 1; review eqs. 3–4 (world coordinates)", D::Outward};
    case StepKind::AbaInertias:
      return {"ABA pass 2 (inward): articulated-body inertias and bias forces",
              "Featherstone Part 2, Fig. 9 pass 2, eqs. 57, 62–65; review eqs. 12–13", D::Inward};
    case StepKind::AbaAccelerations:
      return {"ABA pass 3 (outward): accelerations", "Featherstone Part 2, Fig. 9 pass 3, eqs. 66–68; review eq. 14",
              D::Outward};
    case StepKind::FdRightHandSide:
      return {"right-hand side τ − C", "Featherstone Part 2, eqs. 36–37", D::None};
    case StepKind::LtlFactor:
      return {"H = LᵀL, from the last dof to the first", "Featherstone 2005 (cited in Part 2): sparse LᵀL", D::Inward};
    case StepKind::LtlSolveTranspose:
      return {"solve Lᵀy = b, from the last dof to the first", "Featherstone 2005: back-substitution", D::Inward};
    case StepKind::LtlSolve:
      return {"solve Lx = y, from the first dof to the last", "Featherstone 2005: forward substitution", D::Outward};
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

template <class S>
const std::vector<Force<S>>* noForces() {
  return nullptr;
}

template <class S>
VecX<S> cast(const Eigen::VectorXd& x) {
  return x.template cast<S>();
}

AlgorithmTrace runRnea(const Model& model, const TraceInput& in) {
  checkInput(model, in, TraceNeeds::Accelerations);
  return record(model, in, "rnea", [](const auto& m, auto& d, const TraceInput& x, auto& trace) {
    using S = typename ScalarOf<std::decay_t<decltype(m)>>::type;
    return Eigen::MatrixXd(
        rnea(m, d, cast<S>(x.q), cast<S>(x.qd), cast<S>(x.qdd), noForces<S>(), trace).template cast<double>());
  });
}

AlgorithmTrace runCrba(const Model& model, const TraceInput& in) {
  checkInput(model, in, TraceNeeds::Positions);
  return record(model, in, "crba", [](const auto& m, auto& d, const TraceInput& x, auto& trace) {
    using S = typename ScalarOf<std::decay_t<decltype(m)>>::type;
    return Eigen::MatrixXd(crba(m, d, cast<S>(x.q), trace).template cast<double>());
  });
}

AlgorithmTrace runAba(const Model& model, const TraceInput& in) {
  checkInput(model, in, TraceNeeds::Forces);
  return record(model, in, "aba", [](const auto& m, auto& d, const TraceInput& x, auto& trace) {
    using S = typename ScalarOf<std::decay_t<decltype(m)>>::type;
    return Eigen::MatrixXd(
        aba(m, d, cast<S>(x.q), cast<S>(x.qd), cast<S>(x.tau), noForces<S>(), trace).template cast<double>());
  });
}

AlgorithmTrace runCrbaLtl(const Model& model, const TraceInput& in) {
  checkInput(model, in, TraceNeeds::Forces);
  return record(model, in, "crba-ltl", [](const auto& m, auto& d, const TraceInput& x, auto& trace) {
    using S = typename ScalarOf<std::decay_t<decltype(m)>>::type;
    return Eigen::MatrixXd(forwardDynamicsCrba(m, d, cast<S>(x.q), cast<S>(x.qd), cast<S>(x.tau), noForces<S>(), trace)
                               .template cast<double>());
  });
}

}  // namespace

const std::vector<TraceableAlgorithm>& traceableAlgorithms() {
  static const std::vector<TraceableAlgorithm> list = {
      {"rnea", "Recursive Newton–Euler algorithm (RNEA): inverse dynamics",
       "Featherstone Part 2, Fig. 5, eqs. 9–13; RNEA reference card", "link coordinates", TraceNeeds::Accelerations,
       "tau", runRnea},
      {"crba", "Composite-rigid-body algorithm (CRBA): the joint-space inertia matrix H",
       "Featherstone Part 2, Fig. 7, eqs. 44–48", "link coordinates", TraceNeeds::Positions, "mass_matrix", runCrba},
      {"aba", "Articulated-body algorithm (ABA): forward dynamics",
       "Featherstone Part 2, Fig. 9, eqs. 49–68; Orin & Featherstone review, eqs. 3–4, 12–14", "world coordinates",
       TraceNeeds::Forces, "qdd", runAba},
      {"crba-ltl", "CRBA + LᵀL: forward dynamics by H q̈ = τ − C",
       "Featherstone Part 2, eqs. 35–37 and Fig. 7; sparse LᵀL (Featherstone 2005)", "link coordinates",
       TraceNeeds::Forces, "qdd", runCrbaLtl},
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

TraceState traceState(const AlgorithmTrace& trace, int position) {
  TraceState s;
  for (const TraceTerm& t : trace.initial) s.values[{t.quantity, t.index}] = t;
  position = std::clamp(position, 0, int(trace.steps.size()));
  for (int k = 0; k < position; ++k) {
    const TraceStepRecord& step = trace.steps[k];
    if (k == position - 1) s.changed.clear();
    for (int w : step.written) {
      const TraceTerm& t = step.terms[w];
      s.values[{t.quantity, t.index}] = t;
      if (k == position - 1) s.changed.emplace_back(t.quantity, t.index);
    }
  }
  return s;
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
    case TraceRole::None:
      break;
  }
  return "";
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
