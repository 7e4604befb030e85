// Big models (issue 17): a linear algorithm stays linear in time and memory. On the generated
// general chain (dyn::generalChain, every DH length, twist and inertia non-zero):
//   scaling/id/<n>    RNEA, τ = ID(q, q̇, q̈)            aim at n = 10,000: < 50 ms, < 100 MB
//   scaling/fd/<n>    ABA, q̈ = FD(q, q̇, τ)             aim at n = 10,000: < 50 ms, < 100 MB
//   scaling/mass/<n>  what `dynscope-cli mass` computes before printing: CRBA's H (dense, n x n)
//                     and the branch-induced pattern    aim at n = 1,000: < 50 ms
// Counters: workspace_MB, the memory the benchmark's state holds (model + Data + vectors, measured
// as the growth of the resident set while it is built, /proc/self/statm), and peak_rss_MB, the
// process's peak (getrusage; it only grows, so run one benchmark per process to read it alone:
// --benchmark_filter=scaling/id/10000). Results in docs/reliability.md.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <random>

#include "dynscope/dynscope.hpp"

namespace {

double residentMB() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

double peakMB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

struct Chain {
  dyn::Model model;
  dyn::Data data;
  Eigen::VectorXd q, qd, qdd, tau;
  explicit Chain(int n) : model(dyn::generalChain(n)), data(model) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> U(-1, 1);
    q = Eigen::VectorXd::NullaryExpr(model.nq, [&] { return U(rng); });
    qd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return U(rng); });
    qdd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return U(rng); });
    tau = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return U(rng); });
  }
};

void counters(benchmark::State& st, const Chain& c, double before) {
  st.counters["nv"] = c.model.nv;
  st.counters["workspace_MB"] = residentMB() - before;
  st.counters["peak_rss_MB"] = peakMB();
}

void id(benchmark::State& st) {
  const double before = residentMB();
  Chain c(int(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(dyn::rnea(c.model, c.data, c.q, c.qd, c.qdd).data());
  counters(st, c, before);
}

void fd(benchmark::State& st) {
  const double before = residentMB();
  Chain c(int(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(dyn::aba(c.model, c.data, c.q, c.qd, c.tau).data());
  counters(st, c, before);
}

void mass(benchmark::State& st) {
  const double before = residentMB();
  Chain c(int(st.range(0)));
  for (auto _ : st) {
    benchmark::DoNotOptimize(dyn::crba(c.model, c.data, c.q).data());
    const dyn::SparsityPattern pattern = dyn::structuralPattern(c.model);
    benchmark::DoNotOptimize(pattern.count());
  }
  counters(st, c, before);
}

}  // namespace

BENCHMARK(id)->Name("scaling/id")->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(fd)->Name("scaling/fd")->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(mass)->Name("scaling/mass")->Arg(100)->Arg(1000)->Arg(2000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
