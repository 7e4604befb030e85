// Min/max decimation of a sampled curve for drawing: at most two points per horizontal pixel,
// so 10,000 samples per series cost what the plot width costs. The extremes of every bucket
// are kept, so peaks (e.g. a torque spike over a limit) never disappear when zoomed out.
#pragma once
#include <QList>
#include <QPointF>
#include <span>

namespace plots {

// Samples (t[k], y[k]) with t non-decreasing. Returns the points to draw for the window
// [x0, x1] split into `buckets` equal buckets: bucket b holds the samples with
// floor((t - x0) / (x1 - x0) * buckets) == b (t == x1 goes to the last one).
//  - If the window holds at most 2 * buckets samples, they are returned unchanged.
//  - Otherwise each non-empty bucket contributes its minimum and its maximum (in time order,
//    once if they are the same sample); non-finite values are skipped.
// In both cases the nearest sample outside the window on each side is added, so the line runs
// on to the edges of the plot.
QList<QPointF> decimateMinMax(std::span<const double> t, std::span<const double> y, double x0, double x1, int buckets);

// Index of the sample nearest to time x (t non-decreasing, non-empty), -1 if t is empty.
int nearestSample(std::span<const double> t, double x);

}  // namespace plots
