#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dynscope/algorithms/bias.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/loops/loop_inverse_dynamics.hpp"
#include "dynscope/model/names.hpp"
#include "dynscope/simulation/controller.hpp"

namespace dyn {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;  // clang 14 has no CTAD for aggregates (the sanitizer build)

void checkVector(const char* what, const Eigen::VectorXd& v, int n) {
  if (v.size() != n)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(v.size()) + " entries, expected " +
                                std::to_string(n));
  if (!v.allFinite()) throw std::invalid_argument(std::string(what) + " has a value that is not finite");
}

// Linear interpolation of the replayed torques at t, held outside the samples.
void replayTorque(const TorqueReplay& r, double t, Eigen::VectorXd& tau) {
  const int n = int(r.t.size());
  const double* begin = r.t.data();
  const int k = int(std::upper_bound(begin, begin + n, t) - begin);  // first sample after t
  if (k == 0) {
    tau = r.tau.col(0);
  } else if (k == n) {
    tau = r.tau.col(n - 1);
  } else {
    const double s = (t - r.t[k - 1]) / (r.t[k] - r.t[k - 1]);
    tau = r.tau.col(k - 1) + s * (r.tau.col(k) - r.tau.col(k - 1));  // exact on a constant stretch
  }
}

}  // namespace

void validate(const Controller& controller, const Model& model) {
  std::visit(
      Overloaded{
          [](const PassiveController&) {},
          [](const GravityCompensation&) {},
          [&](const ConstantTorque& c) { checkVector("constant torque", c.tau, model.nv); },
          [&](const PdTracking& c) {
            checkVector("PD gain kp", c.kp, model.nv);
            checkVector("PD gain kd", c.kd, model.nv);
            if (c.trajectory.samples() < 1) throw std::invalid_argument("PD tracking: the trajectory is empty");
            c.trajectory.validate(model);
          },
          [&](const TorqueReplay& c) {
            const int n = int(c.t.size());
            if (n < 1) throw std::invalid_argument("torque replay: no samples");
            if (c.tau.rows() != model.nv || c.tau.cols() != n)
              throw std::invalid_argument("torque replay: tau is " + std::to_string(c.tau.rows()) + " x " +
                                          std::to_string(c.tau.cols()) + ", expected " + std::to_string(model.nv) +
                                          " x " + std::to_string(n));
            for (int k = 0; k < n; ++k) {
              if (!std::isfinite(c.t[k]) || (k > 0 && !(c.t[k] > c.t[k - 1])))
                throw std::invalid_argument("torque replay: sample " + std::to_string(k + 1) +
                                            ": t is not finite or not after the previous sample's");
              if (!c.tau.col(k).allFinite())
                throw std::invalid_argument("torque replay: sample " + std::to_string(k + 1) + ": tau is not finite");
            }
          },
      },
      controller);
}

void controlTorque(const Controller& controller, const Model& model, Data& data, double t, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& qd, Eigen::VectorXd& tau, Eigen::VectorXd& scratch, LoopData* loops) {
  const bool closed = loops && model.hasLoops();
  std::visit(Overloaded{
                 [&](const PassiveController&) { tau.setZero(); },
                 [&](const GravityCompensation&) {
                   if (!closed) {
                     tau = gravityVector(model, data, q);  // g(q)
                     return;
                   }
                   auto zero = scratch.segment(0, model.nv);  // the actuator torques holding q at rest
                   zero.setZero();
                   tau = loopInverseDynamics(model, data, *loops, q, zero, zero);
                 },
                 [&](const ConstantTorque& c) { tau = c.tau; },
                 [&](const PdTracking& c) {
                   const int nq = model.nq, nv = model.nv;
                   auto qRef = scratch.segment(0, nq);
                   auto qdRef = scratch.segment(nq, nv);
                   auto qddRef = scratch.segment(nq + nv, nv);
                   auto e = scratch.segment(nq + 2 * nv, nv);
                   c.trajectory.interpolate(model, t, qRef, qdRef, qddRef);
                   difference(model, q, qRef, e);  // e = q_ref (-) q
                   if (c.mode == PdTracking::Mode::Pd) {
                     tau = c.kp.cwiseProduct(e) + c.kd.cwiseProduct(qdRef - qd);  // Kp e + Kd ed
                   } else {
                     qddRef += c.kp.cwiseProduct(e) + c.kd.cwiseProduct(qdRef - qd);  // qdd_ref + Kp e + Kd ed
                     if (closed)  // the independent coordinates follow qdd_ref + ..., the rest by the loops
                       tau = loopInverseDynamics(model, data, *loops, q, qd, qddRef);
                     else
                       tau = rnea(model, data, q, qd, qddRef);  // H a + C
                   }
                 },
                 [&](const TorqueReplay& c) { replayTorque(c, t, tau); },
             },
             controller);
}

const char* controllerName(const Controller& controller) {
  return std::visit(Overloaded{
                        [](const PassiveController&) { return "passive"; },
                        [](const GravityCompensation&) { return "gravity"; },
                        [](const ConstantTorque&) { return "constant"; },
                        [](const PdTracking& c) { return c.mode == PdTracking::Mode::Pd ? "pd" : "computed-torque"; },
                        [](const TorqueReplay&) { return "replay"; },
                    },
                    controller);
}

TorqueReplay readTorqueCsv(const Model& model, const std::string& path) {
  const CsvTable table = readCsv(path);
  std::vector<bool> used(table.header.size(), false);
  const std::vector<int> tColumn = requireColumns(table, {"t"}, "", "time (t)", used);
  const std::vector<int> tauColumns = requireColumns(table, velocityNames(model), "tau_", "torque (tau_)", used);
  const int n = table.samples();
  if (n < 1) throw LoadError(path, 0, "", "the file has a header but no samples");
  TorqueReplay r;
  r.t = table.values.row(tColumn[0]).transpose();
  for (int k = 1; k < n; ++k)
    if (!(r.t[k] > r.t[k - 1]))
      throw table.error(
          k, "t = " + formatCsvNumber(r.t[k]) + " is not greater than the previous t = " + formatCsvNumber(r.t[k - 1]));
  r.tau = gatherColumns(table, tauColumns);
  return r;
}

}  // namespace dyn
