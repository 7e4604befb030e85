#include "dynscope/io/trajectory_csv.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/io/atomic_file.hpp"
#include "dynscope/io/utf8.hpp"
#include "dynscope/model/names.hpp"
#include "dynscope/trajectory/cubic_spline.hpp"

namespace dyn {
namespace {

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t\r"));
  s.erase(s.find_last_not_of(" \t\r") + 1);
  return s;
}

std::vector<std::string> splitFields(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (;;) {
    const size_t comma = line.find(',', start);
    fields.push_back(trim(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

// Locale-independent (a GUI may set a locale whose decimal separator is a comma).
bool parseNumber(const std::string& field, double& x) {
  const char* begin = field.data();
  const char* end = begin + field.size();
  if (begin != end && *begin == '+') ++begin;
  const auto [ptr, ec] = std::from_chars(begin, end, x);
  return begin != end && ec == std::errc() && ptr == end && std::isfinite(x);
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// The first joint whose quaternion in q is zero (no rotation at all), or 0.
int jointWithZeroQuaternion(const Model& model, const Eigen::VectorXd& q) {
  for (int i = 1; i <= model.N; ++i) {
    const auto& J = model.joints[i];
    const int offset = J.type == JointType::Floating ? 3 : J.type == JointType::Spherical ? 0 : -1;
    if (offset >= 0 && q.segment<4>(J.idx_q + offset).norm() == 0) return i;
  }
  return 0;
}

}  // namespace

CsvTable readCsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "", "cannot open the trajectory file");
  return readCsv(in, path);
}

CsvTable readCsv(std::istream& in, const std::string& path) {
  CsvTable table;
  table.file = path;
  std::vector<double> flat;
  std::unordered_set<std::string> seen;  // header names: a set keeps a wide header linear
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string content = trim(line);
    if (content.empty() || content[0] == '#') continue;  // blank lines and comments
    const std::vector<std::string> fields = splitFields(content);
    if (table.header.empty()) {
      table.headerLine = number;
      for (const auto& f : fields) {
        if (f.empty()) throw LoadError(path, number, "", "the header has an empty column name");
        if (const std::string problem = utf8Problem("column", f); !problem.empty())
          throw LoadError(path, number, "", problem);
        if (!seen.insert(f).second) throw LoadError(path, number, "", "column '" + f + "' appears twice in the header");
        table.header.push_back(f);
      }
      continue;
    }
    if (fields.size() != table.header.size())
      throw LoadError(path, number, "",
                      "row has " + std::to_string(fields.size()) + " fields, the header (line " +
                          std::to_string(table.headerLine) + ") has " + std::to_string(table.header.size()));
    for (size_t c = 0; c < fields.size(); ++c) {
      double x = 0;
      if (!parseNumber(fields[c], x))
        throw LoadError(path, number, "",
                        "column '" + table.header[c] + "': '" + sanitizeUtf8(fields[c]) + "' is not a finite number");
      flat.push_back(x);
    }
    table.lines.push_back(number);
  }
  if (in.bad()) throw LoadError(path, 0, "", "read error");
  if (table.header.empty()) throw LoadError(path, 0, "", "the file is empty (expected a header row)");
  const Eigen::Index cols = Eigen::Index(table.header.size());
  table.values = Eigen::Map<Eigen::MatrixXd>(flat.data(), cols, Eigen::Index(table.lines.size()));
  return table;
}

std::optional<std::vector<int>> findColumns(const CsvTable& table, const std::vector<std::string>& names,
                                            const std::string& prefix, std::vector<bool>& used, bool required) {
  std::unordered_map<std::string_view, int> index;  // header name -> column: linear in names + columns
  for (int c = 0; c < int(table.header.size()); ++c) index.emplace(table.header[c], c);
  std::vector<int> columns;
  std::vector<std::string> missing;
  for (const auto& name : names) {
    const auto it = index.find(prefix + name);
    const int found = it == index.end() ? -1 : it->second;
    if (found < 0)
      missing.push_back(prefix + name);
    else
      used[found] = true;
    columns.push_back(found);
  }
  if (missing.size() == names.size() && !names.empty() && !required) return std::nullopt;
  if (!missing.empty())
    throw table.error(-1, std::string("missing column") + (missing.size() > 1 ? "s " : " ") + joinNames(missing) +
                              (required ? "" : " (give all " + std::to_string(names.size()) + " or none)"));
  return columns;
}

std::vector<int> requireColumns(const CsvTable& table, const std::vector<std::string>& names, const std::string& prefix,
                                const char* what, std::vector<bool>& used) {
  const std::unordered_set<std::string_view> header(table.header.begin(), table.header.end());
  bool any = false;
  for (const auto& name : names) any = any || header.count(prefix + name);
  if (!any && !names.empty())
    throw table.error(-1, std::string("the header has no ") + what + " columns; expected " + prefix + names[0] +
                              (names.size() > 1 ? ", ... (" + std::to_string(names.size()) + " in all)" : ""));
  return *findColumns(table, names, prefix, used, true);
}

Eigen::MatrixXd gatherColumns(const CsvTable& table, const std::vector<int>& columns) {
  Eigen::MatrixXd m(columns.size(), table.samples());
  for (size_t r = 0; r < columns.size(); ++r) m.row(Eigen::Index(r)) = table.values.row(columns[r]);
  return m;
}

std::string formatCsvNumber(double x) {
  char buf[40];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 17);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

void writeCsv(std::ostream& out, const std::vector<std::string>& header, const Eigen::MatrixXd& values) {
  if (values.rows() != Eigen::Index(header.size()))
    throw std::invalid_argument("writeCsv: " + std::to_string(header.size()) + " column names for " +
                                std::to_string(values.rows()) + " value rows");
  std::string line;
  for (size_t c = 0; c < header.size(); ++c) line += (c ? "," : "") + header[c];
  out << line << '\n';
  char buf[40];
  for (Eigen::Index k = 0; k < values.cols(); ++k) {
    line.clear();
    for (Eigen::Index c = 0; c < values.rows(); ++c) {
      if (c) line += ',';
      const double x = values(c, k) + 0.0;  // -0 prints as 0
      const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 17);
      line.append(buf, ec == std::errc() ? end : buf);
    }
    out << line << '\n';
  }
}

void splineDerivatives(const Model& model, const Eigen::VectorXd& t, const Eigen::MatrixXd& q, Eigen::MatrixXd* qd,
                       Eigen::MatrixXd* qdd) {
  const int n = int(t.size());
  Eigen::MatrixXd U = Eigen::MatrixXd::Zero(model.nv, n);
  Eigen::VectorXd step(model.nv);
  for (int k = 1; k < n; ++k) {
    difference(model, q.col(k - 1), q.col(k), step);
    U.col(k) = U.col(k - 1) + step;
  }
  const CubicSpline spline(t, U, SplineEnds::NotAKnot);
  if (qd) *qd = spline.firstDerivatives();
  if (qdd) *qdd = spline.secondDerivatives();
}

Eigen::MatrixXd splineDerivative(const Eigen::VectorXd& t, const Eigen::MatrixXd& x) {
  return CubicSpline(t, x, SplineEnds::NotAKnot).firstDerivatives();
}

TrajectoryCsv readTrajectoryCsv(const Model& model, const std::string& path, const TrajectoryCsvOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "", "cannot open the trajectory file");
  return readTrajectoryCsv(model, in, path, options);
}

TrajectoryCsv readTrajectoryCsv(const Model& model, std::istream& in, const std::string& path,
                                const TrajectoryCsvOptions& options) {
  const CsvTable table = readCsv(in, path);
  const int n = table.samples();
  const std::vector<std::string> qNames = configurationNames(model), vNames = velocityNames(model);
  std::vector<bool> used(table.header.size(), false);
  const std::vector<int> tColumn = requireColumns(table, {"t"}, "", "time (t)", used);
  const std::vector<int> qColumns = requireColumns(table, qNames, "", "configuration", used);
  const auto qdColumns = findColumns(table, vNames, "qd_", used);
  const auto qddColumns = options.accelerations ? findColumns(table, vNames, "qdd_", used) : std::nullopt;
  const auto tauColumns =
      options.torques ? std::optional(requireColumns(table, vNames, "tau_", "torque (tau_)", used)) : std::nullopt;

  TrajectoryCsv result;
  for (size_t c = 0; c < used.size(); ++c)
    if (!used[c]) result.ignoredColumns.push_back(table.header[c]);
  if (n < 1) throw LoadError(path, 0, "", "the file has a header but no samples");
  SampledTrajectory& s = result.trajectory;
  s.t = table.values.row(tColumn[0]).transpose();
  for (int k = 1; k < n; ++k)
    if (!(s.t[k] > s.t[k - 1]))
      throw table.error(k, "t = " + formatCsvNumber(s.t[k]) + " is not greater than the previous t = " +
                               formatCsvNumber(s.t[k - 1]) + " (a trajectory's times must increase strictly)");
  s.q = gatherColumns(table, qColumns);
  for (int k = 0; k < n; ++k)
    if (const int i = jointWithZeroQuaternion(model, s.q.col(k)))
      throw table.error(k, "the quaternion of joint '" + model.jointNames[i] + "' is zero");

  const bool deriveVelocities = !qdColumns;
  const bool deriveAccelerations = options.accelerations && !qddColumns;
  if ((deriveVelocities || deriveAccelerations) && n < 2)
    throw LoadError(path, 0, "",
                    "the spline derivatives need at least 2 rows, the file has " + std::to_string(n) +
                        " (or give the qd_ and qdd_ columns)");
  if (qdColumns) s.qd = gatherColumns(table, *qdColumns);
  if (qddColumns) s.qdd = gatherColumns(table, *qddColumns);
  if (deriveVelocities) {
    // Both from the spline through q, so q̈ is the derivative of the q̇ used.
    splineDerivatives(model, s.t, s.q, &s.qd, deriveAccelerations ? &s.qdd : nullptr);
  } else if (deriveAccelerations) {
    s.qdd = splineDerivative(s.t, s.qd);  // the given velocities, differentiated
  }
  // Finite samples can still give non-finite derivatives (times 1e-300 apart, values near 1e308):
  // a successful read never hands back inf or NaN.
  for (const auto& [derived, m, what] :
       {std::tuple{deriveVelocities, &s.qd, "velocities"}, std::tuple{deriveAccelerations, &s.qdd, "accelerations"}})
    for (int k = 0; derived && k < n; ++k)
      if (!m->col(k).allFinite())
        throw table.error(k, std::string("the ") + what +
                                 " the spline gives are not finite here (samples too close in time for the "
                                 "change in q, or values too large)");
  if (!options.accelerations) s.qdd.resize(model.nv, 0);
  if (tauColumns) result.tau = gatherColumns(table, *tauColumns);
  result.velocitiesFromSpline = deriveVelocities;
  result.accelerationsFromSpline = deriveAccelerations;
  return result;
}

void writeTrajectoryCsv(std::ostream& out, const Model& model, const SampledTrajectory& trajectory, bool velocities,
                        bool accelerations) {
  const int n = trajectory.samples();
  velocities = velocities && trajectory.qd.cols() == n && n > 0;
  accelerations = accelerations && trajectory.qdd.cols() == n && n > 0;
  if (trajectory.q.rows() != model.nq || trajectory.q.cols() != n)
    throw std::invalid_argument("writeTrajectoryCsv: q is not nq x samples for model '" + model.name + "'");
  std::vector<std::string> header{"t"};
  for (const auto& name : configurationNames(model)) header.push_back(name);
  const std::vector<std::string> vNames = velocityNames(model);
  if (velocities)
    for (const auto& name : vNames) header.push_back("qd_" + name);
  if (accelerations)
    for (const auto& name : vNames) header.push_back("qdd_" + name);
  Eigen::MatrixXd values(header.size(), n);
  values.row(0) = trajectory.t.transpose();
  values.middleRows(1, model.nq) = trajectory.q;
  int row = 1 + model.nq;
  if (velocities) {
    values.middleRows(row, model.nv) = trajectory.qd;
    row += model.nv;
  }
  if (accelerations) values.middleRows(row, model.nv) = trajectory.qdd;
  writeCsv(out, header, values);
}

void writeTrajectoryCsv(const std::string& path, const Model& model, const SampledTrajectory& trajectory,
                        bool velocities, bool accelerations) {
  writeFileAtomically(
      path, [&](std::ostream& out) { writeTrajectoryCsv(out, model, trajectory, velocities, accelerations); });
}

}  // namespace dyn
