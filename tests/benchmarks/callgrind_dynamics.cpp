// Instruction counts of the plain algorithms per call (docs/benchmarks.md, "The trace hook: a
// same-machine A/B"): run under valgrind --tool=callgrind, repeatable on a loaded machine where
// timings are not. Each algorithm runs `calls` times inside its own non-inlined function (run_rnea,
// run_crba, run_aba, run_crba_ltl, and the registry's formulations where the engine has them:
// run_denoc_id, ...), so callgrind_annotate's inclusive count / calls is the cost of one call. Built by
// scripts/callgrind-ab against any revision of the engine: it uses only the plain signatures, and the
// formulations only if their headers exist in that revision and DYN_NO_FORMULATIONS is not defined
// (compare RNEA, CRBA and ABA across revisions without them: more code in the unit changes GCC's
// inlining, docs/benchmarks.md).
//   callgrind_dynamics ROBOT CALLS
#include <cstdio>
#include <cstdlib>
#include <random>

#include "dynscope/dynscope.hpp"

#if __has_include("dynscope/formulations/waters_lagrangian.hpp") && !defined(DYN_NO_FORMULATIONS)
#define DYN_HAS_FORMULATIONS 1
#include "dynscope/formulations/configuration_space_method.hpp"
#include "dynscope/formulations/denoc_forward_dynamics.hpp"
#include "dynscope/formulations/denoc_generalized_inertia.hpp"
#include "dynscope/formulations/newton_euler_3vector.hpp"
#include "dynscope/formulations/recursive_lagrangian_3x3.hpp"
#include "dynscope/formulations/recursive_lagrangian_4x4.hpp"
#include "dynscope/formulations/uicker_kahn_lagrangian.hpp"
#include "dynscope/formulations/waters_lagrangian.hpp"
#endif

using Eigen::VectorXd;

namespace {
struct State {
  VectorXd q, qd, qdd, tau;
};
// Keeps the result alive for the optimiser without costing an instruction.
template <class T>
inline void keep(const T& x) {
  asm volatile("" : : "r"(x.data()) : "memory");
}
}  // namespace

// One counted function per algorithm: `calls` calls of it, nothing else.
#define DYN_COUNTED(name, Workspace, call)                                                                    \
  extern "C" __attribute__((noinline)) void name(const dyn::Model& m, Workspace& ws, const State& s, int n) { \
    for (int k = 0; k < n; ++k) keep(call);                                                                   \
  }

DYN_COUNTED(run_rnea, dyn::Data, dyn::rnea(m, ws, s.q, s.qd, s.qdd))
DYN_COUNTED(run_crba, dyn::Data, dyn::crba(m, ws, s.q))
DYN_COUNTED(run_aba, dyn::Data, dyn::aba(m, ws, s.q, s.qd, s.tau))
DYN_COUNTED(run_crba_ltl, dyn::Data, dyn::forwardDynamicsCrba(m, ws, s.q, s.qd, s.tau))
#ifdef DYN_HAS_FORMULATIONS
DYN_COUNTED(run_denoc_id, dyn::DenocWorkspace, dyn::denocInverseDynamics(m, ws, s.q, s.qd, s.qdd))
DYN_COUNTED(run_denoc_gim, dyn::DenocWorkspace, dyn::denocGeneralizedInertia(m, ws, s.q))
DYN_COUNTED(run_denoc_fd, dyn::DenocWorkspace, dyn::denocForwardDynamics(m, ws, s.q, s.qd, s.tau))
DYN_COUNTED(run_newton_euler_3, dyn::NewtonEuler3Workspace, dyn::newtonEuler3(m, ws, s.q, s.qd, s.qdd))
DYN_COUNTED(run_lagrange_4x4, dyn::RecursiveLagrangian4x4Workspace<double>,
            dyn::recursiveLagrangian4x4InverseDynamics(m, ws, s.q, s.qd, s.qdd))
DYN_COUNTED(run_lagrange_3x3, dyn::RecursiveLagrangian3x3Workspace<double>,
            dyn::recursiveLagrangian3x3InverseDynamics(m, ws, s.q, s.qd, s.qdd))
DYN_COUNTED(run_waters, dyn::WatersWorkspace<double>, dyn::watersInverseDynamics(m, ws, s.q, s.qd, s.qdd))
DYN_COUNTED(run_uicker_kahn, dyn::UickerKahnWorkspace<double>, dyn::uickerKahnInverseDynamics(m, ws, s.q, s.qd, s.qdd))
DYN_COUNTED(run_configuration_space, dyn::ConfigurationSpaceWorkspace<double>,
            dyn::configurationSpaceEvaluate(m, ws, s.qd, s.qdd))
#endif

// H and L reserved beforehand where Data allocates them lazily (the first call would), then counted.
template <class Workspace, class Run>
void measure(const dyn::Model& m, const State& s, int calls, Run run) {
  Workspace ws(m);
  if constexpr (requires { ws.reserveFactor(); }) ws.reserveFactor();
  run(m, ws, s, calls);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s ROBOT CALLS\n", argv[0]);
    return 2;
  }
  const dyn::Model model = dyn::loadModel(argv[1]);
  const int calls = std::atoi(argv[2]);
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> U(-1, 1);
  State s;
  s.q = VectorXd::NullaryExpr(model.nq, [&] { return U(rng); });
  s.qd = VectorXd::NullaryExpr(model.nv, [&] { return U(rng); });
  s.qdd = VectorXd::NullaryExpr(model.nv, [&] { return U(rng); });
  s.tau = VectorXd::NullaryExpr(model.nv, [&] { return 10 * U(rng); });
  measure<dyn::Data>(model, s, calls, run_rnea);
  measure<dyn::Data>(model, s, calls, run_crba);
  measure<dyn::Data>(model, s, calls, run_aba);
  measure<dyn::Data>(model, s, calls, run_crba_ltl);
#ifdef DYN_HAS_FORMULATIONS
  measure<dyn::DenocWorkspace>(model, s, calls, run_denoc_id);
  measure<dyn::DenocWorkspace>(model, s, calls, run_denoc_gim);
  measure<dyn::DenocWorkspace>(model, s, calls, run_denoc_fd);
  measure<dyn::NewtonEuler3Workspace>(model, s, calls, run_newton_euler_3);
  measure<dyn::RecursiveLagrangian4x4Workspace<double>>(model, s, calls, run_lagrange_4x4);
  measure<dyn::RecursiveLagrangian3x3Workspace<double>>(model, s, calls, run_lagrange_3x3);
  measure<dyn::WatersWorkspace<double>>(model, s, calls, run_waters);
  measure<dyn::UickerKahnWorkspace<double>>(model, s, calls, run_uicker_kahn);
  {
    dyn::ConfigurationSpaceWorkspace<double> ws(model);
    dyn::configurationSpaceTabulate(model, ws, s.q);  // the tables: off-line, not counted
    run_configuration_space(model, ws, s, calls);
  }
#endif
  return 0;
}
