// Tick spacing and label format of a plot axis: a 1-2-5 step near the wanted tick count, never
// fewer than two ticks inside the range (a step as large as the range could leave only the 0 tick,
// and the scale could not be read), and a label format in which neighbouring ticks differ.
#pragma once
#include <QString>

namespace plots {

struct AxisTicks {
  double step = 1;  // ticks at the multiples of step (anchor 0)
  QString format;   // printf format of a tick label: "%.2f", "%.6g", ...
};

// Ticks for [lo, hi] (lo < hi, finite) with about `target` intervals (>= 1).
AxisTicks axisTicks(double lo, double hi, int target);
// The multiples of step inside [lo, hi].
int ticksInside(double lo, double hi, double step);

}  // namespace plots
