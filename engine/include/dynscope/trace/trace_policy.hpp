// The trace hook of the algorithms (lecture mode, issue 15): every algorithm takes a trace policy
// as its last argument and reports each elementary step to it, one body (or one dof) of one pass:
//   trace.begin(kind, inputs...)    once, at the start, with the algorithm's own arguments
//   trace.local("f", j, value)      a value that lives only in a local variable of the step
//   trace.ahead(i)                  work for body i done ahead of its step, in an earlier loop
//                                   (jcalc and v_i before RNEA's outward pass): the operation
//                                   count books it to the next step of body i, in the paper's order
//   trace.step(kind, i)             after the step for body (or dof) i is complete
// The policy reads everything else it wants to show from the Model and Data at that moment.
//
// The default policy, NoTrace, has empty inline members: a plain call compiles to the same code
// as an algorithm without the hook (tests/benchmarks/bench_dynamics; docs/benchmarks.md) and
// stays allocation-free (tests/engine/test_no_allocation.cpp). Recording policies (which may
// allocate) live in trace/trace_recorder.hpp; a new formulation adds its StepKinds here, calls
// the hooks, and registers a capture for each kind in engine/src/trace_capture_*.cpp.
#pragma once
#include <cstdint>

#include "../spatial/scalar.hpp"

namespace dyn {

// Which algorithm begins (trace.begin) and which step ends (trace.step).
enum class TraceAlgorithm : std::uint8_t { Rnea, Crba, Aba, ForwardDynamicsCrba, FactorLTL, SolveLTL };

enum class StepKind : std::uint8_t {
  RneaOutward,        // Featherstone Part 2, Fig. 5 lines 3-9 (eqs. 9-11): jcalc, v_i, a_i, f_i
  RneaInward,         // Fig. 5 lines 10-15 (eqs. 12-13): tau_i, f_lambda(i) += X* f_i
  CrbaComposite,      // Fig. 7 line 7 (eq. 46): IC_lambda(i) += X* IC_i X
  CrbaColumn,         // Fig. 7 lines 9-17 (eqs. 47-48): f = IC_i S_i, the walk up the tree, H_ij
  AbaVelocities,      // ABA pass 1 (world coordinates; review eqs. 3-4, Part 2 eqs. 54-55)
  AbaInertias,        // ABA pass 2 (Fig. 9; eqs. 57, 62-65; review eqs. 12-13)
  AbaAccelerations,   // ABA pass 3 (eqs. 66-68; review eq. 14)
  FdRightHandSide,    // CRBA forward dynamics: tau - C (Part 2, eqs. 36-37), once
  LtlFactor,          // H = L^T L, one dof k (tips first)
  LtlSolveTranspose,  // L^T y = b, one dof (tips first)
  LtlSolve,           // L x = y, one dof (root first)
};

// Steps of one dof (their index is a dof, not a body).
constexpr bool isPerDofStep(StepKind k) {
  return k == StepKind::LtlFactor || k == StepKind::LtlSolveTranspose || k == StepKind::LtlSolve;
}

// The do-nothing policy: the default of every algorithm.
struct NoTrace {
  static constexpr bool enabled = false;
  template <class... Args>
  DYN_INLINE constexpr void begin(TraceAlgorithm, const Args&...) const noexcept {}
  template <class T>
  DYN_INLINE constexpr void local(const char*, int, const T&) const noexcept {}
  DYN_INLINE constexpr void ahead(int) const noexcept {}
  DYN_INLINE constexpr void step(StepKind, int) const noexcept {}
};

}  // namespace dyn
