// Per-call cost of Hollerbach's Lagrangian family and the configuration-space method beside our spatial RNEA, on the
// UR5, the Stanford arm (a prismatic joint) and the 32-joint humanoid tree (engine flags, -march=native).
// Names: lagrangian/<FORMULATION>/<robot>. States are random but fixed (seeded), prepared outside the timed loop;
// every call includes its own joint transforms (sin, cos, A_j), as RNEA's does.
//
//   bench_lagrangian --benchmark_min_time=0.2 [--benchmark_filter=humanoid]
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/formulations/configuration_space_method.hpp"
#include "dynscope/formulations/recursive_lagrangian_3x3.hpp"
#include "dynscope/formulations/recursive_lagrangian_4x4.hpp"
#include "dynscope/formulations/uicker_kahn_lagrangian.hpp"
#include "dynscope/formulations/waters_lagrangian.hpp"
#include "dynscope/io/model_builder.hpp"
#include "formulation_robots.hpp"

namespace {

struct Robot {
  std::string label;
  dyn::Model model;
  dyn::Data data;
  dyn::UickerKahnWorkspace<double> uickerKahn;
  dyn::WatersWorkspace<double> waters;
  dyn::RecursiveLagrangian4x4Workspace<double> lagrange4;
  dyn::RecursiveLagrangian3x3Workspace<double> lagrange3;
  dyn::ConfigurationSpaceWorkspace<double> configurationSpace;
  Eigen::VectorXd q, qd, qdd;

  Robot(std::string l, const std::string& path)
      : label(std::move(l)),
        model(dyn::loadModel(path)),
        data(model),
        uickerKahn(model),
        waters(model),
        lagrange4(model),
        lagrange3(model),
        configurationSpace(model) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> U(-1, 1);
    q = dyn::randomConfiguration(model, rng);
    qd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 2.0 * U(rng); });
    qdd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 3.0 * U(rng); });
    dyn::configurationSpaceTabulate(model, configurationSpace, q);
  }
};

template <class F>
void add(const std::string& name, Robot* r, F body) {
  benchmark::RegisterBenchmark(("lagrangian/" + name + "/" + r->label).c_str(), [r, body](benchmark::State& st) {
    for (auto _ : st) {
      const Eigen::VectorXd& tau = body(*r);
      benchmark::DoNotOptimize(tau.data());
      benchmark::ClobberMemory();
    }
    st.counters["nv"] = r->model.nv;
  });
}

void registerAll(Robot* r) {
  add("RNEA", r, [](Robot& R) -> const Eigen::VectorXd& { return dyn::rnea(R.model, R.data, R.q, R.qd, R.qdd); });
  add("lagrange-3x3", r, [](Robot& R) -> const Eigen::VectorXd& {
    return dyn::recursiveLagrangian3x3InverseDynamics(R.model, R.lagrange3, R.q, R.qd, R.qdd);
  });
  add("lagrange-4x4", r, [](Robot& R) -> const Eigen::VectorXd& {
    return dyn::recursiveLagrangian4x4InverseDynamics(R.model, R.lagrange4, R.q, R.qd, R.qdd);
  });
  add("waters", r, [](Robot& R) -> const Eigen::VectorXd& {
    return dyn::watersInverseDynamics(R.model, R.waters, R.q, R.qd, R.qdd);
  });
  add("uicker-kahn", r, [](Robot& R) -> const Eigen::VectorXd& {
    return dyn::uickerKahnInverseDynamics(R.model, R.uickerKahn, R.q, R.qd, R.qdd);
  });
  // Horn & Raibert: the evaluation from tables (what the paper counts), the tabulation, and both
  add("configuration-space-evaluate", r, [](Robot& R) -> const Eigen::VectorXd& {
    return dyn::configurationSpaceEvaluate(R.model, R.configurationSpace, R.qd, R.qdd);
  });
  add("configuration-space-tabulate", r, [](Robot& R) -> const Eigen::VectorXd& {
    dyn::configurationSpaceTabulate(R.model, R.configurationSpace, R.q);
    return R.configurationSpace.G;
  });
  add("configuration-space", r, [](Robot& R) -> const Eigen::VectorXd& {
    return dyn::configurationSpaceInverseDynamics(R.model, R.configurationSpace, R.q, R.qd, R.qdd);
  });
}

}  // namespace

int main(int argc, char** argv) { return runOnFormulationRobots<Robot>(argc, argv, &registerAll); }
