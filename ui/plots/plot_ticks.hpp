// Tick spacing and label format of a plot axis: a 1-2-2.5-5 step near the wanted tick count,
// never fewer than `minTicks` ticks inside the range (four by default: a scale is read from its
// ticks), and a label format in which neighbouring ticks differ.
#pragma once
#include <QString>

namespace plots {

struct AxisTicks {
  double step = 1;  // ticks at the multiples of step (anchor 0)
  QString format;   // printf format of a tick label: "%.2f", "%.6g", ...
};

// Ticks for [lo, hi] (lo < hi, finite) with about `target` intervals (>= 1).
AxisTicks axisTicks(double lo, double hi, int target, int minTicks = 4);
// The multiples of step inside [lo, hi].
int ticksInside(double lo, double hi, double step);
// The largest step of the 1-2-2.5-5 sequence with at least `minTicks` multiples in [lo, hi].
double coarsestStep(double lo, double hi, int minTicks = 4);

}  // namespace plots
