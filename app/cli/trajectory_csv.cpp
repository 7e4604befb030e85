#include "trajectory_csv.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <stdexcept>

#include "dynscope/algorithms/configuration.hpp"

namespace cli {
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
    fields.push_back(
        trim(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

// Shared stencil of the first derivative. step(k) is the displacement from sample k to k+1 as a
// tangent vector (the manifold differences are the same seen from either end, so no transport is needed).
Eigen::MatrixXd firstDerivative(const Eigen::VectorXd& t, int rows,
                                const std::function<Eigen::VectorXd(int)>& step) {
  const int n = int(t.size());
  Eigen::MatrixXd d(rows, n);
  if (n < 2) throw std::logic_error("finite differences need 2 samples");
  Eigen::VectorXd previous = step(0);
  d.col(0) = previous / (t[1] - t[0]);  // one-sided at the start
  for (int k = 1; k < n - 1; ++k) {
    const Eigen::VectorXd next = step(k);
    const double hm = t[k] - t[k - 1], hp = t[k + 1] - t[k];
    // Three-point central difference on a non-uniform grid; (next + previous) / 2h when uniform.
    d.col(k) = (hm * hm * next + hp * hp * previous) / (hp * hm * (hp + hm));
    previous = next;
  }
  d.col(n - 1) = previous / (t[n - 1] - t[n - 2]);  // one-sided at the end
  return d;
}

}  // namespace

CsvTable readCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the trajectory file");
  CsvTable table;
  table.file = path;
  std::vector<double> flat;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string content = trim(line);
    if (content.empty() || content[0] == '#') continue;  // blank lines and comments
    const std::vector<std::string> fields = splitFields(content);
    const std::string at = path + ":" + std::to_string(number) + ": ";
    if (table.header.empty()) {
      table.headerLine = number;
      for (const auto& f : fields) {
        if (f.empty()) throw std::runtime_error(at + "the header has an empty column name");
        for (const auto& seen : table.header)
          if (seen == f) throw std::runtime_error(at + "column '" + f + "' appears twice in the header");
        table.header.push_back(f);
      }
      continue;
    }
    if (fields.size() != table.header.size())
      throw std::runtime_error(at + "row has " + std::to_string(fields.size()) +
                               " fields, the header (line " + std::to_string(table.headerLine) + ") has " +
                               std::to_string(table.header.size()));
    for (size_t c = 0; c < fields.size(); ++c) {
      char* end = nullptr;
      const double x = std::strtod(fields[c].c_str(), &end);
      if (fields[c].empty() || end != fields[c].c_str() + fields[c].size() || !std::isfinite(x))
        throw std::runtime_error(at + "column '" + table.header[c] + "': '" + fields[c] +
                                 "' is not a finite number");
      flat.push_back(x);
    }
    table.lines.push_back(number);
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  if (table.header.empty()) throw std::runtime_error(path + ": the file is empty (expected a header row)");
  const Eigen::Index cols = Eigen::Index(table.header.size());
  table.values = Eigen::Map<Eigen::MatrixXd>(flat.data(), cols, Eigen::Index(table.lines.size()));
  return table;
}

Eigen::MatrixXd differentiateConfigurations(const dyn::Model& model, const Eigen::VectorXd& t,
                                            const Eigen::MatrixXd& q) {
  Eigen::VectorXd v(model.nv);
  return firstDerivative(t, model.nv, [&](int k) {
    dyn::difference(model, q.col(k), q.col(k + 1), v);
    return v;
  });
}

Eigen::MatrixXd secondDerivativeOfConfigurations(const dyn::Model& model, const Eigen::VectorXd& t,
                                                 const Eigen::MatrixXd& q) {
  const int n = int(t.size());
  if (n < 3) throw std::logic_error("second differences need 3 samples");
  Eigen::MatrixXd a(model.nv, n);
  Eigen::VectorXd previous(model.nv), next(model.nv);
  dyn::difference(model, q.col(0), q.col(1), previous);
  for (int k = 1; k < n - 1; ++k) {
    dyn::difference(model, q.col(k), q.col(k + 1), next);
    const double hm = t[k] - t[k - 1], hp = t[k + 1] - t[k];
    a.col(k) = 2.0 * (next / hp - previous / hm) / (hp + hm);
    previous = next;
  }
  a.col(0) = a.col(1);  // one-sided: the nearest three-point estimate
  a.col(n - 1) = a.col(n - 2);
  return a;
}

Eigen::MatrixXd differentiateVectors(const Eigen::VectorXd& t, const Eigen::MatrixXd& x) {
  return firstDerivative(t, int(x.rows()), [&](int k) { return Eigen::VectorXd(x.col(k + 1) - x.col(k)); });
}

}  // namespace cli
