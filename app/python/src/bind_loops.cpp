// Closed kinematic loops (review §3.4–3.5; docs/loops.md) and mimic joints enforced (docs/mimic.md):
// assembly, the constraints, forward dynamics by method, inverse dynamics of the actuated joints,
// and the mimic reduction (G, H_y = G^T H G, ...), as dynscope-cli assemble / fd / id compute them.
#include "arrays.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/loops/assembly.hpp"
#include "dynscope/loops/global_analysis.hpp"
#include "dynscope/loops/loop_constraints.hpp"
#include "dynscope/loops/loop_forward_dynamics.hpp"
#include "dynscope/loops/loop_inverse_dynamics.hpp"
#include "dynscope/model/mimic_coupling.hpp"
#include "py_types.hpp"

namespace pyd {
namespace {

std::vector<std::string> dofNames(const PyModel& pm, const std::vector<int>& dofs) {
  std::vector<std::string> names;
  for (int v : dofs) names.push_back(pm.vNames[size_t(v)]);
  return names;
}

std::vector<std::string> rowNames(const dyn::Model& m, int count, const std::vector<int>* rows = nullptr) {
  std::vector<std::string> out;
  for (int k = 0; k < count; ++k) out.push_back(dyn::loopRowName(m, rows ? (*rows)[size_t(k)] : k));
  return out;
}

void requireLoops(const PyModel& pm, const char* what) {
  if (!pm->hasLoops())
    throw py::value_error(pm->name + " has no closed kinematic loops: use " + what + " (docs/loops.md)");
}

Eigen::VectorXd qOr(const PyModel& pm, const py::object& q) {
  return q.is_none() ? Eigen::VectorXd(pm->home()) : Eigen::VectorXd(vectorIn(q, "q", pm->nq, "nq", pm.qNames).map());
}
Eigen::VectorXd vOr(const PyModel& pm, const py::object& v, const char* name) {
  return v.is_none() ? Eigen::VectorXd(Eigen::VectorXd::Zero(pm->nv))
                     : Eigen::VectorXd(vectorIn(v, name, pm->nv, "nv", pm.vNames).map());
}

const dyn::MimicCoupling& couplingOf(const PyModel& pm) {
  if (pm->mimics.empty()) throw py::value_error(pm->name + " has no mimic joints (docs/mimic.md)");
  if (!pm.mimic) pm.mimic = std::make_shared<const dyn::MimicCoupling>(dyn::mimicCoupling(*pm));
  return *pm.mimic;
}

std::vector<std::string> independentQNames(const PyModel& pm, const dyn::MimicCoupling& c) {
  std::vector<std::string> names;
  for (int k : c.independentQ) names.push_back(pm.qNames[size_t(k)]);
  return names;
}

}  // namespace

void bindLoops(py::module_& m) {
  m.def(
      "loop_info",
      [](const PyModel& pm) {
        py::list loops;
        for (const auto& J : pm->loops)
          loops.append(py::dict(py::arg("name") = J.name, py::arg("rows") = J.rows(), py::arg("cut") = J.cut));
        return py::dict(
            py::arg("loops") = loops, py::arg("constraint_rows") = pm->constraintRows,
            py::arg("constraint_rank") = pm->loopRank, py::arg("mobility") = pm->nv - pm->loopRank,
            py::arg("actuated") = dofNames(pm, pm->actuatedDofs()),
            py::arg("independent") = dofNames(pm, pm->independentDofs()),
            py::arg("dependent") = dofNames(pm, pm->dependentDofs),
            py::arg("assembled_reference") = vectorOut(pm->loopReference.size() ? pm->loopReference : pm->home()));
      },
      py::arg("model"),
      "The closed loops (review §3.4): loop joints, constraint rows and rank, mobility, which dofs are\n"
      "actuated, independent and dependent (by name), and an assembled reference configuration.");
  m.def(
      "assemble",
      [](const PyModel& pm, const py::object& q, const std::vector<std::string>& hold, bool holdIndependent) {
        dyn::AssemblyOptions options;
        if (holdIndependent) options.held = pm->independentDofs();
        for (const std::string& name : hold) {
          const int i = pm->jointIndex(name);
          if (i < 0)
            throw py::value_error(pm->loopIndex(name) >= 0
                                      ? "hold " + name + ": a loop-closure joint has no coordinate; hold a tree joint"
                                      : "hold " + name + ": no such joint in " + pm->name);
          for (int k = 0; k < pm->joints[size_t(i)].nv; ++k) options.held.push_back(pm->joints[size_t(i)].idx_v + k);
        }
        dyn::Assembler assembler(*pm);
        const dyn::AssemblyResult& r = assembler.solve(qOr(pm, q), options);
        if (!r.converged) throw std::runtime_error(pm->name + ": " + r.message);
        py::dict loops;
        for (const auto& J : pm->loops)
          loops[py::str(J.name)] = assembler.loopData().phi.segment(J.row, J.rows()).cwiseAbs().maxCoeff();
        return py::dict(py::arg("q") = vectorOut(r.q), py::arg("converged") = r.converged,
                        py::arg("residual") = r.residual, py::arg("iterations") = r.iterations,
                        py::arg("held") = dofNames(pm, options.held), py::arg("max_abs_phi") = loops);
      },
      py::arg("model"), py::arg("q") = py::none(), py::kw_only(), py::arg("hold") = std::vector<std::string>{},
      py::arg("hold_independent") = false,
      "The assembled configuration (phi(q) = 0) nearest to q by Newton's method, as dynscope-cli assemble;\n"
      "hold: joints kept at q's values. Raises RuntimeError naming the loop when it cannot close.");
  m.def(
      "loop_constraints",
      [](const PyModel& pm, const py::object& q, const py::object& qd) {
        requireLoops(pm, "a tree's kinematics");
        dyn::Data data(*pm);
        dyn::LoopData ld(*pm);
        dyn::loopConstraints(*pm, data, ld, qOr(pm, q), vOr(pm, qd, "qd"));
        return py::dict(py::arg("phi") = vectorOut(ld.phi), py::arg("jacobian") = matrixOut(ld.Jc),
                        py::arg("phi_dot") = vectorOut(ld.phiDot), py::arg("rows") = rowNames(*pm, pm->constraintRows));
      },
      py::arg("model"), py::arg("q") = py::none(), py::arg("qd") = py::none(),
      "The loop constraints (review eqs. 16–17): phi(q), its Jacobian phi' (rows x nv, relative motion [w; v]\n"
      "across each loop joint) and phi' qd, with each row's name ('joint:vx').");
  m.def(
      "loop_forward_dynamics",
      [](const PyModel& pm, const py::object& q, const py::object& qd, const py::object& tau, const std::string& method,
         std::pair<double, double> baumgarte) {
        requireLoops(pm, "forward_dynamics");
        const Eigen::VectorXd Q = qOr(pm, q), QD = vOr(pm, qd, "qd"), T = vOr(pm, tau, "tau");
        dyn::Data data(*pm);
        dyn::LoopData ld(*pm);
        dyn::loopConstraints(*pm, data, ld, Q, QD);
        py::dict out;
        Eigen::VectorXd qdd;
        if (method.starts_with("global")) {
          dyn::GlobalData gd(*pm);
          const auto f = method == "global-26"   ? dyn::GlobalFormulation::NullSpace
                         : method == "global-28" ? dyn::GlobalFormulation::ConstraintForces
                                                 : dyn::GlobalFormulation::Augmented;
          qdd = dyn::globalForwardDynamics(*pm, data, ld, gd, Q, QD, T, f, baumgarte.first, baumgarte.second, 1e-10);
          out["method"] = std::string("global, ") + dyn::globalFormulationName(f);
        } else {
          const auto lm = dyn::loopMethodByName(method);
          if (!lm)
            throw py::value_error(
                "method must be '1' (augmented), '2' (multipliers), '3' (null-space), 'global', "
                "'global-26' or 'global-28'; got '" +
                method + "'");
          dyn::LoopSettings settings{
              .method = *lm, .baumgarteAlpha = baumgarte.first, .baumgarteBeta = baumgarte.second};
          qdd = dyn::loopForwardDynamics(*pm, data, ld, Q, QD, T, settings);
          out["method"] = dyn::loopMethodName(settings.method);
          out["lambda"] = vectorOut(ld.lambda.head(ld.rank));
          out["lambda_rows"] = rowNames(*pm, ld.rank, &ld.rows);
        }
        out["qdd"] = vectorOut(qdd);
        out["phi"] = dyn::maxAbs(ld.phi);
        out["phi_dot"] = dyn::maxAbs(ld.phiDot);
        return out;
      },
      py::arg("model"), py::arg("q") = py::none(), py::arg("qd") = py::none(), py::arg("tau") = py::none(),
      py::arg("method") = "2", py::arg("baumgarte") = std::pair<double, double>{0.0, 0.0},
      "Forward dynamics of a closed-loop mechanism, as dynscope-cli fd --loop-method: method '1' (augmented\n"
      "system), '2' (Lagrange multipliers, eq. 18–19), '3' (null space), or the review's global (6N) analysis\n"
      "'global', 'global-26', 'global-28' (§3.5). baumgarte = (alpha, beta) [1/s] stabilises drift.\n"
      "Returns qdd, the constraint forces lambda with their rows' names, and max |phi|, |phi' qd| at the state.");
  m.def(
      "loop_inverse_dynamics",
      [](const PyModel& pm, const py::object& q, const py::object& qd, const py::object& qdd) {
        requireLoops(pm, "rnea or inverse_dynamics");
        Eigen::VectorXd Q = qOr(pm, q), QD = vOr(pm, qd, "qd");
        const Eigen::VectorXd QDD = vOr(pm, qdd, "qdd");
        dyn::Data data(*pm);
        dyn::LoopData ld(*pm);
        dyn::loopConstraints(*pm, data, ld, Q);
        if (dyn::maxAbs(ld.phi) > 1e-10) {  // assemble with the independent coordinates as given, as the CLI
          const dyn::AssemblyResult a = dyn::assemble(*pm, Q, {pm->independentDofs(), 1e-12, 100});
          if (!a.converged) throw std::runtime_error("q cannot be assembled: " + a.message);
          Q = a.q;
        }
        dyn::loopDependentVelocities(*pm, data, ld, Q, QD);
        dyn::loopInverseDynamics(*pm, data, ld, Q, QD, QDD);
        return py::dict(py::arg("q") = vectorOut(Q), py::arg("qd") = vectorOut(QD), py::arg("qdd") = vectorOut(ld.qdd),
                        py::arg("tau") = vectorOut(ld.tau), py::arg("tau_tree") = vectorOut(data.tau),
                        py::arg("lambda") = vectorOut(ld.lambdaAll),
                        py::arg("lambda_rows") = rowNames(*pm, pm->constraintRows), py::arg("residual") = ld.residual,
                        py::arg("actuated") = dofNames(pm, pm->actuatedDofs()),
                        py::arg("independent") = dofNames(pm, pm->independentDofs()));
      },
      py::arg("model"), py::arg("q") = py::none(), py::arg("qd") = py::none(), py::arg("qdd") = py::none(),
      "Inverse dynamics of a closed-loop mechanism, as dynscope-cli id: the actuated joints' tau for the\n"
      "independent coordinates' motion (q assembled and the dependent qd, qdd solved from the loops),\n"
      "tau_tree = RNEA of the spanning tree = tau + phi'^T lambda, the constraint forces and the residual.");

  m.def(
      "mimic_coupling",
      [](const PyModel& pm) {
        const dyn::MimicCoupling& c = couplingOf(pm);
        return py::dict(py::arg("G") = matrixOut(c.denseG()), py::arg("independent_q") = independentQNames(pm, c),
                        py::arg("independent_v") = dofNames(pm, c.independentDofs), py::arg("nqy") = c.nqy,
                        py::arg("ny") = c.ny);
      },
      py::arg("model"),
      "The mimic reduction (docs/mimic.md): qd = G yd with G (nv x ny) one non-zero per row, and the names of\n"
      "the independent coordinates y (positions) and yd (velocities).");
  m.def(
      "mimic_expand",
      [](const PyModel& pm, const py::object& y) {
        const dyn::MimicCoupling& c = couplingOf(pm);
        const VectorIn Y = vectorIn(y, "y", c.nqy, "independent q entries", independentQNames(pm, c));
        Eigen::VectorXd q(c.nq);
        dyn::expandPositions(c, Y.map(), q);
        return vectorOut(q);
      },
      py::arg("model"), py::arg("y"),
      "Every joint's q from the independent coordinates y (followers = multiplier * master + offset).");
  m.def(
      "reduced_inverse_dynamics",
      [](const PyModel& pm, const py::object& y, const py::object& yd, const py::object& ydd) {
        const dyn::MimicCoupling& c = couplingOf(pm);
        const auto names = dofNames(pm, c.independentDofs);
        const VectorIn Y = vectorIn(y, "y", c.nqy, "independent q entries", independentQNames(pm, c));
        const VectorIn YD = vectorIn(yd, "yd", c.ny, "independent v entries", names);
        const VectorIn YDD = vectorIn(ydd, "ydd", c.ny, "independent v entries", names);
        dyn::Data data(*pm);
        dyn::MimicData w(c);
        return vectorOut(dyn::reducedInverseDynamics(*pm, data, c, w, Y.map(), YD.map(), YDD.map()));
      },
      py::arg("model"), py::arg("y"), py::arg("yd"), py::arg("ydd"),
      "tau_y = G^T ID(q(y), G yd, G ydd): the independent coordinates' forces (dynscope-cli id on a mimic model).");
  m.def(
      "reduced_mass_matrix",
      [](const PyModel& pm, const py::object& y) {
        const dyn::MimicCoupling& c = couplingOf(pm);
        const VectorIn Y = vectorIn(y, "y", c.nqy, "independent q entries", independentQNames(pm, c));
        dyn::Data data(*pm);
        dyn::MimicData w(c);
        return matrixOut(dyn::reducedMassMatrix(*pm, data, c, w, Y.map()));
      },
      py::arg("model"), py::arg("y"), "H_y = G^T H(q(y)) G (ny x ny), as dynscope-cli mass on a mimic model.");
  m.def(
      "reduced_forward_dynamics",
      [](const PyModel& pm, const py::object& y, const py::object& yd, const py::object& tauY) {
        const dyn::MimicCoupling& c = couplingOf(pm);
        const auto names = dofNames(pm, c.independentDofs);
        const VectorIn Y = vectorIn(y, "y", c.nqy, "independent q entries", independentQNames(pm, c));
        const VectorIn YD = vectorIn(yd, "yd", c.ny, "independent v entries", names);
        const VectorIn T = vectorIn(tauY, "tau_y", c.ny, "independent v entries", names);
        dyn::Data data(*pm);
        dyn::MimicData w(c);
        return vectorOut(dyn::reducedForwardDynamics(*pm, data, c, w, Y.map(), YD.map(), T.map()));
      },
      py::arg("model"), py::arg("y"), py::arg("yd"), py::arg("tau_y"),
      "ydd = H_y^-1 (tau_y - G^T C(q, qd)), as dynscope-cli fd on a mimic model (NaN where H_y is singular).");
}

}  // namespace pyd
