// Per-call cost of Dynscope's algorithms on the shipped robots (engine flags, -march=native).
// Names: dynscope/<ALGORITHM>/<robot>. States are random but fixed (seeded), prepared outside
// the timed loop; every result goes through benchmark::DoNotOptimize.
//
//   bench_dynamics --benchmark_min_time=0.2 [--benchmark_filter=RNEA]
#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dynscope/algorithms/external_wrench.hpp"
#include "dynscope/dynscope.hpp"

namespace {

struct Robot {
  std::string label;
  dyn::Model model;
  dyn::Data data;
  Eigen::VectorXd q, qd, qdd, tau;
  int frame = 0;  // the default end effector's frame (frameJacobian)
  Eigen::MatrixXd M;                 // a CRBA result, for the factor-only benchmarks
  Eigen::LLT<Eigen::MatrixXd> llt;   // preallocated dense Cholesky
  // The classical formulations' workspaces (revolute/prismatic models only).
  std::unique_ptr<dyn::DenocWorkspace> denoc;
  std::unique_ptr<dyn::NewtonEuler3Workspace> ne3;
  std::vector<dyn::ExternalWrench> wrenches;  // one on the end effector's body
  std::vector<dyn::Force<double>> fext;
  Eigen::VectorXd tauE;

  Robot(std::string l, const std::string& path, bool floating)
      : label(std::move(l)), model(dyn::loadModel(path, dyn::BuildOptions{.floatingBase = floating})), data(model),
        llt(model.nv) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> U(-1, 1);
    q = dyn::randomConfiguration(model, rng);
    qd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 2.0 * U(rng); });
    qdd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 3.0 * U(rng); });
    tau = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 10.0 * U(rng); });
    frame = model.frameIndex(model.defaultEndEffector);
    if (frame < 0) frame = int(model.frames.size()) - 1;
    M = dyn::crba(model, data, q);
    wrenches = {{model.frames[size_t(frame)].body, Eigen::Vector3d(0.02, 0.01, 0.05), Eigen::Vector3d(5, -3, -20),
                 Eigen::Vector3d(0.1, 0.2, 0.0)}};
    fext.resize(size_t(model.N + 1));
    tauE.setZero(model.nv);
    dyn::forwardKinematics(model, data, q);  // wrenchJointForces' benchmark reads these poses
    bool classical = true;
    for (int i = 1; i <= model.N; ++i)
      classical &= model.joints[i].type == dyn::JointType::Revolute || model.joints[i].type == dyn::JointType::Prismatic;
    if (classical) {
      denoc = std::make_unique<dyn::DenocWorkspace>(model);
      ne3 = std::make_unique<dyn::NewtonEuler3Workspace>(model);
    }
  }
};

std::vector<std::unique_ptr<Robot>> robots;

template <class F> void add(const std::string& algorithm, Robot* r, F body) {
  benchmark::RegisterBenchmark(("dynscope/" + algorithm + "/" + r->label).c_str(),
                               [r, body](benchmark::State& st) {
                                 for (auto _ : st) body(*r);
                                 st.counters["nv"] = r->model.nv;
                               });
}

void registerAll(Robot* r) {
  add("FK", r, [](Robot& R) {
    dyn::forwardKinematics(R.model, R.data, R.q);
    benchmark::DoNotOptimize(R.data.X0.back());
    benchmark::ClobberMemory();
  });
  add("FK+vel", r, [](Robot& R) {
    dyn::forwardKinematics(R.model, R.data, R.q, R.qd);
    benchmark::DoNotOptimize(R.data.v.back());
    benchmark::ClobberMemory();
  });
  add("RNEA", r, [](Robot& R) {
    const Eigen::VectorXd& tau = dyn::rnea(R.model, R.data, R.q, R.qd, R.qdd);
    benchmark::DoNotOptimize(tau.data());
    benchmark::ClobberMemory();
  });
  // External wrenches (issue 25): one push on the end effector's body at a point of it; the forces in
  // link coordinates need the bodies' world poses (FK), then RNEA takes them.
  add("RNEA+wrench", r, [](Robot& R) {
    dyn::forwardKinematics(R.model, R.data, R.q);
    dyn::bodyForces(R.model, R.data, R.wrenches, R.fext);
    const Eigen::VectorXd& tau = dyn::rnea(R.model, R.data, R.q, R.qd, R.qdd, &R.fext);
    benchmark::DoNotOptimize(tau.data());
    benchmark::ClobberMemory();
  });
  add("wrenchJointForces", r, [](Robot& R) {
    dyn::wrenchJointForces(R.model, R.data, R.wrenches, R.tauE);
    benchmark::DoNotOptimize(R.tauE.data());
    benchmark::ClobberMemory();
  });
  add("CRBA", r, [](Robot& R) {
    const Eigen::MatrixXd& M = dyn::crba(R.model, R.data, R.q);
    benchmark::DoNotOptimize(M.data());
    benchmark::ClobberMemory();
  });
  add("ABA", r, [](Robot& R) {
    const Eigen::VectorXd& qdd = dyn::aba(R.model, R.data, R.q, R.qd, R.tau);
    benchmark::DoNotOptimize(qdd.data());
    benchmark::ClobberMemory();
  });
  // Forward dynamics by CRBA: bias by RNEA, H by CRBA, then the sparse L^T L (ours) ...
  add("FD_CRBA+LTL", r, [](Robot& R) {
    const Eigen::VectorXd& qdd = dyn::forwardDynamicsCrba(R.model, R.data, R.q, R.qd, R.tau);
    benchmark::DoNotOptimize(qdd.data());
    benchmark::ClobberMemory();
  });
  // ... or a dense Eigen LLT (preallocated) on the same H.
  add("FD_CRBA+EigenLLT", r, [](Robot& R) {
    const Eigen::VectorXd& c = dyn::nonLinearEffects(R.model, R.data, R.q, R.qd);
    R.data.qdd = R.tau - c;
    const Eigen::MatrixXd& M = dyn::crba(R.model, R.data, R.q);
    R.llt.compute(M);
    R.llt.solveInPlace(R.data.qdd);
    benchmark::DoNotOptimize(R.data.qdd.data());
    benchmark::ClobberMemory();
  });
  // The factorisations alone (input: a fixed H).
  add("factorLTL", r, [](Robot& R) {
    R.data.L = R.M;
    dyn::factorLTL(R.model, R.data.L);
    benchmark::DoNotOptimize(R.data.L.data());
    benchmark::ClobberMemory();
  });
  add("EigenLLT", r, [](Robot& R) {
    R.llt.compute(R.M);
    benchmark::DoNotOptimize(R.llt.matrixLLT().data());
    benchmark::ClobberMemory();
  });
  // The classical formulations (dynscope/formulations): Saha's DeNOC and Luh-Walker-Paul's Newton-Euler.
  if (r->denoc) {
    add("DeNOC_ID", r, [](Robot& R) {
      const Eigen::VectorXd& tau = dyn::denocInverseDynamics(R.model, *R.denoc, R.q, R.qd, R.qdd);
      benchmark::DoNotOptimize(tau.data());
      benchmark::ClobberMemory();
    });
    add("NE3_ID", r, [](Robot& R) {
      const Eigen::VectorXd& tau = dyn::newtonEuler3(R.model, *R.ne3, R.q, R.qd, R.qdd);
      benchmark::DoNotOptimize(tau.data());
      benchmark::ClobberMemory();
    });
    add("DeNOC_GIM", r, [](Robot& R) {
      const Eigen::MatrixXd& I = dyn::denocGeneralizedInertia(R.model, *R.denoc, R.q);
      benchmark::DoNotOptimize(I.data());
      benchmark::ClobberMemory();
    });
    add("DeNOC_C", r, [](Robot& R) {
      const Eigen::MatrixXd& C = dyn::denocConvectiveInertia(R.model, *R.denoc, R.q, R.qd);
      benchmark::DoNotOptimize(C.data());
      benchmark::ClobberMemory();
    });
    add("DeNOC_FD", r, [](Robot& R) {
      const Eigen::VectorXd& qdd = dyn::denocForwardDynamics(R.model, *R.denoc, R.q, R.qd, R.tau);
      benchmark::DoNotOptimize(qdd.data());
      benchmark::ClobberMemory();
    });
  }
  // FK + Jacobian of the default end-effector frame (LocalWorldAligned: [w; v of the frame origin]).
  add("frameJacobian", r, [](Robot& R) {
    const auto& J = dyn::frameJacobian(R.model, R.data, R.q, R.frame, dyn::ReferenceFrame::LocalWorldAligned);
    benchmark::DoNotOptimize(J.data());
    benchmark::ClobberMemory();
  });
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = DYNSCOPE_ROBOTS_DIR;
  const struct { const char* label; const char* file; bool floating; } cases[] = {
      {"ur5", "ur5.urdf", false},
      {"stanford_arm", "stanford_arm.dh", false},
      {"panda", "panda.urdf", false},
      {"humanoid", "humanoid.urdf", false},
      {"humanoid_floating", "humanoid.urdf", true},
      {"quadruped_floating", "quadruped.urdf", true},
  };
  for (const auto& c : cases) {
    const std::string path = dir + "/" + c.file;
    if (!std::filesystem::exists(path)) {
      fprintf(stderr, "skipping %s: not found\n", path.c_str());
      continue;
    }
    robots.push_back(std::make_unique<Robot>(c.label, path, c.floating));
    fprintf(stderr, "%s: %d bodies, nq %d, nv %d\n", c.label, robots.back()->model.N, robots.back()->model.nq,
            robots.back()->model.nv);
  }
  for (auto& r : robots) registerAll(r.get());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
