// The C++ side of the Python module's benchmark (tests/benchmarks/bench_python.py; docs/benchmarks.md):
// exactly what dynscope.rnea and dynscope.rnea_batch run, without Python. One call on inputs viewed
// through Eigen::Map (as the binding views numpy arrays), and a single-thread loop over 10,000 rows
// with one Data (as one thread of rnea_batch). The Python script reads this program's JSON output.
//
//   bench_python_reference --benchmark_format=json
#include <benchmark/benchmark.h>

#include <random>

#include "dynscope/dynscope.hpp"

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct States {
  dyn::Model model = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/ur5.urdf");
  RowMatrix Q, QD, QDD;
  explicit States(int n) : Q(n, model.nq), QD(n, model.nv), QDD(n, model.nv) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> U(-1, 1);
    for (int k = 0; k < n; ++k) {
      Q.row(k) = dyn::randomConfiguration(model, rng).transpose();
      for (int j = 0; j < model.nv; ++j) QD(k, j) = U(rng), QDD(k, j) = U(rng);
    }
  }
};

void rneaCall(benchmark::State& state) {
  States s(1);
  dyn::Data data(s.model);
  const Eigen::Map<const Eigen::VectorXd> q(s.Q.data(), s.model.nq), qd(s.QD.data(), s.model.nv),
      qdd(s.QDD.data(), s.model.nv);
  for (auto _ : state) benchmark::DoNotOptimize(dyn::rnea(s.model, data, q, qd, qdd).data());
}
BENCHMARK(rneaCall)->Name("python_reference/rnea_call/ur5");

void rneaLoop(benchmark::State& state) {
  const int n = int(state.range(0));
  States s(n);
  RowMatrix TAU(n, s.model.nv);
  for (auto _ : state) {
    dyn::Data data(s.model);  // rnea_batch makes one per thread and call
    for (int k = 0; k < n; ++k)
      TAU.row(k) = dyn::rnea(s.model, data, Eigen::Map<const Eigen::VectorXd>(s.Q.row(k).data(), s.model.nq),
                             Eigen::Map<const Eigen::VectorXd>(s.QD.row(k).data(), s.model.nv),
                             Eigen::Map<const Eigen::VectorXd>(s.QDD.row(k).data(), s.model.nv))
                       .transpose();
    benchmark::DoNotOptimize(TAU.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(rneaLoop)->Name("python_reference/rnea_loop/ur5")->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
