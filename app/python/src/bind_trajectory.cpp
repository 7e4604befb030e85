// Trajectories (docs/trajectories.md): sampled trajectories from arrays, waypoints, Saha's demos and
// CSV files; inverse dynamics along them with the decomposition (dynscope-cli trajectory, id --trajectory).
// Glue only: the engine's WaypointTrajectory, demoTrajectory, readTrajectoryCsv and
// computeTrajectoryDynamics do the work, with the GIL released.
#include <filesystem>

#include "arrays.hpp"
#include "dynscope/io/load_error.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/simulation/controller.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"
#include "dynscope/trajectory/payload.hpp"
#include "dynscope/trajectory/trajectory_dynamics.hpp"
#include "dynscope/trajectory/waypoint_trajectory.hpp"
#include "py_trajectory.hpp"

namespace pyd {
namespace {

// A waypoint trajectory with the model's names (for messages and the samples it makes).
struct PyWaypoints {
  std::shared_ptr<const dyn::Model> model;
  std::vector<std::string> qNames, vNames;
  std::shared_ptr<const dyn::WaypointTrajectory> traj;
};

// The batch inverse dynamics along a trajectory, as arrays (one row per sample); None where not computed.
struct PyTrajectoryDynamics {
  py::object t, tau, power, inertial, coriolis, gravity, external, kinetic, potential, total;
  py::list violations;
};

PyTrajectory made(const PyModel& pm, dyn::SampledTrajectory traj) {
  return PyTrajectory{pm.ptr, pm.qNames, pm.vNames, std::move(traj)};
}

// t (n) and Q (n x nq) as the engine's columns.
void timesAndQ(const PyModel& pm, py::handle t, py::handle Q, const char* tName, Eigen::VectorXd& times,
               Eigen::MatrixXd& q) {
  const VectorIn T = vectorIn(t, tName);
  const MatrixIn M = matrixIn(Q, "Q", pm->nq, "nq", pm.qNames);
  if (M.rows != T.size)
    throw py::value_error("Q has " + std::to_string(M.rows) + " rows, " + tName + " has " + std::to_string(T.size) +
                          " values: one configuration per row, one row per time");
  times = T.map();
  q = M.map().transpose();
}

Eigen::MatrixXd velocityRows(const PyModel& pm, py::handle X, const char* name, Eigen::Index n) {
  const MatrixIn M = matrixIn(X, name, pm->nv, "nv", pm.vNames);
  if (M.rows != n)
    throw py::value_error(std::string(name) + " has " + std::to_string(M.rows) + " rows, t has " + std::to_string(n) +
                          ": one row per sample");
  return M.map().transpose();
}

dyn::Interpolation interpolationArg(std::string name) {
  if (name == "cubic_spline") name = "cubic-spline";
  if (const auto k = dyn::interpolationByName(name)) return *k;
  throw py::value_error("interpolation must be 'quintic', 'trapezoidal' or 'cubic-spline'; got '" + name + "'");
}

PyWaypoints waypoints(const PyModel& pm, py::handle times, py::handle Q, const std::string& interpolation,
                      double trapezoidFraction) {
  const dyn::Interpolation kind = interpolationArg(interpolation);
  Eigen::VectorXd t;
  Eigen::MatrixXd q;
  timesAndQ(pm, times, Q, "times", t, q);
  std::vector<dyn::Waypoint> w(size_t(t.size()));
  for (Eigen::Index k = 0; k < t.size(); ++k) w[size_t(k)] = {t[k], q.col(k)};
  return {pm.ptr, pm.qNames, pm.vNames,
          std::make_shared<const dyn::WaypointTrajectory>(*pm, std::move(w), kind, trapezoidFraction)};
}

PyTrajectory sampleWaypoints(const PyWaypoints& w, double rate) {
  dyn::SampledTrajectory s;
  {
    py::gil_scoped_release release;
    s = w.traj->sample(rate);
  }
  return PyTrajectory{w.model, w.qNames, w.vNames, std::move(s)};
}

py::tuple stateTuple(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd) {
  return py::make_tuple(vectorOut(q), vectorOut(qd), vectorOut(qdd));
}

void requireFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    PyErr_SetString(PyExc_FileNotFoundError, (path + ": no such trajectory file").c_str());
    throw py::error_already_set();
  }
}

PyTrajectory readCsv(const PyModel& pm, const std::string& path, bool accelerations) {
  requireFile(path);
  dyn::TrajectoryCsv csv;  // errors: LoadError naming the file, line and column
  {
    py::gil_scoped_release release;
    csv = dyn::readTrajectoryCsv(*pm, path, {.accelerations = accelerations});
  }
  PyTrajectory out = made(pm, std::move(csv.trajectory));
  out.velocitiesFromSpline = csv.velocitiesFromSpline;
  out.accelerationsFromSpline = csv.accelerationsFromSpline;
  out.ignoredColumns = std::move(csv.ignoredColumns);
  return out;
}

py::tuple readTorques(const PyModel& pm, const std::string& path) {
  requireFile(path);
  const dyn::TorqueReplay r = dyn::readTorqueCsv(*pm, path);  // errors: LoadError naming the file and line
  return py::make_tuple(vectorOut(r.t), samplesOut(r.tau));
}

py::object orNone(const Eigen::MatrixXd& m) { return m.size() ? py::object(samplesOut(m)) : py::object(py::none()); }
py::object orNone(const Eigen::VectorXd& v) { return v.size() ? py::object(vectorOut(v)) : py::object(py::none()); }

py::list violationList(const dyn::EffortLimitViolations& v) {
  py::list out;
  for (const auto& dof : v.samples) out.append(py::cast(dof));
  return out;
}

PyTrajectoryDynamics trajectoryDynamics(const PyModel& pm, const PyTrajectory& tr, bool decompose, bool energy,
                                        const py::object& fext, const py::object& tauExternal, int threads) {
  requireFits(pm, tr, "trajectory");
  if (tr.traj.qdd.cols() != tr.traj.t.size())
    throw py::value_error("trajectory has no accelerations (read with accelerations=False); read it again with them");
  const Eigen::Index n = tr.traj.t.size();
  std::vector<dyn::Force<double>> forces;
  if (!fext.is_none()) {
    const MatrixIn F = matrixIn(fext, "fext", 6, "6 components per body ([n; f] in body coordinates)", {});
    if (F.rows != pm->N + 1)
      throw py::value_error("fext has " + std::to_string(F.rows) + " rows, one per body 0.." + std::to_string(pm->N) +
                            " is " + std::to_string(pm->N + 1) + " (row 0, the base, is not used)");
    forces.resize(size_t(pm->N + 1));
    for (int i = 0; i <= pm->N; ++i)
      forces[size_t(i)] = dyn::Force<double>(Eigen::Map<const Eigen::Vector3d>(F.row(i)),
                                             Eigen::Map<const Eigen::Vector3d>(F.row(i) + 3));
  }
  Eigen::MatrixXd external;
  if (!tauExternal.is_none()) external = velocityRows(pm, tauExternal, "tau_external", n);
  dyn::TrajectoryDynamicsOptions options;
  options.decompose = decompose;
  options.energy = energy;
  options.threads = threads;
  options.fext = forces.empty() ? nullptr : &forces;
  options.tauExternal = tauExternal.is_none() ? nullptr : &external;
  dyn::TrajectoryDynamics r;
  dyn::EffortLimitViolations v;
  {
    py::gil_scoped_release release;
    dyn::computeTrajectoryDynamics(*pm, tr.traj, options, r);
    v = dyn::effortLimitViolations(*pm, r.tau);
  }
  PyTrajectoryDynamics out;
  out.t = vectorOut(tr.traj.t);
  out.tau = samplesOut(r.tau);
  out.power = samplesOut(r.power);
  out.inertial = orNone(r.inertial);
  out.coriolis = orNone(r.coriolis);
  out.gravity = orNone(r.gravity);
  out.external = orNone(r.external);
  out.kinetic = orNone(r.kinetic);
  out.potential = orNone(r.potential);
  out.total = orNone(r.total);
  out.violations = violationList(v);
  return out;
}

}  // namespace

py::array_t<double> samplesOut(const Eigen::MatrixXd& m) {
  py::array_t<double> out = arrayOut({py::ssize_t(m.cols()), py::ssize_t(m.rows())});
  std::copy_n(m.data(), m.size(), out.mutable_data());  // column-major k x n is row-major n x k
  return out;
}

void requireFits(const PyModel& pm, const PyTrajectory& tr, const char* name) {
  if (tr.model->nq != pm->nq || tr.model->nv != pm->nv)
    throw py::value_error(std::string(name) + " was made for " + tr.model->name + " (nq = " +
                          std::to_string(tr.model->nq) + ", nv = " + std::to_string(tr.model->nv) + "), the model " +
                          pm->name + " has nq = " + std::to_string(pm->nq) + ", nv = " + std::to_string(pm->nv));
}

void bindTrajectory(py::module_& m) {
  py::class_<PyTrajectory>(
      m, "Trajectory",
      "A sampled joint trajectory: t (N) [s], q (N x nq), qd, qdd (N x nv) [rad, m; /s; /s^2], one row per\n"
      "sample; qd and qdd in the engine's v coordinates (body rates for spherical and floating joints).\n"
      "Made by sample_waypoints, WaypointTrajectory.sample, demo_trajectory, read_trajectory_csv,\n"
      "SimulationResult.trajectory(), or from arrays: Trajectory(model, t, Q, QD=None, QDD=None).")
      .def(py::init([](const PyModel& pm, py::handle t, py::handle Q, const py::object& QD, const py::object& QDD) {
             dyn::SampledTrajectory s;
             timesAndQ(pm, t, Q, "t", s.t, s.q);
             const Eigen::Index n = s.t.size();
             if ((QD.is_none() || QDD.is_none()) && n < 2)
               throw py::value_error(
                   "t has " + std::to_string(n) +
                   " sample: deriving qd or qdd from the spline needs at least 2 (or give QD and QDD)");
             PyTrajectory out = made(pm, {});
             if (!QD.is_none()) s.qd = velocityRows(pm, QD, "QD", n);
             if (!QDD.is_none()) s.qdd = velocityRows(pm, QDD, "QDD", n);
             for (Eigen::Index k = 1; k < n; ++k)
               if (!(s.t[k] > s.t[k - 1]))
                 throw py::value_error("t must increase strictly: t[" + std::to_string(k) +
                                       "] = " + std::to_string(s.t[k]) + " is not after t[" + std::to_string(k - 1) +
                                       "] = " + std::to_string(s.t[k - 1]));
             if (QD.is_none()) {
               dyn::splineDerivatives(*pm, s.t, s.q, &s.qd, QDD.is_none() ? &s.qdd : nullptr);
               out.velocitiesFromSpline = true;
               out.accelerationsFromSpline = QDD.is_none();
             } else if (QDD.is_none()) {
               s.qdd = dyn::splineDerivative(s.t, s.qd);
               out.accelerationsFromSpline = true;
             }
             s.validate(*pm);
             out.traj = std::move(s);
             return out;
           }),
           py::arg("model"), py::arg("t"), py::arg("Q"), py::arg("QD") = py::none(), py::arg("QDD") = py::none(),
           "t (N) strictly increasing [s], Q (N x nq). Missing QD / QDD are the derivatives of the C2 cubic\n"
           "spline through the samples (not-a-knot ends), as read_trajectory_csv derives them; QD given and\n"
           "QDD not: QDD is the derivative of the spline through QD.")
      .def_property_readonly(
          "t", [](const PyTrajectory& p) { return vectorOut(p.traj.t); }, "sample times (N) [s]")
      .def_property_readonly(
          "q", [](const PyTrajectory& p) { return samplesOut(p.traj.q); }, "N x nq configurations")
      .def_property_readonly(
          "qd", [](const PyTrajectory& p) { return samplesOut(p.traj.qd); }, "N x nv velocities")
      .def_property_readonly(
          "qdd", [](const PyTrajectory& p) { return samplesOut(p.traj.qdd); },
          "N x nv accelerations (N x 0 when read with accelerations=False)")
      .def_readonly("q_names", &PyTrajectory::qNames, "the names of q's columns (as the CSV header)")
      .def_readonly("v_names", &PyTrajectory::vNames, "the names of qd's, qdd's (and tau's) columns")
      .def_property_readonly("samples", [](const PyTrajectory& p) { return p.traj.samples(); })
      .def("__len__", [](const PyTrajectory& p) { return p.traj.samples(); })
      .def_property_readonly(
          "start_time", [](const PyTrajectory& p) { return p.traj.startTime(); }, "[s]")
      .def_property_readonly(
          "end_time", [](const PyTrajectory& p) { return p.traj.endTime(); }, "[s]")
      .def_readonly("velocities_from_spline", &PyTrajectory::velocitiesFromSpline,
                    "qd was derived from the spline through q (not given)")
      .def_readonly("accelerations_from_spline", &PyTrajectory::accelerationsFromSpline,
                    "qdd was derived from a spline (not given)")
      .def_readonly("ignored_columns", &PyTrajectory::ignoredColumns, "read from a CSV: the columns not used")
      .def_property_readonly(
          "model_name", [](const PyTrajectory& p) { return p.model->name; }, "the model it was made for")
      .def(
          "interpolate",
          [](const PyTrajectory& p, double t) {
            Eigen::VectorXd q(p.model->nq), qd(p.model->nv), qdd(p.model->nv);
            if (p.traj.qdd.cols() != p.traj.t.size())
              throw py::value_error("this trajectory has no accelerations (read with accelerations=False)");
            p.traj.interpolate(*p.model, t, q, qd, qdd);
            return stateTuple(q, qd, qdd);
          },
          py::arg("t"),
          "(q, qd, qdd) at time t [s], clamped to the sample range: q on the joint manifolds between the\n"
          "neighbouring samples (slerp for quaternions), qd and qdd linear; exact at the samples.")
      .def(
          "nearest_sample", [](const PyTrajectory& p, double t) { return p.traj.nearestSample(t); }, py::arg("t"),
          "The index of the sample nearest to t (ties: the earlier one).")
      .def("__repr__", [](const PyTrajectory& p) {
        return "<dynscope.Trajectory for '" + p.model->name + "': " + std::to_string(p.traj.samples()) +
               " samples, t = " + std::to_string(p.traj.startTime()) + " .. " + std::to_string(p.traj.endTime()) +
               " s>";
      });

  py::class_<PyWaypoints>(
      m, "WaypointTrajectory",
      "A joint trajectory through waypoints (t_k, q_k) (the engine's WaypointTrajectory), evaluated exactly\n"
      "at any t. interpolation: 'quintic' (rest to rest per segment, qd = qdd = 0 at every waypoint, C2),\n"
      "'trapezoidal' (trapezoidal velocity per segment, accelerating for trapezoid_fraction of it; C1) or\n"
      "'cubic-spline' (one C2 spline through all waypoints, qd = 0 at the ends only; qdd there is not 0).\n"
      "Spherical and floating joints move on their manifolds; revolute angles are not wrapped.")
      .def(py::init(&waypoints), py::arg("model"), py::arg("times"), py::arg("Q"), py::arg("interpolation") = "quintic",
           py::arg("trapezoid_fraction") = 1.0 / 3.0,
           "times (K) strictly increasing [s], Q (K x nq) one waypoint per row, K >= 2. ValueError names the\n"
           "waypoint (1-based) that is wrong.")
      .def(
          "evaluate",
          [](const PyWaypoints& w, double t) {
            Eigen::VectorXd q(w.model->nq), qd(w.model->nv), qdd(w.model->nv);
            w.traj->evaluate(t, q, qd, qdd);
            return stateTuple(q, qd, qdd);
          },
          py::arg("t"), "(q, qd, qdd) at time t [s] (clamped to [start_time, end_time]), exact derivatives.")
      .def("sample", &sampleWaypoints, py::arg("rate") = 100.0,
           "A Trajectory sampled at start_time + k / rate [Hz], plus end_time when the duration is not a\n"
           "multiple of 1/rate (at most 10^7 samples).")
      .def_property_readonly(
          "interpolation",
          [](const PyWaypoints& w) { return std::string(dyn::interpolationName(w.traj->interpolation())); })
      .def_property_readonly(
          "start_time", [](const PyWaypoints& w) { return w.traj->startTime(); }, "[s]")
      .def_property_readonly(
          "end_time", [](const PyWaypoints& w) { return w.traj->endTime(); }, "[s]")
      .def_property_readonly(
          "times",
          [](const PyWaypoints& w) {
            Eigen::VectorXd t(Eigen::Index(w.traj->waypoints().size()));
            for (size_t k = 0; k < w.traj->waypoints().size(); ++k) t[Eigen::Index(k)] = w.traj->waypoints()[k].t;
            return vectorOut(t);
          },
          "the waypoints' times (K) [s]")
      .def_property_readonly(
          "Q",
          [](const PyWaypoints& w) {
            Eigen::MatrixXd q(w.model->nq, Eigen::Index(w.traj->waypoints().size()));
            for (size_t k = 0; k < w.traj->waypoints().size(); ++k) q.col(Eigen::Index(k)) = w.traj->waypoints()[k].q;
            return samplesOut(q);
          },
          "the waypoints (K x nq)")
      .def("__repr__", [](const PyWaypoints& w) {
        return "<dynscope.WaypointTrajectory for '" + w.model->name +
               "': " + std::to_string(w.traj->waypoints().size()) + " waypoints, " +
               dyn::interpolationName(w.traj->interpolation()) + ">";
      });

  m.def(
      "sample_waypoints",
      [](const PyModel& pm, py::handle times, py::handle Q, const std::string& interpolation, double rate,
         double fraction) { return sampleWaypoints(waypoints(pm, times, Q, interpolation, fraction), rate); },
      py::arg("model"), py::arg("times"), py::arg("Q"), py::arg("interpolation") = "quintic", py::arg("rate") = 100.0,
      py::arg("trapezoid_fraction") = 1.0 / 3.0,
      "WaypointTrajectory(model, times, Q, interpolation, trapezoid_fraction).sample(rate): the Trajectory\n"
      "through the waypoints (times [s], Q one waypoint per row) sampled at rate [Hz], as a project's\n"
      "waypoints in dynscope-cli trajectory --project.");
  m.def(
      "demo_trajectory",
      [](const PyModel& pm, const std::string& name, double rate) {
        const auto demo = dyn::demoTrajectoryByName(name);
        if (!demo) throw py::value_error("demo must be 'saha-stanford' or 'saha-planar3'; got '" + name + "'");
        dyn::SampledTrajectory s;
        {
          py::gil_scoped_release release;
          s = dyn::demoTrajectory(*pm, *demo, rate);
        }
        return made(pm, std::move(s));
      },
      py::arg("model"), py::arg("demo"), py::arg("rate") = 100.0,
      "Saha's cycloidal demonstration (ASME J. Appl. Mech. 1999, eq. 39) sampled at rate [Hz] over T = 10 s,\n"
      "with analytic qd and qdd (zero at both ends), as dynscope-cli trajectory --demo:\n"
      "'saha-stanford' (robots/stanford_arm.dh: theta_i 0 -> 60 deg, theta_2 from 90 deg, b_3 0 -> 0.1 m) or\n"
      "'saha-planar3' (robots/planar3.dh: every theta_i 0 -> pi). ValueError when the model's joints differ.");
  m.def("read_trajectory_csv", &readCsv, py::arg("model"), py::arg("path"), py::arg("accelerations") = true,
        "Reads a trajectory CSV (header t, q names, optionally qd_<v name> and qdd_<v name> columns; any\n"
        "order, '#' comments), as dynscope-cli id --trajectory. Missing qd / qdd are the derivatives of the\n"
        "not-a-knot C2 cubic spline through the samples (trajectory.velocities_from_spline says so); other\n"
        "columns are listed in trajectory.ignored_columns. accelerations=False: qdd is neither read nor\n"
        "derived (N x 0). Errors: LoadError 'file:line: column ...: message' (e.file, e.line),\n"
        "FileNotFoundError for a missing file.");
  m.def(
      "write_trajectory_csv",
      [](const PyModel& pm, const PyTrajectory& tr, const std::string& path, bool velocities, bool accelerations) {
        requireFits(pm, tr, "trajectory");
        py::gil_scoped_release release;
        dyn::writeTrajectoryCsv(path, *pm, tr.traj, velocities, accelerations);
      },
      py::arg("model"), py::arg("trajectory"), py::arg("path"), py::arg("velocities") = true,
      py::arg("accelerations") = true,
      "Writes t, q and (when asked) qd_, qdd_ columns with 17 significant digits (reads back bit-exact),\n"
      "atomically: on an error the old file stays as it was.");
  m.def("read_torque_csv", &readTorques, py::arg("model"), py::arg("path"),
        "Reads a torque CSV (t and tau_<v name> for every dof; other columns ignored), as the replay\n"
        "controller and dynscope-cli fd --trajectory read it: returns (t (N) [s], TAU (N x nv) [N m or N]).\n"
        "Errors: LoadError naming file and line.");

  py::class_<PyTrajectoryDynamics>(
      m, "TrajectoryDynamics",
      "Inverse dynamics along a trajectory, one row per sample (N x nv arrays [N m or N], N arrays [J]):\n"
      "tau = M(q) qdd + c(q, qd) + g(q) (+ external). Entries not computed are None.")
      .def_readonly("t", &PyTrajectoryDynamics::t, "sample times (N) [s]")
      .def_readonly("tau", &PyTrajectoryDynamics::tau, "RNEA(q, qd, qdd) (minus J^T f of tau_external)")
      .def_readonly("power", &PyTrajectoryDynamics::power, "tau_i qd_i per joint [W]")
      .def_readonly("inertial", &PyTrajectoryDynamics::inertial, "M(q) qdd = tau - RNEA(q, qd, 0) (decompose)")
      .def_readonly("coriolis", &PyTrajectoryDynamics::coriolis,
                    "Coriolis and centrifugal c(q, qd) = RNEA(q, qd, 0) - g (decompose)")
      .def_readonly("gravity", &PyTrajectoryDynamics::gravity, "g(q) = RNEA(q, 0, 0) (decompose)")
      .def_readonly("external", &PyTrajectoryDynamics::external, "-J^T f (decompose with tau_external)")
      .def_readonly("kinetic", &PyTrajectoryDynamics::kinetic, "kinetic energy (N) [J] (energy)")
      .def_readonly("potential", &PyTrajectoryDynamics::potential, "potential energy (N) [J] (energy)")
      .def_readonly("total", &PyTrajectoryDynamics::total, "kinetic + potential (N) [J] (energy)")
      .def_readonly("effort_limit_violations", &PyTrajectoryDynamics::violations,
                    "per dof (nv lists) the sample indices where |tau| exceeds model.effort_limit");

  m.def("trajectory_dynamics", &trajectoryDynamics, py::arg("model"), py::arg("trajectory"), py::kw_only(),
        py::arg("decompose") = false, py::arg("energy") = true, py::arg("fext") = py::none(),
        py::arg("tau_external") = py::none(), py::arg("threads") = 0,
        "Inverse dynamics (RNEA) at every sample, in parallel with the GIL released: the numbers of\n"
        "dynscope-cli id --trajectory (with --decompose).\n"
        "decompose: also inertial M(q) qdd, coriolis c(q, qd) and gravity g(q), which sum to tau.\n"
        "energy: kinetic, potential, total per sample.\n"
        "fext: constant (nbodies + 1) x 6 external forces [n; f] per body in body coordinates (as rnea's;\n"
        "not with decompose). tau_external: N x nv joint forces from outside (J^T f per sample, e.g.\n"
        "SimulationResult.tau_external): tau is the joints' share and, with decompose, external = -J^T f.\n"
        "threads: 0 = every core. The model may differ from the trajectory's (a payload) if nq, nv match.");
  m.def(
      "effort_limit_violations",
      [](const PyModel& pm, py::handle tau) {
        const MatrixIn T = matrixIn(tau, "tau", pm->nv, "nv", pm.vNames);
        const Eigen::MatrixXd cols = T.map().transpose();
        return violationList(dyn::effortLimitViolations(*pm, cols));
      },
      py::arg("model"), py::arg("tau"),
      "Per dof (nv lists), the row indices of tau (N x nv) where |tau| exceeds a finite model.effort_limit.");
  m.def(
      "with_payload",
      [](const PyModel& pm, const std::string& link, double mass, py::handle com) {
        const VectorIn c = vectorIn(com, "com", 3, "3 components (x, y, z)", {});
        dyn::Model copy = dyn::withPayload(*pm, {link, mass, c.map()});
        PyModel out = pm;
        out.bound = std::make_shared<std::map<std::string, dyn::BoundFormulation<double>>>();
        out.ptr = std::make_shared<const dyn::Model>(std::move(copy));
        return out;
      },
      py::arg("model"), py::arg("link"), py::arg("mass"), py::arg("com") = std::vector<double>{0.0, 0.0, 0.0},
      "A copy of the model carrying a point mass [kg] at com [m] in the frame of link (any URDF link or a\n"
      "DH frame such as 'tool'), as a project's payload. ValueError for an unknown link, one fixed to the\n"
      "base, or a negative mass.");
}

}  // namespace pyd
