// Models and inputs shared by the trace suites (test_trace.cpp, test_trace_formulations.cpp):
// "chain:N" (dyn::generalChain), "random:SEED:LINKS" (a random tree of the given joint kinds, all
// kinds when none are given) or a file under robots/; seeded random states; bitwise equality.
#pragma once
#include <QString>
#include <QStringList>
#include <cstring>
#include <random>

#include "dynscope/dynscope.hpp"
#include "random_tree.hpp"

namespace dyn::testing {

inline Model traceModel(const QString& source, const std::vector<JointKind>& kinds = {}) {
  if (source.startsWith("random:")) {
    const QStringList p = source.split(':');
    return kinds.empty() ? buildModel(randomTree(p[1].toUInt(), p[2].toInt()))
                         : buildModel(randomTree(p[1].toUInt(), p[2].toInt(), kinds));
  }
  if (source.startsWith("chain:")) return generalChain(source.mid(6).toInt());
  return loadModel(QString(DYNSCOPE_ROBOTS_DIR "/" + source).toStdString());
}

inline TraceInput randomTraceInput(const Model& model, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  TraceInput in;
  in.q = randomConfiguration(model, rng);
  in.qd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 2 * U(rng); });
  in.qdd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 3 * U(rng); });
  in.tau = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 10 * U(rng); });
  return in;
}

inline bool bitEqual(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * size_t(a.size())) == 0;
}

}  // namespace dyn::testing
