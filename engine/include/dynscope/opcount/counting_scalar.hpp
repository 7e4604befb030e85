// An operation-counting scalar: a double plus thread-local counters, so that running an engine
// algorithm on ModelTpl<CountingScalar> measures its arithmetic cost the way Hollerbach (1980,
// Tables I-II), Saha (Tables 1-2) and Featherstone tabulate it: measured, not quoted.
//   muls: multiplications and divisions      adds: additions and subtractions
//   sin, cos, sqrt, abs, atan2, acos (and the other math functions): counted separately
//   negation, comparisons, conversions and copies: not counted as arithmetic (negs and compares
//   are tallied in their own counters for information).
// Work inside an OpCountScope(OpCategory::JointTransforms) is booked apart (tally().jointTransforms), and so is
// work inside an OpCountScope(OpCategory::Tabulation) (tally().tabulation, joint transforms included).
// Usage: CountingScalar::reset(); run; read CountingScalar::counts() (everything) or tally().
#pragma once
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <limits>

#include "op_count_scope.hpp"

namespace dyn {

struct OpCounts {
  std::int64_t muls = 0, adds = 0, negs = 0, compares = 0;
  std::int64_t sin = 0, cos = 0, sqrt = 0, abs = 0, atan2 = 0, acos = 0, other = 0;  // other: exp, log, tan, ...
  std::int64_t functions() const { return sin + cos + sqrt + abs + atan2 + acos + other; }
  OpCounts operator+(const OpCounts& o) const {
    OpCounts s;
    s.muls = muls + o.muls;
    s.adds = adds + o.adds;
    s.negs = negs + o.negs;
    s.compares = compares + o.compares;
    s.sin = sin + o.sin;
    s.cos = cos + o.cos;
    s.sqrt = sqrt + o.sqrt;
    s.abs = abs + o.abs;
    s.atan2 = atan2 + o.atan2;
    s.acos = acos + o.acos;
    s.other = other + o.other;
    return s;
  }
  OpCounts operator-(const OpCounts& o) const {
    OpCounts d;
    d.muls = muls - o.muls;
    d.adds = adds - o.adds;
    d.negs = negs - o.negs;
    d.compares = compares - o.compares;
    d.sin = sin - o.sin;
    d.cos = cos - o.cos;
    d.sqrt = sqrt - o.sqrt;
    d.abs = abs - o.abs;
    d.atan2 = atan2 - o.atan2;
    d.acos = acos - o.acos;
    d.other = other - o.other;
    return d;
  }
  bool operator==(const OpCounts&) const = default;
};

// The counts of one run, by category.
struct OpTally {
  OpCounts algorithm, jointTransforms, tabulation;
  OpCounts total() const { return algorithm + jointTransforms + tabulation; }
};

struct CountingScalar {
  double v = 0;

  static inline thread_local OpTally tally_{};
  static inline thread_local OpCounts* n = &tally_.algorithm;  // the bucket being counted into
  static void reset() {
    tally_ = OpTally{};
    n = &tally_.algorithm;
  }
  static OpCounts counts() { return tally_.total(); }
  static const OpTally& tally() { return tally_; }

  CountingScalar() = default;
  CountingScalar(double x) : v(x) {}  // implicit: literals and Scalar(0) everywhere in generic code
  explicit operator double() const { return v; }
  double value() const { return v; }

  // arithmetic
  friend CountingScalar operator+(const CountingScalar& a, const CountingScalar& b) {
    ++n->adds;
    return a.v + b.v;
  }
  friend CountingScalar operator-(const CountingScalar& a, const CountingScalar& b) {
    ++n->adds;
    return a.v - b.v;
  }
  friend CountingScalar operator*(const CountingScalar& a, const CountingScalar& b) {
    ++n->muls;
    return a.v * b.v;
  }
  friend CountingScalar operator/(const CountingScalar& a, const CountingScalar& b) {
    ++n->muls;
    return a.v / b.v;
  }
  CountingScalar operator-() const {
    ++n->negs;
    return -v;
  }
  CountingScalar operator+() const { return v; }
  CountingScalar& operator+=(const CountingScalar& b) {
    ++n->adds;
    v += b.v;
    return *this;
  }
  CountingScalar& operator-=(const CountingScalar& b) {
    ++n->adds;
    v -= b.v;
    return *this;
  }
  CountingScalar& operator*=(const CountingScalar& b) {
    ++n->muls;
    v *= b.v;
    return *this;
  }
  CountingScalar& operator/=(const CountingScalar& b) {
    ++n->muls;
    v /= b.v;
    return *this;
  }

  // comparisons
  friend bool operator==(const CountingScalar& a, const CountingScalar& b) {
    ++n->compares;
    return a.v == b.v;
  }
  friend bool operator!=(const CountingScalar& a, const CountingScalar& b) {
    ++n->compares;
    return a.v != b.v;
  }
  friend bool operator<(const CountingScalar& a, const CountingScalar& b) {
    ++n->compares;
    return a.v < b.v;
  }
  friend bool operator<=(const CountingScalar& a, const CountingScalar& b) {
    ++n->compares;
    return a.v <= b.v;
  }
  friend bool operator>(const CountingScalar& a, const CountingScalar& b) {
    ++n->compares;
    return a.v > b.v;
  }
  friend bool operator>=(const CountingScalar& a, const CountingScalar& b) {
    ++n->compares;
    return a.v >= b.v;
  }

  // math functions, found by ADL (generic code says `using std::sin; sin(x)`)
  friend CountingScalar sin(const CountingScalar& a) {
    ++n->sin;
    return std::sin(a.v);
  }
  friend CountingScalar cos(const CountingScalar& a) {
    ++n->cos;
    return std::cos(a.v);
  }
  friend CountingScalar sqrt(const CountingScalar& a) {
    ++n->sqrt;
    return std::sqrt(a.v);
  }
  friend CountingScalar abs(const CountingScalar& a) {
    ++n->abs;
    return std::abs(a.v);
  }
  friend CountingScalar fabs(const CountingScalar& a) {
    ++n->abs;
    return std::abs(a.v);
  }
  friend CountingScalar atan2(const CountingScalar& a, const CountingScalar& b) {
    ++n->atan2;
    return std::atan2(a.v, b.v);
  }
  friend CountingScalar acos(const CountingScalar& a) {
    ++n->acos;
    return std::acos(a.v);
  }
  friend CountingScalar asin(const CountingScalar& a) {
    ++n->other;
    return std::asin(a.v);
  }
  friend CountingScalar atan(const CountingScalar& a) {
    ++n->other;
    return std::atan(a.v);
  }
  friend CountingScalar tan(const CountingScalar& a) {
    ++n->other;
    return std::tan(a.v);
  }
  friend CountingScalar exp(const CountingScalar& a) {
    ++n->other;
    return std::exp(a.v);
  }
  friend CountingScalar log(const CountingScalar& a) {
    ++n->other;
    return std::log(a.v);
  }
  friend CountingScalar pow(const CountingScalar& a, const CountingScalar& b) {
    ++n->other;
    return std::pow(a.v, b.v);
  }
  friend CountingScalar floor(const CountingScalar& a) { return std::floor(a.v); }
  friend CountingScalar ceil(const CountingScalar& a) { return std::ceil(a.v); }
  friend bool isfinite(const CountingScalar& a) { return std::isfinite(a.v); }
  friend bool isnan(const CountingScalar& a) { return std::isnan(a.v); }
  friend bool isinf(const CountingScalar& a) { return std::isinf(a.v); }
};

// Books the arithmetic of its lifetime under `category`, then returns to the enclosing one.
template <>
struct OpCountScope<CountingScalar> {
  OpCounts* previous;
  explicit OpCountScope(OpCategory category) : previous(CountingScalar::n) {
    if (previous == &CountingScalar::tally_.tabulation) return;  // all of a tabulation is off-line work
    CountingScalar::n = category == OpCategory::JointTransforms ? &CountingScalar::tally_.jointTransforms
                        : category == OpCategory::Tabulation    ? &CountingScalar::tally_.tabulation
                                                                : &CountingScalar::tally_.algorithm;
  }
  ~OpCountScope() { CountingScalar::n = previous; }
  OpCountScope(const OpCountScope&) = delete;
  OpCountScope& operator=(const OpCountScope&) = delete;
};

}  // namespace dyn

namespace Eigen {
template <>
struct NumTraits<dyn::CountingScalar> : GenericNumTraits<double> {
  using Real = dyn::CountingScalar;
  using NonInteger = dyn::CountingScalar;
  using Nested = dyn::CountingScalar;
  using Literal = dyn::CountingScalar;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
  static inline Real epsilon() { return std::numeric_limits<double>::epsilon(); }
  static inline Real dummy_precision() { return 1e-12; }
  static inline Real highest() { return std::numeric_limits<double>::max(); }
  static inline Real lowest() { return std::numeric_limits<double>::lowest(); }
  static inline Real infinity() { return std::numeric_limits<double>::infinity(); }
  static inline Real quiet_NaN() { return std::numeric_limits<double>::quiet_NaN(); }
  static inline int digits10() { return std::numeric_limits<double>::digits10; }
  static inline int digits() { return std::numeric_limits<double>::digits; }
};
// Products of CountingScalar matrices with double scalars are not needed: generic code converts.
}  // namespace Eigen
