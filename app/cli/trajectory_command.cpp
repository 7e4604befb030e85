// id / fd --trajectory: every row of a CSV through RNEA or forward dynamics, CSV out.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "trajectory_csv.hpp"

namespace cli {
namespace {

// Columns prefix+name for every name: all of them, or nullopt when none is present. A partial
// group is an error: silently differentiating some entries and reading others would mix sources.
std::optional<std::vector<int>> findColumns(const CsvTable& table, const std::vector<std::string>& names,
                                            const std::string& prefix, std::vector<bool>& used,
                                            bool required = false) {
  std::vector<int> columns;
  std::vector<std::string> missing;
  for (const auto& name : names) {
    int found = -1;
    for (int c = 0; c < int(table.header.size()); ++c)
      if (table.header[c] == prefix + name) found = c;
    if (found < 0)
      missing.push_back(prefix + name);
    else
      used[found] = true;
    columns.push_back(found);
  }
  if (missing.size() == names.size() && !names.empty() && !required) return std::nullopt;
  if (!missing.empty())
    throw std::runtime_error(table.where(-1) + "missing column" + (missing.size() > 1 ? "s " : " ") +
                             joinNames(missing) +
                             (required ? "" : " (give all " + std::to_string(names.size()) + " or none)"));
  return columns;
}

std::vector<int> requireColumns(const CsvTable& table, const std::vector<std::string>& names,
                                const std::string& prefix, const char* what, std::vector<bool>& used) {
  bool any = false;
  for (const auto& name : names)
    for (const auto& h : table.header) any = any || h == prefix + name;
  if (!any && !names.empty())
    throw std::runtime_error(table.where(-1) + "the header has no " + what + " columns; expected " + prefix +
                             names[0] +
                             (names.size() > 1 ? ", ... (" + std::to_string(names.size()) + " in all)" : ""));
  return *findColumns(table, names, prefix, used, true);
}

Eigen::MatrixXd gather(const CsvTable& table, const std::vector<int>& columns) {
  Eigen::MatrixXd m(columns.size(), table.samples());
  for (size_t r = 0; r < columns.size(); ++r) m.row(Eigen::Index(r)) = table.values.row(columns[r]);
  return m;
}

std::string formatNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

void note(const std::string& message) { std::fprintf(stderr, "dynscope-cli: note: %s\n", message.c_str()); }

// Finite differences divide by the time steps.
void requireIncreasingTime(const CsvTable& table, const Eigen::VectorXd& t, int minimumSamples) {
  if (table.samples() < minimumSamples)
    throw std::runtime_error(table.file + ": finite differences need at least " +
                             std::to_string(minimumSamples) + " rows, the file has " +
                             std::to_string(table.samples()));
  for (int k = 1; k < table.samples(); ++k)
    if (!(t[k] > t[k - 1]))
      throw std::runtime_error(table.where(k) + "t = " + formatNumber(t[k]) +
                               " is not greater than the previous t = " + formatNumber(t[k - 1]) +
                               " (finite differences need increasing t)");
}

// "\rdynscope-cli: 45% (4500/10000 samples)" on stderr, redrawn when the percentage changes.
class Progress {
 public:
  Progress(int total, bool enabled) : total_(total), enabled_(enabled) {}
  void update(int done) {
    if (!enabled_) return;
    const int percent = total_ > 0 ? int(100.0 * done / total_) : 100;
    if (percent == shown_) return;
    shown_ = percent;
    std::fprintf(stderr, "\rdynscope-cli: %d%% (%d/%d samples)", percent, done, total_);
    std::fflush(stderr);
  }
  void finish() {
    update(total_);
    if (enabled_) std::fputc('\n', stderr);
  }

 private:
  int total_;
  bool enabled_;
  int shown_ = -1;
};

}  // namespace

void runTrajectory(const Session& s) {
  const bool inverse = s.options.command == Command::Id;
  const CsvTable table = readCsv(*s.options.trajectory);
  const int n = table.samples();
  std::vector<bool> used(table.header.size(), false);

  const std::vector<int> tColumn = requireColumns(table, {"t"}, "", "time (t)", used);
  const std::vector<int> qColumns = requireColumns(table, s.qNames, "", "configuration", used);
  const auto qdColumns = findColumns(table, s.vNames, "qd_", used);
  const auto qddColumns = inverse ? findColumns(table, s.vNames, "qdd_", used) : std::nullopt;
  const auto tauColumns =
      inverse ? std::nullopt : std::optional(requireColumns(table, s.vNames, "tau_", "torque (tau_)", used));
  std::vector<std::string> ignored;
  for (size_t c = 0; c < used.size(); ++c)
    if (!used[c]) ignored.push_back(table.header[c]);
  if (!ignored.empty())
    std::fprintf(stderr, "dynscope-cli: warning: %s: ignoring columns %s\n", table.file.c_str(),
                 joinNames(ignored).c_str());

  const Eigen::VectorXd t = table.values.row(tColumn[0]).transpose();
  const Eigen::MatrixXd q = gather(table, qColumns);
  for (int k = 0; k < n; ++k)
    if (const int i = jointWithZeroQuaternion(s.model, q.col(k)))
      throw std::runtime_error(table.where(k) + "the quaternion of joint '" + s.model.jointNames[i] +
                               "' is zero");

  Eigen::MatrixXd qd, second;  // second: qdd for id, tau for fd
  if (qdColumns) {
    qd = gather(table, *qdColumns);
  } else {
    requireIncreasingTime(table, t, 2);
    note(table.file + " has no qd_ columns: velocities are finite differences of q along t");
    qd = differentiateConfigurations(s.model, t, q);
  }
  if (!inverse) {
    second = gather(table, *tauColumns);
  } else if (qddColumns) {
    second = gather(table, *qddColumns);
  } else if (qdColumns) {
    requireIncreasingTime(table, t, 2);
    note(table.file + " has no qdd_ columns: accelerations are finite differences of qd along t");
    second = differentiateVectors(t, qd);
  } else {
    requireIncreasingTime(table, t, 3);
    note(table.file + " has no qdd_ columns: accelerations are second differences of q along t");
    second = secondDerivativeOfConfigurations(s.model, t, q);
  }

  const std::vector<ExternalForce> forces = externalForceInputs(s);
  const std::vector<dyn::Force<double>> fext = bodyForces(s, forces);
  const auto* fextPtr = forces.empty() ? nullptr : &fext;

  // Open the output only now, so a bad input leaves no half-written file behind.
  std::ofstream file;
  if (s.options.out) {
    file.open(*s.options.out);
    if (!file) throw std::runtime_error(*s.options.out + ": cannot create the output file");
  }
  std::ostream& out = s.options.out ? static_cast<std::ostream&>(file) : std::cout;
  std::string line = "t";
  for (const auto& name : s.vNames) line += (inverse ? ",tau_" : ",qdd_") + name;
  out << line << '\n';

  if (!inverse) requireRegularInertia(s.model);
  Progress progress(n, s.options.progress || (n > 2000 && isatty(fileno(stderr))));
  dyn::Data data(s.model);
  for (int k = 0; k < n; ++k) {
    const Eigen::VectorXd& result =
        inverse ? dyn::rnea(s.model, data, q.col(k), qd.col(k), second.col(k), fextPtr)
        : s.options.algorithm == "crba"
            ? dyn::forwardDynamicsCrba(s.model, data, q.col(k), qd.col(k), second.col(k), fextPtr)
            : dyn::aba(s.model, data, q.col(k), qd.col(k), second.col(k), fextPtr);
    if (!inverse) requireFinite(result, "forward dynamics at t = " + formatNumber(t[k]));
    line = formatNumber(t[k]);
    for (Eigen::Index j = 0; j < result.size(); ++j) line += "," + formatNumber(result[j]);
    out << line << '\n';
    progress.update(k + 1);
  }
  progress.finish();
  out.flush();
  if (!out)
    throw std::runtime_error((s.options.out ? *s.options.out : std::string("stdout")) + ": write error");
}

}  // namespace cli
