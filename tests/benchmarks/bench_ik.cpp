// One inverse-kinematics solve per drag update: the target moved 1 cm from where the previous
// solve put the frame, solved from the previous pose (the GUI's gizmo loop). Targets: < 0.2 ms
// on the 7-DOF panda, < 1 ms on the 32-DOF humanoid with both feet pinned (also the floating
// humanoid, 38 DOF, whose pins really constrain the pelvis).
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "dynscope/dynscope.hpp"

namespace {

std::string robotPath(const char* file) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

void dragSolve(benchmark::State& state, const char* file, bool floating, const char* link, bool feetPinned) {
  const dyn::Model model = dyn::loadModel(robotPath(file), {.floatingBase = floating});
  dyn::IkSolver solver(model);
  const int frame = model.frameIndex(link ? link : model.defaultEndEffector.c_str());
  std::mt19937 rng(3);
  Eigen::VectorXd q = dyn::randomConfiguration(model, rng);
  if (floating) q.head<3>().setZero();
  if (feetPinned) {
    solver.pinAt(model.frameIndex("left_sole_link"), q);
    solver.pinAt(model.frameIndex("right_sole_link"), q);
  }
  dyn::IkTask task;
  task.frame = frame;
  const dyn::Transform<double> start = solver.framePose(frame, q);
  task.target = start;
  long step = 0, converged = 0;
  for (auto _ : state) {
    // back and forth along a 10 cm line so the drag stays in the workspace
    const double s = 0.01 * double((step / 10) % 2 == 0 ? step % 10 : 10 - step % 10);
    task.target.r = start.r + Eigen::Vector3d(s, 0.5 * s, -0.5 * s);
    ++step;
    solver.setTarget(task);
    const dyn::IkResult& r = solver.solve(q);
    q = r.q;
    converged += r.converged;
    benchmark::DoNotOptimize(q.data());
  }
  state.counters["converged_%"] = 100.0 * double(converged) / double(std::max(1L, step));
}

}  // namespace

BENCHMARK_CAPTURE(dragSolve, panda, "panda.urdf", false, nullptr, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(dragSolve, ur5, "ur5.urdf", false, nullptr, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(dragSolve, humanoid_feet_pinned, "humanoid.urdf", false, "left_hand_frame", true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(dragSolve, floating_humanoid_feet_pinned, "humanoid.urdf", true, "left_hand_frame", true)
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
