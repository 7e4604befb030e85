// Forward dynamics divides by the inertia each joint moves: the articulated inertia D_i = S_i^T IA_i S_i
// of ABA (review eqs. 12-13), the pivots of H = L^T L (Featherstone 2005, cited in Part 2) and m^_i of
// DeNOC (Saha eq. 47). They are the same numbers (each is a pivot of H eliminated from the leaves) and
// are positive for every physical model. A zero pivot means that the joint moves nothing it can
// accelerate at this configuration (a link without mass on a prismatic joint, a massless subtree): H(q)
// is singular. A negative one means that inconsistent inertias make H(q) indefinite. Either way the
// accelerations would be NaN or meaningless, so the algorithms compare each pivot with zero (one
// comparison per joint, no allocation) and refuse right there, naming the joint and its link. ABA and
// DeNOC compare with a rounding floor instead (pivotFloor, pivotFloorFromTrace below): there a singular
// H has been seen to leave its zero pivot a few ulps above zero, and the NaN or a q̈ of 1e18 followed.
// A NaN pivot (from NaN inputs) passes: the inputs, not the joint, are at fault.
#pragma once
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "../model/model.hpp"

namespace dyn {

enum class PivotSource { Aba, Ltl, Denoc, Loops };

// Thrown where a pivot is not positive. body(): the body whose joint it names.
class ForwardDynamicsError : public std::runtime_error {
 public:
  ForwardDynamicsError(const std::string& message, int body) : std::runtime_error(message), body_(body) {}
  int body() const { return body_; }

 private:
  int body_;
};

// What the message needs from the model: names, the tree (to find the findings below the joint),
// the model check's findings, which it points at, and the bodies' spatial inertias (when all those
// below the joint are positive semi-definite, so is H(q): a negative pivot is then a zero one that
// rounding pushed below, a singular H, not an indefinite one). Out of line: the algorithms keep a
// compare and a call; the context is built on the refusal path only.
struct PivotContext {
  const std::vector<std::string>& jointNames;
  const std::vector<std::string>& bodyNames;
  const std::vector<int>& parent;
  const std::vector<Finding>& findings;
  std::vector<Mat6<double>> inertias;  // per body (0: unused)
};
[[noreturn]] void throwNonPositivePivot(const PivotContext& model, int body, int jointDof, int jointDofs, double pivot,
                                        PivotSource source);

// The plain value of a scalar (double, an operation-counting scalar, autodiff), for the message.
template <class S>
double pivotValue(const S& x) {
  if constexpr (requires { x.value(); })
    return pivotValue(x.value());
  else
    return static_cast<double>(x);
}

template <class S>
PivotContext pivotContext(const ModelTpl<S>& model) {
  PivotContext c{model.jointNames, model.bodyNames, model.parent, model.findings, {}};
  for (const Inertia<S>& I : model.I)
    c.inertias.push_back(I.toMatrix().unaryExpr([](const S& x) { return pivotValue(x); }));
  return c;
}

template <class S>
[[noreturn]] void refuseNonPositivePivot(const ModelTpl<S>& model, int body, const S& pivot, PivotSource source,
                                         int jointDof = 0) {
  throwNonPositivePivot(pivotContext(model), body, jointDof, model.joints[body].nv, pivotValue(pivot), source);
}

// Rounding: D = S^T IA S is formed from entries as large as IA's (in world coordinates m |p|^2 for
// a body p metres from the origin), so a pivot that should be 0 comes out a few ulps of those
// entries above or below zero (a free rod without inertia about its axis, 5 m out: 1e-16 and
// -2e-15 against entries of 50). A pivot at or below this floor is taken as zero.
// Computed on the plain values (pivotValue): a threshold, not part of the result (an autodiff scalar
// would carry derivatives of it, and mixing its constant, derivative-free S columns crashed).
template <class S>
S pivotFloor(const Mat6<S>& IA, const Motion<S>& s) {
  using std::abs;
  double big = 0, s2 = 0;
  for (int r = 0; r < 6; ++r)
    for (int c = r; c < 6; ++c) big = std::max(big, abs(pivotValue(IA(r, c))));
  for (int k = 0; k < 3; ++k) s2 += pivotValue(s.w[k]) * pivotValue(s.w[k]) + pivotValue(s.v[k]) * pivotValue(s.v[k]);
  return S(64 * std::numeric_limits<double>::epsilon() * big * s2);
}

// The same floor from IA's diagonal, for ABA's and DeNOC's 1-dof joints and free joints in link
// coordinates (one per joint and call, so 6 additions, not 21 comparisons): for a positive
// semi-definite IA no entry exceeds the largest diagonal one, which the trace bounds. Without it a
// zero pivot left a few ulps above zero (two coaxial joints with a massless link between) came out as
// q̈ ~ 1e18. This form is for a unit column of S (revolute, prismatic, free); the next for any column.
template <class S>
S pivotFloorFromTrace(const Mat6<S>& IA) {
  using std::abs;
  double trace = 0;
  for (int k = 0; k < 6; ++k) trace += pivotValue(IA(k, k));
  return S(64 * std::numeric_limits<double>::epsilon() * abs(trace));
}
template <class S>
S pivotFloorFromTrace(const Mat6<S>& IA, const Motion<S>& s) {
  double s2 = 0;
  for (int k = 0; k < 3; ++k) s2 += pivotValue(s.w[k]) * pivotValue(s.w[k]) + pivotValue(s.v[k]) * pivotValue(s.v[k]);
  return pivotFloorFromTrace(IA) * S(s2);
}

// The first pivot of the symmetric D = L diag(p) L^T (no pivoting) that is not above its floor (see
// pivotFloor: zero up to rounding, or negative), or -1 when D is positive definite (which holds
// exactly when every pivot is positive); *pivot receives it. For the nv x nv articulated inertia of a
// multi-dof joint; on the stack.
template <class S>
int firstNonPositivePivot(SmallMat<S> D, const SmallVec<S>& floor, S* pivot) {
  const int n = int(D.rows());
  for (int k = 0; k < n; ++k) {
    if (D(k, k) <= floor[k]) {
      *pivot = D(k, k);
      return k;
    }
    for (int r = k + 1; r < n; ++r)
      for (int c = k + 1; c <= r; ++c) D(r, c) -= D(r, k) * D(c, k) / D(k, k);  // Schur complement
  }
  return -1;
}

// The pivot to report: 0 when it is within its floor of zero (a singular H, said as such), else the
// value (a negative one beyond rounding: H indefinite, which blames the inertias).
template <class S>
S pivotUpToRounding(const S& pivot, const S& floor) {
  using std::abs;
  return abs(pivot) <= floor ? S(0) : pivot;
}

}  // namespace dyn
