// Per-call cost of Saha's DeNOC formulations (inverse dynamics, the generalized inertia matrix and
// the convective-inertia matrix, forward dynamics) and the Newton-Euler recursion with 3-vectors
// (Luh, Walker & Paul) beside our spatial RNEA, CRBA and ABA, on the UR5, the Stanford arm (a
// prismatic joint) and the 32-joint humanoid tree (engine flags, -march=native). The Lagrangian
// family is in bench_lagrangian.cpp. Names: formulations/<FORMULATION>/<robot>. States are random
// but fixed (seeded), prepared outside the timed loop; every call includes its own joint transforms.
//
//   bench_formulations --benchmark_min_time=0.2 [--benchmark_filter=humanoid]
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dynscope/algorithms/aba.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/forward_dynamics_crba.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/formulations/denoc_forward_dynamics.hpp"
#include "dynscope/formulations/denoc_generalized_inertia.hpp"
#include "dynscope/formulations/denoc_inverse_dynamics.hpp"
#include "dynscope/formulations/newton_euler_3vector.hpp"
#include "dynscope/io/model_builder.hpp"
#include "formulation_robots.hpp"

namespace {

struct Robot {
  std::string label;
  dyn::Model model;
  dyn::Data data;
  dyn::DenocWorkspace denoc;
  dyn::NewtonEuler3Workspace newtonEuler;
  Eigen::VectorXd q, qd, qdd, tau;

  Robot(std::string l, const std::string& path)
      : label(std::move(l)), model(dyn::loadModel(path)), data(model), denoc(model), newtonEuler(model) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> U(-1, 1);
    q = dyn::randomConfiguration(model, rng);
    qd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 2.0 * U(rng); });
    qdd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 3.0 * U(rng); });
    tau = dyn::rnea(model, data, q, qd, qdd);
  }
};

template <class F>
void add(const std::string& name, Robot* r, F body) {
  benchmark::RegisterBenchmark(("formulations/" + name + "/" + r->label).c_str(), [r, body](benchmark::State& st) {
    for (auto _ : st) {
      const auto& out = body(*r);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    st.counters["nv"] = r->model.nv;
  });
}

void registerAll(Robot* r) {
  using V = Eigen::VectorXd;
  using M = Eigen::MatrixXd;
  // inverse dynamics
  add("RNEA", r, [](Robot& R) -> const V& { return dyn::rnea(R.model, R.data, R.q, R.qd, R.qdd); });
  add("denoc-id", r,
      [](Robot& R) -> const V& { return dyn::denocInverseDynamics(R.model, R.denoc, R.q, R.qd, R.qdd); });
  add("newton-euler-3", r,
      [](Robot& R) -> const V& { return dyn::newtonEuler3(R.model, R.newtonEuler, R.q, R.qd, R.qdd); });
  // the mass matrix (and DeNOC's convective-inertia matrix, eq. 25)
  add("CRBA", r, [](Robot& R) -> const M& { return dyn::crba(R.model, R.data, R.q); });
  add("denoc-gim", r, [](Robot& R) -> const M& { return dyn::denocGeneralizedInertia(R.model, R.denoc, R.q); });
  add("denoc-convective", r,
      [](Robot& R) -> const M& { return dyn::denocConvectiveInertia(R.model, R.denoc, R.q, R.qd); });
  // forward dynamics
  add("ABA", r, [](Robot& R) -> const V& { return dyn::aba(R.model, R.data, R.q, R.qd, R.tau); });
  add("CRBA-fd", r, [](Robot& R) -> const V& { return dyn::forwardDynamicsCrba(R.model, R.data, R.q, R.qd, R.tau); });
  add("denoc-fd", r,
      [](Robot& R) -> const V& { return dyn::denocForwardDynamics(R.model, R.denoc, R.q, R.qd, R.tau); });
}

}  // namespace

int main(int argc, char** argv) { return runOnFormulationRobots<Robot>(argc, argv, &registerAll); }
