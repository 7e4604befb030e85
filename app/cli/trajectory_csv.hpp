// CSV trajectories: reading a table with a named header, and finite differences along t
// (manifold-aware for quaternion joints through dyn::difference).
#pragma once
#include <string>
#include <vector>

#include "dynscope/model/model.hpp"

namespace cli {

struct CsvTable {
  std::string file;
  std::vector<std::string> header;
  int headerLine = 0;
  std::vector<int> lines;  // source line of each row, for messages
  Eigen::MatrixXd values;  // one column per row of the file (samples are columns, as q vectors are)

  int samples() const { return int(values.cols()); }
  // "file:line: " of a row (of the header for row -1).
  std::string where(int row) const {
    return file + ":" + std::to_string(row < 0 ? headerLine : lines[row]) + ": ";
  }
};

// Throws std::runtime_error naming the file and line for rows with the wrong number of fields
// or values that are not finite numbers.
CsvTable readCsv(const std::string& path);

// Velocities (nv x n) from configurations (nq x n) sampled at strictly increasing t: central
// differences inside, one-sided at both ends.
Eigen::MatrixXd differentiateConfigurations(const dyn::Model& model, const Eigen::VectorXd& t,
                                            const Eigen::MatrixXd& q);
// Second derivative (nv x n) of the configurations: three-point differences, ends copy their neighbour.
Eigen::MatrixXd secondDerivativeOfConfigurations(const dyn::Model& model, const Eigen::VectorXd& t,
                                                 const Eigen::MatrixXd& q);
// First derivative of vector samples (rows x n), same stencil as differentiateConfigurations.
Eigen::MatrixXd differentiateVectors(const Eigen::VectorXd& t, const Eigen::MatrixXd& x);

}  // namespace cli
