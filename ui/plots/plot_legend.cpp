#include "plots/plot_legend.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {
constexpr qreal kSwatchWidth = 22;
constexpr qreal kGap = 6;       // swatch to text
constexpr qreal kSpacing = 18;  // between columns
const QColor kHiddenColor(185, 185, 185);
}  // namespace

PlotLegend::PlotLegend(QGraphicsItem* parent) : QGraphicsObject(parent) { setZValue(50); }

void PlotLegend::setEntries(const QList<Entry>& entries) {
  m_entries = entries;
  layoutFor(m_width, m_maxHeight);
}

void PlotLegend::setEntryShown(int i, bool shown) {
  if (i < 0 || i >= m_entries.size() || m_entries[i].shown == shown) return;
  m_entries[i].shown = shown;
  update();
}

void PlotLegend::setFont(const QFont& font) {
  m_font = font;
  layoutFor(m_width, m_maxHeight);
}

qreal PlotLegend::layoutFor(qreal width, qreal maxHeight) {
  prepareGeometryChange();
  m_width = width;
  m_maxHeight = maxHeight;
  m_rects.clear();
  m_bounds = QRectF();
  if (m_entries.isEmpty() || width <= 0) return 0;
  const QFontMetricsF fm(m_font);
  qreal column = 0;
  for (const Entry& e : m_entries)
    column = std::max(column, kSwatchWidth + kGap + fm.horizontalAdvance(e.name) + kSpacing);
  const qreal rowHeight = std::ceil(fm.height() + 4);
  int columns = std::clamp(int(width / column), 1, int(m_entries.size()));
  // Many entries (32 joints) in a short plot: narrower columns with elided names rather than a
  // legend that leaves no room for the plot (the hover read-out still gives the full names).
  const int maxRows = std::max(1, int(maxHeight / rowHeight));
  if (std::ceil(double(m_entries.size()) / columns) > maxRows) {
    const qreal narrowest = kSwatchWidth + kGap + fm.horizontalAdvance(QStringLiteral("left_sh…")) + kSpacing / 2;
    const int wanted = int(std::ceil(double(m_entries.size()) / maxRows));
    columns = std::clamp(wanted, columns, std::max(columns, int(width / narrowest)));
    column = width / columns;
  }
  const int rows = int(std::ceil(double(m_entries.size()) / columns));
  const qreal used = columns * column - kSpacing;
  const qreal left = std::max<qreal>(0, std::floor((width - used) / 2));  // centred under the plot
  for (int i = 0; i < m_entries.size(); ++i)
    m_rects.append(QRectF(left + (i % columns) * column, (i / columns) * rowHeight, column - kSpacing, rowHeight));
  m_bounds = QRectF(0, 0, width, rows * rowHeight);
  update();
  return m_bounds.height();
}

QRectF PlotLegend::entryRect(int i) const { return i >= 0 && i < m_rects.size() ? m_rects[i] : QRectF(); }

int PlotLegend::entryAt(const QPointF& itemPos) const {
  for (int i = 0; i < m_rects.size(); ++i)
    if (m_rects[i].contains(itemPos)) return i;
  return -1;
}

QRectF PlotLegend::boundingRect() const { return m_bounds; }

void PlotLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  painter->save();
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setFont(m_font);
  const QFontMetricsF fm(m_font);
  for (int i = 0; i < m_rects.size() && i < m_entries.size(); ++i) {
    const Entry& e = m_entries[i];
    const QRectF r = m_rects[i];
    const QColor color = e.shown ? e.color : kHiddenColor;
    const qreal cy = r.center().y();
    if (e.swatch == Swatch::Area) {
      QColor fill = color;
      fill.setAlphaF(e.shown ? 0.75 : 0.5);
      painter->fillRect(QRectF(r.left(), cy - 5, kSwatchWidth, 10), fill);
    } else {
      painter->setPen(QPen(color, 3, Qt::SolidLine, Qt::FlatCap));
      painter->drawLine(QPointF(r.left(), cy), QPointF(r.left() + kSwatchWidth, cy));
    }
    painter->setPen(e.shown ? QColor(40, 40, 40) : kHiddenColor);
    const QRectF text(r.left() + kSwatchWidth + kGap, r.top(), r.width() - kSwatchWidth - kGap, r.height());
    painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(e.name, Qt::ElideRight, text.width()));
  }
  painter->restore();
}
