// Closed-loop mechanisms (issue 16, docs/loops.md): forward dynamics by the three methods of the
// review's §3.4 and by the global formulation of §3.5 on every shipped mechanism, the closed-loop
// inverse dynamics and the assembly; and a 1 kHz simulation of the delta robot against real time.
//   fd/<robot>/m1|m2|m3   loopForwardDynamics, method 1 (augmented, eq. 20), 2 (eq. 21), 3 (eq. 22);
//   fd/<robot>/g26|g27|g28  globalForwardDynamics, eqs. 26, 27 and 28 (dense 6N matrices: for teaching);
//   id/<robot>            loopInverseDynamics (actuator torques and constraint forces);
//   assemble/<robot>      Assembler::solve after a 0.05 rad move of the independent coordinates;
//   sim_delta_1khz        one 1 ms step of the delta robot (semi-implicit Euler, method 2,
//                         Baumgarte and projection on: the defaults), every step recorded;
//                         realtime_factor = simulated seconds per CPU second (the issue asks >= 50).
// States: random assembled ones (loop_states.hpp, seeded), prepared outside the timed loop.
#include <benchmark/benchmark.h>

#include <map>
#include <random>
#include <string>

#include "dynscope/dynscope.hpp"
#include "dynscope/loops/global_analysis.hpp"
#include "dynscope/loops/loop_forward_dynamics.hpp"
#include "loop_states.hpp"

namespace {

struct Mechanism {
  dyn::Model model;
  Eigen::VectorXd q, qd, tau;
};

const Mechanism& mechanism(const std::string& file) {
  static std::map<std::string, Mechanism> cache;
  auto it = cache.find(file);
  if (it != cache.end()) return it->second;
  Mechanism m{dyn::testing::loadRobot(file), {}, {}, {}};
  std::mt19937 rng(42);
  while (!dyn::testing::randomAssembledState(m.model, rng, m.q, m.qd)) {
  }
  m.tau = Eigen::VectorXd::Zero(m.model.nv);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int v : m.model.actuatedDofs()) m.tau[v] = U(rng);
  return cache.emplace(file, std::move(m)).first->second;
}

void loopFd(benchmark::State& state, const char* file, dyn::LoopMethod method) {
  const Mechanism& m = mechanism(file);
  dyn::Data data(m.model);
  dyn::LoopData ld(m.model);
  dyn::LoopSettings s;
  s.method = method;
  for (auto _ : state)
    benchmark::DoNotOptimize(dyn::loopForwardDynamics(m.model, data, ld, m.q, m.qd, m.tau, s).data());
  state.counters["nv"] = m.model.nv;
  state.counters["n_c"] = m.model.loopRank;
}

void globalFd(benchmark::State& state, const char* file, dyn::GlobalFormulation f) {
  const Mechanism& m = mechanism(file);
  dyn::Data data(m.model);
  dyn::LoopData ld(m.model);
  dyn::GlobalData gd(m.model);
  for (auto _ : state)
    benchmark::DoNotOptimize(dyn::globalForwardDynamics(m.model, data, ld, gd, m.q, m.qd, m.tau, f).data());
}

void loopId(benchmark::State& state, const char* file) {
  const Mechanism& m = mechanism(file);
  dyn::Data data(m.model);
  dyn::LoopData ld(m.model);
  const Eigen::VectorXd qdd = Eigen::VectorXd::Constant(m.model.nv, 0.5);
  for (auto _ : state) benchmark::DoNotOptimize(dyn::loopInverseDynamics(m.model, data, ld, m.q, m.qd, qdd).data());
}

void assembleAfterMove(benchmark::State& state, const char* file) {
  const Mechanism& m = mechanism(file);
  dyn::Assembler assembler(m.model);
  Eigen::VectorXd moved = m.q;
  for (int v : m.model.independentDofs()) {
    const auto& J = m.model.joints[size_t(m.model.dofBody[size_t(v)])];
    if (J.nq == J.nv) moved[J.idx_q + v - J.idx_v] += 0.05;
  }
  dyn::AssemblyOptions options;
  options.held = m.model.independentDofs();
  options.restarts = 0;
  for (auto _ : state) {
    const dyn::AssemblyResult& r = assembler.solve(moved, options);
    if (!r.converged) {
      state.SkipWithError(r.message.c_str());
      break;
    }
    benchmark::DoNotOptimize(r.q.data());
  }
}

void simulateDelta(benchmark::State& state) {
  const Mechanism& m = mechanism("delta.urdf");
  dyn::SimulationSettings s;  // defaults: semi-implicit Euler, 1 ms, method 2, Baumgarte, projection
  s.dt = 1e-3;
  s.recordEvery = 1;
  dyn::Simulator sim(m.model, s, dyn::PassiveController{});
  constexpr long kRun = 1000;  // 1 s, then a fresh start
  sim.record().reserve(kRun + 2);
  sim.reset(m.model.home(), Eigen::VectorXd::Zero(m.model.nv));
  long k = 0;
  for (auto _ : state) {
    if (++k % kRun == 0) {
      state.PauseTiming();
      sim.reset(m.model.home(), Eigen::VectorXd::Zero(m.model.nv));
      state.ResumeTiming();
    }
    if (sim.step() != dyn::SimulationStatus::Ok) {
      state.SkipWithError(sim.lastError().c_str());
      break;
    }
  }
  state.counters["realtime_factor"] =
      benchmark::Counter(double(state.iterations()) * s.dt, benchmark::Counter::kIsRate);
  state.counters["max_phi"] = sim.record().maxConstraintError();
}

}  // namespace

using dyn::LoopMethod::Augmented, dyn::LoopMethod::Multipliers, dyn::LoopMethod::NullSpace;
#define DYN_LOOP_BENCHMARKS(name, file)                                                    \
  BENCHMARK_CAPTURE(loopFd, name##_m1, file, Augmented);                                   \
  BENCHMARK_CAPTURE(loopFd, name##_m2, file, Multipliers);                                 \
  BENCHMARK_CAPTURE(loopFd, name##_m3, file, NullSpace);                                   \
  BENCHMARK_CAPTURE(globalFd, name##_g26, file, dyn::GlobalFormulation::NullSpace);        \
  BENCHMARK_CAPTURE(globalFd, name##_g27, file, dyn::GlobalFormulation::Augmented);        \
  BENCHMARK_CAPTURE(globalFd, name##_g28, file, dyn::GlobalFormulation::ConstraintForces); \
  BENCHMARK_CAPTURE(loopId, name, file);                                                   \
  BENCHMARK_CAPTURE(assembleAfterMove, name, file);

DYN_LOOP_BENCHMARKS(fourbar, "fourbar.urdf")
DYN_LOOP_BENCHMARKS(slider_crank, "slider_crank.urdf")
DYN_LOOP_BENCHMARKS(palletizer, "palletizer.urdf")
DYN_LOOP_BENCHMARKS(delta, "delta.urdf")
BENCHMARK(simulateDelta)->Name("sim_delta_1khz");

BENCHMARK_MAIN();
