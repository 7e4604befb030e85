// Series styles for plots with many series: colour, dash pattern and marker, chosen so that
// lines stay distinguishable for colour-blind viewers and in grey print. See docs/plots.md.
#pragma once
#include <QColor>
#include <QList>
#include <QPen>

class QPainter;

namespace plots {

// The seven Okabe & Ito (2008) colours that read on white (their yellow does not), in an order
// that keeps the operation-count figure's 13 formulations apart in grey (see seriesMarker).
constexpr int kColorCount = 7;
// Series i: colour i mod 7; each further cycle of seven gets the next dash pattern (solid,
// dashed, dotted, dash-dot, long dash), so 35 series differ in colour or in dash pattern.
constexpr int kPaletteSize = 5 * kColorCount;
QColor seriesColor(int i);
QList<qreal> seriesDashes(int i);  // in units of the pen width; empty: solid
QPen seriesPen(int i, qreal width);

// Markers of a series' points (the operation-count figure): i mod 5, coprime with the seven
// colours, so two series with the same marker differ in colour and in lightness (L* >= 8).
enum class Marker { None, Circle, Square, Triangle, Star, Pentagon };
constexpr int kMarkerCount = 5;
Marker seriesMarker(int i);
void drawMarker(QPainter* painter, Marker marker, QPointF centre, qreal size, const QColor& color);

// CIE 1976 L*a*b* of an sRGB colour (D65); exposed for the palette test.
struct Lab {
  double L, a, b;
};
Lab toLab(const QColor& c);

}  // namespace plots
