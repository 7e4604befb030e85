// Helpers for the suites that read dynscope-cli's JSON: run it and parse the result object, turn JSON
// arrays into Eigen vectors and matrices, print vectors as the CLI's comma-separated arguments.
#pragma once
#include <Eigen/Core>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "run_cli.hpp"

namespace dyn::testing {

inline QString robotPath(const QString& file) { return QString(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

// "a,b,c" with every digit (17 significant), as the CLI's --q/--qd/... take vectors.
inline QString joined(const Eigen::VectorXd& v) {
  QStringList parts;
  char buf[32];
  for (Eigen::Index k = 0; k < v.size(); ++k) {
    std::snprintf(buf, sizeof buf, "%.17g", v[k]);
    parts << buf;
  }
  return parts.join(',');
}

// A JSON array of numbers (null: NaN).
inline Eigen::VectorXd toVector(const QJsonValue& value) {
  const QJsonArray a = value.toArray();
  Eigen::VectorXd v(a.size());
  for (int k = 0; k < a.size(); ++k) v[k] = a[k].toDouble(NAN);
  return v;
}

// A JSON array of rows.
inline Eigen::MatrixXd toMatrix(const QJsonValue& value) {
  const QJsonArray rows = value.toArray();
  Eigen::MatrixXd m(rows.size(), rows.isEmpty() ? 0 : rows[0].toArray().size());
  for (int r = 0; r < rows.size(); ++r) m.row(r) = toVector(rows[r]).transpose();
  return m;
}

// The printed numbers (17 digits) equal the engine's to rounding.
inline bool sameNumbers(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || (a - b).cwiseAbs().maxCoeff() <= 1e-14 * std::max(1.0, b.cwiseAbs().maxCoeff()));
}

// The result object of a successful run; empty (with a warning naming the command) otherwise.
inline QJsonObject runJson(const QStringList& args) {
  const CliRun r = runCli(args);
  if (r.crashed || r.status != 0) {
    qWarning("dynscope-cli %s: status %d: %s", qPrintable(args.join(' ')), r.status, r.err.constData());
    return {};
  }
  return QJsonDocument::fromJson(r.out).object();
}

}  // namespace dyn::testing
