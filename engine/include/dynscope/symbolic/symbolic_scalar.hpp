// A computer-algebra scalar: GiNaC's expression (Bauer, Frink & Kreckel 2002, "Introduction to the
// GiNaC framework for symbolic computation within the C++ programming language", J. Symbolic
// Computation 33(1)) behind the scalar interface the engine's templates expect, so that RNEA, CRBA
// and the rest run unchanged on ModelTpl<Sym> and return the equations of motion as expressions.
// Only the optional target dynscope_symbolic includes this (GiNaC found); the engine never does.
//
// Numbers: a double becomes the exact rational of its shortest decimal (0.3 -> 3/10), so that
// cancellations are exact (a float 0.3 m a - 0.3 m a would leave 0.0 terms behind); infinities and
// NaN (unlimited joints) become the symbols inf and nan.
// Branches: a comparison is decided when the difference of its sides is a real number, and
// throws SymbolicBranch when it depends on a symbol (an algorithm that branches on a value cannot
// give one closed form; the caller learns which).
#pragma once
#include <ginac/ginac.h>
#include <Eigen/Core>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace dyn {

struct SymbolicBranch : std::domain_error {
  using std::domain_error::domain_error;
};

struct Sym {
  GiNaC::ex e;

  Sym() : e(0) {}
  Sym(const GiNaC::ex& x) : e(x) {}
  Sym(int x) : e(x) {}
  Sym(double x) : e(exactDecimal(x)) {}  // implicit: literals and S(0) in generic code
  explicit operator double() const { return toDouble(e); }

  // One symbol each: GiNaC tells symbols apart by identity, not by name.
  static const GiNaC::realsymbol& infSymbol() {
    static const GiNaC::realsymbol s("inf", "\\infty");
    return s;
  }
  static const GiNaC::realsymbol& nanSymbol() {
    static const GiNaC::realsymbol s("nan", "\\mathrm{NaN}");
    return s;
  }
  static GiNaC::ex exactDecimal(double x) {
    if (std::isnan(x)) return nanSymbol();
    if (std::isinf(x)) return x > 0 ? GiNaC::ex(infSymbol()) : -infSymbol();
    if (x == std::floor(x) && std::abs(x) < 9e15) return GiNaC::numeric(static_cast<long>(x));
    char buf[64];
    const auto end = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific).ptr;
    const std::string s(buf, end);  // shortest round trip: [-]d[.ddd]e[+-]xx
    const std::size_t ePos = s.find('e');
    std::string digits;
    int fraction = 0;
    bool afterPoint = false;
    for (std::size_t k = 0; k < ePos; ++k) {
      if (s[k] == '.')
        afterPoint = true;
      else if (s[k] != '-') {
        digits += s[k];
        fraction += afterPoint;
      }
    }
    const long exponent = std::stol(s.substr(ePos + 1)) - fraction;
    const GiNaC::numeric mantissa(std::stol(digits));
    const GiNaC::numeric value = mantissa * GiNaC::numeric(10).power(exponent);
    return x < 0 ? -value : value;
  }
  // The value when the expression is a real number; SymbolicBranch when it depends on a symbol.
  static double toDouble(const GiNaC::ex& x) {
    const GiNaC::ex v = x.evalf();
    if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
      throw SymbolicBranch("the value of a symbolic expression was needed: " + toString(x));
    return GiNaC::ex_to<GiNaC::numeric>(v).to_double();
  }
  static std::string toString(const GiNaC::ex& x) {
    std::ostringstream out;
    out << x;
    return out.str();
  }

  friend Sym operator+(const Sym& a, const Sym& b) { return a.e + b.e; }
  friend Sym operator-(const Sym& a, const Sym& b) { return a.e - b.e; }
  friend Sym operator*(const Sym& a, const Sym& b) { return a.e * b.e; }
  friend Sym operator/(const Sym& a, const Sym& b) { return a.e / b.e; }
  Sym operator-() const { return -e; }
  Sym operator+() const { return e; }
  Sym& operator+=(const Sym& b) { return e += b.e, *this; }
  Sym& operator-=(const Sym& b) { return e -= b.e, *this; }
  Sym& operator*=(const Sym& b) { return e *= b.e, *this; }
  Sym& operator/=(const Sym& b) { return e /= b.e, *this; }

  // Decided on the numeric difference only (see the top of the file).
  static double difference(const Sym& a, const Sym& b) { return toDouble(a.e - b.e); }
  friend bool operator==(const Sym& a, const Sym& b) { return difference(a, b) == 0; }
  friend bool operator!=(const Sym& a, const Sym& b) { return difference(a, b) != 0; }
  friend bool operator<(const Sym& a, const Sym& b) { return difference(a, b) < 0; }
  friend bool operator<=(const Sym& a, const Sym& b) { return difference(a, b) <= 0; }
  friend bool operator>(const Sym& a, const Sym& b) { return difference(a, b) > 0; }
  friend bool operator>=(const Sym& a, const Sym& b) { return difference(a, b) >= 0; }

  // Found by ADL from generic code's `using std::sin; sin(x)`.
  friend Sym sin(const Sym& a) { return GiNaC::ex(GiNaC::sin(a.e)); }
  friend Sym cos(const Sym& a) { return GiNaC::ex(GiNaC::cos(a.e)); }
  friend Sym tan(const Sym& a) { return GiNaC::ex(GiNaC::tan(a.e)); }
  friend Sym asin(const Sym& a) { return GiNaC::ex(GiNaC::asin(a.e)); }
  friend Sym acos(const Sym& a) { return GiNaC::ex(GiNaC::acos(a.e)); }
  friend Sym atan(const Sym& a) { return GiNaC::ex(GiNaC::atan(a.e)); }
  friend Sym atan2(const Sym& y, const Sym& x) { return GiNaC::ex(GiNaC::atan2(y.e, x.e)); }
  friend Sym sqrt(const Sym& a) { return GiNaC::ex(GiNaC::sqrt(a.e)); }
  friend Sym abs(const Sym& a) { return GiNaC::ex(GiNaC::abs(a.e)); }
  friend Sym fabs(const Sym& a) { return GiNaC::ex(GiNaC::abs(a.e)); }
  friend Sym exp(const Sym& a) { return GiNaC::ex(GiNaC::exp(a.e)); }
  friend Sym log(const Sym& a) { return GiNaC::ex(GiNaC::log(a.e)); }
  friend Sym pow(const Sym& a, const Sym& b) { return GiNaC::ex(GiNaC::pow(a.e, b.e)); }
  // A symbol stands for a finite real number; only the symbols made from inf and nan do not.
  friend bool isfinite(const Sym& a) {
    return !a.e.has(infSymbol()) && !a.e.has(nanSymbol()) &&
           (!GiNaC::is_a<GiNaC::numeric>(a.e) || std::isfinite(toDouble(a.e)));
  }
  friend bool isnan(const Sym& a) { return a.e.has(nanSymbol()); }
  friend bool isinf(const Sym& a) { return !isfinite(a); }
};

}  // namespace dyn

namespace Eigen {
template <>
struct NumTraits<dyn::Sym> : GenericNumTraits<double> {
  using Real = dyn::Sym;
  using NonInteger = dyn::Sym;
  using Nested = dyn::Sym;
  using Literal = dyn::Sym;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
  static inline Real epsilon() { return 0; }  // exact arithmetic
  static inline Real dummy_precision() { return 0; }
  static inline Real highest() { return std::numeric_limits<double>::infinity(); }
  static inline Real lowest() { return -std::numeric_limits<double>::infinity(); }
  static inline Real infinity() { return std::numeric_limits<double>::infinity(); }
  static inline Real quiet_NaN() { return std::numeric_limits<double>::quiet_NaN(); }
  static inline int digits10() { return std::numeric_limits<double>::digits10; }
  static inline int digits() { return std::numeric_limits<double>::digits; }
};
}  // namespace Eigen
