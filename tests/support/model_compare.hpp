// Do two models describe the same robot? Compares, at seeded random states, what the algorithms
// compute: tau = RNEA(q, qd, qdd), H(q) (CRBA), qdd = ABA(q, qd, tau) and every body's spatial inertia
// in world coordinates (which fixes the pose of every body that carries mass), plus the world
// poses of named frame pairs. Bodies correspond by index (the same joint order). For the
// conversion suites (URDF writer, DH tables, URDF -> DH).
#pragma once
#include <QString>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dynscope/dynscope.hpp"
#include "random_state.hpp"

namespace dyn::testing {

// Empty when |a - b| <= tol * max(1, |b|max) entrywise; else what differs.
inline std::string differs(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tol, const std::string& what) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return what + ": sizes differ";
  if (a.size() == 0) return "";
  const double scale = std::max(1.0, b.cwiseAbs().maxCoeff());
  const double err = (a - b).cwiseAbs().maxCoeff();
  if (err <= tol * scale && std::isfinite(err)) return "";
  std::ostringstream os;
  os << what << ": differs by " << err << " (scale " << scale << ")";
  return os.str();
}

inline Eigen::Matrix4d worldPose(const Transform<double>& X) {  // X = frame_X_world
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  T.topLeftCorner<3, 3>() = X.E.transpose();
  T.topRightCorner<3, 1>() = X.r;
  return T;
}

inline Eigen::MatrixXd worldInertia(const Inertia<double>& I, const Transform<double>& X0) {
  const Inertia<double> W = I.transformToA(X0);
  Eigen::MatrixXd v(1, 10);
  v << W.m, W.h.transpose(), W.Ibar(0, 0), W.Ibar(1, 1), W.Ibar(2, 2), W.Ibar(0, 1), W.Ibar(0, 2), W.Ibar(1, 2);
  return v;
}

inline QString compareModels(const Model& a, const Model& b,
                             const std::vector<std::pair<std::string, std::string>>& frames, int states = 5,
                             double tol = 1e-12) {
  if (a.nq != b.nq || a.nv != b.nv || a.N != b.N)
    return QString("sizes differ: nq %1/%2, nv %3/%4, N %5/%6")
        .arg(a.nq)
        .arg(b.nq)
        .arg(a.nv)
        .arg(b.nv)
        .arg(a.N)
        .arg(b.N);
  if (std::string d = differs(b.gravity.v, a.gravity.v, tol, "gravity"); !d.empty()) return QString::fromStdString(d);
  Data da(a), db(b);
  for (int s = 0; s < states; ++s) {
    const RandomState st = randomState(a, 100u + unsigned(s));
    std::vector<std::string> problems;
    const Eigen::VectorXd tau = rnea(a, da, st.q, st.qd, st.qdd);
    problems.push_back(differs(rnea(b, db, st.q, st.qd, st.qdd), tau, tol, "tau"));
    const Eigen::MatrixXd H = crba(a, da, st.q);
    problems.push_back(differs(crba(b, db, st.q), H, tol, "H"));
    // qdd = H^-1 (tau - C): a relative change e in the model moves it by up to cond(H) e.
    if (a.immobileBodies.empty()) {
      const Eigen::VectorXd l = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues();
      const double cond = l.size() ? std::max(1.0, l.maxCoeff() / l.minCoeff()) : 1;
      problems.push_back(differs(aba(b, db, st.q, st.qd, tau), aba(a, da, st.q, st.qd, tau), tol * cond, "qdd"));
    }
    forwardKinematics(a, da, st.q);
    forwardKinematics(b, db, st.q);
    updateFrames(a, da);
    updateFrames(b, db);
    for (int i = 1; i <= a.N; ++i)
      problems.push_back(differs(worldInertia(b.I[size_t(i)], db.X0[size_t(i)]),
                                 worldInertia(a.I[size_t(i)], da.X0[size_t(i)]), tol,
                                 "world inertia of body " + a.bodyNames[size_t(i)]));
    for (const auto& [fa, fb] : frames) {
      const int ia = a.frameIndex(fa), ib = b.frameIndex(fb);
      if (ia < 0 || ib < 0) return QString("no frame %1 or %2").arg(fa.c_str(), fb.c_str());
      problems.push_back(
          differs(worldPose(db.oMf[size_t(ib)]), worldPose(da.oMf[size_t(ia)]), tol, "pose of " + fa + "/" + fb));
    }
    for (const std::string& p : problems)
      if (!p.empty()) return QString("state %1: %2").arg(s).arg(p.c_str());
  }
  return {};
}

}  // namespace dyn::testing

// COMPARE_MODELS(a, b[, {"frame in a", "frame in b"}, ...])
#define COMPARE_MODELS(a, b, ...)                                                                             \
  do {                                                                                                        \
    const QString why_ =                                                                                      \
        dyn::testing::compareModels((a), (b), std::vector<std::pair<std::string, std::string>>{__VA_ARGS__}); \
    if (!why_.isEmpty()) QFAIL(qPrintable(why_));                                                             \
  } while (0)
