#include "plots/plot_palette.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace plots {
namespace {

double linearise(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

Lab labOf(double r, double g, double b) {
  r = linearise(r), g = linearise(g), b = linearise(b);
  // sRGB -> XYZ normalised by the D65 white point.
  const double X = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const double Y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
  const double Z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883;
  auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
  const double fx = f(X), fy = f(Y), fz = f(Z);
  return {116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)};
}

double distance(const Lab& p, const Lab& q) { return std::hypot(p.L - q.L, p.a - q.a, p.b - q.b); }

std::array<QColor, kPaletteSize> buildPalette() {
  const char* seeds[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                         "#8c564b", "#e377c2", "#17becf", "#bcbd22"};
  std::array<QColor, kPaletteSize> palette;
  std::vector<Lab> chosen;
  int n = 0;
  for (const char* s : seeds) {
    palette[n++] = QColor(s);
    chosen.push_back(toLab(QColor(s)));
  }
  struct Candidate {
    QColor color;
    Lab lab;
    double nearest;  // distance to the closest colour chosen so far
  };
  std::vector<Candidate> candidates;
  constexpr int kSteps = 16;  // 0x00, 0x11, ..., 0xff per channel
  for (int r = 0; r < kSteps; ++r)
    for (int g = 0; g < kSteps; ++g)
      for (int b = 0; b < kSteps; ++b) {
        const QColor c(r * 17, g * 17, b * 17);
        const Lab lab = toLab(c);
        if (lab.L < 30 || lab.L > 75 || std::hypot(lab.a, lab.b) < 25) continue;
        double nearest = INFINITY;
        for (const Lab& p : chosen) nearest = std::min(nearest, distance(lab, p));
        candidates.push_back({c, lab, nearest});
      }
  while (n < kPaletteSize) {
    auto best = std::max_element(candidates.begin(), candidates.end(),
                                 [](const Candidate& x, const Candidate& y) { return x.nearest < y.nearest; });
    palette[n++] = best->color;
    const Lab picked = best->lab;
    for (Candidate& c : candidates) c.nearest = std::min(c.nearest, distance(c.lab, picked));
  }
  return palette;
}

}  // namespace

Lab toLab(const QColor& c) { return labOf(c.redF(), c.greenF(), c.blueF()); }

QColor seriesColor(int i) {
  static const std::array<QColor, kPaletteSize> palette = buildPalette();
  const int n = kPaletteSize;
  return palette[((i % n) + n) % n];
}

}  // namespace plots
