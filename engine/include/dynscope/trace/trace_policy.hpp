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
enum class TraceAlgorithm : std::uint8_t {
  Rnea,
  Crba,
  Aba,
  ForwardDynamicsCrba,
  FactorLTL,
  SolveLTL,
  DenocId,           // Saha: DeNOC inverse dynamics (also the first part of DeNOC forward dynamics)
  DenocGim,          // Saha: the generalized inertia matrix
  DenocFd,           // Saha: forward dynamics (section 5.2)
  DenocElimination,  // Saha: its reverse Gaussian elimination starts (M^_i = M_i, eta_i = 0)
  NewtonEuler3,      // Luh, Walker and Paul as Hollerbach presents it
  RecursiveLagrangian4x4,
  RecursiveLagrangian3x3,
  Waters,
  UickerKahn,
  ConfigurationSpace,
};

enum class StepKind : std::uint8_t {
  RneaOutward,        // Featherstone Part 2, Fig. 5 lines 3-9 (eqs. 9-11): jcalc, v_i, a_i, f_i
  RneaInward,         // Fig. 5 lines 10-15 (eqs. 12-13): tau_i, f_lambda(i) += X* f_i
  CrbaComposite,      // Fig. 7 line 7 (eq. 46): IC_lambda(i) += X* IC_i X
  CrbaColumn,         // Fig. 7 lines 9-17 (eqs. 47-48): f = IC_i S_i, the walk up the tree, H_ij
  AbaVelocities,      // ABA pass 1 (link coordinates; Part 2, Fig. 9, eqs. 54-55)
  AbaInertias,        // ABA pass 2 (Fig. 9; eqs. 57, 62-65)
  AbaAccelerations,   // ABA pass 3 (eqs. 66-68)
  FdRightHandSide,    // CRBA forward dynamics: tau - C (Part 2, eqs. 36-37), once
  LtlFactor,          // H = L^T L, one dof k (tips first)
  LtlSolveTranspose,  // L^T y = b, one dof (tips first)
  LtlSolve,           // L x = y, one dof (root first)
  // Saha's DeNOC
  DenocTwist,      // section 5.1 forward recursion: t_i (eq. 12), t'_i, the link's wrench w_i (eq. 7)
  DenocWrench,     // section 5.1 backward recursion: tau_i = p_i^T w~_i, w~_lambda(i) += B^T w~_i (eq. 30)
  DenocComposite,  // eq. 23b: M~_lambda(i) += B^T M~_i B
  DenocGimColumn,  // eq. 24: I_ij = p_i^T (B_ij^T M~_i p_i) walking up the tree
  DenocFdPhi,      // section 5.2 input: phi = tau - C th' - gravity, once
  DenocFdStep1,    // eqs. 47-48, 50 (UDU^T) and 34-35: tau^_i, eta_i (last body first)
  DenocFdStep2,    // taubar_i = tau^_i / m^_i, one dof
  DenocFdStep3,    // eqs. 36-37: th''_i, mu_i (first body first)
  // Hollerbach 1980
  NeForward,            // Newton-Euler forward: w_i, w'_i, p''_i, F_i, N_i (link coordinates)
  NeBackward,           // Newton-Euler backward: tau_i, f_i and n_i passed to the parent
  Lagrange4Forward,     // eqs. 8-10: W_i, W'_i, W''_i; the own terms of D_i (12) and c_i (13)
  Lagrange4Backward,    // eq. 14: F_i; D_lambda(i) += A_i D_i, c_lambda(i) += A_i c_i
  Lagrange3Forward,     // eqs. 8-10 and 16 (3x3): W_i, W'_i, W''_i, p''_i; own terms of D_i, e_i, c_i
  Lagrange3Backward,    // eqs. 17-18, B3-B5: F_i; D, e, c folded into the parent
  WatersRecurrence,     // eqs. 8-10 for body j, and dW_j/dq_i for the joints i above it
  WatersSum,            // eq. 6: body j's terms of F_i for every joint i on its path
  UkPoses,              // eq. 3: W_j and ^kW_j
  UkFirstDerivatives,   // eq. 5, first line: U_jk = dW_j/dq_k
  UkSecondFactors,      // eq. 5: W_lambda(l) d2A_l/dq_l2 and dW_lambda(l)/dq_k dA_l/dq_l
  UkSecondDerivatives,  // eq. 5, second and third lines: U_jkl
  UkSum,                // eq. 4: body j's terms of F_i for every joint i on its path
  CsTabulate,           // Horn & Raibert: the tables G, J, C at q (off-line), once
  CsVelocityProducts,   // q'_j q'_k, once
  CsRow,                // F_i = G_i + sum J_ij q''_j + sum sum C_ijk q'_j q'_k, one dof
};

// Steps of one dof (their index is a dof, not a body).
constexpr bool isPerDofStep(StepKind k) {
  return k == StepKind::LtlFactor || k == StepKind::LtlSolveTranspose || k == StepKind::LtlSolve ||
         k == StepKind::DenocFdStep2 || k == StepKind::CsRow;
}
// Steps done once for all bodies (their index is 0).
constexpr bool isWholeStep(StepKind k) {
  return k == StepKind::FdRightHandSide || k == StepKind::DenocFdPhi || k == StepKind::CsTabulate ||
         k == StepKind::CsVelocityProducts;
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
