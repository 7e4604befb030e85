// C² cubic splines through samples (t_k, y_k) of several channels at once (one row of y per
// channel, one column per knot), in the moments form: the spline's second derivatives M_k at
// the knots solve one tridiagonal system (de Boor, "A Practical Guide to Splines", ch. IV).
#pragma once
#include <Eigen/Core>

namespace dyn {

enum class SplineEnds {
  ClampedRest,  // first derivative zero at both ends (rest-to-rest through waypoints)
  NotAKnot,     // third derivative continuous at the second and the last-but-one knot: reproduces
                // any cubic exactly, so it is the end condition for differentiating measured samples.
                // Three knots give the parabola through them, two the straight line.
};

class CubicSpline {
 public:
  CubicSpline() = default;
  // t strictly increasing (size n >= 2), y: channels x n. Throws std::invalid_argument otherwise.
  CubicSpline(const Eigen::VectorXd& t, const Eigen::MatrixXd& y, SplineEnds ends);

  int knots() const { return int(t_.size()); }
  int channels() const { return int(y_.rows()); }
  const Eigen::VectorXd& times() const { return t_; }
  const Eigen::MatrixXd& values() const { return y_; }
  const Eigen::MatrixXd& secondDerivatives() const { return M_; }  // M_k, channels x n
  Eigen::MatrixXd firstDerivatives() const;                        // y'(t_k), channels x n

  // The segment [t_k, t_k+1] holding t (clamped to the ends; the last segment includes t_n).
  int segment(double t) const;
  // y, y', y'' at t (clamped to [t_0, t_n]); the outputs must have `channels()` entries. No allocation.
  void evaluate(double t, Eigen::Ref<Eigen::VectorXd> y, Eigen::Ref<Eigen::VectorXd> yd,
                Eigen::Ref<Eigen::VectorXd> ydd) const;

 private:
  Eigen::VectorXd t_;
  Eigen::MatrixXd y_, M_;
};

}  // namespace dyn
