// Vectors of Eigen's AutoDiffScalar<VectorXd> for the autodiff suites: constants and independent variables in,
// values and the Jacobian out.
#pragma once
#include <Eigen/Core>
#include <cmath>
#include <unsupported/Eigen/AutoDiff>  // (needs Eigen/Core first)

#include "dynscope/spatial/scalar.hpp"

namespace dyn::testing {

using AD = Eigen::AutoDiffScalar<Eigen::VectorXd>;

// Constants: a zero derivative vector of size n.
inline VecX<AD> adConst(const Eigen::VectorXd& x, int n) {
  VecX<AD> y(x.size());
  for (int k = 0; k < x.size(); ++k) y[k] = AD(x[k], Eigen::VectorXd::Zero(n));
  return y;
}
// Independent variables: entry k has derivative e_k.
inline VecX<AD> adVar(const Eigen::VectorXd& x) {
  VecX<AD> y(x.size());
  for (int k = 0; k < x.size(); ++k) y[k] = AD(x[k], int(x.size()), k);
  return y;
}
// Rows: outputs; columns: derivatives (an empty derivative vector is a constant; any other size is an error: NaN).
inline Eigen::MatrixXd jacobianOf(const VecX<AD>& y, int n) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(y.size(), n);
  for (int i = 0; i < y.size(); ++i)
    if (y[i].derivatives().size() == n)
      J.row(i) = y[i].derivatives().transpose();
    else if (y[i].derivatives().size() != 0)
      return Eigen::MatrixXd::Constant(y.size(), n, NAN);
  return J;
}
inline Eigen::VectorXd values(const VecX<AD>& y) {
  Eigen::VectorXd v(y.size());
  for (int i = 0; i < y.size(); ++i) v[i] = y[i].value();
  return v;
}

}  // namespace dyn::testing
