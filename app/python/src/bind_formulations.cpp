// Every formulation of the engine's registry by name (docs/formulations.md): inverse_dynamics,
// mass_matrix and forward_dynamics with algorithm="denoc", "waters", ..., and the registry itself.
#include "arrays.hpp"
#include "dynscope/formulations/registry.hpp"
#include "py_types.hpp"

namespace pyd {
namespace {

// The formulation bound to this model, made once per model and name (it holds a copy of the model
// and its workspace; the GIL serialises calls).
const dyn::BoundFormulation<double>& bound(const PyModel& pm, dyn::Problem problem, const std::string& name) {
  const std::string key = std::string(dyn::problemName(problem)) + "/" + name;
  auto it = pm.bound->find(key);
  if (it == pm.bound->end()) it = pm.bound->emplace(key, dyn::formulation(problem, name).bind(*pm)).first;
  return it->second;
}

VectorIn optionalV(const PyModel& pm, const py::object& x, const char* name, Eigen::VectorXd& zeros) {
  if (x.is_none()) {
    zeros = Eigen::VectorXd::Zero(pm->nv);
    return VectorIn{py::none(), zeros.data(), zeros.size()};
  }
  return vectorIn(x, name, pm->nv, "nv", pm.vNames);
}

py::dict paperCount(const dyn::PaperCount& c) {
  py::list tab;
  for (const auto& v : c.tabulated)
    tab.append(py::dict(py::arg("n") = v.n, py::arg("muls") = v.muls, py::arg("adds") = v.adds));
  return py::dict(py::arg("source") = c.source, py::arg("muls_formula") = c.mulsFormula,
                  py::arg("adds_formula") = c.addsFormula, py::arg("muls_polynomial") = c.muls,
                  py::arg("adds_polynomial") = c.adds, py::arg("tabulated") = tab, py::arg("basis") = c.basis);
}

dyn::Problem problemArg(const std::string& name) {
  if (name == "inverse_dynamics" || name == "id") return dyn::Problem::InverseDynamics;
  if (name == "mass_matrix" || name == "mass") return dyn::Problem::MassMatrix;
  if (name == "forward_dynamics" || name == "fd") return dyn::Problem::ForwardDynamics;
  throw py::value_error(
      "problem must be 'inverse_dynamics', 'mass_matrix' or 'forward_dynamics' (or 'id', 'mass', 'fd'); got '" + name +
      "'");
}

}  // namespace

dyn::Problem problemByPythonName(const std::string& name) { return problemArg(name); }

void bindFormulations(py::module_& m) {
  py::class_<dyn::Formulation>(m, "Formulation",
                               "One entry of the engine's registry of formulations (docs/formulations.md).")
      .def_readonly("name", &dyn::Formulation::name, "the name algorithm= takes, e.g. 'denoc'")
      .def_property_readonly(
          "problem", [](const dyn::Formulation& f) { return std::string(dyn::problemName(f.problem)); },
          "'id', 'mass' or 'fd'")
      .def_readonly("title", &dyn::Formulation::title)
      .def_readonly("description", &dyn::Formulation::description)
      .def_readonly("reference", &dyn::Formulation::reference, "the paper, section and equations it implements")
      .def_readonly("degree", &dyn::Formulation::degree, "the cost grows as n^degree on a serial chain of n links")
      .def_readonly("revolute_prismatic_only", &dyn::Formulation::revolutePrismaticOnly)
      .def_property_readonly(
          "paper_counts",
          [](const dyn::Formulation& f) {
            py::list out;
            for (const auto& c : f.paperCounts) out.append(paperCount(c));
            return out;
          },
          "the operation counts the papers print for it")
      .def("__repr__", [](const dyn::Formulation& f) {
        return "<dynscope.Formulation " + std::string(dyn::problemName(f.problem)) + "/" + f.name + ": " + f.title +
               ">";
      });

  m.def(
      "formulations",
      [](const std::optional<std::string>& problem) {
        std::vector<dyn::Formulation> out;
        for (const auto& f : dyn::formulations())
          if (!problem || f.problem == problemArg(*problem)) out.push_back(f);
        return out;
      },
      py::arg("problem") = py::none(),
      "The registry's formulations (all, or those of 'inverse_dynamics', 'mass_matrix', 'forward_dynamics').");

  m.def(
      "inverse_dynamics",
      [](const PyModel& pm, py::handle q, const py::object& qd, const py::object& qdd, const std::string& algorithm) {
        const auto& f = bound(pm, dyn::Problem::InverseDynamics, algorithm);
        Eigen::VectorXd z1, z2;
        const VectorIn Q = vectorIn(q, "q", pm->nq, "nq", pm.qNames);
        const VectorIn QD = optionalV(pm, qd, "qd", z1), QDD = optionalV(pm, qdd, "qdd", z2);
        return vectorOut(f.inverseDynamics(Q.map(), QD.map(), QDD.map()));
      },
      py::arg("model"), py::arg("q"), py::arg("qd") = py::none(), py::arg("qdd") = py::none(),
      py::arg("algorithm") = "rnea",
      "tau (nv) by the named formulation: 'rnea', 'denoc', 'newton-euler-3', 'uicker-kahn', 'waters',\n"
      "'lagrange-4x4', 'lagrange-3x3', 'configuration-space' (dynscope.formulations('id') lists them).\n"
      "qd, qdd default to zeros. Every formulation gives the same tau (to rounding); they differ in cost.\n"
      "The teaching formulations handle revolute and prismatic joints only (others: ValueError naming the joint).");
  m.def(
      "mass_matrix",
      [](const PyModel& pm, py::handle q, const std::string& algorithm) {
        const auto& f = bound(pm, dyn::Problem::MassMatrix, algorithm);
        const VectorIn Q = vectorIn(q, "q", pm->nq, "nq", pm.qNames);
        return matrixOut(f.massMatrix(Q.map()));
      },
      py::arg("model"), py::arg("q"), py::arg("algorithm") = "crba",
      "H(q) (nv x nv) by the named formulation ('crba', 'denoc', ...; dynscope.formulations('mass')).");
  m.def(
      "forward_dynamics",
      [](const PyModel& pm, py::handle q, const py::object& qd, const py::object& tau, const std::string& algorithm) {
        const auto& f = bound(pm, dyn::Problem::ForwardDynamics, algorithm);
        Eigen::VectorXd z1, z2;
        const VectorIn Q = vectorIn(q, "q", pm->nq, "nq", pm.qNames);
        const VectorIn QD = optionalV(pm, qd, "qd", z1), T = optionalV(pm, tau, "tau", z2);
        return vectorOut(f.forwardDynamics(Q.map(), QD.map(), T.map()));
      },
      py::arg("model"), py::arg("q"), py::arg("qd") = py::none(), py::arg("tau") = py::none(),
      py::arg("algorithm") = "aba",
      "qdd (nv) by the named formulation ('aba', 'crba', 'denoc', ...; dynscope.formulations('fd')).\n"
      "Raises ForwardDynamicsError naming the joint where H(q) has no positive pivot.");
}

}  // namespace pyd
