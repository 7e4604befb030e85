#include "dynscope/trajectory/trajectory_dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "dynscope/algorithms/energy.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/loops/loop_inverse_dynamics.hpp"

namespace dyn {
namespace {

void shape(Eigen::MatrixXd& m, int rows, int cols, bool wanted) {
  if (!wanted)
    m.resize(0, 0);
  else if (m.rows() != rows || m.cols() != cols)
    m.resize(rows, cols);
}

void shape(Eigen::VectorXd& v, int size, bool wanted) {
  if (v.size() != (wanted ? size : 0)) v.resize(wanted ? size : 0);
}

// One worker's share: samples [begin, end) with its own Data (and LoopData for closed loops).
void processSamples(const Model& model, const SampledTrajectory& traj, const TrajectoryDynamicsOptions& options,
                    Data& data, LoopData* ld, const Eigen::VectorXd& zero, int begin, int end,
                    TrajectoryDynamics& out) {
  for (int k = begin; k < end; ++k) {
    const auto q = traj.q.col(k);
    const auto qd = traj.qd.col(k);
    const auto qdd = traj.qdd.col(k);
    if (ld) {  // closed loops: the actuator torques of the closed-loop inverse dynamics (affine in q̈ too)
      if (options.decompose) {
        out.gravity.col(k) = loopInverseDynamics(model, data, *ld, q, zero, zero);  // g_a(q)
        out.coriolis.col(k) = loopInverseDynamics(model, data, *ld, q, qd, zero);   // c_a + g_a for now
        if (!options.tauGiven) out.tau.col(k) = loopInverseDynamics(model, data, *ld, q, qd, qdd);
        out.inertial.col(k) = out.tau.col(k) - out.coriolis.col(k);
        out.coriolis.col(k) -= out.gravity.col(k);
      } else if (!options.tauGiven) {
        out.tau.col(k) = loopInverseDynamics(model, data, *ld, q, qd, qdd, options.fext);
      }
    } else if (options.tauExternal) {  // outside forces: tau is the joints' share, ID - J^T f
      const auto ext = options.tauExternal->col(k);
      if (!options.tauGiven) out.tau.col(k) = rnea(model, data, q, qd, qdd) - ext;
      if (options.decompose) {
        out.gravity.col(k) = rnea(model, data, q, zero, zero);             // g(q)
        out.coriolis.col(k) = rnea(model, data, q, qd, zero);              // c + g for now
        out.external.col(k) = -ext;                                        // -J^T f
        out.inertial.col(k) = out.tau.col(k) + ext - out.coriolis.col(k);  // M q̈ = ID - (c + g)
        out.coriolis.col(k) -= out.gravity.col(k);                         // c = (c + g) - g
      }
    } else if (options.decompose) {
      out.gravity.col(k) = rnea(model, data, q, zero, zero);                  // g(q)
      out.coriolis.col(k) = rnea(model, data, q, qd, zero);                   // c + g for now
      if (!options.tauGiven) out.tau.col(k) = rnea(model, data, q, qd, qdd);  // tau
      out.inertial.col(k) = out.tau.col(k) - out.coriolis.col(k);             // M q̈ = tau - (c + g)
      out.coriolis.col(k) -= out.gravity.col(k);                              // c = (c + g) - g
    } else {
      if (!options.tauGiven) out.tau.col(k) = rnea(model, data, q, qd, qdd, options.fext);
    }
    out.power.col(k) = out.tau.col(k).cwiseProduct(qd);  // P_i = tau_i q̇_i
    if (options.energy) {
      computeEnergy(model, data, q, qd);
      out.kinetic[k] = data.kinetic;
      out.potential[k] = data.potential;
      out.total[k] = data.kinetic + data.potential;
    }
  }
}

}  // namespace

void computeTrajectoryDynamics(const Model& model, const SampledTrajectory& traj,
                               const TrajectoryDynamicsOptions& options, TrajectoryDynamics& out) {
  const int n = traj.samples();
  auto check = [&](const char* what, const Eigen::MatrixXd& m, int rows) {
    if (m.rows() != rows || m.cols() != n)
      throw std::invalid_argument(std::string("trajectory dynamics: ") + what + " is " + std::to_string(m.rows()) +
                                  " x " + std::to_string(m.cols()) + ", expected " + std::to_string(rows) + " x " +
                                  std::to_string(n) + " for model '" + model.name + "'");
  };
  check("q", traj.q, model.nq);
  check("qd", traj.qd, model.nv);
  check("qdd", traj.qdd, model.nv);
  if (options.fext && int(options.fext->size()) != model.N + 1)
    throw std::invalid_argument("trajectory dynamics: fext has " + std::to_string(options.fext->size()) +
                                " entries, expected N + 1 = " + std::to_string(model.N + 1));
  if (options.fext && options.decompose)
    throw std::invalid_argument("trajectory dynamics: the decomposition is defined without external forces");

  if (options.tauExternal) {
    check("tauExternal", *options.tauExternal, model.nv);
    if (options.fext)
      throw std::invalid_argument(
          "trajectory dynamics: give the forces from outside as fext or as tauExternal, not both");
    if (model.hasLoops())
      throw std::invalid_argument("trajectory dynamics: tauExternal is not defined for closed loops");
  }

  if (options.tauGiven && (out.tau.rows() != model.nv || out.tau.cols() != n))
    throw std::invalid_argument("trajectory dynamics: tauGiven, but tau is " + std::to_string(out.tau.rows()) + "x" +
                                std::to_string(out.tau.cols()) + ", not " + std::to_string(model.nv) + "x" +
                                std::to_string(n));
  shape(out.tau, model.nv, n, true);
  shape(out.power, model.nv, n, true);
  shape(out.inertial, model.nv, n, options.decompose);
  shape(out.coriolis, model.nv, n, options.decompose);
  shape(out.gravity, model.nv, n, options.decompose);
  shape(out.external, model.nv, n, options.decompose && options.tauExternal);
  shape(out.kinetic, n, options.energy);
  shape(out.potential, n, options.energy);
  shape(out.total, n, options.energy);
  out.cancelled = false;
  if (n == 0) return;

  // Chunks handed out through an atomic counter, so a worker that is slowed down (a busy core)
  // does not hold up the others; the calling thread is one of the workers and reports progress.
  const int hardware = int(std::max(1u, std::thread::hardware_concurrency()));
  const int chunk = std::clamp(n / (8 * hardware), 16, 1024);
  const int chunks = (n + chunk - 1) / chunk;
  const int workers = std::clamp(options.threads > 0 ? options.threads : hardware, 1, chunks);
  std::atomic<int> next{0}, done{0};
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  std::mutex failureMutex;

  auto work = [&](bool caller) {
    try {
      Data data(model);
      std::unique_ptr<LoopData> ld = model.hasLoops() ? std::make_unique<LoopData>(model) : nullptr;
      const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
      for (;;) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) stop = true;
        if (stop) return;
        const int c = next.fetch_add(1);
        if (c >= chunks) return;
        const int begin = c * chunk, end = std::min(n, begin + chunk);
        processSamples(model, traj, options, data, ld.get(), zero, begin, end, out);
        const int total = done.fetch_add(end - begin) + (end - begin);
        if (caller && options.progress) options.progress(double(total) / n);
      }
    } catch (...) {
      const std::lock_guard<std::mutex> lock(failureMutex);
      if (!failure) failure = std::current_exception();
      stop = true;
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  for (int w = 1; w < workers; ++w) threads.emplace_back(work, false);
  work(true);
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  out.cancelled = done.load() < n;
  if (!out.cancelled && options.progress) options.progress(1.0);
}

TrajectoryDynamics computeTrajectoryDynamics(const Model& model, const SampledTrajectory& trajectory,
                                             const TrajectoryDynamicsOptions& options) {
  TrajectoryDynamics out;
  computeTrajectoryDynamics(model, trajectory, options, out);
  return out;
}

EffortLimitViolations effortLimitViolations(const Model& model, const Eigen::MatrixXd& tau) {
  if (tau.rows() != model.nv)
    throw std::invalid_argument("effort limits: tau has " + std::to_string(tau.rows()) + " rows, model '" + model.name +
                                "' has nv = " + std::to_string(model.nv));
  EffortLimitViolations v;
  v.samples.resize(model.nv);
  for (int j = 0; j < model.nv; ++j) {
    const double limit = model.effortLimit.size() == model.nv ? model.effortLimit[j] : INFINITY;
    if (!std::isfinite(limit)) continue;
    for (Eigen::Index k = 0; k < tau.cols(); ++k)
      if (std::abs(tau(j, k)) > limit) v.samples[j].push_back(int(k));
  }
  return v;
}

}  // namespace dyn
