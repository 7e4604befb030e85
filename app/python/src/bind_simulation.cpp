// Simulation (docs/simulation.md): the engine's Simulator as a stepping object (Simulator: step with a
// torque computed in Python, as MuJoCo's mj_step) and as one call (simulate, as dynscope-cli simulate),
// with the integrators, the controllers, the ground and pushes (wrenches, optionally timed). Glue only:
// the engine steps, with the GIL released.
#include <cmath>
#include <limits>

#include "arrays.hpp"
#include "dynscope/algorithms/external_wrench.hpp"
#include "dynscope/io/model_check.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/simulation/simulator.hpp"
#include "py_trajectory.hpp"

namespace pyd {
namespace {

struct PyController {
  dyn::Controller c;
};

// A wrench on a link: force and moment in world axes, the point in the link's frame; acting while
// start <= t < end (steps whose middle lies in that window).
struct PyWrench {
  std::string link;
  Eigen::Vector3d force = Eigen::Vector3d::Zero(), moment = Eigen::Vector3d::Zero(), point = Eigen::Vector3d::Zero();
  double start = 0, end = std::numeric_limits<double>::infinity();
  bool always() const { return start <= 0 && std::isinf(end); }
};

struct PySimResult {
  std::shared_ptr<const dyn::Model> model;
  std::vector<std::string> qNames, vNames;
  dyn::SimulationRecord rec;
  std::string status = "ok", error;
  dyn::SimulationStats stats;
};

struct PySimulator {
  PyModel model;
  std::unique_ptr<dyn::Simulator> sim;
  std::vector<PyWrench> wrenches;
  std::vector<dyn::ExternalWrench> resolved;  // per wrench, on its body
  std::vector<char> active;                   // per wrench: applied now
};

py::handle divergedType;  // dynscope.SimulationDiverged (a reference kept for the interpreter's life)

const char* kOptions =
    "Options (keywords; defaults as dynscope-cli simulate):\n"
    "  integrator='euler' (symplectic) | 'rk4' | 'rk45' (adaptive Dormand-Prince); dt=1e-3 [s] (rk45: the\n"
    "  output interval and largest sub-step); tolerance=1e-8 (rk45); min_step=1e-12 [s] (rk45);\n"
    "  algorithm='aba' | 'crba'; compare=False (also run the other algorithm: fd_difference);\n"
    "  damping=True (-b qd, model.damping), friction=True (model.friction), friction_velocity=1e-2;\n"
    "  limits=True, limit_stiffness=1e4 [N m/rad], limit_damping=1e2 [N m s/rad];\n"
    "  velocity_bound=1e3 (|qd_i| above it: diverged); record_every=1; record_limit=0; energy=True;\n"
    "  ground=None or the height [m] of the plane z = ground; ground_friction=0.8 (Coulomb mu);\n"
    "  contact_time=0.01 [s], contact_damping_ratio=1, or contact_stiffness [N/m] (> 0 replaces the rule)\n"
    "  with contact_damping [N s/m];\n"
    "  loop_method='1'|'2'|'3', baumgarte=(alpha, beta) [1/s] or None (off), projection=True (closed loops);\n"
    "  controller='passive' | 'gravity' | a Controller; wrenches=[Wrench, ...] (pushes).";

std::vector<std::string> kOptionNames = {"integrator",
                                         "dt",
                                         "tolerance",
                                         "min_step",
                                         "algorithm",
                                         "compare",
                                         "damping",
                                         "friction",
                                         "friction_velocity",
                                         "limits",
                                         "limit_stiffness",
                                         "limit_damping",
                                         "velocity_bound",
                                         "record_every",
                                         "record_limit",
                                         "energy",
                                         "ground",
                                         "ground_friction",
                                         "contact_time",
                                         "contact_damping_ratio",
                                         "contact_stiffness",
                                         "contact_damping",
                                         "loop_method",
                                         "baumgarte",
                                         "projection",
                                         "controller",
                                         "wrenches"};

dyn::SimulationSettings settingsFrom(const py::kwargs& kw) {
  for (const auto& item : kw) {
    const std::string key = py::str(item.first);
    if (std::find(kOptionNames.begin(), kOptionNames.end(), key) == kOptionNames.end())
      throw py::type_error("unknown simulation option '" + key + "'; the options are: " + [] {
        std::string s;
        for (const auto& n : kOptionNames) s += (s.empty() ? "" : ", ") + n;
        return s;
      }());
  }
  const auto has = [&](const char* k) { return kw.contains(k) && !kw[k].is_none(); };
  const auto num = [&](const char* k, double& slot) {
    if (has(k)) slot = kw[k].cast<double>();
  };
  const auto flag = [&](const char* k, bool& slot) {
    if (has(k)) slot = kw[k].cast<bool>();
  };
  dyn::SimulationSettings st;
  if (has("integrator")) {
    const std::string name = kw["integrator"].cast<std::string>();
    const auto i = dyn::integratorByName(name);
    if (!i) throw py::value_error("integrator must be 'euler', 'rk4' or 'rk45'; got '" + name + "'");
    st.integrator = *i;
  }
  if (has("algorithm")) {
    const std::string a = kw["algorithm"].cast<std::string>();
    if (a != "aba" && a != "crba") throw py::value_error("algorithm must be 'aba' or 'crba'; got '" + a + "'");
    st.algorithm = a == "crba" ? dyn::ForwardAlgorithm::Crba : dyn::ForwardAlgorithm::Aba;
  }
  num("dt", st.dt);
  num("tolerance", st.tolerance);
  num("min_step", st.minStep);
  flag("compare", st.compare);
  flag("damping", st.damping);
  flag("friction", st.friction);
  num("friction_velocity", st.frictionVelocity);
  flag("limits", st.limits);
  num("limit_stiffness", st.limitStiffness);
  num("limit_damping", st.limitDamping);
  num("velocity_bound", st.velocityBound);
  if (has("record_every")) st.recordEvery = kw["record_every"].cast<int>();
  if (has("record_limit")) st.recordLimit = kw["record_limit"].cast<int>();
  flag("energy", st.energy);
  if (has("ground")) {
    st.ground.enabled = true;
    st.ground.height = kw["ground"].cast<double>();
  }
  num("ground_friction", st.ground.friction);
  num("contact_time", st.ground.timeConstant);
  num("contact_damping_ratio", st.ground.dampingRatio);
  num("contact_stiffness", st.ground.stiffness);
  num("contact_damping", st.ground.damping);
  if (has("loop_method")) {
    const std::string name = py::str(kw["loop_method"]);
    const auto lm = dyn::loopMethodByName(name);
    if (!lm) throw py::value_error("loop_method must be '1', '2' or '3'; got '" + name + "'");
    st.loopMethod = *lm;
  }
  if (kw.contains("baumgarte")) {
    if (kw["baumgarte"].is_none()) {
      st.baumgarte = false;
    } else {
      const VectorIn b = vectorIn(kw["baumgarte"], "baumgarte", 2, "2 values (alpha, beta)", {});
      st.baumgarteAlpha = b.data[0];
      st.baumgarteBeta = b.data[1];
      st.baumgarte = st.baumgarteAlpha > 0 || st.baumgarteBeta > 0;
    }
  }
  flag("projection", st.projection);
  dyn::validate(st);  // std::invalid_argument naming the setting -> ValueError
  return st;
}

dyn::Controller controllerFrom(const py::kwargs& kw) {
  if (!kw.contains("controller") || kw["controller"].is_none()) return dyn::PassiveController{};
  py::object c = kw["controller"];
  if (py::isinstance<py::str>(c)) {
    const std::string name = c.cast<std::string>();
    if (name == "passive") return dyn::PassiveController{};
    if (name == "gravity") return dyn::GravityCompensation{};
    throw py::value_error(
        "controller must be 'passive', 'gravity' or a dynscope.Controller (Controller.constant, "
        ".pd, .computed_torque, .replay, .replay_csv); got '" +
        name + "'");
  }
  return c.cast<const PyController&>().c;
}

std::vector<PyWrench> wrenchesFrom(const py::kwargs& kw) {
  if (!kw.contains("wrenches") || kw["wrenches"].is_none()) return {};
  std::vector<PyWrench> out;
  for (py::handle w : kw["wrenches"]) out.push_back(w.cast<PyWrench>());
  return out;
}

Eigen::VectorXd qArg(const PyModel& pm, const py::object& q0) {
  if (q0.is_none()) return pm->home();
  return vectorIn(q0, "q0", pm->nq, "nq", pm.qNames).map();
}
Eigen::VectorXd vArg(const PyModel& pm, const py::object& qd0) {
  if (qd0.is_none()) return Eigen::VectorXd::Zero(pm->nv);
  return vectorIn(qd0, "qd0", pm->nv, "nv", pm.vNames).map();
}

// The wrenches acting at the current time (midpoint of the next step); true when the set changed.
bool updateWrenches(PySimulator& s, bool force) {
  const double mid = s.sim->time() + 0.5 * s.sim->settings().dt;
  bool changed = force;
  for (size_t k = 0; k < s.wrenches.size(); ++k) {
    const char on = s.wrenches[k].start <= mid && mid < s.wrenches[k].end;
    changed |= on != s.active[k];
    s.active[k] = on;
  }
  if (!changed) return false;
  std::vector<dyn::ExternalWrench> now;
  for (size_t k = 0; k < s.wrenches.size(); ++k)
    if (s.active[k]) now.push_back(s.resolved[k]);
  s.sim->setWrenches(now);
  return true;
}

void setWrenches(PySimulator& s, std::vector<PyWrench> wrenches) {
  std::vector<dyn::ExternalWrench> resolved;
  for (const PyWrench& w : wrenches) {
    const int frame = frameIndexArg(s.model, py::str(w.link));
    resolved.push_back(dyn::wrenchOnFrame(*s.model, frame, w.point, w.force, w.moment));
  }
  s.wrenches = std::move(wrenches);
  s.resolved = std::move(resolved);
  s.active.assign(s.wrenches.size(), 0);
  updateWrenches(s, true);
}

PySimulator makeSimulator(const PyModel& pm, const py::object& q0, const py::object& qd0, const py::kwargs& kw) {
  const dyn::SimulationSettings st = settingsFrom(kw);
  dyn::Controller c = controllerFrom(kw);
  if (const std::string refusal = dyn::forwardDynamicsRefusal(*pm); !refusal.empty()) throw py::value_error(refusal);
  const Eigen::VectorXd q = qArg(pm, q0), qd = vArg(pm, qd0);
  PySimulator s;
  s.model = pm;
  s.sim = std::make_unique<dyn::Simulator>(*pm, st, std::move(c));
  setWrenches(s, wrenchesFrom(kw));  // before reset: the first record has them (as the CLI's)
  s.sim->reset(q, qd);
  return s;
}

PySimResult resultOf(const PySimulator& s) {
  PySimResult r{s.model.ptr, s.model.qNames, s.model.vNames, s.sim->record(), "ok", "", s.sim->stats()};
  if (s.sim->status() == dyn::SimulationStatus::Diverged) {
    r.status = "diverged";
    r.error = s.sim->lastError();
  }
  return r;
}

[[noreturn]] void raiseDiverged(const PySimulator& s, bool withResult) {
  py::object e = divergedType(s.sim->lastError() +
                              " (the record ends at the last good state, t = " + std::to_string(s.sim->time()) + " s)");
  e.attr("t") = s.sim->time();
  e.attr("message") = s.sim->lastError();
  e.attr("result") = withResult ? py::cast(resultOf(s)) : py::none();
  PyErr_SetObject(divergedType.ptr(), e.ptr());
  throw py::error_already_set();
}

// Advances by round(duration / dt) steps, splitting where a timed wrench starts or ends.
dyn::SimulationStatus run(PySimulator& s, double duration) {
  const double dt = s.sim->settings().dt;
  if (!std::isfinite(duration) || duration < 0)
    throw py::value_error("duration must be a finite number >= 0 [s]; got " + std::to_string(duration));
  long left = std::lround(duration / dt);
  bool timed = false;
  for (const PyWrench& w : s.wrenches) timed |= !w.always();
  py::gil_scoped_release release;
  if (!timed) return s.sim->advance(double(left) * dt);
  dyn::SimulationStatus status = s.sim->status();
  while (left > 0 && status != dyn::SimulationStatus::Diverged) {
    updateWrenches(s, false);
    // Steps until the set of acting wrenches changes.
    long chunk = 1;
    const double t0 = s.sim->time();
    while (chunk < left) {
      const double mid = t0 + (double(chunk) + 0.5) * dt;
      bool same = true;
      for (size_t k = 0; k < s.wrenches.size(); ++k)
        same &= (s.wrenches[k].start <= mid && mid < s.wrenches[k].end) == bool(s.active[k]);
      if (!same) break;
      ++chunk;
    }
    status = s.sim->advance(double(chunk) * dt);
    left -= chunk;
  }
  return status;
}

py::array_t<double> flatRows(const std::vector<double>& flat, int cols) {
  const py::ssize_t n = cols ? py::ssize_t(flat.size()) / cols : 0;
  py::array_t<double> out = arrayOut({n, py::ssize_t(cols)});
  std::copy(flat.begin(), flat.end(), out.mutable_data());
  return out;
}
py::object flatOrNone(const std::vector<double>& v) {
  if (v.empty()) return py::none();
  py::array_t<double> out = arrayOut({py::ssize_t(v.size())});
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

py::dict statsDict(const dyn::SimulationStats& st) {
  return py::dict(py::arg("steps") = st.steps, py::arg("sub_steps") = st.subSteps, py::arg("rejected") = st.rejected,
                  py::arg("evaluations") = st.evaluations, py::arg("projection_failures") = st.projectionFailures,
                  py::arg("worst_projection_residual") = st.worstProjectionResidual);
}

Eigen::VectorXd gains(const PyTrajectory& ref, py::handle k, const char* name) {
  if (py::isinstance<py::float_>(k) || py::isinstance<py::int_>(k))
    return Eigen::VectorXd::Constant(ref.model->nv, k.cast<double>());
  return vectorIn(k, name, ref.model->nv, "nv (or one number for every dof)", ref.vNames).map();
}

PyController tracking(const PyTrajectory& ref, py::handle kp, py::handle kd, dyn::PdTracking::Mode mode) {
  if (mode == dyn::PdTracking::Mode::ComputedTorque && ref.traj.qdd.cols() != ref.traj.t.size())
    throw py::value_error("reference has no accelerations: computed torque needs qdd_ref");
  return {dyn::PdTracking{ref.traj, gains(ref, kp, "kp"), gains(ref, kd, "kd"), mode}};
}

}  // namespace

void bindSimulation(py::module_& m) {
  divergedType = py::handle(PyErr_NewExceptionWithDoc(
      "dynscope.SimulationDiverged",
      "The simulation diverged (NaN, a velocity above velocity_bound, or forward dynamics\n"
      "refused at a state): str(e) says why and when; e.t [s] is the last good state's time,\n"
      "e.message the engine's message, e.result (simulate) the SimulationResult up to it.",
      PyExc_RuntimeError, nullptr));
  if (!divergedType) throw py::error_already_set();
  m.attr("SimulationDiverged") = divergedType;

  py::class_<PyController>(
      m, "Controller",
      "A torque source of the simulator (the engine's Controller): what the actuators apply at (t, q, qd);\n"
      "damping, friction, joint springs and limits come on top. Made by the static methods below;\n"
      "simulate and Simulator also take controller='passive' or 'gravity'.")
      .def_static(
          "passive", [] { return PyController{dyn::PassiveController{}}; }, "tau = 0")
      .def_static(
          "gravity_compensation", [] { return PyController{dyn::GravityCompensation{}}; },
          "tau = g(q) = RNEA(q, 0, 0): holds any pose at rest")
      .def_static(
          "constant",
          [](const PyModel& pm, py::handle tau) {
            return PyController{dyn::ConstantTorque{vectorIn(tau, "tau", pm->nv, "nv", pm.vNames).map()}};
          },
          py::arg("model"), py::arg("tau"), "tau (nv) [N m or N], constant")
      .def_static(
          "pd",
          [](const PyTrajectory& ref, py::handle kp, py::handle kd) {
            return tracking(ref, kp, kd, dyn::PdTracking::Mode::Pd);
          },
          py::arg("reference"), py::arg("kp"), py::arg("kd"),
          "PD tracking of a Trajectory: tau = Kp e + Kd ed, e = q_ref (-) q, ed = qd_ref - qd; kp [N m/rad],\n"
          "kd [N m s/rad]: one number or nv. The reference is interpolated, held outside its range.")
      .def_static(
          "computed_torque",
          [](const PyTrajectory& ref, py::handle kp, py::handle kd) {
            return tracking(ref, kp, kd, dyn::PdTracking::Mode::ComputedTorque);
          },
          py::arg("reference"), py::arg("kp"), py::arg("kd"),
          "Computed torque: tau = RNEA(q, qd, qdd_ref + Kp e + Kd ed), so e'' + Kd e' + Kp e = 0 (without\n"
          "damping, friction, limits); kp [1/s^2], kd [1/s]: one number or nv.")
      .def_static(
          "replay",
          [](const PyModel& pm, py::handle t, py::handle TAU) {
            const VectorIn T = vectorIn(t, "t");
            const MatrixIn M = matrixIn(TAU, "TAU", pm->nv, "nv", pm.vNames);
            if (M.rows != T.size)
              throw py::value_error("TAU has " + std::to_string(M.rows) + " rows, t has " + std::to_string(T.size) +
                                    ": one row per time");
            return PyController{dyn::TorqueReplay{T.map(), M.map().transpose()}};
          },
          py::arg("model"), py::arg("t"), py::arg("TAU"),
          "Replays torques TAU (N x nv) at times t (N, increasing) [s], linear between rows, held outside.")
      .def_static(
          "replay_csv",
          [](const PyModel& pm, const std::string& path) { return PyController{dyn::readTorqueCsv(*pm, path)}; },
          py::arg("model"), py::arg("path"),
          "Replays a torque CSV (t, tau_<v name> columns), as dynscope-cli simulate --controller replay.")
      .def_property_readonly("name", [](const PyController& c) { return std::string(dyn::controllerName(c.c)); })
      .def("__repr__",
           [](const PyController& c) { return "<dynscope.Controller " + std::string(dyn::controllerName(c.c)) + ">"; });

  py::class_<PyWrench>(m, "Wrench",
                       "A push or load on a link (docs/external-forces.md), held in world axes while the robot moves:\n"
                       "force [N] and moment [N m] in world axes, the force acting at point [m] in the link's frame\n"
                       "(any URDF link or DH frame). It acts while start <= t < end [s] (default: always), on the\n"
                       "steps whose middle lies in that window: a push.")
      .def(py::init(
               [](std::string link, py::handle force, py::handle moment, py::handle point, double start, double end) {
                 PyWrench w;
                 w.link = std::move(link);
                 w.force = vectorIn(force, "force", 3, "3 components (x, y, z)", {}).map();
                 w.moment = vectorIn(moment, "moment", 3, "3 components (x, y, z)", {}).map();
                 w.point = vectorIn(point, "point", 3, "3 components (x, y, z)", {}).map();
                 if (std::isnan(start) || std::isnan(end) || !(end > start))
                   throw py::value_error("a wrench needs start < end [s]; got start = " + std::to_string(start) +
                                         ", end = " + std::to_string(end));
                 w.start = start;
                 w.end = end;
                 return w;
               }),
           py::arg("link"), py::arg("force") = std::vector<double>{0, 0, 0},
           py::arg("moment") = std::vector<double>{0, 0, 0}, py::arg("point") = std::vector<double>{0, 0, 0},
           py::arg("start") = 0.0, py::arg("end") = std::numeric_limits<double>::infinity())
      .def_readonly("link", &PyWrench::link)
      .def_readonly("force", &PyWrench::force)
      .def_readonly("moment", &PyWrench::moment)
      .def_readonly("point", &PyWrench::point)
      .def_readonly("start", &PyWrench::start)
      .def_readonly("end", &PyWrench::end)
      .def("__repr__", [](const PyWrench& w) { return "<dynscope.Wrench on '" + w.link + "'>"; });

  py::class_<PySimResult>(
      m, "SimulationResult",
      "What a simulation recorded, one row per recorded step (the columns of dynscope-cli simulate's CSV):\n"
      "t (N) [s], q (N x nq), qd, qdd, tau (N x nv; tau: every joint force applied, actuators, damping,\n"
      "friction, limits and from outside). Entries not recorded are None. status 'ok' or 'diverged'\n"
      "(error says why; the record ends at the last good state).")
      .def_property_readonly("t", [](const PySimResult& r) { return flatOrNone(r.rec.t); })
      .def_property_readonly("q", [](const PySimResult& r) { return flatRows(r.rec.q, r.rec.nq); })
      .def_property_readonly("qd", [](const PySimResult& r) { return flatRows(r.rec.qd, r.rec.nv); })
      .def_property_readonly("qdd", [](const PySimResult& r) { return flatRows(r.rec.qdd, r.rec.nv); })
      .def_property_readonly("tau", [](const PySimResult& r) { return flatRows(r.rec.tau, r.rec.nv); })
      .def_property_readonly(
          "tau_external",
          [](const PySimResult& r) {
            if (r.rec.tauExternal.empty()) return py::object(py::none());
            return py::object(flatRows(r.rec.tauExternal, r.rec.nv));  // one row per sample, zeros when none acts
          },
          "J^T f of the wrenches and the ground (N x nv), the part of tau from outside; None when nothing acted")
      .def_property_readonly(
          "energy", [](const PySimResult& r) { return flatOrNone(r.rec.energy); },
          "kinetic + potential + what the springs hold (N) [J]")
      .def_property_readonly(
          "energy_drift",
          [](const PySimResult& r) {
            if (r.rec.energy.empty()) return py::object(py::none());
            Eigen::VectorXd d(r.rec.samples());
            for (int k = 0; k < r.rec.samples(); ++k) d[k] = r.rec.relativeEnergyDrift(k);
            return py::object(vectorOut(d));
          },
          "(E_k - E_0) / |E_0| (E_k - E_0 when |E_0| < 1e-12) per sample")
      .def_property_readonly(
          "fd_difference", [](const PySimResult& r) { return flatOrNone(r.rec.fdDifference); },
          "compare: max |qdd_aba - qdd_crba| per sample [rad/s^2]")
      .def_property_readonly(
          "constraint_error", [](const PySimResult& r) { return flatOrNone(r.rec.constraintError); },
          "closed loops: |phi(q)| per sample")
      .def_property_readonly(
          "constraint_rate_error", [](const PySimResult& r) { return flatOrNone(r.rec.constraintRateError); },
          "closed loops: |phi'(q) qd| per sample")
      .def_property_readonly(
          "contact_normal", [](const PySimResult& r) { return flatOrNone(r.rec.contactNormal); },
          "ground: sum of the normal forces per sample [N]")
      .def_property_readonly(
          "contact_friction", [](const PySimResult& r) { return flatOrNone(r.rec.contactFriction); },
          "ground: sum of the friction forces' magnitudes per sample [N]")
      .def_property_readonly(
          "penetration", [](const PySimResult& r) { return flatOrNone(r.rec.penetration); },
          "ground: the deepest penetration per sample [m]")
      .def_property_readonly(
          "limit_events",
          [](const PySimResult& r) {
            py::list out;
            for (const dyn::LimitEvent& e : r.rec.limitEvents)
              out.append(py::dict(py::arg("t") = e.t, py::arg("dof") = e.dof,
                                  py::arg("joint") = r.model->jointNames[size_t(e.joint)], py::arg("upper") = e.upper,
                                  py::arg("position") = e.position, py::arg("limit") = e.limit));
            return out;
          },
          "every entry into a joint limit: dicts t [s], dof (v index), joint (name), upper, position, limit")
      .def_readonly("status", &PySimResult::status, "'ok' or 'diverged'")
      .def_readonly("error", &PySimResult::error, "why it diverged ('' when ok)")
      .def_readonly("q_names", &PySimResult::qNames)
      .def_readonly("v_names", &PySimResult::vNames)
      .def_property_readonly(
          "stats", [](const PySimResult& r) { return statsDict(r.stats); },
          "steps, sub_steps, rejected (rk45), evaluations, projection_failures, worst_projection_residual")
      .def_property_readonly("max_relative_energy_drift",
                             [](const PySimResult& r) { return r.rec.maxRelativeEnergyDrift(); })
      .def_property_readonly("samples", [](const PySimResult& r) { return r.rec.samples(); })
      .def("__len__", [](const PySimResult& r) { return r.rec.samples(); })
      .def(
          "trajectory",
          [](const PySimResult& r) {
            return PyTrajectory{r.model, r.qNames, r.vNames, r.rec.trajectory()};
          },
          "The recorded motion as a Trajectory (t, q, qd, qdd), e.g. for trajectory_dynamics (with\n"
          "tau_external=result.tau_external when wrenches or the ground acted).")
      .def("__repr__", [](const PySimResult& r) {
        return "<dynscope.SimulationResult: " + std::to_string(r.rec.samples()) + " samples, " + r.status + ">";
      });

  py::class_<PySimulator>(
      m, "Simulator",
      (std::string("A forward-dynamics simulation you step yourself (the engine's Simulator; MuJoCo's mj_step):\n"
                   "    sim = dynscope.Simulator(model, q0, qd0, integrator='rk4', dt=1e-3)\n"
                   "    for k in range(1000):\n"
                   "        tau = ...  # from sim.t, sim.q, sim.qd\n"
                   "        sim.step(tau)\n"
                   "    result = sim.result()\n"
                   "qdd = FD(q, qd, tau) with tau = controller (or the torque given to step) + damping, friction, "
                   "joint\nsprings and limits + wrenches and ground. q0 defaults to the model's home pose, qd0 to "
                   "rest.\nDivergence raises SimulationDiverged (sim.status is then 'diverged' until reset).\n") +
       kOptions)
          .c_str())
      .def(py::init(&makeSimulator), py::arg("model"), py::arg("q0") = py::none(), py::arg("qd0") = py::none())
      .def(
          "reset",
          [](PySimulator& s, const py::object& q0, const py::object& qd0) {
            const Eigen::VectorXd q = qArg(s.model, q0), qd = vArg(s.model, qd0);
            s.sim->reset(q, qd);
            updateWrenches(s, true);
          },
          py::arg("q0") = py::none(), py::arg("qd0") = py::none(),
          "Back to t = 0 at (q0, qd0) (defaults: home pose, rest); clears the record.")
      .def(
          "step",
          [](PySimulator& s, const py::object& tau, int n) {
            if (!tau.is_none()) {
              const VectorIn T = vectorIn(tau, "tau", s.model->nv, "nv", s.model.vNames);
              s.sim->setController(dyn::ConstantTorque{T.map()});
            }
            if (n < 0) throw py::value_error("n must be >= 0 steps; got " + std::to_string(n));
            dyn::SimulationStatus st = s.sim->status();
            for (int k = 0; k < n && st != dyn::SimulationStatus::Diverged; ++k) {
              updateWrenches(s, false);
              py::gil_scoped_release release;
              st = s.sim->step();
            }
            if (st == dyn::SimulationStatus::Diverged) raiseDiverged(s, false);
          },
          py::arg("tau") = py::none(), py::arg("n") = 1,
          "n steps of dt. tau (nv) [N m or N]: the actuator torque, held over the steps (zero-order hold, as\n"
          "MuJoCo's ctrl); it replaces the controller and stays until the next tau (sim.controller is then\n"
          "'constant'). Without tau the controller acts. Raises SimulationDiverged.")
      .def(
          "advance",
          [](PySimulator& s, double duration) {
            if (run(s, duration) == dyn::SimulationStatus::Diverged) raiseDiverged(s, false);
          },
          py::arg("duration"),
          "Steps for round(duration / dt) steps [s] with the GIL released and records the final state.\n"
          "Raises SimulationDiverged.")
      .def(
          "set_controller",
          [](PySimulator& s, const py::object& c) {
            py::kwargs kw;
            kw["controller"] = c;
            s.sim->setController(controllerFrom(kw));
          },
          py::arg("controller"), "'passive', 'gravity' or a Controller; the state and record are kept.")
      .def(
          "set_wrenches", [](PySimulator& s, std::vector<PyWrench> w) { setWrenches(s, std::move(w)); },
          py::arg("wrenches"), "The wrenches (pushes) from now on: a list of Wrench (times as for simulate).")
      .def(
          "evaluate",
          [](PySimulator& s, double t, py::handle q, py::handle qd) {
            Eigen::VectorXd Q = vectorIn(q, "q", s.model->nq, "nq", s.model.qNames).map();
            Eigen::VectorXd QD = vectorIn(qd, "qd", s.model->nv, "nv", s.model.vNames).map();
            Eigen::VectorXd tau(s.model->nv), qdd(s.model->nv);
            s.sim->evaluate(t, Q, QD, tau, qdd);
            return py::make_tuple(vectorOut(tau), vectorOut(qdd));
          },
          py::arg("t"), py::arg("q"), py::arg("qd"),
          "(tau, qdd) the simulation applies at (t, q, qd): the integrators' right-hand side.")
      .def(
          "result", [](const PySimulator& s) { return resultOf(s); },
          "The record so far as a SimulationResult (a copy).")
      .def_property_readonly(
          "t", [](const PySimulator& s) { return s.sim->time(); }, "[s]")
      .def_property_readonly("q", [](const PySimulator& s) { return vectorOut(s.sim->q()); })
      .def_property_readonly("qd", [](const PySimulator& s) { return vectorOut(s.sim->qd()); })
      .def_property_readonly(
          "qdd", [](const PySimulator& s) { return vectorOut(s.sim->qdd()); }, "at the current state")
      .def_property_readonly(
          "tau", [](const PySimulator& s) { return vectorOut(s.sim->tau()); },
          "every joint force at the current state: H qdd + C = tau")
      .def_property_readonly(
          "external_tau", [](const PySimulator& s) { return vectorOut(s.sim->externalTau()); },
          "J^T f of the wrenches and the ground at the current state (part of tau)")
      .def_property_readonly(
          "energy", [](const PySimulator& s) { return s.sim->energy(); }, "kinetic + potential + springs [J]")
      .def_property_readonly(
          "status",
          [](const PySimulator& s) {
            return std::string(s.sim->status() == dyn::SimulationStatus::Diverged ? "diverged" : "ok");
          })
      .def_property_readonly("error", [](const PySimulator& s) { return s.sim->lastError(); })
      .def_property_readonly("controller",
                             [](const PySimulator& s) { return std::string(dyn::controllerName(s.sim->controller())); })
      .def_property_readonly(
          "dt", [](const PySimulator& s) { return s.sim->settings().dt; }, "[s]")
      .def_property_readonly("stats", [](const PySimulator& s) { return statsDict(s.sim->stats()); })
      .def_property_readonly(
          "contact_forces",
          [](const PySimulator& s) {
            py::list out;
            for (const dyn::ContactForce& f : s.sim->contactForces())
              out.append(py::dict(py::arg("body") = s.model->bodyNames[size_t(f.body)],
                                  py::arg("position") = vectorOut(f.position), py::arg("force") = vectorOut(f.force),
                                  py::arg("penetration") = f.penetration, py::arg("sliding") = f.sliding));
            return out;
          },
          "the ground's forces at the current state: dicts body, position [m], force [N] (world), penetration "
          "[m], sliding")
      .def("__repr__", [](const PySimulator& s) {
        return "<dynscope.Simulator for '" + s.model->name + "' at t = " + std::to_string(s.sim->time()) + " s>";
      });

  m.def(
      "simulate",
      [](const PyModel& pm, double duration, const py::object& q0, const py::object& qd0, bool raiseOnDivergence,
         const py::kwargs& kw) {
        PySimulator s = makeSimulator(pm, q0, qd0, kw);
        const long steps = std::lround(duration / s.sim->settings().dt);
        s.sim->record().reserve(int(std::min(steps / s.sim->settings().recordEvery + 2, 1'000'000L)));
        const dyn::SimulationStatus status = run(s, duration);
        if (status == dyn::SimulationStatus::Diverged && raiseOnDivergence) raiseDiverged(s, true);
        return resultOf(s);
      },
      py::arg("model"), py::arg("duration"), py::arg("q0") = py::none(), py::arg("qd0") = py::none(),
      py::arg("raise_on_divergence") = true,
      (std::string("Simulates duration [s] from (q0, qd0) (defaults: home pose, rest) and returns a\n"
                   "SimulationResult: the numbers of dynscope-cli simulate with the same options. The engine runs\n"
                   "with the GIL released. Divergence raises SimulationDiverged (e.result holds the record up to the\n"
                   "last good state), or with raise_on_divergence=False returns it with status 'diverged'.\n") +
       kOptions)
          .c_str());
}

}  // namespace pyd
