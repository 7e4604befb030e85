// The algorithms on one state, mirroring the C++ API (and Pinocchio's): f(model, data, q, ...) fills
// data and returns the result as a new array.
#include "arrays.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/spatial/scalar.hpp"
#include "kernels.hpp"
#include "py_types.hpp"

namespace pyd {
namespace {

struct State {
  VectorIn q, qd, x;
};

VectorIn qIn(const PyModel& m, py::handle q) { return vectorIn(q, "q", m->nq, "nq", m.qNames); }
VectorIn vIn(const PyModel& m, py::handle v, const char* name) { return vectorIn(v, name, m->nv, "nv", m.vNames); }

// fext: (nbodies + 1) x 6 spatial forces [n; f] per body in the body's coordinates (row 0, the base, unused).
std::optional<kernels::Fext> fextIn(const PyModel& m, const py::object& fext) {
  if (fext.is_none()) return std::nullopt;
  const MatrixIn F = matrixIn(fext, "fext", 6, "6 components per body ([n; f] in body coordinates)", {});
  if (F.rows != m->N + 1)
    throw py::value_error("fext has " + std::to_string(F.rows) + " rows, one per body 0.." + std::to_string(m->N) +
                          " is " + std::to_string(m->N + 1) + " (row 0, the base, is not used)");
  kernels::Fext out(size_t(m->N + 1));
  for (int i = 0; i <= m->N; ++i) {
    out[size_t(i)].n = Eigen::Map<const Eigen::Vector3d>(F.row(i));
    out[size_t(i)].f = Eigen::Map<const Eigen::Vector3d>(F.row(i) + 3);
  }
  return out;
}

dyn::ReferenceFrame referenceArg(const std::string& name) {
  if (name == "local") return dyn::ReferenceFrame::Local;
  if (name == "world") return dyn::ReferenceFrame::World;
  if (name == "local_world_aligned" || name == "local-world-aligned") return dyn::ReferenceFrame::LocalWorldAligned;
  throw py::value_error("reference must be 'local', 'world' or 'local_world_aligned'; got '" + name + "'");
}

}  // namespace

void bindAlgorithms(py::module_& m) {
  m.def(
      "rnea",
      [](const PyModel& pm, PyData& d, py::handle q, py::handle qd, py::handle qdd, const py::object& fext) {
        requireSameModel(pm, d);
        const VectorIn Q = qIn(pm, q), QD = vIn(pm, qd, "qd"), QDD = vIn(pm, qdd, "qdd");
        const auto F = fextIn(pm, fext);
        return vectorOut(kernels::rnea(*pm, d.data, Q.map(), QD.map(), QDD.map(), F ? &*F : nullptr));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("qd"), py::arg("qdd"), py::arg("fext") = py::none(),
      "Inverse dynamics, Featherstone's recursive Newton-Euler algorithm: tau = H(q) qdd + C(q, qd) qd + g(q) - J^T "
      "fext.\n"
      "q (nq), qd and qdd (nv) in rad, rad/s, rad/s^2 (m for prismatic joints); returns tau (nv) [N m or N].\n"
      "fext: optional (nbodies + 1) x 6 external spatial forces [n; f] per body in the body's coordinates.");
  m.def(
      "aba",
      [](const PyModel& pm, PyData& d, py::handle q, py::handle qd, py::handle tau, const py::object& fext) {
        requireSameModel(pm, d);
        const VectorIn Q = qIn(pm, q), QD = vIn(pm, qd, "qd"), T = vIn(pm, tau, "tau");
        const auto F = fextIn(pm, fext);
        return vectorOut(kernels::aba(*pm, d.data, Q.map(), QD.map(), T.map(), F ? &*F : nullptr));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("qd"), py::arg("tau"), py::arg("fext") = py::none(),
      "Forward dynamics, Featherstone's articulated-body algorithm: qdd = H(q)^-1 (tau - C(q, qd) qd - g(q)).\n"
      "Raises ForwardDynamicsError naming the joint where a pivot is not positive (a joint that moves no mass).");
  m.def(
      "forward_dynamics_crba",
      [](const PyModel& pm, PyData& d, py::handle q, py::handle qd, py::handle tau, const py::object& fext) {
        requireSameModel(pm, d);
        const VectorIn Q = qIn(pm, q), QD = vIn(pm, qd, "qd"), T = vIn(pm, tau, "tau");
        const auto F = fextIn(pm, fext);
        return vectorOut(kernels::forwardDynamicsCrba(*pm, d.data, Q.map(), QD.map(), T.map(), F ? &*F : nullptr));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("qd"), py::arg("tau"), py::arg("fext") = py::none(),
      "Forward dynamics by CRBA and the sparse L^T L factorisation (Featherstone's branch-induced sparsity).");
  m.def(
      "crba",
      [](const PyModel& pm, PyData& d, py::handle q) {
        requireSameModel(pm, d);
        const VectorIn Q = qIn(pm, q);
        return matrixOut(kernels::crba(*pm, d.data, Q.map()));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      "The joint-space inertia matrix H(q) (nv x nv, symmetric positive definite), composite-rigid-body algorithm.\n"
      "Structural zeros (branch-induced sparsity) are exactly 0.");
  m.def(
      "nonlinear_effects",
      [](const PyModel& pm, PyData& d, py::handle q, py::handle qd) {
        requireSameModel(pm, d);
        const VectorIn Q = qIn(pm, q), QD = vIn(pm, qd, "qd");
        return vectorOut(kernels::nonLinearEffects(*pm, d.data, Q.map(), QD.map()));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("qd"),
      "The bias forces C(q, qd) qd + g(q) (nv), gravity included: RNEA with qdd = 0.");
  m.def(
      "gravity_vector",
      [](const PyModel& pm, PyData& d, py::handle q) {
        requireSameModel(pm, d);
        const VectorIn Q = qIn(pm, q);
        return vectorOut(kernels::gravityVector(*pm, d.data, Q.map()));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), "The gravity torques g(q) (nv).");
  m.def(
      "forward_kinematics",
      [](const PyModel& pm, PyData& d, py::handle q, const py::object& qd) {
        requireSameModel(pm, d);
        const VectorIn Q = qIn(pm, q);
        if (qd.is_none()) {
          kernels::kinematics(*pm, d.data, Q.map(), nullptr);
        } else {
          const VectorIn QD = vIn(pm, qd, "qd");
          const kernels::CVec v = QD.map();
          kernels::kinematics(*pm, d.data, Q.map(), &v);
        }
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("qd") = py::none(),
      "Forward kinematics: every body's and frame's pose (data.body_pose, data.frame_pose), and with qd their "
      "velocities.");
  m.def(
      "frame_pose",
      [](const PyModel& pm, PyData& d, py::handle q, const py::object& frame) {
        requireSameModel(pm, d);
        const int k = frameIndexArg(pm, frame);
        const VectorIn Q = qIn(pm, q);
        kernels::kinematics(*pm, d.data, Q.map(), nullptr);
        return pose4(d.data.oMf[size_t(k)]);
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("frame"),
      "The 4x4 pose of a frame (name or index) in the world at q: rotation (columns = the frame's axes) and origin "
      "[m].");
  m.def(
      "frame_poses",
      [](const PyModel& pm, py::handle q) {
        const VectorIn Q = qIn(pm, q);
        dyn::Data d(*pm);
        kernels::kinematics(*pm, d, Q.map(), nullptr);
        py::dict out;
        for (size_t k = 0; k < pm->frames.size(); ++k) out[py::str(pm->frames[k].name)] = pose4(d.oMf[k]);
        return out;
      },
      py::arg("model"), py::arg("q"), "Every frame's 4x4 world pose at q, by name (as dynscope-cli fk).");
  m.def(
      "jacobian",
      [](const PyModel& pm, PyData& d, py::handle q, const py::object& frame, const std::string& reference) {
        requireSameModel(pm, d);
        const int k = frameIndexArg(pm, frame);
        const dyn::ReferenceFrame ref = referenceArg(reference);
        const VectorIn Q = qIn(pm, q);
        return matrixOut(kernels::jacobian(*pm, d.data, Q.map(), k, ref));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("frame"), py::arg("reference") = "local_world_aligned",
      "The 6 x nv Jacobian of a frame, rows [w; v] (angular first).\n"
      "reference: 'local' (the frame's axes), 'world' (Plücker coordinates of the world frame) or\n"
      "'local_world_aligned' (world axes, v of the frame's origin; the default, as the CLI).");
  m.def(
      "center_of_mass",
      [](const PyModel& pm, PyData& d, py::handle q) {
        requireSameModel(pm, d);
        const VectorIn Q = qIn(pm, q);
        const Eigen::VectorXd zero = Eigen::VectorXd::Zero(pm->nv);
        kernels::energy(*pm, d.data, Q.map(), kernels::CVec(zero.data(), zero.size()));
        return vectorOut(d.data.com);
      },
      py::arg("model"), py::arg("data"), py::arg("q"), "The whole robot's centre of mass in the world [m].");
  m.def(
      "energy",
      [](const PyModel& pm, PyData& d, py::handle q, py::handle qd) {
        requireSameModel(pm, d);
        const VectorIn Q = qIn(pm, q), QD = vIn(pm, qd, "qd");
        kernels::energy(*pm, d.data, Q.map(), QD.map());
        return py::make_tuple(d.data.kinetic, d.data.potential);
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("qd"),
      "(kinetic, potential) energy [J]: T = 1/2 qd^T H qd (armature included), V = -m g . c (springs included).");
  m.def(
      "integrate",
      [](const PyModel& pm, py::handle q, py::handle v, double dt) {
        const VectorIn Q = qIn(pm, q), V = vIn(pm, v, "v");
        Eigen::VectorXd out(pm->nq);
        dyn::integrate(*pm, Q.map(), V.map(), dt, out);
        return vectorOut(out);
      },
      py::arg("model"), py::arg("q"), py::arg("v"), py::arg("dt") = 1.0,
      "q (+) v dt on the configuration space (quaternions stay unit).");
  m.def(
      "difference",
      [](const PyModel& pm, py::handle q0, py::handle q1) {
        const VectorIn Q0 = vectorIn(q0, "q0", pm->nq, "nq", pm.qNames),
                       Q1 = vectorIn(q1, "q1", pm->nq, "nq", pm.qNames);
        Eigen::VectorXd out(pm->nv);
        dyn::difference(*pm, Q0.map(), Q1.map(), out);
        return vectorOut(out);
      },
      py::arg("model"), py::arg("q0"), py::arg("q1"), "The velocity v (nv) that takes q0 to q1 in unit time.");
  m.def(
      "random_configuration",
      [](const PyModel& pm, unsigned seed) {
        std::mt19937 rng(seed);
        return vectorOut(dyn::randomConfiguration(*pm, rng));
      },
      py::arg("model"), py::arg("seed") = 0u, "A random q within the limits (unlimited joints within +-pi).");
  m.def(
      "rotation_to_quaternion",
      [](const Eigen::Matrix3d& R) { return Eigen::Vector4d(dyn::matrixToQuaternion<double>(R)); }, py::arg("R"),
      "A rotation matrix as a unit quaternion (x, y, z, w).");
  m.def(
      "rotation_to_rpy", [](const Eigen::Matrix3d& R) { return Eigen::Vector3d(dyn::matrixToRpy<double>(R)); },
      py::arg("R"), "A rotation matrix as roll, pitch, yaw [rad] (URDF's convention: R = Rz(yaw) Ry(pitch) Rx(roll)).");
}

}  // namespace pyd
