#include "plots/plot_ticks.hpp"

#include <algorithm>
#include <cmath>

namespace plots {
namespace {

// The 1-2-2.5-5 value at or above x, and the one below a 1-2-2.5-5 value. 2.5 keeps neighbouring
// steps within a factor of two, so four ticks need no more than twice the room of four intervals.
double niceAtLeast(double x) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(x)));
  const double n = x / magnitude;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 2.5 ? 2.5 : n <= 5 ? 5 : 10) * magnitude;
}
double niceBelow(double step) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  const double n = step / magnitude;
  return n >= 4.5 ? 2.5 * magnitude : n >= 2.25 ? 2 * magnitude : n >= 1.5 ? magnitude : 0.5 * magnitude;
}
bool isTwoAndAHalf(double step) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  return std::abs(step / magnitude - 2.5) < 1e-6;
}

}  // namespace

int ticksInside(double lo, double hi, double step) {
  // A little tolerance: a tick on the border (the range padded to a tick) counts.
  const double eps = 1e-9 * step;
  return int(std::floor((hi + eps) / step) - std::ceil((lo - eps) / step)) + 1;
}

double coarsestStep(double lo, double hi, int minTicks) {
  double step = niceAtLeast(std::max(hi - lo, 1e-300));
  for (int k = 0; k < 200 && ticksInside(lo, hi, step) < minTicks; ++k) step = niceBelow(step);
  return step;
}

AxisTicks axisTicks(double lo, double hi, int target, int minTicks) {
  AxisTicks t;
  const double span = hi - lo;
  if (!(span > 0) || !std::isfinite(span)) return {1, QStringLiteral("%g")};
  t.step = std::min(niceAtLeast(span / std::max(target, 1)), coarsestStep(lo, hi, std::max(2, minTicks)));
  const double largest = std::max(std::abs(lo), std::abs(hi));
  const int decimals = int(-std::floor(std::log10(t.step) + 1e-9)) + (isTwoAndAHalf(t.step) ? 1 : 0);
  if (largest < 1e6 && decimals <= 6) {
    t.format = QString("%.%1f").arg(std::max(0, decimals));  // "0.5, 1.0, 1.5" reads best
  } else {
    // Far from 1: enough significant digits that neighbours differ (1.00005e+06, 1.0001e+06).
    const int digits = int(std::floor(std::log10(largest)) - std::floor(std::log10(t.step) + 1e-9)) + 2;
    t.format = QString("%.%1g").arg(std::clamp(digits, 2, 15));
  }
  return t;
}

}  // namespace plots
