#include "arrays.hpp"

#include <cmath>
#include <stdexcept>

namespace pyd {
namespace {

using Exact = py::array_t<double, py::array::c_style>;
using Converted = py::array_t<double, py::array::c_style | py::array::forcecast>;

std::string shapeText(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t k = 0; k < a.ndim(); ++k) s += (k ? ", " : "") + std::to_string(a.shape(k));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

// Float64 in C order: the argument itself when it already is one, else a converted copy.
py::array asDoubles(py::handle obj, const char* name) {
  if (Exact::check_(obj)) return py::reinterpret_borrow<py::array>(obj);
  if (py::isinstance<py::array>(obj)) {
    const char kind = py::reinterpret_borrow<py::array>(obj).dtype().kind();
    if (kind != 'f' && kind != 'i' && kind != 'u')
      throw py::type_error(std::string(name) + " must hold real numbers; got an array of dtype " +
                           py::str(py::reinterpret_borrow<py::array>(obj).dtype()).cast<std::string>());
  } else if (obj.is_none() || py::isinstance<py::str>(obj) || py::isinstance<py::bytes>(obj)) {
    throw py::type_error(std::string(name) + " must be a sequence of numbers (a list or a numpy array); got " +
                         py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>());
  }
  py::array a = Converted::ensure(obj);
  if (!a) {
    throw py::type_error(std::string(name) + " must be a sequence of numbers (a list or a numpy array); got " +
                         py::repr(obj).cast<std::string>().substr(0, 60));
  }
  if (a.dtype().kind() == 'O')
    throw py::type_error(std::string(name) + " must hold numbers only; got " +
                         py::repr(obj).cast<std::string>().substr(0, 60));
  return a;
}

void requireFinite(const double* x, Eigen::Index n, const char* name, const std::vector<std::string>& names,
                   Eigen::Index cols) {
  for (Eigen::Index k = 0; k < n; ++k)
    if (!std::isfinite(x[k])) {
      const Eigen::Index c = cols > 0 ? k % cols : k;
      std::string where = cols > 0 && n > cols ? "[" + std::to_string(k / cols) + ", " + std::to_string(c) + "]"
                                               : "[" + std::to_string(c) + "]";
      if (c < Eigen::Index(names.size())) where += " (" + names[size_t(c)] + ")";
      throw py::value_error(std::string(name) + where + " is " + (std::isnan(x[k]) ? "NaN" : "infinite") +
                            ": every entry must be a finite number");
    }
}

}  // namespace

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (size_t k = 0; k < names.size(); ++k) {
    if (k == 12) return s + ", ...";
    s += (k ? ", " : "") + names[k];
  }
  return s;
}

VectorIn vectorIn(py::handle obj, const char* name) {
  py::array a = asDoubles(obj, name);
  if (a.ndim() != 1 && !(a.ndim() == 2 && (a.shape(0) == 1 || a.shape(1) == 1)))
    throw py::value_error(std::string(name) + " must be a vector; got an array of shape " + shapeText(a));
  VectorIn in;
  in.data = static_cast<const double*>(a.data());
  in.size = Eigen::Index(a.size());
  in.owner = std::move(a);
  requireFinite(in.data, in.size, name, {}, 0);
  return in;
}

VectorIn vectorIn(py::handle obj, const char* name, Eigen::Index size, const char* sizeName,
                  const std::vector<std::string>& names) {
  py::array a = asDoubles(obj, name);
  if (a.ndim() != 1 && !(a.ndim() == 2 && (a.shape(0) == 1 || a.shape(1) == 1)))
    throw py::value_error(std::string(name) + " must be a vector of " + std::to_string(size) + " values (" + sizeName +
                          "); got an array of shape " + shapeText(a));
  if (Eigen::Index(a.size()) != size)
    throw py::value_error(std::string(name) + " has " + std::to_string(a.size()) + " value" +
                          (a.size() == 1 ? "" : "s") + ", the model has " + sizeName + " = " + std::to_string(size) +
                          (names.empty() ? "" : ": ") + joinNames(names));
  VectorIn in;
  in.data = static_cast<const double*>(a.data());
  in.size = size;
  in.owner = std::move(a);
  requireFinite(in.data, in.size, name, names, 0);
  return in;
}

MatrixIn matrixIn(py::handle obj, const char* name, Eigen::Index cols, const char* sizeName,
                  const std::vector<std::string>& names) {
  py::array a = asDoubles(obj, name);
  MatrixIn in;
  if (a.ndim() == 1 && Eigen::Index(a.size()) == cols) {
    in.rows = 1;
  } else if (a.ndim() == 2) {
    if (Eigen::Index(a.shape(1)) != cols)
      throw py::value_error(std::string(name) + " has " + std::to_string(a.shape(1)) + " columns, the model has " +
                            sizeName + " = " + std::to_string(cols) + (names.empty() ? "" : ": ") + joinNames(names) +
                            " (one state per row)");
    in.rows = Eigen::Index(a.shape(0));
  } else {
    throw py::value_error(std::string(name) + " must be an N x " + std::to_string(cols) +
                          " array (one state per row, " + sizeName + " = " + std::to_string(cols) +
                          " columns); got shape " + shapeText(a));
  }
  in.cols = cols;
  in.data = static_cast<const double*>(a.data());
  in.owner = std::move(a);
  requireFinite(in.data, in.rows * in.cols, name, names, cols);
  return in;
}

MatrixIn matrixIn(py::handle obj, const char* name) {
  py::array a = asDoubles(obj, name);
  MatrixIn in;
  if (a.ndim() == 1) {
    in.rows = Eigen::Index(a.shape(0));
    in.cols = 1;
  } else if (a.ndim() == 2) {
    in.rows = Eigen::Index(a.shape(0));
    in.cols = Eigen::Index(a.shape(1));
  } else {
    throw py::value_error(std::string(name) + " must be a 1-D or 2-D array; got shape " + shapeText(a));
  }
  in.data = static_cast<const double*>(a.data());
  in.owner = std::move(a);
  requireFinite(in.data, in.rows * in.cols, name, {}, in.cols);
  return in;
}

py::array_t<double> arrayOut(std::vector<py::ssize_t> shape) { return py::array_t<double>(std::move(shape)); }

py::array_t<double> vectorOut(const Eigen::Ref<const Eigen::VectorXd>& v) {
  py::array_t<double> out(v.size());
  Eigen::Map<Eigen::VectorXd>(out.mutable_data(), v.size()) = v;
  return out;
}

py::array_t<double> matrixOut(const Eigen::Ref<const Eigen::MatrixXd>& m) {
  py::array_t<double> out({py::ssize_t(m.rows()), py::ssize_t(m.cols())});
  Eigen::Map<RowMatrix>(out.mutable_data(), m.rows(), m.cols()) = m;
  return out;
}

void requireSameModel(const PyModel& model, const PyData& data) {
  if (data.model != model.ptr)
    throw py::value_error("data was made for another model (" + data.model->name +
                          "); make one with dynscope.Data(model)");
}

}  // namespace pyd
