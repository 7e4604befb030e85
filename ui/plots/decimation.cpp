#include "plots/decimation.hpp"

#include <algorithm>
#include <cmath>

namespace plots {

QList<QPointF> decimateMinMax(std::span<const double> t, std::span<const double> y, double x0, double x1, int buckets) {
  const std::size_t n = std::min(t.size(), y.size());
  QList<QPointF> out;
  if (n == 0 || !(x1 > x0) || buckets < 1) return out;
  const auto tEnd = t.begin() + std::ptrdiff_t(n);
  const std::size_t first = std::size_t(std::lower_bound(t.begin(), tEnd, x0) - t.begin());
  const std::size_t last = std::size_t(std::upper_bound(t.begin(), tEnd, x1) - t.begin());  // one past
  auto add = [&](std::size_t k) {
    if (std::isfinite(y[k])) out.append(QPointF(t[k], y[k]));  // a NaN would break the polyline
  };

  if (first > 0) add(first - 1);
  if (last - first <= std::size_t(2) * std::size_t(buckets)) {
    out.reserve(qsizetype(last - first + 2));
    for (std::size_t k = first; k < last; ++k) add(k);
  } else {
    out.reserve(2 * buckets + 2);
    // Exactly the documented expression, so that callers can recompute a sample's bucket.
    auto bucket = [&](double tk) { return std::min(int((tk - x0) / (x1 - x0) * buckets), buckets - 1); };
    std::size_t k = first;
    while (k < last) {
      const int b = bucket(t[k]);
      std::size_t lo = n, hi = n;  // indices of the bucket's min and max (n: none finite yet)
      for (; k < last && bucket(t[k]) == b; ++k) {
        if (!std::isfinite(y[k])) continue;
        if (lo == n || y[k] < y[lo]) lo = k;
        if (hi == n || y[k] > y[hi]) hi = k;
      }
      if (lo == n) continue;
      add(std::min(lo, hi));
      if (lo != hi) add(std::max(lo, hi));
    }
  }
  if (last < n) add(last);
  return out;
}

int nearestSample(std::span<const double> t, double x) {
  if (t.empty()) return -1;
  const auto it = std::lower_bound(t.begin(), t.end(), x);
  if (it == t.begin()) return 0;
  if (it == t.end()) return int(t.size()) - 1;
  const auto prev = it - 1;
  return int((x - *prev <= *it - x ? prev : it) - t.begin());
}

}  // namespace plots
