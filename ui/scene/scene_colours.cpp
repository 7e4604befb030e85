#include "scene/scene_colours.hpp"

#include <algorithm>
#include <cmath>

namespace scene {
namespace {

double linear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

std::array<double, 3> lab(const Rgb& c) {
  const double r = linear(c[0]), g = linear(c[1]), b = linear(c[2]);
  // sRGB -> XYZ (D65), normalised by the white point.
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const auto f = [](double t) { return t > 216.0 / 24389 ? std::cbrt(t) : (24389.0 / 27 * t + 16) / 116; };
  const double fx = f(x), fy = f(y), fz = f(z);
  return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

}  // namespace

double deltaE(const Rgb& a, const Rgb& b) {
  const auto p = lab(a), q = lab(b);
  return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
}

double relativeLuminance(const Rgb& c) { return 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]); }

double contrastRatio(const Rgb& a, const Rgb& b) {
  const double la = relativeLuminance(a), lb = relativeLuminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

Rgb highlightFor(const std::vector<Rgb>& links) {
  const Rgb candidates[] = {kHighlightOrange, {0.10, 0.50, 1.0}, {0.90, 0.15, 0.90}, {0.20, 0.85, 0.25}};
  const auto worst = [&](const Rgb& h) {
    double d = 1e9;
    for (const Rgb& c : links) d = std::min(d, deltaE(h, c));
    return d;
  };
  if (worst(kHighlightOrange) >= kHighlightDeltaE) return kHighlightOrange;
  const Rgb* best = &candidates[0];
  for (const Rgb& h : candidates)
    if (worst(h) > worst(*best)) best = &h;
  return *best;
}

Rgb readableOn(const Rgb& c, const Rgb& backing, double ratio) {
  const bool darken = relativeLuminance(backing) > 0.18;
  Rgb out = c;
  for (int k = 0; k < 100 && contrastRatio(out, backing) < ratio; ++k)
    for (double& v : out) v = darken ? v * 0.95 : v + (1 - v) * 0.05;
  return out;
}

Rgb over(const Rgb& panel, double alpha, const Rgb& behind) {
  Rgb out;
  for (int k = 0; k < 3; ++k) out[k] = alpha * panel[k] + (1 - alpha) * behind[k];
  return out;
}

}  // namespace scene
