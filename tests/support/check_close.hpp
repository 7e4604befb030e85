// CHECK_CLOSE(a, b, tol, scale, what): max |a - b| <= tol * scale (and finite), failing the
// QtTest with the worst entry and, for small matrices, both operands.
#pragma once
#include <QString>
#include <QTest>

#include <Eigen/Core>
#include <cmath>
#include <sstream>
#include <string>

namespace dyn::testing {

inline QString closeMismatch(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tol, double scale,
                             const std::string& what) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    return QString("%1: size %2x%3 vs %4x%5").arg(what.c_str()).arg(a.rows()).arg(a.cols()).arg(b.rows()).arg(b.cols());
  if (a.size() == 0) return {};
  Eigen::Index r, c;
  const double err = (a - b).cwiseAbs().maxCoeff(&r, &c);
  if (err <= tol * scale && std::isfinite(err)) return {};
  std::stringstream ss;
  ss << what << ": max error " << err << " at (" << r << "," << c << ") > " << tol << " * " << scale;
  if (a.size() <= 64) ss << "\nengine:\n" << a << "\nreference:\n" << b;
  return QString::fromStdString(ss.str());
}

}  // namespace dyn::testing

#define CHECK_CLOSE(a, b, tol, scale, what)                                               \
  do {                                                                                    \
    const QString m_ = dyn::testing::closeMismatch((a), (b), (tol), (scale), (what));     \
    if (!m_.isEmpty()) QFAIL(qPrintable(m_));                                             \
  } while (0)
