#include "scene/inertia_geometry.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace scene {
namespace {

// Principal frame of an inertia about its COM (columns of R, right-handed) and, per principal
// axis k, s_k = (I_j + I_l - I_k) / m: the mean square extent along k, the same for every solid
// of uniform density. A uniform box with edges a, b, c has I_x = m (b^2 + c^2) / 12, so s_x = a^2 / 6
// and the edge is sqrt(6 s); a uniform ellipsoid with semi-axes a, b, c has I_x = m (b^2 + c^2) / 5,
// so s_x = 2 a^2 / 5 and the diameter 2a is sqrt(10 s).

bool principalSquares(const dyn::Inertia<double>& I, Vec3& center, Mat3& R, Vec3& squares) {
  if (!(I.m > 1e-9)) return false;
  center = I.com();
  Eigen::SelfAdjointEigenSolver<Mat3> es(I.inertiaAboutCom());
  if (es.info() != Eigen::Success) return false;
  const Vec3 e = es.eigenvalues();
  R = es.eigenvectors();
  if (R.determinant() < 0) R.col(2) = -R.col(2);
  for (int k = 0; k < 3; ++k) squares[k] = std::max((e[(k + 1) % 3] + e[(k + 2) % 3] - e[k]) / I.m, 0.0);
  return true;
}

}  // namespace

// Full lengths along the principal axes of the equivalent uniform solid: sqrt(factor * s_k), the
// box's edges (factor 6) or the ellipsoid's diameters (factor 10).
bool equivalentSolid(const dyn::Inertia<double>& I, double factor, Vec3& center, Mat3& R, Vec3& dims) {
  Vec3 squares;
  if (!principalSquares(I, center, R, squares)) return false;
  for (int k = 0; k < 3; ++k) dims[k] = std::sqrt(factor * squares[k]);
  const double biggest = dims.maxCoeff();
  if (!(biggest > 1e-6) || !std::isfinite(biggest)) return false;
  for (int k = 0; k < 3; ++k) dims[k] = std::max(dims[k], 0.01 * biggest);  // thin rods stay visible
  return true;
}

double comRadius(double mass) { return std::clamp(0.018 * std::cbrt(mass), 0.006, 0.05); }

}  // namespace scene
