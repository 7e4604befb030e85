#include "dynscope/trajectory/cubic_spline.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace dyn {
namespace {

// Thomas algorithm for a tridiagonal system with one right-hand side per channel:
// sub[i] x_{i-1} + diag[i] x_i + sup[i] x_{i+1} = rhs.col(i). rhs is overwritten by x.
void solveTridiagonal(Eigen::VectorXd sub, Eigen::VectorXd diag, Eigen::VectorXd sup, Eigen::MatrixXd& rhs) {
  const int n = int(diag.size());
  for (int i = 1; i < n; ++i) {
    if (diag[i - 1] == 0) throw std::invalid_argument("cubic spline: singular system (degenerate knot spacing)");
    const double w = sub[i] / diag[i - 1];
    diag[i] -= w * sup[i - 1];
    rhs.col(i) -= w * rhs.col(i - 1);
  }
  if (diag[n - 1] == 0) throw std::invalid_argument("cubic spline: singular system (degenerate knot spacing)");
  rhs.col(n - 1) /= diag[n - 1];
  for (int i = n - 2; i >= 0; --i) rhs.col(i) = (rhs.col(i) - sup[i] * rhs.col(i + 1)) / diag[i];
}

}  // namespace

CubicSpline::CubicSpline(const Eigen::VectorXd& t, const Eigen::MatrixXd& y, SplineEnds ends) : t_(t), y_(y) {
  const int n = int(t.size());
  if (n < 2) throw std::invalid_argument("cubic spline: needs at least 2 knots, got " + std::to_string(n));
  if (y.cols() != n)
    throw std::invalid_argument("cubic spline: " + std::to_string(y.cols()) + " sample columns for " +
                                std::to_string(n) + " knots");
  for (int k = 1; k < n; ++k)
    if (!(t[k] > t[k - 1]))
      throw std::invalid_argument("cubic spline: knot " + std::to_string(k + 1) + " is not after knot " +
                                  std::to_string(k));
  const int c = int(y.rows());
  M_ = Eigen::MatrixXd::Zero(c, n);
  Eigen::VectorXd h(n - 1);
  for (int k = 0; k + 1 < n; ++k) h[k] = t[k + 1] - t[k];
  // Slopes of the chords and the interior right-hand sides r_k = 6 (slope_k - slope_k-1).
  Eigen::MatrixXd slope(c, n - 1);
  for (int k = 0; k + 1 < n; ++k) slope.col(k) = (y.col(k + 1) - y.col(k)) / h[k];

  if (ends == SplineEnds::ClampedRest) {
    // h_k-1 M_k-1 + 2 (h_k-1 + h_k) M_k + h_k M_k+1 = 6 (slope_k - slope_k-1), and at the ends
    // 2 h_0 M_0 + h_0 M_1 = 6 slope_0, h_n-1 M_n-1 + 2 h_n-1 M_n = -6 slope_n-1 (y' = 0 there).
    Eigen::VectorXd sub = Eigen::VectorXd::Zero(n), diag(n), sup = Eigen::VectorXd::Zero(n);
    Eigen::MatrixXd rhs(c, n);
    diag[0] = 2 * h[0];
    sup[0] = h[0];
    rhs.col(0) = 6 * slope.col(0);
    for (int k = 1; k + 1 < n; ++k) {
      sub[k] = h[k - 1];
      diag[k] = 2 * (h[k - 1] + h[k]);
      sup[k] = h[k];
      rhs.col(k) = 6 * (slope.col(k) - slope.col(k - 1));
    }
    sub[n - 1] = h[n - 2];
    diag[n - 1] = 2 * h[n - 2];
    rhs.col(n - 1) = -6 * slope.col(n - 2);
    solveTridiagonal(sub, diag, sup, rhs);
    M_ = rhs;
    return;
  }

  // Not-a-knot.
  if (n == 2) return;  // the chord: M = 0
  if (n == 3) {        // the parabola: M constant = 2 * second divided difference
    const Eigen::VectorXd m = 2 * (slope.col(1) - slope.col(0)) / (h[0] + h[1]);
    M_.colwise() = m;
    return;
  }
  // Unknowns M_1 .. M_n-2; M_0 and M_n-1 are eliminated through the third-derivative conditions
  //   (M_1 - M_0) / h_0 = (M_2 - M_1) / h_1  and  (M_n-2 - M_n-3) / h_n-3 = (M_n-1 - M_n-2) / h_n-2.
  const int m = n - 2;
  Eigen::VectorXd sub = Eigen::VectorXd::Zero(m), diag(m), sup = Eigen::VectorXd::Zero(m);
  Eigen::MatrixXd rhs(c, m);
  for (int k = 1; k + 1 < n; ++k) {
    sub[k - 1] = h[k - 1];
    diag[k - 1] = 2 * (h[k - 1] + h[k]);
    sup[k - 1] = h[k];
    rhs.col(k - 1) = 6 * (slope.col(k) - slope.col(k - 1));
  }
  // M_0 = ((h0 + h1) M_1 - h0 M_2) / h1 substituted into the row of knot 1.
  diag[0] += h[0] * (h[0] + h[1]) / h[1];
  sup[0] -= h[0] * h[0] / h[1];
  // M_n-1 = ((h_n-3 + h_n-2) M_n-2 - h_n-2 M_n-3) / h_n-3 into the row of knot n-2.
  const double a = h[n - 3], b = h[n - 2];
  diag[m - 1] += b * (a + b) / a;
  sub[m - 1] -= b * b / a;
  solveTridiagonal(sub, diag, sup, rhs);
  M_.middleCols(1, m) = rhs;
  M_.col(0) = ((h[0] + h[1]) * M_.col(1) - h[0] * M_.col(2)) / h[1];
  M_.col(n - 1) = ((a + b) * M_.col(n - 2) - b * M_.col(n - 3)) / a;
}

Eigen::MatrixXd CubicSpline::firstDerivatives() const {
  const int n = knots();
  Eigen::MatrixXd d(channels(), n);
  for (int k = 0; k + 1 < n; ++k) {  // y'(t_k) from the segment to its right
    const double h = t_[k + 1] - t_[k];
    d.col(k) = (y_.col(k + 1) - y_.col(k)) / h - h * (2 * M_.col(k) + M_.col(k + 1)) / 6;
  }
  const double h = t_[n - 1] - t_[n - 2];  // the last knot from the segment to its left
  d.col(n - 1) = (y_.col(n - 1) - y_.col(n - 2)) / h + h * (M_.col(n - 2) + 2 * M_.col(n - 1)) / 6;
  return d;
}

int CubicSpline::segment(double t) const {
  const int n = knots();
  if (!(t > t_[0])) return 0;  // also NaN
  if (t >= t_[n - 1]) return n - 2;
  return int(std::upper_bound(t_.data(), t_.data() + n, t) - t_.data()) - 1;
}

void CubicSpline::evaluate(double t, Eigen::Ref<Eigen::VectorXd> y, Eigen::Ref<Eigen::VectorXd> yd,
                           Eigen::Ref<Eigen::VectorXd> ydd) const {
  const int k = segment(t);
  t = std::clamp(t, t_[0], t_[knots() - 1]);
  const double h = t_[k + 1] - t_[k];
  const double B = (t - t_[k]) / h, A = 1 - B;
  // y = A y_k + B y_k+1 + ((A^3 - A) M_k + (B^3 - B) M_k+1) h^2 / 6
  y = A * y_.col(k) + B * y_.col(k + 1) + ((A * A * A - A) * h * h / 6) * M_.col(k) +
      ((B * B * B - B) * h * h / 6) * M_.col(k + 1);
  yd = (y_.col(k + 1) - y_.col(k)) / h - ((3 * A * A - 1) * h / 6) * M_.col(k) +
       ((3 * B * B - 1) * h / 6) * M_.col(k + 1);
  ydd = A * M_.col(k) + B * M_.col(k + 1);
}

}  // namespace dyn
