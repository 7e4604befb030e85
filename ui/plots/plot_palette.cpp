#include "plots/plot_palette.hpp"

#include <QPainter>
#include <QPainterPath>
#include <array>
#include <cmath>
#include <numbers>

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

// Okabe & Ito, "Color Universal Design" (2008): blue, orange, bluish green, reddish purple,
// black, sky blue, vermillion. The order maximises the smallest lightness difference between
// two of the first 13 series that share a marker (i mod 5): 8.8 L* units.
const std::array<QColor, kColorCount> kColors = {
    QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
    QColor(0x00, 0x00, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0xD5, 0x5E, 0x00)};

}  // namespace

Lab toLab(const QColor& c) { return labOf(c.redF(), c.greenF(), c.blueF()); }

QColor seriesColor(int i) {
  const int n = kColorCount;
  return kColors[std::size_t(((i % n) + n) % n)];
}

QList<qreal> seriesDashes(int i) {
  const int cycle = ((i % kPaletteSize) + kPaletteSize) % kPaletteSize / kColorCount;
  switch (cycle) {
    case 1:
      return {5, 2.5};  // dashed
    case 2:
      return {1, 2};  // dotted
    case 3:
      return {6, 2, 1, 2};  // dash-dot
    case 4:
      return {11, 3};  // long dash
    default:
      return {};  // solid
  }
}

QPen seriesPen(int i, qreal width) {
  QPen pen(seriesColor(i), width);
  const QList<qreal> dashes = seriesDashes(i);
  if (!dashes.isEmpty()) pen.setDashPattern(dashes);
  return pen;
}

Marker seriesMarker(int i) {
  constexpr Marker kMarkers[kMarkerCount] = {Marker::Circle, Marker::Square, Marker::Triangle, Marker::Star,
                                             Marker::Pentagon};
  return kMarkers[((i % kMarkerCount) + kMarkerCount) % kMarkerCount];
}

void drawMarker(QPainter* painter, Marker marker, QPointF c, qreal size, const QColor& color) {
  if (marker == Marker::None) return;
  const qreal r = size / 2;
  QPainterPath path;
  auto polygon = [&](int corners, qreal inner) {  // inner > 0: a star with that inner radius
    QPolygonF p;
    const int points = inner > 0 ? 2 * corners : corners;
    for (int k = 0; k < points; ++k) {
      const double a = -std::numbers::pi / 2 + 2 * std::numbers::pi * k / points;
      const qreal rad = inner > 0 && k % 2 ? inner : r;
      p << c + QPointF(rad * std::cos(a), rad * std::sin(a));
    }
    path.addPolygon(p);
    path.closeSubpath();
  };
  switch (marker) {
    case Marker::Circle:
      path.addEllipse(c, r * 0.85, r * 0.85);
      break;
    case Marker::Square:
      path.addRect(QRectF(c.x() - 0.75 * r, c.y() - 0.75 * r, 1.5 * r, 1.5 * r));
      break;
    case Marker::Triangle:
      polygon(3, 0);
      break;
    case Marker::Star:
      polygon(5, 0.45 * r);
      break;
    case Marker::Pentagon:
      polygon(5, 0);
      break;
    case Marker::None:
      break;
  }
  painter->save();
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setPen(QPen(color.darker(115), 1));
  painter->setBrush(color);
  painter->drawPath(path);
  painter->restore();
}

}  // namespace plots
