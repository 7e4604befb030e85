// Whole-trajectory costs on the 32-DOF humanoid with 10,000 samples (the target: τ for
// 10,000 samples of a 30-DOF robot in under 20 ms): batch inverse dynamics (τ only, on all cores
// and on one; τ + decomposition + energy), and sampling a cubic-spline waypoint trajectory.
// Wall-clock time (the work runs on several threads).
//
//   bench_trajectory --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/trajectory.hpp"

namespace {

constexpr int kSamples = 10000;

struct Setup {
  dyn::Model model;
  std::vector<dyn::Waypoint> waypoints;
  dyn::SampledTrajectory samples;

  explicit Setup(bool floating)
      : model(dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/humanoid.urdf", {.floatingBase = floating})) {
    std::mt19937 rng(42);
    for (int k = 0; k < 8; ++k) waypoints.push_back({1.0 * k, dyn::randomConfiguration(model, rng)});
    // 7 s at 10,000 / 7 Hz: kSamples samples, the end included.
    samples = dyn::WaypointTrajectory(model, waypoints, dyn::Interpolation::CubicSpline).sample((kSamples - 1) / 7.0);
  }
};

const Setup& humanoid(bool floating) {
  static const Setup fixed(false), free(true);
  return floating ? free : fixed;
}

void counters(benchmark::State& st, const Setup& s) {
  st.counters["nv"] = s.model.nv;
  st.counters["samples"] = s.samples.samples();
  st.counters["samples/s"] = benchmark::Counter(s.samples.samples(), benchmark::Counter::kIsIterationInvariantRate);
}

void tauOnly(benchmark::State& st, bool floating, int threads) {
  const Setup& s = humanoid(floating);
  dyn::TrajectoryDynamics out;
  dyn::TrajectoryDynamicsOptions options;
  options.energy = false;
  options.threads = threads;
  for (auto _ : st) {
    dyn::computeTrajectoryDynamics(s.model, s.samples, options, out);
    benchmark::DoNotOptimize(out.tau.data());
    benchmark::ClobberMemory();
  }
  counters(st, s);
}

void tauDecomposition(benchmark::State& st, bool floating) {
  const Setup& s = humanoid(floating);
  dyn::TrajectoryDynamics out;
  dyn::TrajectoryDynamicsOptions options;
  options.decompose = true;
  options.energy = true;
  for (auto _ : st) {
    dyn::computeTrajectoryDynamics(s.model, s.samples, options, out);
    benchmark::DoNotOptimize(out.inertial.data());
    benchmark::ClobberMemory();
  }
  counters(st, s);
}

void splineSampling(benchmark::State& st, bool floating) {
  const Setup& s = humanoid(floating);
  for (auto _ : st) {
    const dyn::WaypointTrajectory traj(s.model, s.waypoints, dyn::Interpolation::CubicSpline);
    dyn::SampledTrajectory sampled = traj.sample((kSamples - 1) / 7.0);
    benchmark::DoNotOptimize(sampled.q.data());
  }
  counters(st, s);
}

}  // namespace

int main(int argc, char** argv) {
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  for (bool floating : {false, true}) {
    const std::string robot = floating ? "humanoid_floating" : "humanoid";
    benchmark::RegisterBenchmark(("trajectory/tau/" + robot).c_str(),
                                 [floating, cores](benchmark::State& st) { tauOnly(st, floating, cores); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("trajectory/tau_1_thread/" + robot).c_str(),
                                 [floating](benchmark::State& st) { tauOnly(st, floating, 1); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("trajectory/tau+decomposition+energy/" + robot).c_str(),
                                 [floating](benchmark::State& st) { tauDecomposition(st, floating); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("trajectory/spline_sampling/" + robot).c_str(),
                                 [floating](benchmark::State& st) { splineSampling(st, floating); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
