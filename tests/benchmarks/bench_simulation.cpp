// One simulation step of 1 ms with each integrator on the humanoid, and the real-time factor:
// simulated seconds per CPU second (the counter realtime_factor; issue 5 asks >= 10 at 1 kHz).
// "1 kHz" the way a user runs it: dt = 1 ms (RK45: the output interval and the largest sub-step,
// at the GUI's and CLI's default tolerance 1e-8), every step recorded (the CLI's default), the
// URDF's damping and friction and the joint limits on. Runs of 1 s from mid-range, restarted:
//   floating  the 38-dof floating-base humanoid of issue 5, every joint set moving at +-1 rad/s
//             (from rest it would only fall: free fall moves no joint), passive or under
//             gravity compensation; limbs swing and some hit their limits;
//   fixed     the 32-DOF fixed-base humanoid swinging from rest under gravity into its limits.
// fd_per_step: forward-dynamics evaluations per 1 ms step (RK45: 6 per accepted sub-step).
// The sparse L^T L against dense Eigen LLT on the same robot is in bench_dynamics.
#include <benchmark/benchmark.h>

#include <string>

#include "dynscope/dynscope.hpp"
#include "test_vectors.hpp"

namespace {

using dyn::testing::midRange;

dyn::Model humanoid(bool floating) {
  return dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/humanoid.urdf", {.floatingBase = floating});
}

enum class Start { FloatingMoving, FixedAtRest };

void simulationStep(benchmark::State& state, dyn::Integrator integrator, dyn::ForwardAlgorithm algorithm, Start start,
                    bool gravityCompensation = false, double tolerance = 1e-8) {
  const bool floating = start == Start::FloatingMoving;
  const dyn::Model model = humanoid(floating);
  dyn::SimulationSettings s;
  s.integrator = integrator;
  s.algorithm = algorithm;
  s.dt = 1e-3;
  s.tolerance = tolerance;
  s.recordEvery = 1;  // output at 1 kHz
  dyn::Controller controller = dyn::PassiveController{};
  if (gravityCompensation) controller = dyn::GravityCompensation{};
  dyn::Simulator sim(model, s, controller);
  const Eigen::VectorXd q0 = midRange(model);
  Eigen::VectorXd qd0 = Eigen::VectorXd::Zero(model.nv);
  if (floating)
    for (int i = 6; i < model.nv; ++i) qd0[i] = i % 2 ? 1.0 : -1.0;
  constexpr long kRun = 1000;  // 1 s, then a fresh start: the motion stays representative
  sim.record().reserve(kRun + 2);
  sim.reset(q0, qd0);
  long k = 0, steps = 0, evaluations = 0;
  for (auto _ : state) {
    if (++k % kRun == 0) {
      state.PauseTiming();
      steps += sim.stats().steps;
      evaluations += sim.stats().evaluations;
      sim.reset(q0, qd0);
      state.ResumeTiming();
    }
    if (sim.step() != dyn::SimulationStatus::Ok) {
      state.SkipWithError(sim.lastError().c_str());
      break;
    }
  }
  steps += sim.stats().steps;
  evaluations += sim.stats().evaluations;
  state.counters["realtime_factor"] =
      benchmark::Counter(double(state.iterations()) * s.dt, benchmark::Counter::kIsRate);
  state.counters["fd_per_step"] = double(evaluations) / double(std::max(1L, steps));
}

}  // namespace

using dyn::ForwardAlgorithm::Aba, dyn::ForwardAlgorithm::Crba;
using dyn::Integrator::SemiImplicitEuler, dyn::Integrator::Rk4, dyn::Integrator::DormandPrince45;
constexpr Start kFloating = Start::FloatingMoving, kFixed = Start::FixedAtRest;

BENCHMARK_CAPTURE(simulationStep, euler_aba_floating, SemiImplicitEuler, Aba, kFloating);
BENCHMARK_CAPTURE(simulationStep, rk4_aba_floating, Rk4, Aba, kFloating);
BENCHMARK_CAPTURE(simulationStep, rk45_aba_floating, DormandPrince45, Aba, kFloating);
BENCHMARK_CAPTURE(simulationStep, euler_aba_floating_gravity, SemiImplicitEuler, Aba, kFloating, true);
BENCHMARK_CAPTURE(simulationStep, rk4_aba_floating_gravity, Rk4, Aba, kFloating, true);
BENCHMARK_CAPTURE(simulationStep, rk45_aba_floating_gravity, DormandPrince45, Aba, kFloating, true);
BENCHMARK_CAPTURE(simulationStep, rk45_aba_floating_tol1e - 6, DormandPrince45, Aba, kFloating, false, 1e-6);
BENCHMARK_CAPTURE(simulationStep, rk45_aba_floating_tol1e - 10, DormandPrince45, Aba, kFloating, false, 1e-10);
BENCHMARK_CAPTURE(simulationStep, euler_crba_floating, SemiImplicitEuler, Crba, kFloating);
BENCHMARK_CAPTURE(simulationStep, rk4_crba_floating, Rk4, Crba, kFloating);
BENCHMARK_CAPTURE(simulationStep, rk45_crba_floating, DormandPrince45, Crba, kFloating);
BENCHMARK_CAPTURE(simulationStep, euler_aba_fixed, SemiImplicitEuler, Aba, kFixed);
BENCHMARK_CAPTURE(simulationStep, rk4_aba_fixed, Rk4, Aba, kFixed);
BENCHMARK_CAPTURE(simulationStep, rk45_aba_fixed, DormandPrince45, Aba, kFixed);
BENCHMARK_CAPTURE(simulationStep, euler_aba_fixed_gravity, SemiImplicitEuler, Aba, kFixed, true);
BENCHMARK_CAPTURE(simulationStep, rk4_aba_fixed_gravity, Rk4, Aba, kFixed, true);
BENCHMARK_CAPTURE(simulationStep, rk45_aba_fixed_gravity, DormandPrince45, Aba, kFixed, true);

BENCHMARK_MAIN();
