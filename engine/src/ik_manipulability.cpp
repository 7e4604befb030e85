#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "dynscope/algorithms/jacobian.hpp"
#include "dynscope/ik/manipulability.hpp"

namespace dyn {

Manipulability manipulability(const Model& model, Data& data, const VecX<double>& q, int frame) {
  if (frame < 0 || frame >= int(model.frames.size()))
    throw std::invalid_argument("manipulability: frame index " + std::to_string(frame) + " is not a frame of " +
                                model.name);
  // World axes, linear rows = velocity of the frame origin (eq. 26 convention).
  const Mat6X<double>& J = frameJacobian(model, data, q, frame, ReferenceFrame::LocalWorldAligned);
  Manipulability m;
  m.center = (model.frames[frame].placement * data.X0[model.frames[frame].body]).translation();

  // Jv Jv^T = U diag(sigma^2) U^T: the left singular vectors and singular values of Jv.
  Mat3<double> JJt;
  JJt.noalias() = J.bottomRows<3>() * J.bottomRows<3>().transpose();
  const Eigen::SelfAdjointEigenSolver<Mat3<double>> eig(JJt);  // ascending eigenvalues
  for (int k = 0; k < 3; ++k) {
    const double s = std::sqrt(std::max(0.0, eig.eigenvalues()[2 - k]));
    m.singularValues[k] = s;
    m.axes.col(k) = eig.eigenvectors().col(2 - k);
    m.velocityRadii[k] = s;
    m.forceRadii[k] = s > 0 ? 1.0 / s : std::numeric_limits<double>::infinity();
  }
  if (m.axes.determinant() < 0) m.axes.col(2) = -m.axes.col(2);  // a right-handed frame for drawing
  m.minSingularValue = m.singularValues[2];
  m.measure = m.singularValues.prod();

  Mat6<double> JJt6;
  JJt6.noalias() = J * J.transpose();
  const Eigen::SelfAdjointEigenSolver<Mat6<double>> eig6(JJt6, Eigen::EigenvaluesOnly);
  m.fullMinSingularValue = std::sqrt(std::max(0.0, eig6.eigenvalues()[0]));
  return m;
}

}  // namespace dyn
