#include "plots/plot_legend.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {
constexpr qreal kGap = 6;       // swatch to text
constexpr qreal kSpacing = 18;  // between columns
const QColor kHiddenColor(185, 185, 185);
}  // namespace

PlotLegend::PlotLegend(QGraphicsItem* parent) : QGraphicsObject(parent) { setZValue(50); }

void PlotLegend::setEntries(const QList<Entry>& entries) {
  m_entries = entries;
  layoutColumns(m_columns);
}

void PlotLegend::setEntryShown(int i, bool shown) {
  if (i < 0 || i >= m_entries.size() || m_entries[i].shown == shown) return;
  m_entries[i].shown = shown;
  update();
}

void PlotLegend::setFont(const QFont& font) {
  m_font = font;
  layoutColumns(m_columns);
}

// The swatch grows with the font, so that dash patterns and markers stay recognisable.
static qreal swatchWidth(const QFontMetricsF& fm) { return std::ceil(1.8 * fm.height()); }

qreal PlotLegend::columnWidth() const {
  const QFontMetricsF fm(m_font);
  qreal widest = 0;
  for (const Entry& e : m_entries) widest = std::max(widest, fm.horizontalAdvance(e.name));
  return std::ceil(swatchWidth(fm) + kGap + widest + 2) + kSpacing;
}

qreal PlotLegend::rowHeight() const { return std::ceil(QFontMetricsF(m_font).height() + 4); }

QSizeF PlotLegend::layoutColumns(int columns) {
  prepareGeometryChange();
  m_rects.clear();
  m_bounds = QRectF();
  m_columns = std::max(1, columns);
  if (m_entries.isEmpty()) return {};
  m_columns = std::min(m_columns, int(m_entries.size()));
  const qreal column = columnWidth(), row = rowHeight();
  // Down the columns, then across: related series (a problem's formulations) stay together.
  const int rows = int(std::ceil(double(m_entries.size()) / m_columns));
  m_columns = int(std::ceil(double(m_entries.size()) / rows));  // 6 in 4 columns: 2 rows of 3
  for (int i = 0; i < m_entries.size(); ++i)
    m_rects.append(QRectF((i / rows) * column, (i % rows) * row, column - kSpacing, row));
  m_bounds = QRectF(0, 0, m_columns * column - kSpacing, rows * row);
  update();
  return m_bounds.size();
}

QSizeF PlotLegend::sizeFor(int columns) const {
  if (m_entries.isEmpty()) return {};
  columns = std::clamp(columns, 1, int(m_entries.size()));
  const int rows = int(std::ceil(double(m_entries.size()) / columns));
  columns = int(std::ceil(double(m_entries.size()) / rows));
  return {columns * columnWidth() - kSpacing, rows * rowHeight()};
}

qreal PlotLegend::layoutFor(qreal width) {
  if (m_entries.isEmpty() || width <= 0) return layoutColumns(1).height();
  return layoutColumns(std::max(1, int((width + kSpacing) / columnWidth()))).height();
}

QRectF PlotLegend::entryRect(int i) const { return i >= 0 && i < m_rects.size() ? m_rects[i] : QRectF(); }

int PlotLegend::entryAt(const QPointF& itemPos) const {
  for (int i = 0; i < m_rects.size(); ++i)
    if (m_rects[i].contains(itemPos)) return i;
  return -1;
}

QRectF PlotLegend::textRect(const QRectF& r) const {
  const qreal swatch = swatchWidth(QFontMetricsF(m_font));
  return QRectF(r.left() + swatch + kGap, r.top(), r.width() - swatch - kGap, r.height());
}

bool PlotLegend::entryElided(int i) const {
  if (i < 0 || i >= m_rects.size() || i >= m_entries.size()) return false;
  return QFontMetricsF(m_font).horizontalAdvance(m_entries[i].name) > textRect(m_rects[i]).width() + 0.5;
}

QRectF PlotLegend::boundingRect() const { return m_bounds; }

void PlotLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  painter->save();
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setFont(m_font);
  const QFontMetricsF fm(m_font);
  const qreal swatch = swatchWidth(fm);
  for (int i = 0; i < m_rects.size() && i < m_entries.size(); ++i) {
    const Entry& e = m_entries[i];
    const QRectF r = m_rects[i];
    const QColor color = e.shown ? e.color : kHiddenColor;
    const qreal cy = r.center().y();
    if (e.swatch == Swatch::Area) {
      QColor fill = color;
      fill.setAlphaF(e.shown ? 0.75 : 0.5);
      painter->fillRect(QRectF(r.left(), cy - 0.3 * fm.height(), swatch, 0.6 * fm.height()), fill);
    } else {
      QPen pen(color, 2.5, Qt::SolidLine, Qt::FlatCap);
      if (!e.dashes.isEmpty()) pen.setDashPattern(e.dashes);
      painter->setPen(pen);
      painter->drawLine(QPointF(r.left(), cy), QPointF(r.left() + swatch, cy));
      plots::drawMarker(painter, e.marker, QPointF(r.left() + swatch / 2, cy), std::max(9.0, 0.6 * fm.height()), color);
    }
    painter->setPen(e.shown ? QColor(40, 40, 40) : kHiddenColor);
    const QRectF text = textRect(r);
    painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(e.name, Qt::ElideRight, text.width()));
  }
  painter->restore();
}
