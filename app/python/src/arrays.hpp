// numpy arrays in and out. An input that is already a float64, C-contiguous numpy array is read in
// place (no copy); anything else numeric (lists, integer or float32 arrays, Fortran-ordered or
// strided arrays) is converted once to float64 in C order. Complex, boolean, text or object input is
// refused, as are wrong shapes, wrong sizes (named as the CLI names them: "q has 5 values, the
// model has nq = 6: ...") and entries that are NaN or infinite (naming the entry).
#pragma once
#include <Eigen/Core>

#include "py_types.hpp"

namespace pyd {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct VectorIn {
  py::object owner;  // keeps a converted copy alive
  const double* data = nullptr;
  Eigen::Index size = 0;
  Eigen::Map<const Eigen::VectorXd> map() const { return {data, size}; }
};

// A vector of any length.
VectorIn vectorIn(py::handle obj, const char* name);
// A vector of `size` entries, called `sizeName` in the model ("nq"), with one name per entry for messages.
VectorIn vectorIn(py::handle obj, const char* name, Eigen::Index size, const char* sizeName,
                  const std::vector<std::string>& names);

// States as rows: an N x cols array (a single vector of cols entries counts as N = 1).
struct MatrixIn {
  py::object owner;
  const double* data = nullptr;
  Eigen::Index rows = 0, cols = 0;
  Eigen::Map<const RowMatrix> map() const { return {data, rows, cols}; }
  const double* row(Eigen::Index i) const { return data + i * cols; }
};
MatrixIn matrixIn(py::handle obj, const char* name, Eigen::Index cols, const char* sizeName,
                  const std::vector<std::string>& names);
// Any N x M matrix (M free).
MatrixIn matrixIn(py::handle obj, const char* name);

// New float64 arrays (C order) holding a copy.
py::array_t<double> vectorOut(const Eigen::Ref<const Eigen::VectorXd>& v);
py::array_t<double> matrixOut(const Eigen::Ref<const Eigen::MatrixXd>& m);
// An uninitialised array of the given shape, C order.
py::array_t<double> arrayOut(std::vector<py::ssize_t> shape);

// "a, b, c" (at most 12 names, then "...").
std::string joinNames(const std::vector<std::string>& names);

}  // namespace pyd
