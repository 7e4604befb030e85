// Constraint stabilization by projection (review §3.4, footnote 3: phi'' = 0 alone drifts): after
// an integration step, the configuration is brought back onto phi(q) = 0 and the velocity onto
// phi' qd = 0.
//   positions:  Newton steps q <- q (+) (-dq), dq the minimum-norm solution of L dq = phi_L from
//               the rank-revealing QR (the smallest change that closes the loops to first order);
//   velocities: qd <- qd - M^-1 L^T (L M^-1 L^T)^-1 L qd, the mass-weighted projection: the change
//               an impulse along the constraint directions makes, which never adds kinetic energy.
// Both allocate nothing (LoopData's workspaces; dq and qOut: nv and nq vectors of the caller).
#pragma once
#include "../algorithms/configuration.hpp"
#include "loop_method2_multipliers.hpp"

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
  crba(model, data, q);                 // M = G^T G
  data.L = data.M;
  factorLTL(model, data.L);
  S before = S(0);
  for (int attempt = 0;; ++attempt) {
    const bool fresh = attempt > 0 || !ld.rowsKnown;
    const int r = fresh ? selectLoopRows(ld, rankTol) : cachedLoopRows(ld);
    ld.lambda.head(r).noalias() = ld.L.topRows(r) * qd;  // L qd
    before = maxAbs(ld.lambda.head(r));
    if (r == 0 || before == S(0)) return before;
    if (!detail::factorLoopMatrix(model, data, ld, r)) {  // L M^-1 L^T
      if (fresh) return before;                           // singular: leave qd
      continue;
    }
    choleskySolveInPlace<S>(ld.A, r, ld.lambda);
    ld.t1.noalias() = ld.Y.leftCols(r) * ld.lambda.head(r);
    detail::solveLTLForward(model, data.L, ld.t1);  // M^-1 L^T (L M^-1 L^T)^-1 L qd
    qd -= ld.t1;
    ld.t3.noalias() = ld.Jc * qd;  // every row of phi' qd = 0 now?
    if (fresh || maxAbs(ld.t3) <= S(1e-9) * (before + S(1e-12))) return before;
  }
}

}  // namespace dyn
