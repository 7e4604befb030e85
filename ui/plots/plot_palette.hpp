// Series colours for plots with up to ~32 series, distinguishable from each other and from the
// white background, grid and greyed-out (hidden) legend entries. See docs/plots.md.
#pragma once
#include <QColor>

namespace plots {

// Colour of series i. The first nine are matplotlib's "tab10" without its grey; the rest are
// picked greedily from an sRGB grid to maximise the smallest CIELAB distance to those before
// (Glasbey's method), among colours with 30 <= L* <= 75 and chroma >= 25. Cycles after 32.
QColor seriesColor(int i);
constexpr int kPaletteSize = 32;

// CIE 1976 L*a*b* of an sRGB colour (D65); exposed for the palette test.
struct Lab {
  double L, a, b;
};
Lab toLab(const QColor& c);

}  // namespace plots
