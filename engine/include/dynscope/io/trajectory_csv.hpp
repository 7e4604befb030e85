// Trajectories as CSV: a header row naming the columns (t, every q entry by name, optionally
// qd_<v name> and qdd_<v name>; names as in dynscope/model/names.hpp), one row per sample, any
// column order, '#' comment lines. Numbers are written with 17 significant digits, so a written
// file reads back bit-exact. Missing velocities and accelerations are the derivatives of the C²
// cubic spline through the samples (not-a-knot ends), not finite differences. Errors are
// LoadError (a std::runtime_error), "file:line: ..." naming the column.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "../model/model.hpp"
#include "../trajectory/sampled_trajectory.hpp"

#include "load_error.hpp"

namespace dyn {

struct CsvTable {
  std::string file;
  std::vector<std::string> header;
  int headerLine = 0;
  std::vector<int> lines;  // source line of each row, for messages
  Eigen::MatrixXd values;  // one row per column of the file, one column per row (samples are columns)

  int samples() const { return int(values.cols()); }
  // The source line of a row (of the header for row -1).
  int line(int row) const { return row < 0 ? headerLine : lines[size_t(row)]; }
  // "file:line: message" about a row (the header for row -1), as every loader's error.
  LoadError error(int row, const std::string& message) const { return LoadError(file, line(row), "", message); }
};

// Reads a CSV table of finite numbers with a header row; throws LoadError naming the file and line for rows
// with the wrong number of fields, values that are not finite numbers, repeated column names.
CsvTable readCsv(const std::string& path);
// The same from a stream; `path` names the source in messages.
CsvTable readCsv(std::istream& in, const std::string& path);

// Columns prefix + name for every name: all of them, or nullopt when none is present (unless
// required). Marks the found columns in `used`. A partial group is an error naming the missing ones.
std::optional<std::vector<int>> findColumns(const CsvTable& table, const std::vector<std::string>& names,
                                            const std::string& prefix, std::vector<bool>& used, bool required = false);
// Like findColumns(required = true), with a message saying what kind of column is missing.
std::vector<int> requireColumns(const CsvTable& table, const std::vector<std::string>& names, const std::string& prefix,
                                const char* what, std::vector<bool>& used);
// The given columns as rows of a matrix (columns.size() x samples).
Eigen::MatrixXd gatherColumns(const CsvTable& table, const std::vector<int>& columns);

// "%.17g": the shortest format that reads back bit-exact for every double.
std::string formatCsvNumber(double x);
// Writes a header row and one row per column of `values` (values.rows() == header.size()).
void writeCsv(std::ostream& out, const std::vector<std::string>& header, const Eigen::MatrixXd& values);

// Derivatives along t (strictly increasing, >= 2 samples) from the not-a-knot cubic spline through
// the accumulated displacements U_k = U_k-1 + difference(q_k-1, q_k): q̇_k = U'(t_k), q̈_k = U''(t_k)
// (body rates for spherical and floating joints). Either output may be null.
void splineDerivatives(const Model& model, const Eigen::VectorXd& t, const Eigen::MatrixXd& q, Eigen::MatrixXd* qd,
                       Eigen::MatrixXd* qdd);
// First derivative of vector samples (rows x n) from the same spline.
Eigen::MatrixXd splineDerivative(const Eigen::VectorXd& t, const Eigen::MatrixXd& x);

struct TrajectoryCsvOptions {
  bool accelerations = true;  // read qdd_ columns or derive q̈; when false q̈ is left empty (0 columns)
  bool torques = false;       // require tau_<v name> columns (forward dynamics input)
};

struct TrajectoryCsv {
  SampledTrajectory trajectory;
  Eigen::MatrixXd tau;  // nv x n when options.torques
  bool velocitiesFromSpline = false, accelerationsFromSpline = false;
  std::vector<std::string> ignoredColumns;  // header names no option asked for
};

// Reads a trajectory for model: t strictly increasing, every q column (a zero quaternion is an error
// naming the row and joint), qd_ and qdd_ all or none.
TrajectoryCsv readTrajectoryCsv(const Model& model, const std::string& path, const TrajectoryCsvOptions& options = {});
TrajectoryCsv readTrajectoryCsv(const Model& model, std::istream& in, const std::string& path,
                                const TrajectoryCsvOptions& options = {});

// Writes t, q, and (when asked and present) qd_, qdd_ columns.
void writeTrajectoryCsv(std::ostream& out, const Model& model, const SampledTrajectory& trajectory,
                        bool velocities = true, bool accelerations = true);
// The same to a file, atomically (dynscope/io/atomic_file.hpp): on an error the old file stays as it
// was, and std::runtime_error names the path.
void writeTrajectoryCsv(const std::string& path, const Model& model, const SampledTrajectory& trajectory,
                        bool velocities = true, bool accelerations = true);

}  // namespace dyn
