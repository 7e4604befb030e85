// A small streaming JSON writer: 2-space indentation, keys in the order they are written,
// doubles with 17 significant digits so every value reads back bit-exact, non-finite as null.
// Its output is always valid JSON (RFC 8259): strings are escaped, and bytes that are not UTF-8
// (a file name on the command line, say) become U+FFFD. We keep this writer rather than a JSON
// library because it streams (a 10,000-dof mass matrix is never held as a document tree) and its
// number format is the CLI's documented one.
#pragma once
#include <Eigen/Core>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

// The shortest text that reads back as exactly x ("-9.81", "1e-05"), or "null" for NaN and
// infinities (JSON has no such numbers).
std::string formatJsonNumber(double x);

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void beginObject();
  void endObject();
  void beginArray();
  void endArray();
  void key(std::string_view k);

  void value(double x);
  void value(int x);
  void value(long long x);  // counts (operation counts exceed int on long chains)
  void value(bool x);
  void value(std::string_view s);
  void value(const char* s) { value(std::string_view(s)); }
  void null();

  // Arrays of scalars print on one line, so vectors and matrix rows stay readable.
  void inlineArray(const std::vector<double>& xs);
  void inlineArray(const std::vector<bool>& xs);
  void inlineArray(const std::vector<std::string>& xs);
  template <class Derived>
  void inlineArray(const Eigen::DenseBase<Derived>& v) {
    std::vector<double> xs(v.size());
    for (Eigen::Index k = 0; k < v.size(); ++k) xs[k] = double(v.derived()(k));
    inlineArray(xs);
  }
  // A matrix as an array of rows.
  template <class Derived>
  void matrix(const Eigen::MatrixBase<Derived>& m) {
    beginArray();
    for (Eigen::Index r = 0; r < m.rows(); ++r) inlineArray(m.row(r));
    endArray();
  }

  // How many NaN/inf numbers were written as null (worth a warning: the result is not usable).
  int nonFiniteCount() const { return nonFinite_; }

  // key + value in one call.
  template <class T>
  void field(std::string_view k, const T& v) {
    key(k);
    value(v);
  }
  template <class T>
  void arrayField(std::string_view k, const T& v) {
    key(k);
    inlineArray(v);
  }

 private:
  struct Level {
    bool isObject;
    int count = 0;
  };
  void beforeValue();  // comma, newline and indentation as the position requires
  void newline();

  std::ostream& out_;
  std::vector<Level> stack_;
  bool afterKey_ = false;
  int nonFinite_ = 0;
};

}  // namespace cli
