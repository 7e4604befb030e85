#include "dynscope/trajectory/sampled_trajectory.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dynscope/algorithms/configuration.hpp"

namespace dyn {
namespace {

void checkShape(const char* what, const Eigen::MatrixXd& m, int rows, int cols) {
  if (m.rows() != rows || m.cols() != cols)
    throw std::invalid_argument(std::string("sampled trajectory: ") + what + " is " + std::to_string(m.rows()) + " x " +
                                std::to_string(m.cols()) + ", expected " + std::to_string(rows) + " x " +
                                std::to_string(cols));
}

}  // namespace

void SampledTrajectory::validate(const Model& model) const {
  const int n = samples();
  checkShape("q", q, model.nq, n);
  checkShape("qd", qd, model.nv, n);
  checkShape("qdd", qdd, model.nv, n);
  for (int k = 0; k < n; ++k) {
    const std::string at = "sampled trajectory: sample " + std::to_string(k + 1) + ": ";
    if (!std::isfinite(t[k])) throw std::invalid_argument(at + "t is not a finite number");
    if (k > 0 && !(t[k] > t[k - 1])) throw std::invalid_argument(at + "t is not after the previous sample's");
    if (!q.col(k).allFinite() || !qd.col(k).allFinite() || !qdd.col(k).allFinite())
      throw std::invalid_argument(at + "q, qd or qdd is not finite");
  }
}

int SampledTrajectory::nearestSample(double time) const {
  const int n = samples();
  if (n == 0) return -1;
  const double* begin = t.data();
  const int upper = int(std::lower_bound(begin, begin + n, time) - begin);  // first t_k >= time
  if (upper == 0) return 0;
  if (upper == n) return n - 1;
  return time - t[upper - 1] <= t[upper] - time ? upper - 1 : upper;
}

void SampledTrajectory::interpolate(const Model& model, double time, Eigen::Ref<Eigen::VectorXd> qOut,
                                    Eigen::Ref<Eigen::VectorXd> qdOut, Eigen::Ref<Eigen::VectorXd> qddOut) const {
  checkSize("q", qOut.size(), model.nq);
  checkSize("qd", qdOut.size(), model.nv);
  checkSize("qdd", qddOut.size(), model.nv);
  const int n = samples();
  if (n == 0) throw std::invalid_argument("sampled trajectory: no samples to interpolate");
  const double* begin = t.data();
  int k = int(std::upper_bound(begin, begin + n, time) - begin) - 1;  // t_k <= time < t_k+1
  if (k < 0 || n == 1 || time == t[k] || k == n - 1) {                // before, at or after a sample
    k = std::max(k, 0);
    qOut = q.col(k);
    qdOut = qd.col(k);
    qddOut = qdd.col(k);
    return;
  }
  const double s = (time - t[k]) / (t[k + 1] - t[k]);
  difference(model, q.col(k), q.col(k + 1), qdOut);  // qdOut as scratch: the chord in the tangent space
  integrate(model, q.col(k), qdOut, s, qOut);
  qdOut = (1 - s) * qd.col(k) + s * qd.col(k + 1);
  qddOut = (1 - s) * qdd.col(k) + s * qdd.col(k + 1);
}

}  // namespace dyn
