// Constraint stabilization by projection (review §3.4, footnote 3: phi'' = 0 alone drifts): after
// an integration step, the configuration is brought back onto phi(q) = 0 and the velocity onto
// phi' qd = 0.
//   positions:  Newton steps q <- q (+) (-dq), dq the minimum-norm solution of L dq = phi_L from
//               the rank-revealing QR (the smallest change that closes the loops to first order);
//   velocities: qd <- qd - M^-1 L^T (L M^-1 L^T)^-1 L qd, the mass-weighted projection: the change
//               an impulse along the constraint directions makes, which never adds kinetic energy.
// Both allocate nothing (LoopData's workspaces; dq and qOut: nv and nq vectors of the caller).
#pragma once
#include "../algorithms/aba_inverse_inertia.hpp"
#include "../algorithms/configuration.hpp"
#include "loop_constraints.hpp"

namespace dyn {

// Projects q in place until max |phi| <= tolerance; returns the Newton steps taken, or -1 when
// maxIterations did not reach the tolerance (q is then the last iterate). qTmp: nq workspace.
template <class S, class Qv, class Dq>
int projectPositions(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld, Qv& q, Qv& qTmp, Dq& dq,
                     const S& tolerance, int maxIterations, const S& rankTol = S(1e-10)) {
  for (int it = 0;; ++it) {
    loopConstraints(model, data, ld, q);  // phi, phi'
    if (maxAbs(ld.phi) <= tolerance) return it;
    if (it == maxIterations) return -1;
    selectLoopRows(ld, rankTol);
    ld.qr.solveTransposedMinNorm(ld.phi, dq);  // L dq = phi_L, minimum norm
    dq = -dq;
    integrate(model, q, dq, S(1), qTmp);
    q.swap(qTmp);
  }
}

// Projects qd onto phi'(q) qd = 0 in the metric of M(q); returns max |phi' qd| before.
template <class S, class Qv, class Vv>
S projectVelocities(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld, const Qv& q, Vv& qd,
                    const S& rankTol = S(1e-10)) {
  loopConstraints(model, data, ld, q);  // phi'
  const int r = selectLoopRows(ld, rankTol), n = model.nv;
  ld.t1.setZero();
  aba(model, data, q, ld.t1, ld.t1);  // the articulated-body factorization of M(q)
  for (int k = 0; k < r; ++k) abaInverseInertia(model, data, ld.L.row(k).transpose(), ld.Y.col(k), ld.pInv, ld.aInv);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j <= i; ++j) ld.A(i, j) = ld.L.row(i).dot(ld.Y.col(j));
  S before = S(0);
  for (int i = 0; i < r; ++i) {
    using std::abs;
    ld.lambda[i] = ld.L.row(i).dot(qd);
    if (abs(ld.lambda[i]) > before) before = abs(ld.lambda[i]);
  }
  if (r == 0 || before == S(0)) return before;
  if (!choleskyInPlace(ld.A, r, S(1e-14))) return before;  // singular: leave qd
  choleskySolveInPlace<S>(ld.A, r, ld.lambda);
  for (int k = 0; k < r; ++k) qd -= ld.Y.col(k) * ld.lambda[k];
  (void)n;
  return before;
}

}  // namespace dyn
