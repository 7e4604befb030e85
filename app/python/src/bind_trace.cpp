// Looking inside the algorithms: the step-by-step trace (the lecture mode's, with each equation as
// plain text and as LaTeX) and operation counts next to the seed papers' (dynscope-cli trace, opcount).
#include <random>

#include "arrays.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/io/generated_models.hpp"
#include "dynscope/model/names.hpp"
#include "dynscope/trace/algorithm_trace.hpp"
#include "lecture/tex_markup.hpp"
#include "py_types.hpp"

namespace pyd {

dyn::Problem problemByPythonName(const std::string& name);  // bind_formulations.cpp

namespace {

py::dict functionsOf(const dyn::OpCounts& c) {
  return py::dict(py::arg("sin") = c.sin, py::arg("cos") = c.cos, py::arg("sqrt") = c.sqrt, py::arg("abs") = c.abs,
                  py::arg("atan2") = c.atan2, py::arg("acos") = c.acos, py::arg("other") = c.other);
}

py::dict countsOf(const dyn::OpCounts& c) {
  return py::dict(py::arg("muls") = c.muls, py::arg("adds") = c.adds, py::arg("functions") = functionsOf(c));
}

py::object valueOf(const Eigen::MatrixXd& v) {
  if (v.size() == 1) return py::float_(v(0, 0));
  if (v.cols() == 1) return vectorOut(v.col(0));
  return matrixOut(v);
}

std::string latex(const std::string& markup) { return tex_markup::toTex(markup).toStdString(); }

py::list termsOf(const dyn::Model& model, const std::vector<dyn::TraceTerm>& terms, const std::vector<int>* which,
                 const dyn::TraceState* after) {
  py::list out;
  const size_t n = which ? which->size() : terms.size();
  for (size_t k = 0; k < n; ++k) {
    const dyn::TraceTerm* t = &terms[which ? size_t((*which)[k]) : k];
    if (t->patch && after)  // a patch of H or L: the whole matrix it leaves (NaN where not computed yet)
      if (const dyn::TraceTerm* whole = after->find(t->quantity, t->index)) t = whole;
    py::dict d;
    d["quantity"] = t->quantity;
    d["symbol"] = dyn::plainMarkup(t->symbol);
    d["latex"] = latex(t->symbol);
    if (t->index >= 0) {
      d["body"] = model.bodyNames[size_t(t->index)];
      d["body_index"] = t->index;
    }
    d["kind"] = dyn::valueKindName(t->kind);
    if (t->frame != dyn::TraceFrame::None) d["coordinates"] = dyn::traceFrameName(t->frame);
    if (t->role != dyn::TraceRole::None) d["role"] = dyn::traceRoleName(t->role);
    d["value"] = valueOf(t->value);
    out.append(d);
  }
  return out;
}

py::dict tallyOf(const dyn::OpTally& t) {
  return py::dict(py::arg("muls") = t.algorithm.muls, py::arg("adds") = t.algorithm.adds,
                  py::arg("functions") = t.algorithm.functions(),
                  py::arg("joint_transforms") = countsOf(t.jointTransforms));
}

std::vector<std::string> inputsOf(dyn::TraceNeeds needs) {
  if (needs == dyn::TraceNeeds::Positions) return {"q"};
  if (needs == dyn::TraceNeeds::Accelerations) return {"q", "qd", "qdd"};
  return {"q", "qd", "tau"};
}

Eigen::VectorXd zerosOr(const PyModel& pm, const py::object& x, const char* name) {
  if (x.is_none()) return Eigen::VectorXd::Zero(pm->nv);
  return vectorIn(x, name, pm->nv, "nv", pm.vNames).map();
}

py::dict trace(const PyModel& pm, const std::string& algorithm, const py::object& q, const py::object& qd,
               const py::object& qdd, const py::object& tau) {
  const dyn::TraceableAlgorithm* a = dyn::findTraceableAlgorithm(algorithm);
  if (!a) {
    std::vector<std::string> names;
    for (const auto& t : dyn::traceableAlgorithms()) names.push_back(t.name);
    throw py::value_error("unknown traceable algorithm '" + algorithm + "' (valid: " + joinNames(names) + ")");
  }
  const auto refuse = [&](const py::object& given, const char* name) {
    if (given.is_none()) return;
    const char* what = a->needs == dyn::TraceNeeds::Positions       ? "the mass matrix: give q only"
                       : a->needs == dyn::TraceNeeds::Accelerations ? "inverse dynamics: give qdd"
                                                                    : "forward dynamics: give tau";
    throw py::value_error(std::string(name) + " is not an input of " + a->name + " (" + what + ")");
  };
  if (a->needs == dyn::TraceNeeds::Positions) refuse(qd, "qd");
  if (a->needs != dyn::TraceNeeds::Accelerations) refuse(qdd, "qdd");
  if (a->needs != dyn::TraceNeeds::Forces) refuse(tau, "tau");
  dyn::TraceInput in;
  in.q = q.is_none() ? Eigen::VectorXd(pm->home()) : Eigen::VectorXd(vectorIn(q, "q", pm->nq, "nq", pm.qNames).map());
  if (a->needs != dyn::TraceNeeds::Positions) in.qd = zerosOr(pm, qd, "qd");
  if (a->needs == dyn::TraceNeeds::Accelerations) in.qdd = zerosOr(pm, qdd, "qdd");
  if (a->needs == dyn::TraceNeeds::Forces) in.tau = zerosOr(pm, tau, "tau");
  const dyn::AlgorithmTrace tr = dyn::traceAlgorithm(*pm, a->name, in);

  py::dict out;
  out["algorithm"] = a->name;
  out["title"] = a->title;
  out["source"] = a->source;
  out["coordinates"] = a->coordinates;
  py::list passes;
  for (const dyn::TracePass& p : tr.passes)
    passes.append(py::dict(py::arg("name") = p.name, py::arg("reference") = p.reference,
                           py::arg("direction") = dyn::passDirectionName(p.direction), py::arg("first_step") = p.first,
                           py::arg("last_step") = p.last));
  out["passes"] = passes;
  out["initial"] = termsOf(*pm, tr.initial, nullptr, nullptr);
  py::list steps;
  dyn::TraceCursor cursor(tr);
  for (size_t k = 0; k < tr.steps.size(); ++k) {
    const dyn::TraceStepRecord& step = tr.steps[k];
    cursor.seek(int(k) + 1);
    py::dict s;
    s["index"] = int(k);
    s["pass"] = tr.passes[size_t(step.pass)].name;
    s["kind"] = dyn::stepKindName(step.kind);
    s["body"] = pm->bodyNames[size_t(step.body)];
    s["body_index"] = step.body;
    if (step.dof >= 0) s["dof"] = pm.vNames[size_t(step.dof)];
    py::list equations;
    for (const dyn::TraceLine& l : step.lines)
      equations.append(py::dict(py::arg("equation") = dyn::plainMarkup(l.equation),
                                py::arg("latex") = latex(l.equation),
                                py::arg("label") = dyn::plainMarkup(l.reference)));
    s["equations"] = equations;
    s["written"] = termsOf(*pm, step.terms, &step.written, &cursor.state());
    s["operations_so_far"] = tallyOf(step.counts);
    steps.append(s);
  }
  out["steps"] = steps;
  out["operations"] = tallyOf(tr.total);
  out["result"] = a->needs == dyn::TraceNeeds::Positions ? py::object(matrixOut(tr.result))
                                                         : py::object(vectorOut(tr.result.col(0)));
  out["result_key"] = a->resultKey;
  return out;
}

py::list operationCounts(const PyModel& pm, const std::string& algorithm, const py::object& problem) {
  const dyn::Model& model = *pm;
  std::mt19937 rng(2024);  // the CLI's fixed state: these formulations' counts do not depend on it
  std::uniform_real_distribution<double> U(-1, 1);
  const Eigen::VectorXd q = dyn::randomConfiguration(model, rng);
  const Eigen::VectorXd qd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return U(rng); });
  const Eigen::VectorXd third = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return U(rng); });
  const std::optional<dyn::Problem> only =
      problem.is_none() ? std::nullopt : std::optional(problemByPythonName(problem.cast<std::string>()));
  py::list out;
  for (const dyn::Formulation& f : dyn::formulations()) {
    if (f.name != algorithm || (only && f.problem != *only)) continue;
    const dyn::OpTally t = dyn::countOperations(f, model, q, qd, third);
    py::list paper;
    for (const dyn::PaperCount& p : f.paperCounts) {
      const auto muls = p.mulsAt(model.nv), adds = p.addsAt(model.nv);
      py::list tabulated;  // the values the paper prints (Table II's n = 6 where no polynomial is legible)
      for (const dyn::PaperCount::Value& v : p.tabulated)
        tabulated.append(py::dict(py::arg("n") = v.n, py::arg("muls") = v.muls, py::arg("adds") = v.adds));
      paper.append(py::dict(py::arg("source") = p.source, py::arg("muls_formula") = p.mulsFormula,
                            py::arg("adds_formula") = p.addsFormula,
                            py::arg("muls") = muls ? py::object(py::float_(*muls)) : py::object(py::none()),
                            py::arg("adds") = adds ? py::object(py::float_(*adds)) : py::object(py::none()),
                            py::arg("tabulated") = tabulated, py::arg("basis") = p.basis));
    }
    py::dict r;
    r["problem"] = dyn::problemName(f.problem);
    r["title"] = f.title;
    r["reference"] = f.reference;
    r["complexity"] = f.degree == 1 ? std::string("O(n)") : "O(n^" + std::to_string(f.degree) + ")";
    r["muls"] = t.algorithm.muls;
    r["adds"] = t.algorithm.adds;
    r["functions"] = functionsOf(t.algorithm);
    r["joint_transforms"] = countsOf(t.jointTransforms);
    r["tabulation"] = countsOf(t.tabulation);
    r["total"] = countsOf(t.total());
    r["paper"] = paper;
    out.append(r);
  }
  if (out.empty()) {
    std::vector<std::string> names;
    for (const dyn::Formulation& f : dyn::formulations())
      if (std::find(names.begin(), names.end(), f.name) == names.end()) names.push_back(f.name);
    throw py::value_error("no formulation '" + algorithm + "'" + (only ? " for that problem" : "") +
                          " (valid: " + joinNames(names) + ")");
  }
  return out;
}

}  // namespace

void bindTrace(py::module_& m) {
  m.def(
      "traceable_algorithms",
      [] {
        py::list out;
        for (const auto& a : dyn::traceableAlgorithms())
          out.append(py::dict(py::arg("name") = a.name, py::arg("label") = a.label, py::arg("title") = a.title,
                              py::arg("source") = a.source, py::arg("coordinates") = a.coordinates,
                              py::arg("result_key") = a.resultKey, py::arg("inputs") = inputsOf(a.needs)));
        return out;
      },
      "The algorithms trace() can step through (as the lecture mode's inspector), with their sources.");
  m.def("trace", &trace, py::arg("model"), py::arg("algorithm"), py::arg("q") = py::none(), py::arg("qd") = py::none(),
        py::arg("qdd") = py::none(), py::arg("tau") = py::none(),
        "An algorithm step by step, as the lecture mode and dynscope-cli trace show it: a dict with 'passes',\n"
        "'initial', 'steps' (each: pass, kind, body, 'equations' (plain 'equation', 'latex' as the papers set\n"
        "it, 'label' = the paper's equation), 'written' (quantity, symbol, latex, coordinates, value) and\n"
        "'operations_so_far'), 'operations' and 'result' (bit for bit the plain algorithm's).\n"
        "q defaults to model.home(); qd, qdd, tau (as the algorithm needs them) to zeros.");
  m.def("operation_counts", &operationCounts, py::arg("model"), py::arg("algorithm"), py::arg("problem") = py::none(),
        "Multiplications and additions of one call of a formulation on this model (the operation-counting\n"
        "scalar runs the same code), next to the seed paper's count at n = nv, as dynscope-cli opcount.\n"
        "A list with one dict per problem the name has ('denoc' has id, mass and fd).");
  m.def(
      "general_chain",
      [](int n, unsigned seed) {
        if (n < 1 || n > 64)
          throw py::value_error("n must be 1..64 (the general chain's links); got " + std::to_string(n));
        PyModel out;
        dyn::Model model = dyn::generalChain(n, seed);
        out.qNames = dyn::configurationNames(model);
        out.vNames = dyn::velocityNames(model);
        out.ptr = std::make_shared<const dyn::Model>(std::move(model));
        out.format = "generated";
        return out;
      },
      py::arg("n"), py::arg("seed") = 1u,
      "The general n-link revolute chain the papers count operations on (dynscope-cli opcount --chain n).");
}

}  // namespace pyd
