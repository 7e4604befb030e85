// Inverse kinematics: the engine's IkSolver (damped least squares with pins, locks and limits),
// as dynscope-cli ik runs it.
#include "arrays.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/ik/ik_solver.hpp"
#include "py_types.hpp"

namespace pyd {
namespace {

// target: a 3-vector (position only), a 7-vector (x, y, z, qx, qy, qz, qw) or a 4x4 pose.
dyn::IkTask targetArg(const py::object& target, int frame, bool positionOnly) {
  dyn::IkTask task;
  task.frame = frame;
  const MatrixIn t = matrixIn(target, "target");
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  Eigen::Vector3d p;
  if (t.rows == 4 && t.cols == 4) {
    const Eigen::Map<const RowMatrix> T = t.map();
    R = T.topLeftCorner(3, 3);
    p = T.topRightCorner(3, 1);
  } else if (t.cols == 1 && (t.rows == 3 || t.rows == 7)) {
    p = Eigen::Vector3d(t.data[0], t.data[1], t.data[2]);
    if (t.rows == 7) {
      const Eigen::Vector4d quat(t.data[3], t.data[4], t.data[5], t.data[6]);
      if (quat.norm() == 0)
        throw py::value_error("target: the quaternion qx, qy, qz, qw is zero (identity is 0, 0, 0, 1)");
      R = dyn::quaternionToMatrix<double>(quat);
    }
  } else {
    throw py::value_error(
        "target must be a position (3 values), a position and quaternion (x, y, z, qx, qy, qz, qw) "
        "or a 4x4 pose; got " +
        std::to_string(t.rows) + " x " + std::to_string(t.cols));
  }
  task.target = dyn::Transform<double>::fromPose(R, p);
  task.positionOnly = positionOnly || (t.cols == 1 && t.rows == 3);
  return task;
}

}  // namespace

void bindIk(py::module_& m) {
  m.def(
      "inverse_kinematics",
      [](const PyModel& pm, const py::object& target, const py::object& frame, const py::object& q0,
         const std::vector<std::string>& pins, const std::vector<std::string>& locks, bool positionOnly, int restarts,
         int maxIterations, double tolerance) {
        const std::string name = frame.is_none() ? pm->defaultEndEffector : py::str(frame).cast<std::string>();
        if (frame.is_none() && name.empty()) throw py::value_error("the model names no end effector: give frame=NAME");
        const int f = frame.is_none() ? frameIndexArg(pm, py::str(name)) : frameIndexArg(pm, frame);
        const Eigen::VectorXd start = q0.is_none() ? Eigen::VectorXd(pm->home())
                                                   : Eigen::VectorXd(vectorIn(q0, "q0", pm->nq, "nq", pm.qNames).map());
        dyn::IkSolver solver(*pm);
        solver.options.restarts = restarts;
        solver.options.maxIterations = maxIterations;
        solver.options.tolerance = tolerance;
        const dyn::IkTask task = targetArg(target, f, positionOnly);
        solver.setTarget(task);
        for (const std::string& pin : pins) solver.pinAt(frameIndexArg(pm, py::str(pin)), start);
        for (const std::string& lock : locks) {
          const int j = pm->jointIndex(lock);
          if (j <= 0)
            throw py::value_error(
                "locks: unknown joint '" + lock + "' in " + pm->name +
                "; joints: " + joinNames(std::vector<std::string>(pm->jointNames.begin() + 1, pm->jointNames.end())));
          solver.lockJoint(j);
        }
        const dyn::IkResult& r = solver.solve(start);
        std::vector<std::string> limited;
        for (int v : r.limitedDofs) limited.push_back(pm.vNames[size_t(v)]);
        const dyn::Transform<double> X = solver.framePose(f, r.q);
        py::dict out;
        out["q"] = vectorOut(r.q);
        out["converged"] = r.converged;
        out["reachable"] = r.reachable;
        out["iterations"] = r.iterations;
        out["restarts"] = r.restartsUsed;
        out["position_error"] = r.positionError;
        out["rotation_error"] = r.rotationError;
        out["pin_error"] = r.pinError;
        if (pm->hasLoops()) out["loop_error"] = r.constraintError;
        out["at_limit"] = limited;
        out["pose"] = pose4(X);
        return out;
      },
      py::arg("model"), py::arg("target"), py::kw_only(), py::arg("frame") = py::none(), py::arg("q0") = py::none(),
      py::arg("pins") = std::vector<std::string>{}, py::arg("locks") = std::vector<std::string>{},
      py::arg("position_only") = false, py::arg("restarts") = 20, py::arg("max_iterations") = 200,
      py::arg("tolerance") = 1e-9,
      "A configuration putting `frame` (default: the model's end effector) at `target`, from q0 (default:\n"
      "model.home()), by damped least squares within the joint limits, as dynscope-cli ik.\n"
      "target: [x, y, z] (position only), [x, y, z, qx, qy, qz, qw] or a 4x4 pose, world coordinates [m].\n"
      "pins: frames held where they are at q0; locks: joints that do not move. Closed loops stay closed.\n"
      "Returns a dict: q, converged, reachable, iterations, restarts, position_error [m], rotation_error [rad],\n"
      "pin_error, at_limit (names of dofs resting at a limit), pose (the frame's 4x4 pose at q).");
}

}  // namespace pyd
