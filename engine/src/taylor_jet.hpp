// A second-order Taylor number x(t) ~ (x, x', x'') for exact first and second time derivatives
// of smooth maps (forward-mode automatic differentiation), so the velocity and acceleration of a
// curve on the joint manifolds come out exact, not finite-differenced. Private to the engine.
#pragma once
#include <Eigen/Core>
#include <cmath>
#include <limits>

namespace dyn::detail {

struct Jet {
  double v = 0, d = 0, dd = 0;  // value, first and second derivative
  Jet() = default;
  Jet(double x) : v(x) {}  // NOLINT: constants convert implicitly, as double does
  Jet(double x, double xd, double xdd) : v(x), d(xd), dd(xdd) {}

  Jet& operator+=(const Jet& o) {
    v += o.v;
    d += o.d;
    dd += o.dd;
    return *this;
  }
  Jet& operator-=(const Jet& o) {
    v -= o.v;
    d -= o.d;
    dd -= o.dd;
    return *this;
  }
  Jet& operator*=(const Jet& o) { return *this = *this * o; }
  Jet& operator/=(const Jet& o) { return *this = *this / o; }
  friend Jet operator+(Jet a, const Jet& b) { return a += b; }
  friend Jet operator-(Jet a, const Jet& b) { return a -= b; }
  friend Jet operator-(const Jet& a) { return {-a.v, -a.d, -a.dd}; }
  // (ab)' = a'b + ab', (ab)'' = a''b + 2a'b' + ab''
  friend Jet operator*(const Jet& a, const Jet& b) {
    return {a.v * b.v, a.d * b.v + a.v * b.d, a.dd * b.v + 2 * a.d * b.d + a.v * b.dd};
  }
  friend Jet operator/(const Jet& a, const Jet& b) { return a * b.reciprocal(); }
  // f(x): (f, f' x', f'' x'^2 + f' x'')
  Jet chain(double f, double f1, double f2) const { return {f, f1 * d, f2 * d * d + f1 * dd}; }
  Jet reciprocal() const { return chain(1 / v, -1 / (v * v), 2 / (v * v * v)); }

  friend bool operator<(const Jet& a, const Jet& b) { return a.v < b.v; }
  friend bool operator>(const Jet& a, const Jet& b) { return a.v > b.v; }
  friend bool operator<=(const Jet& a, const Jet& b) { return a.v <= b.v; }
  friend bool operator>=(const Jet& a, const Jet& b) { return a.v >= b.v; }
  friend bool operator==(const Jet& a, const Jet& b) { return a.v == b.v && a.d == b.d && a.dd == b.dd; }
  friend bool operator!=(const Jet& a, const Jet& b) { return !(a == b); }
};

inline Jet sqrt(const Jet& x) {
  const double r = std::sqrt(x.v);
  return x.chain(r, 0.5 / r, -0.25 / (r * x.v));
}
inline Jet sin(const Jet& x) { return x.chain(std::sin(x.v), std::cos(x.v), -std::sin(x.v)); }
inline Jet cos(const Jet& x) { return x.chain(std::cos(x.v), -std::sin(x.v), -std::cos(x.v)); }
inline Jet abs(const Jet& x) { return x.v < 0 ? -x : x; }

}  // namespace dyn::detail

namespace Eigen {
template <>
struct NumTraits<dyn::detail::Jet> : GenericNumTraits<double> {
  using Real = dyn::detail::Jet;
  using NonInteger = dyn::detail::Jet;
  using Nested = dyn::detail::Jet;
  using Literal = dyn::detail::Jet;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 3,
    AddCost = 3,
    MulCost = 9
  };
  static inline Real epsilon() { return std::numeric_limits<double>::epsilon(); }
  static inline Real dummy_precision() { return 1e-12; }
  static inline Real highest() { return std::numeric_limits<double>::max(); }
  static inline Real lowest() { return std::numeric_limits<double>::lowest(); }
  static inline int digits10() { return std::numeric_limits<double>::digits10; }
};
}  // namespace Eigen
