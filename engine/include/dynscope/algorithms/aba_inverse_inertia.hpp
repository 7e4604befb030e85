// M^-1 x in O(N) from the articulated-body factorization that aba() left in data (Featherstone,
// Rigid Body Dynamics Algorithms, 2008, §7.3: the ABA is a solver for H qdd = tau - C). The
// articulated inertias, and with them U_i = IA_i S_i and D_i = S_i^T U_i, depend on q only; so for a
// second right-hand side x the passes need only the bias forces and accelerations it causes, with
// no velocity and no gravity. This is how the closed-loop method 2 (review eq. 21) forms M^-1 L^T
// "using the tree's O(n) algorithms": one call per independent constraint row.
#pragma once
#include "aba.hpp"

namespace dyn {

// out = M(q)^-1 x, where q is the configuration of the last aba() on data. p and a: per-body
// workspaces (N + 1 entries). out: any writable vector expression (e.g. a column of a matrix); x and
// out may not alias.
template <class S, class X, class Out>
void abaInverseInertia(const ModelTpl<S>& model, const DataTpl<S>& data, const Eigen::MatrixBase<X>& x, Out&& out,
                       std::vector<Force<S>>& p, std::vector<Motion<S>>& a) {
  for (int i = 0; i <= model.N; ++i) p[i].setZero();
  for (int i = model.N; i >= 1; --i) {  // inward: u_i = x_i - S_i^T p_i; p_lambda += p_i + U_i D_i^-1 u_i
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v, lambda = model.parent[i];
    if (J.nv == 1) {
      const S u = out[iv] = S(x[iv]) - data.oS[iv].dot(p[i]);
      if (lambda > 0) p[lambda] += p[i] + data.U[iv] * (u * data.Dinv[i](0, 0));
    } else {
      SmallVec<S> u(J.nv);
      for (int k = 0; k < J.nv; ++k) u[k] = out[iv + k] = S(x[iv + k]) - data.oS[iv + k].dot(p[i]);
      if (lambda == 0) continue;
      const SmallVec<S> Du = data.Dinv[i] * u;
      Force<S> f = p[i];
      for (int k = 0; k < J.nv; ++k) f += data.U[iv + k] * Du[k];
      p[lambda] += f;
    }
  }
  a[0].setZero();
  for (int i = 1; i <= model.N; ++i) {  // outward: y_i = D_i^-1 (u_i - U_i^T a_lambda); a_i = a_lambda + S_i y_i
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v;
    const Motion<S>& ap = a[model.parent[i]];
    if (J.nv == 1) {
      out[iv] = (out[iv] - data.U[iv].dot(ap)) * data.Dinv[i](0, 0);
      a[i] = ap + data.oS[iv] * S(out[iv]);
    } else {
      SmallVec<S> r(J.nv);
      for (int k = 0; k < J.nv; ++k) r[k] = out[iv + k] - data.U[iv + k].dot(ap);
      const SmallVec<S> y = data.Dinv[i] * r;
      a[i] = ap;
      for (int k = 0; k < J.nv; ++k) {
        out[iv + k] = y[k];
        a[i] += data.oS[iv + k] * y[k];
      }
    }
  }
}

}  // namespace dyn
