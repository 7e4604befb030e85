#include "dynscope/simulation/simulation_record.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/model/names.hpp"

namespace dyn {
namespace {

Eigen::MatrixXd asMatrix(const std::vector<double>& flat, int rows, int cols) {
  return rows * cols == 0 ? Eigen::MatrixXd(rows, cols) : Eigen::Map<const Eigen::MatrixXd>(flat.data(), rows, cols);
}

}  // namespace

void SimulationRecord::clear() {
  for (auto* v : {&t, &q, &qd, &qdd, &tau, &energy, &fdDifference, &constraintError, &constraintRateError,
                  &contactNormal, &contactFriction, &penetration, &tauExternal})
    v->clear();
  limitEvents.clear();
}

void SimulationRecord::reserve(int samples) {
  t.reserve(samples);
  q.reserve(size_t(samples) * nq);
  for (auto* v : {&qd, &qdd, &tau}) v->reserve(size_t(samples) * nv);
  energy.reserve(samples);
  fdDifference.reserve(samples);
  constraintError.reserve(samples);
  constraintRateError.reserve(samples);
  for (auto* v : {&contactNormal, &contactFriction, &penetration}) v->reserve(samples);
  tauExternal.reserve(size_t(samples) * nv);
  limitEvents.reserve(std::max<size_t>(limitEvents.capacity(), samples / 10));
}

void SimulationRecord::dropEveryOther() {
  const size_t n = t.size(), kept = (n + 1) / 2;
  // Column k of a flat nq x n (or nv x n) array moves to column k / 2.
  auto compact = [&](std::vector<double>& v, size_t rows) {
    if (v.size() != n * rows) return;  // not recorded (energy, fdDifference off)
    for (size_t k = 2; k < n; k += 2) std::copy_n(v.begin() + k * rows, rows, v.begin() + (k / 2) * rows);
    v.resize(kept * rows);
  };
  compact(t, 1);
  compact(q, size_t(nq));
  for (auto* v : {&qd, &qdd, &tau, &tauExternal}) compact(*v, size_t(nv));
  compact(energy, 1);
  compact(fdDifference, 1);
  compact(constraintError, 1);
  compact(constraintRateError, 1);
  for (auto* v : {&contactNormal, &contactFriction, &penetration}) compact(*v, 1);
}

SampledTrajectory SimulationRecord::trajectory() const {
  SampledTrajectory s;
  const int n = samples();
  s.t = Eigen::Map<const Eigen::VectorXd>(t.data(), n);
  s.q = asMatrix(q, nq, n);
  s.qd = asMatrix(qd, nv, n);
  s.qdd = asMatrix(qdd, nv, n);
  return s;
}

Eigen::MatrixXd SimulationRecord::torques() const { return asMatrix(tau, nv, samples()); }

Eigen::MatrixXd SimulationRecord::externalTorques() const {
  if (tauExternal.size() != size_t(nv) * t.size()) return Eigen::MatrixXd::Zero(nv, samples());
  return asMatrix(tauExternal, nv, samples());
}

double SimulationRecord::relativeEnergyDrift(int k) const {
  if (energy.empty()) return 0;
  const double e0 = energy[0], d = energy[k] - e0;
  return std::abs(e0) < 1e-12 ? d : d / std::abs(e0);
}

double SimulationRecord::maxRelativeEnergyDrift() const {
  double m = 0;
  for (int k = 0; k < int(energy.size()); ++k) m = std::max(m, std::abs(relativeEnergyDrift(k)));
  return m;
}

double SimulationRecord::maxFdDifference() const {
  double m = 0;
  for (double d : fdDifference) m = std::max(m, d);
  return m;
}

double SimulationRecord::maxConstraintError() const {
  double m = 0;
  for (double d : constraintError) m = std::max(m, d);
  return m;
}

double SimulationRecord::maxConstraintRateError() const {
  double m = 0;
  for (double d : constraintRateError) m = std::max(m, d);
  return m;
}

double SimulationRecord::maxPenetration() const {
  double m = 0;
  for (double d : penetration) m = std::max(m, d);
  return m;
}

void writeSimulationCsv(std::ostream& out, const Model& model, const SimulationRecord& r) {
  const int n = r.samples(), nq = model.nq, nv = model.nv;
  std::vector<std::string> header{"t"};
  for (const auto& name : configurationNames(model)) header.push_back(name);
  const std::vector<std::string> vNames = velocityNames(model);
  for (const char* prefix : {"qd_", "qdd_", "tau_"})
    for (const auto& name : vNames) header.push_back(prefix + name);
  const bool external = n > 0 && r.tauExternal.size() == size_t(n) * size_t(nv);
  if (external)
    for (const auto& name : vNames) header.push_back("tau_ext_" + name);
  const bool energy = int(r.energy.size()) == n, compare = int(r.fdDifference.size()) == n;
  if (energy) header.insert(header.end(), {"energy", "energy_drift"});
  if (compare) header.push_back("fd_difference");
  const bool loops = int(r.constraintError.size()) == n && int(r.constraintRateError.size()) == n && n > 0;
  if (loops) header.insert(header.end(), {"phi_norm", "phi_dot_norm"});
  const bool ground =
      int(r.contactNormal.size()) == n && int(r.contactFriction.size()) == n && int(r.penetration.size()) == n && n > 0;
  if (ground) header.insert(header.end(), {"contact_normal", "contact_friction", "penetration"});
  Eigen::MatrixXd values(header.size(), n);
  values.row(0) = Eigen::Map<const Eigen::VectorXd>(r.t.data(), n).transpose();
  values.middleRows(1, nq) = asMatrix(r.q, nq, n);
  values.middleRows(1 + nq, nv) = asMatrix(r.qd, nv, n);
  values.middleRows(1 + nq + nv, nv) = asMatrix(r.qdd, nv, n);
  values.middleRows(1 + nq + 2 * nv, nv) = asMatrix(r.tau, nv, n);
  int row = 1 + nq + 3 * nv;
  if (external) {
    values.middleRows(row, nv) = asMatrix(r.tauExternal, nv, n);
    row += nv;
  }
  if (energy) {
    for (int k = 0; k < n; ++k) values(row, k) = r.energy[k], values(row + 1, k) = r.relativeEnergyDrift(k);
    row += 2;
  }
  if (compare) {
    for (int k = 0; k < n; ++k) values(row, k) = r.fdDifference[k];
    ++row;
  }
  if (loops) {
    for (int k = 0; k < n; ++k) values(row, k) = r.constraintError[k], values(row + 1, k) = r.constraintRateError[k];
    row += 2;
  }
  if (ground)
    for (int k = 0; k < n; ++k)
      values(row, k) = r.contactNormal[k], values(row + 1, k) = r.contactFriction[k],
                  values(row + 2, k) = r.penetration[k];
  writeCsv(out, header, values);
}

}  // namespace dyn
