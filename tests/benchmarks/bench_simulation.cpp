// One simulation step of each integrator on the 32-DOF humanoid at 1 kHz physics (passive, with
// the URDF's damping and friction, joint limits on), and the real-time factor: simulated seconds
// per wall-clock second (the counter realtime_factor; the GUI needs >= 10). The sparse L^T L
// against dense Eigen LLT on the same robot is in bench_dynamics (factorLTL / EigenLLT).
#include <benchmark/benchmark.h>

#include <string>

#include "dynscope/dynscope.hpp"

namespace {

dyn::Model humanoid() { return dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/humanoid.urdf"); }

// Mid-range of every limited joint: a pose the robot swings away from under gravity.
Eigen::VectorXd midRange(const dyn::Model& model) {
  Eigen::VectorXd q = model.neutral();
  for (int i = 0; i < model.nq; ++i)
    if (std::isfinite(model.lowerLimit[i]) && std::isfinite(model.upperLimit[i]))
      q[i] = 0.5 * (model.lowerLimit[i] + model.upperLimit[i]);
  return q;
}

void simulationStep(benchmark::State& state, dyn::Integrator integrator, dyn::ForwardAlgorithm algorithm,
                    double tolerance = 1e-8) {
  const dyn::Model model = humanoid();
  dyn::SimulationSettings s;
  s.integrator = integrator;
  s.algorithm = algorithm;
  s.dt = 1e-3;
  s.tolerance = tolerance;
  s.recordEvery = 1000000;  // the stepping alone, not the record
  dyn::Simulator sim(model, s);
  const Eigen::VectorXd q0 = midRange(model), qd0 = Eigen::VectorXd::Zero(model.nv);
  sim.reset(q0, qd0);
  long k = 0;
  for (auto _ : state) {
    if (++k % 200 == 0) {  // a fresh run now and then: the swing stays representative
      state.PauseTiming();
      sim.reset(q0, qd0);
      state.ResumeTiming();
    }
    if (sim.step() != dyn::SimulationStatus::Ok) {
      state.SkipWithError(sim.lastError().c_str());
      break;
    }
  }
  state.counters["realtime_factor"] =
      benchmark::Counter(double(state.iterations()) * s.dt, benchmark::Counter::kIsRate);
  state.counters["fd_per_step"] = double(sim.stats().evaluations) / double(std::max(1L, sim.stats().steps + 1));
}

}  // namespace

BENCHMARK_CAPTURE(simulationStep, euler_aba, dyn::Integrator::SemiImplicitEuler, dyn::ForwardAlgorithm::Aba);
BENCHMARK_CAPTURE(simulationStep, rk4_aba, dyn::Integrator::Rk4, dyn::ForwardAlgorithm::Aba);
BENCHMARK_CAPTURE(simulationStep, rk45_aba, dyn::Integrator::DormandPrince45, dyn::ForwardAlgorithm::Aba);
BENCHMARK_CAPTURE(simulationStep, rk45_aba_tol1e - 6, dyn::Integrator::DormandPrince45, dyn::ForwardAlgorithm::Aba,
                  1e-6);
BENCHMARK_CAPTURE(simulationStep, euler_crba, dyn::Integrator::SemiImplicitEuler, dyn::ForwardAlgorithm::Crba);
BENCHMARK_CAPTURE(simulationStep, rk4_crba, dyn::Integrator::Rk4, dyn::ForwardAlgorithm::Crba);
BENCHMARK_CAPTURE(simulationStep, rk45_crba, dyn::Integrator::DormandPrince45, dyn::ForwardAlgorithm::Crba);

BENCHMARK_MAIN();
