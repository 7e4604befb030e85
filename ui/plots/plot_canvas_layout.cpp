// PlotCanvas: where the legend and the axis titles go, and whether the chart is readable at its
// size (minimumSizeHint, the "too small" hint). See docs/plots.md, "Sizes".
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "plots/plot_canvas.hpp"
#include "plots/plot_legend.hpp"

namespace plots {
QString logTickLabel(double v);  // plot_canvas.cpp
}

struct PlotCanvas::Metrics {
  qreal pad = 8;                 // chart edge to its parts
  qreal gap = 10;                // plot area to the legend or the x title (grows with the font)
  qreal top = 0;                 // chart top to plot area: the y title's line and half a tick label
  qreal yAxisW = 0;              // left of the plot area: the y tick labels and the ticks
  qreal xRowH = 0;               // below the plot area: the x tick labels and the ticks
  qreal qtTop = 0, qtRight = 0;  // what Qt adds inside the margins above and right of the plot area
  qreal xLabelW = 0;             // the widest x tick label
  qreal xTitleBlock = 0;         // right of the plot area: half a tick label, a gap and the x title
  QSizeF minPlot;                // the smallest plot area with four readable ticks on each axis
};

PlotCanvas::Metrics PlotCanvas::metrics() const {
  Metrics m;
  const QFontMetricsF fm(font());
  QFont bold = font();
  bold.setBold(true);
  const QFontMetricsF fb(bold);
  const qreal lh = fm.height();
  auto label = [&](const QValueAxis* axis, double v) {
    return m_scale == Scale::LogLog ? plots::logTickLabel(std::pow(10.0, std::ceil(v)))
                                    : QString::asprintf(qPrintable(axis->labelFormat()), v);
  };
  auto widest = [&](const QValueAxis* axis) {
    return std::max({fm.horizontalAdvance(label(axis, axis->min())), fm.horizontalAdvance(label(axis, axis->max())),
                     fm.horizontalAdvance(QStringLiteral("-0.0"))});
  };
  m.gap = std::max(10.0, 0.8 * lh);
  m.top = m.pad + fb.height() + 0.5 * lh + 4;
  m.xLabelW = widest(m_axisX);
  m.yAxisW = widest(m_axisY) + 14;
  m.xRowH = lh + 12;
  // Qt's own measure of the axes' room once laid out, when larger than the estimate.
  const QRectF a = chart()->plotArea();
  if (!a.isEmpty()) {
    const QMargins margins = chart()->margins();
    m.yAxisW = std::max(m.yAxisW, a.left() - margins.left());
    m.xRowH = std::max(m.xRowH, chart()->size().height() - margins.bottom() - a.bottom());
    m.qtTop = std::max(0.0, a.top() - margins.top());
    m.qtRight = std::max(0.0, chart()->size().width() - margins.right() - a.right());
  }
  m.xTitleBlock = std::ceil(0.5 * m.xLabelW + m.gap + fb.horizontalAdvance(m_axisX->titleText()) + 2);
  // Four ticks at least a label apart (x: its width and a blank; y: a line and a bit): a 1-2-2.5-5
  // step lands them within a factor of two of the quarter range, hence six pitches of room.
  m.minPlot = QSizeF(std::max(150.0, 6 * (m.xLabelW + 0.6 * lh)), std::max(90.0, 6 * (lh + 5)));
  return m;
}

void PlotCanvas::layoutLegend() {
  const QSizeF size = chart()->size();
  if (size.width() <= 0 || size.height() <= 0) return;
  const Metrics m = metrics();
  const int n = int(m_legend->entries().size());
  const qreal plotH0 = size.height() - m.top - m.qtTop - m.xRowH - m.pad;
  const qreal plotW0 = size.width() - 2 * m.pad - m.yAxisW - m.qtRight - m.xTitleBlock;
  struct Option {
    LegendPlace place;
    int columns;
    qreal plotW, plotH;
  };
  std::vector<Option> options;
  if (n == 0) {
    options.push_back({LegendPlace::None, 0, plotW0, plotH0});
  } else {
    // Below: as many natural columns as the width holds. Right: as many rows as the plot is high.
    const int below = std::clamp(int((size.width() - 2 * m.pad + 18) / m_legend->columnWidth()), 1, n);
    options.push_back({LegendPlace::Below, below, plotW0, plotH0 - m_legend->sizeFor(below).height() - m.pad});
    const int rows = std::max(1, int(plotH0 / m_legend->rowHeight()));
    const int right = (n + rows - 1) / rows;
    const qreal rightW = std::max(m.xTitleBlock, m_legend->sizeFor(right).width() + m.gap);
    options.push_back({LegendPlace::Right, right, size.width() - 2 * m.pad - m.yAxisW - m.qtRight - rightW, plotH0});
  }
  // The place that leaves the plot area the most room relative to its readable minimum.
  auto score = [&](const Option& o) { return std::min(o.plotW / m.minPlot.width(), o.plotH / m.minPlot.height()); };
  const Option best = *std::max_element(options.begin(), options.end(),
                                        [&](const Option& a, const Option& b) { return score(a) < score(b); });
  m_legendPlace = best.place;
  const QSizeF legend = m_legend->layoutColumns(std::max(1, best.columns));
  m_legend->setVisible(n > 0);
  QMargins margins(int(m.pad), int(std::ceil(m.top)), int(std::ceil(m.pad + m.xTitleBlock)), int(m.pad));
  if (best.place == LegendPlace::Below) {
    margins.setBottom(int(std::ceil(m.pad + legend.height() + m.pad)));
    m_legend->setPos(std::floor(m.pad + std::max(0.0, (size.width() - 2 * m.pad - legend.width()) / 2)),
                     size.height() - m.pad - legend.height());
  } else if (best.place == LegendPlace::Right) {
    margins.setRight(int(std::ceil(m.pad + std::max(m.xTitleBlock, legend.width() + m.gap))));
    m_legend->setPos(size.width() - m.pad - legend.width(), m.top);
  }
  if (margins != chart()->margins()) chart()->setMargins(margins);
  placeAxisTitles();
  updateReadable();
}

void PlotCanvas::placeAxisTitles() {
  const QRectF a = chart()->plotArea();
  const QSizeF size = chart()->size();
  const Metrics m = metrics();
  QFont bold = font();
  bold.setBold(true);
  const QFontMetricsF fb(bold);
  auto set = [&](QGraphicsSimpleTextItem* item, const QString& full, qreal room) {
    const bool fits = fb.horizontalAdvance(full) <= room;
    item->setText(fits ? full : fb.elidedText(full, Qt::ElideRight, std::max(0.0, room)));
    item->setToolTip(fits ? QString() : full);  // only when the title cannot fit at all
  };
  // The y title above the tick labels, from the chart's left edge; the x title at the right end of
  // the x tick labels' row.
  set(m_titleY, m_axisY->titleText(), size.width() - 2 * m.pad);
  m_titleY->setPos(m.pad, m.pad);
  const qreal x = (a.isEmpty() ? size.width() - m.xTitleBlock : a.right()) + 0.5 * m.xLabelW + m.gap;
  set(m_titleX, m_axisX->titleText(), size.width() - x - 2);
  const qreal rowTop = a.isEmpty() ? size.height() - m.xRowH : a.bottom();
  m_titleX->setPos(x, rowTop + std::max(0.0, (m.xRowH - fb.height()) / 2));
}

bool PlotCanvas::axisTitleElided(Qt::Orientation o) const {
  const QGraphicsSimpleTextItem* item = axisTitleItem(o);
  return item->text() != axisTitle(o);
}

void PlotCanvas::updateReadable() {
  const QRectF a = chart()->plotArea();
  const Metrics m = metrics();
  QStringList why;
  if (a.width() < m.minPlot.width() - 1 || a.height() < m.minPlot.height() - 1)
    why << QString("plot area %1 x %2 < %3 x %4")
               .arg(a.width())
               .arg(a.height())
               .arg(m.minPlot.width())
               .arg(m.minPlot.height());
  for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical})
    if (axisTitleElided(o)) why << "axis title cut: " + axisTitle(o);
  const QRectF chartRect(QPointF(0, 0), chart()->size());
  if (m_legend->isVisible()) {
    const QRectF legend = m_legend->mapRectToParent(m_legend->boundingRect());
    if (!chartRect.adjusted(0, 0, 1, 1).contains(legend)) why << "legend outside the chart";
    for (int i = 0; i < m_legend->entries().size(); ++i)
      if (m_legend->entryElided(i)) why << "legend name cut: " + m_legend->entries()[i].name;
  }
  m_unreadable = why.join("; ");
  const bool readable = why.isEmpty();
  m_readable = readable;
  const QSize need = minimumSizeHint();
  m_tooSmall->setText(
      tr("Too small to read: enlarge this view\n(it needs %1 × %2 pixels)").arg(need.width()).arg(need.height()));
  m_tooSmall->setGeometry(viewport()->rect());
  m_tooSmall->setVisible(!readable);
  if (!readable) m_tooSmall->raise();
}

// Every readable layout's size: the legend below or beside the plot, in each column count.
std::vector<QSizeF> PlotCanvas::readableSizes() const {
  const Metrics m = metrics();
  const int n = int(m_legend->entries().size());
  QFont bold = font();
  bold.setBold(true);
  const qreal titleW = QFontMetricsF(bold).horizontalAdvance(m_axisY->titleText()) + 2 * m.pad;
  // (4 px spare: Qt's measures of the axes change a little with the ranges)
  const qreal fixedW = 2 * m.pad + m.yAxisW + m.qtRight + m.minPlot.width() + 4;
  const qreal fixedH = m.top + m.qtTop + m.minPlot.height() + m.xRowH + m.pad + 4;
  const qreal frame = 2 * frameWidth() + 2;
  std::vector<QSizeF> sizes;
  auto add = [&](QSizeF s) {
    sizes.push_back(QSizeF(std::ceil(std::max(s.width(), titleW) + frame), std::ceil(s.height() + frame)));
  };
  if (n == 0) add(QSizeF(fixedW + m.xTitleBlock, fixedH));
  for (int columns = 1; columns <= n; ++columns) {
    const QSizeF legend = m_legend->sizeFor(columns);
    add(QSizeF(std::max(fixedW + m.xTitleBlock, legend.width() + 2 * m.pad), fixedH + legend.height() + m.pad));
    add(QSizeF(fixedW + std::max(m.xTitleBlock, legend.width() + m.gap),
               std::max(fixedH, m.top + m.qtTop + legend.height() + m.xRowH + m.pad + 4)));
  }
  return sizes;
}

QSize PlotCanvas::minimumSizeHint() const {
  // The size that fits the smallest box of a bottom dock's shape (2.6 : 1, like 900 x 350); ties:
  // the smaller area.
  auto cost = [](const QSizeF& s) { return std::max(s.width() / 2.6, s.height()); };
  QSizeF best;
  for (const QSizeF& s : readableSizes())
    if (best.isEmpty() || cost(s) < cost(best) - 0.5 ||
        (cost(s) < cost(best) + 0.5 && s.width() * s.height() < best.width() * best.height()))
      best = s;
  return best.toSize();
}

int PlotCanvas::readableWidthAtHeight(int height) const {
  int width = 0;
  for (const QSizeF& s : readableSizes())
    if (s.height() <= height && (width == 0 || s.width() < width)) width = int(s.width());
  return width > 0 ? width : 1 << 20;  // no width makes it readable at that height
}

QSize PlotCanvas::sizeHint() const {
  // Readable, no more: a larger hint made docks and scroll areas ask for room they need not have
  // (the window's layouts ask readableSize()/minimumSizeHint for what they must give).
  return minimumSizeHint().expandedTo(QSize(360, 220));
}
