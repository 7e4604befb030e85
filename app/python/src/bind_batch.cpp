// Batched forms: many states as rows (N x nq, N x nv) in, N results out, spread over every core with
// the GIL released (each thread its own Data).
#include "arrays.hpp"
#include "kernels.hpp"
#include "py_types.hpp"

namespace pyd {
namespace {

using kernels::Batched;

struct Rows {
  MatrixIn q, b, c;
  py::array_t<double> zeros;  // a missing QD or QDD
};

MatrixIn rowsOf(const PyModel& pm, const py::object& x, const char* name, Eigen::Index n, py::array_t<double>& zeros) {
  if (x.is_none()) {
    zeros = arrayOut({py::ssize_t(n), py::ssize_t(pm->nv)});
    std::fill_n(zeros.mutable_data(), n * pm->nv, 0.0);
    return matrixIn(zeros, name, pm->nv, "nv", pm.vNames);
  }
  MatrixIn m = matrixIn(x, name, pm->nv, "nv", pm.vNames);
  if (m.rows != n)
    throw py::value_error(std::string(name) + " has " + std::to_string(m.rows) + " rows, Q has " + std::to_string(n) +
                          ": one state per row in each");
  return m;
}

py::array_t<double> run(Batched what, const PyModel& pm, const py::object& Q, const py::object& B, const char* bName,
                        const py::object& C, const char* cName, int threads, std::vector<py::ssize_t> rowShape,
                        int extra = 0, int extra2 = 0) {
  const MatrixIn q = matrixIn(Q, "Q", pm->nq, "nq", pm.qNames);
  py::array_t<double> zb, zc;
  const MatrixIn b = bName ? rowsOf(pm, B, bName, q.rows, zb) : MatrixIn{};
  const MatrixIn c = cName ? rowsOf(pm, C, cName, q.rows, zc) : MatrixIn{};
  rowShape.insert(rowShape.begin(), py::ssize_t(q.rows));
  py::array_t<double> out = arrayOut(rowShape);
  double* o = out.mutable_data();
  {
    py::gil_scoped_release release;  // no Python objects are touched below
    kernels::batch(what, *pm, q.rows, q.data, b.data, c.data, o, threads, extra, extra2);
  }
  return out;
}

const char* kThreads = "threads: how many threads (0: every core); each takes at least 16 states.";

}  // namespace

void bindBatch(py::module_& m) {
  m.def(
      "rnea_batch",
      [](const PyModel& pm, const py::object& Q, const py::object& QD, const py::object& QDD, int threads) {
        return run(Batched::Rnea, pm, Q, QD, "QD", QDD, "QDD", threads, {pm->nv});
      },
      py::arg("model"), py::arg("Q"), py::arg("QD") = py::none(), py::arg("QDD") = py::none(), py::arg("threads") = 0,
      (std::string("tau for every row: Q (N x nq), QD and QDD (N x nv; None: zeros) -> N x nv.\n") + kThreads).c_str());
  m.def(
      "aba_batch",
      [](const PyModel& pm, const py::object& Q, const py::object& QD, const py::object& TAU, int threads) {
        return run(Batched::Aba, pm, Q, QD, "QD", TAU, "TAU", threads, {pm->nv});
      },
      py::arg("model"), py::arg("Q"), py::arg("QD") = py::none(), py::arg("TAU") = py::none(), py::arg("threads") = 0,
      (std::string("qdd for every row (articulated-body algorithm): Q (N x nq), QD, TAU (N x nv) -> N x nv.\n") +
       kThreads)
          .c_str());
  m.def(
      "forward_dynamics_crba_batch",
      [](const PyModel& pm, const py::object& Q, const py::object& QD, const py::object& TAU, int threads) {
        return run(Batched::FdCrba, pm, Q, QD, "QD", TAU, "TAU", threads, {pm->nv});
      },
      py::arg("model"), py::arg("Q"), py::arg("QD") = py::none(), py::arg("TAU") = py::none(), py::arg("threads") = 0,
      (std::string("qdd for every row by CRBA + L^T L -> N x nv.\n") + kThreads).c_str());
  m.def(
      "crba_batch",
      [](const PyModel& pm, const py::object& Q, int threads) {
        return run(Batched::Crba, pm, Q, py::none(), nullptr, py::none(), nullptr, threads, {pm->nv, pm->nv});
      },
      py::arg("model"), py::arg("Q"), py::arg("threads") = 0,
      (std::string("H(q) for every row -> N x nv x nv.\n") + kThreads).c_str());
  m.def(
      "nonlinear_effects_batch",
      [](const PyModel& pm, const py::object& Q, const py::object& QD, int threads) {
        return run(Batched::Nle, pm, Q, QD, "QD", py::none(), nullptr, threads, {pm->nv});
      },
      py::arg("model"), py::arg("Q"), py::arg("QD") = py::none(), py::arg("threads") = 0,
      (std::string("C(q, qd) qd + g(q) for every row -> N x nv.\n") + kThreads).c_str());
  m.def(
      "gravity_batch",
      [](const PyModel& pm, const py::object& Q, int threads) {
        return run(Batched::Gravity, pm, Q, py::none(), nullptr, py::none(), nullptr, threads, {pm->nv});
      },
      py::arg("model"), py::arg("Q"), py::arg("threads") = 0,
      (std::string("g(q) for every row -> N x nv.\n") + kThreads).c_str());
  m.def(
      "frame_pose_batch",
      [](const PyModel& pm, const py::object& Q, const py::object& frame, int threads) {
        const int k = frameIndexArg(pm, frame);
        return run(Batched::FramePose, pm, Q, py::none(), nullptr, py::none(), nullptr, threads, {4, 4}, k);
      },
      py::arg("model"), py::arg("Q"), py::arg("frame"), py::arg("threads") = 0,
      (std::string("A frame's 4x4 world pose for every row -> N x 4 x 4.\n") + kThreads).c_str());
  m.def(
      "jacobian_batch",
      [](const PyModel& pm, const py::object& Q, const py::object& frame, const std::string& reference, int threads) {
        const int k = frameIndexArg(pm, frame);
        int ref = int(dyn::ReferenceFrame::LocalWorldAligned);
        if (reference == "local")
          ref = int(dyn::ReferenceFrame::Local);
        else if (reference == "world")
          ref = int(dyn::ReferenceFrame::World);
        else if (reference != "local_world_aligned")
          throw py::value_error("reference must be 'local', 'world' or 'local_world_aligned'; got '" + reference + "'");
        return run(Batched::Jacobian, pm, Q, py::none(), nullptr, py::none(), nullptr, threads, {6, pm->nv}, k, ref);
      },
      py::arg("model"), py::arg("Q"), py::arg("frame"), py::arg("reference") = "local_world_aligned",
      py::arg("threads") = 0,
      (std::string("A frame's 6 x nv Jacobian for every row -> N x 6 x nv.\n") + kThreads).c_str());
}

}  // namespace pyd
