// PlotCanvas: chart set-up, legend layout, mapping, cursor, axis ranges and ticks, hover read-out.
#include "plots/plot_canvas.hpp"

#include <QCategoryAxis>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QRubberBand>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "plots/plot_legend.hpp"
#include "plots/plot_ticks.hpp"

namespace {

// "τ [N·m]" -> {"τ", "N·m"}; a label without brackets has no unit.
std::pair<QString, QString> splitLabel(const QString& label) {
  const int open = label.lastIndexOf('[');
  const int close = label.lastIndexOf(']');
  if (open < 0 || close < open) return {label.trimmed(), QString()};
  return {label.left(open).trimmed(), label.mid(open + 1, close - open - 1).trimmed()};
}

QString formatValue(double v) { return QString::number(v, 'g', 6); }

// A tick label of a log axis: the value, 1 ... 5000 in full, from 10⁴ on as a power of ten
// (2·10⁴, 10⁶): the same form on every label, and short.
QString logLabel(double v) {
  if (v < 1) return QString::number(v, 'g', 2);
  if (v < 9999.5) return QString::number(std::round(v));
  static const QString superscripts = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
  int e = int(std::floor(std::log10(v) + 1e-9));
  const int m = int(std::round(v / std::pow(10.0, e)));
  QString power = QStringLiteral("10");
  for (QChar digit : QString::number(e)) power += superscripts[digit.digitValue()];
  return m == 1 ? power : QString::number(m) + QStringLiteral("·") + power;
}

}  // namespace

namespace plots {
QString logTickLabel(double v) { return logLabel(v); }
}  // namespace plots

void PlotBounds::include(double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) return;
  if (empty) {
    x0 = x1 = x, y0 = y1 = y, empty = false;
    return;
  }
  x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
}

PlotCanvas::PlotCanvas(PlotContent* content, QWidget* parent, Scale scale)
    : QChartView(new QChart(), parent), m_content(content), m_scale(scale) {
  QChart* c = chart();
  c->setAnimationOptions(QChart::NoAnimation);
  c->setBackgroundRoundness(0);
  c->layout()->setContentsMargins(0, 0, 0, 0);
  c->setMargins(QMargins(8, 8, 12, 8));
  c->legend()->hide();  // PlotLegend instead: it wraps into columns and is clickable
  // Qt's minimum for the chart stacks the tick labels chosen for the previous size: a shrinking
  // view would cut the chart's bottom off instead of getting fewer ticks (updateTicks) on resize.
  c->setMinimumSize(60, 40);
  setRenderHint(QPainter::Antialiasing);
  setFocusPolicy(Qt::StrongFocus);
  viewport()->setMouseTracking(true);
  // The hard minimum: below minimumSizeHint (the readable size) the "too small" hint shows.
  setMinimumSize(120, 90);

  if (scale == Scale::LogLog) {
    for (QValueAxis** axis : {&m_axisX, &m_axisY}) {
      auto* log = new QCategoryAxis(this);
      log->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
      *axis = log;
    }
  } else {
    m_axisX = new QValueAxis(this);
    m_axisY = new QValueAxis(this);
  }
  for (QValueAxis* axis : {m_axisX, m_axisY}) {
    axis->setGridLineColor(QColor(222, 222, 222));
    axis->setMinorGridLineColor(QColor(240, 240, 240));
    axis->setLinePenColor(QColor(120, 120, 120));
    axis->setLabelsColor(QColor(60, 60, 60));
    axis->setTitleBrush(QColor(30, 30, 30));
    axis->setTitleVisible(false);  // drawn horizontally by m_titleX/m_titleY: Qt elides a rotated title
  }
  m_axisX->setRange(0, 1);
  m_axisY->setRange(-1, 1);
  m_axisX->setTickInterval(0.25);
  m_axisY->setTickInterval(0.5);
  for (QValueAxis* axis : {m_axisX, m_axisY}) {
    axis->setTickAnchor(0.0);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setMinorTickCount(1);
  }
  c->addAxis(m_axisX, Qt::AlignBottom);
  c->addAxis(m_axisY, Qt::AlignLeft);

  m_legend = new PlotLegend(c);

  m_cursorItem = new QGraphicsLineItem(c);
  m_cursorItem->setPen(QPen(QColor(25, 25, 25), 1.5));
  m_cursorItem->setZValue(100);
  m_cursorItem->hide();

  for (QGraphicsSimpleTextItem** title : {&m_titleX, &m_titleY}) {
    *title = new QGraphicsSimpleTextItem(c);
    (*title)->setBrush(QColor(30, 30, 30));
    (*title)->setZValue(40);
  }
  m_titleX->setData(0, QStringLiteral("axisTitleX"));
  m_titleY->setData(0, QStringLiteral("axisTitleY"));

  m_tooSmall = new QLabel(viewport());
  m_tooSmall->setObjectName("plotTooSmall");
  m_tooSmall->setAlignment(Qt::AlignCenter);
  m_tooSmall->setWordWrap(true);
  m_tooSmall->setAutoFillBackground(true);
  m_tooSmall->setAttribute(Qt::WA_TransparentForMouseEvents);  // the menu (Export at any size) still works
  m_tooSmall->setStyleSheet("QLabel { background: #f4f4f4; color: #505050; }");
  m_tooSmall->hide();

  m_hoverLabel = new QLabel(viewport());
  m_hoverLabel->setObjectName("plotHoverLabel");
  m_hoverLabel->setAttribute(Qt::WA_TransparentForMouseEvents);
  m_hoverLabel->setTextFormat(Qt::RichText);
  m_hoverLabel->setStyleSheet(
      "QLabel { background: rgba(255,255,255,238); border: 1px solid #9a9a9a; border-radius: 3px; "
      "padding: 3px 5px; color: #202020; }");
  m_hoverLabel->hide();
  m_band = new QRubberBand(QRubberBand::Rectangle, viewport());
  m_band->hide();

  applyFonts();
  connect(c, &QGraphicsWidget::geometryChanged, this, &PlotCanvas::layoutLegend);
  connect(c, &QChart::plotAreaChanged, this, [this](const QRectF& area) {
    updateCursorItem();
    updateTicks();
    // The axes' room follows their labels (a new range): the legend's place may change with it.
    if (!m_layingOut) {
      m_layingOut = true;
      layoutLegend();
      m_layingOut = false;
    }
    if (int(area.width()) != m_lastPlotWidth) {  // decimation depends on the width only
      m_lastPlotWidth = int(area.width());
      requestViewChanged();
    }
  });
  connect(m_axisX, &QValueAxis::rangeChanged, this, [this] {
    updateCursorItem();
    updateTicks();
    requestViewChanged();
  });
  connect(m_axisY, &QValueAxis::rangeChanged, this, &PlotCanvas::updateTicks);
}

void PlotCanvas::setAxisTitles(const QString& x, const QString& y) {
  m_axisX->setTitleText(x);
  m_axisY->setTitleText(y);
  layoutLegend();
  updateGeometry();  // the readable size depends on the titles' widths
}

QString PlotCanvas::axisTitle(Qt::Orientation o) const {
  return (o == Qt::Horizontal ? m_axisX : m_axisY)->titleText();
}

void PlotCanvas::addSeries(QAbstractSeries* series) {
  chart()->addSeries(series);
  series->attachAxis(m_axisX);
  series->attachAxis(m_axisY);
}

void PlotCanvas::legendChanged() {
  layoutLegend();
  updateGeometry();
}

void PlotCanvas::applyFonts() {
  QFont bold = font();
  bold.setBold(true);
  for (QValueAxis* axis : {m_axisX, m_axisY}) {
    axis->setLabelsFont(font());
    axis->setTitleFont(bold);
  }
  chart()->setTitleFont(bold);
  m_titleX->setFont(bold);
  m_titleY->setFont(bold);
  m_legend->setFont(font());
  QFont hint = font();
  hint.setPointSizeF(hint.pointSizeF() * 1.1);
  m_tooSmall->setFont(hint);
  layoutLegend();
  updateGeometry();
}

void PlotCanvas::changeEvent(QEvent* event) {
  QChartView::changeEvent(event);
  if (event->type() == QEvent::FontChange) applyFonts();
}

// ---- mapping ----

QPointF PlotCanvas::valueAt(const QPointF& p) const {
  const QRectF a = chart()->plotArea();
  if (a.width() <= 0 || a.height() <= 0) return {NAN, NAN};
  return {m_axisX->min() + (p.x() - a.left()) / a.width() * (m_axisX->max() - m_axisX->min()),
          m_axisY->min() + (a.bottom() - p.y()) / a.height() * (m_axisY->max() - m_axisY->min())};
}

QPointF PlotCanvas::positionOf(const QPointF& v) const {
  const QRectF a = chart()->plotArea();
  return {a.left() + (v.x() - m_axisX->min()) / (m_axisX->max() - m_axisX->min()) * a.width(),
          a.bottom() - (v.y() - m_axisY->min()) / (m_axisY->max() - m_axisY->min()) * a.height()};
}

QPointF PlotCanvas::chartPosition(const QPoint& viewportPos) const {
  return chart()->mapFromScene(mapToScene(viewportPos));
}

int PlotCanvas::plotWidthPixels() const { return int(chart()->plotArea().width()); }

bool PlotCanvas::inPlotArea(const QPoint& viewportPos) const {
  return chart()->plotArea().contains(chartPosition(viewportPos));
}

// ---- cursor ----

void PlotCanvas::setCursorTime(double t) {
  m_cursorTime = t;
  updateCursorItem();
}

QLineF PlotCanvas::cursorLine() const { return m_cursorItem->isVisible() ? m_cursorItem->line() : QLineF(); }

void PlotCanvas::updateCursorItem() {
  const QRectF a = chart()->plotArea();
  if (!std::isfinite(m_cursorTime) || !m_content || !m_content->hasData() || m_cursorTime < m_axisX->min() ||
      m_cursorTime > m_axisX->max() || a.isEmpty()) {
    m_cursorItem->hide();
    return;
  }
  const double x = positionOf({m_cursorTime, 0}).x();
  m_cursorItem->setLine(x, a.top(), x, a.bottom());
  m_cursorItem->show();
}

// ---- axes ----

// Tick spacing for `axis` over [lo, hi]: a 1-2-2.5-5 step about one comfortable pitch apart (a
// label and two or three blanks), at least four ticks, labels with the decimals the step needs.
void PlotCanvas::applyRange(QValueAxis* axis, double lo, double hi) {
  if (m_scale == Scale::LogLog) return applyLogTicks(axis, lo, hi);
  const QRectF a = chart()->plotArea();
  const bool x = axis == m_axisX;
  const double pixels = x ? a.width() : a.height();
  // About one tick per comfortable pitch (a label and two or three blanks), never fewer than four.
  const QFontMetricsF fm(font());
  plots::AxisTicks ticks = plots::axisTicks(lo, hi, std::max(1, int(pixels / (x ? 6.0 : 2.6) / fm.height())));
  if (x) {
    // The widest label of a spacing (its own decimals: a finer step may need more, "0.025" not "0.4").
    const auto widest = [&](const plots::AxisTicks& t) {
      double w = 0;
      for (double v : {lo, hi, lo + t.step, hi - t.step})
        w = std::max(w, fm.horizontalAdvance(QString::asprintf(qPrintable(t.format), v)));
      return w;
    };
    const plots::AxisTicks first =
        plots::axisTicks(lo, hi, std::max(1, int(pixels / (widest(ticks) + 2.5 * fm.height()))));
    // Finer than the first guess only when its own, longer labels still fit side by side.
    const double count = (hi - lo) / first.step + 1;
    if (first.step >= ticks.step || count * (widest(first) + 1.0 * fm.height()) <= pixels) ticks = first;
  }
  const double step = ticks.step;
  const QString& format = ticks.format;
  // Qt lays the ticks out as soon as either changes: never combine the new range with a much
  // finer old step (that would be millions of ticks for a moment), so the coarser goes first.
  // Inside setRange Qt may relayout the axes (a new plot width) and updates every series:
  // rebuild the point lists once, afterwards, rather than from each of those signals.
  // Qt Charts finds its ticks by adding the step to the first one: a tick at zero inside the range
  // may come out -3e-17 and read "-0.0". Anchored a billionth of a step above zero, every tick sits
  // that little above its multiple (invisible) and the top one stays in by a range that much longer.
  // Without a tick below zero (time from 0), zero is Qt's first tick, exact, and the ends stay.
  const double bias = lo < -0.999 * step && hi > 0 ? 1e-9 * step : 0.0;
  m_tickBias[axis == m_axisY] = bias;
  const bool newX = axis == m_axisX && (lo != axis->min() || hi + 2 * bias != axis->max());
  if (newX && m_content) m_content->viewAboutToChange();
  const bool nested = m_settingRange;
  m_settingRange = true;
  m_viewPending |= newX;  // also when Qt's fuzzy compare ignores the change: the lines are empty
  if (step >= axis->tickInterval()) {
    axis->setTickInterval(step);
    axis->setRange(lo, hi + 2 * bias);
  } else {
    axis->setRange(lo, hi + 2 * bias);
    axis->setTickInterval(step);
  }
  axis->setTickAnchor(bias);
  axis->setLabelFormat(format);
  m_settingRange = nested;
  if (!nested && m_viewPending) {
    m_viewPending = false;
    if (m_content) m_content->viewChanged();
  }
}

// Log axis over [lo, hi] (log10 of the values): labelled ticks at 1, 2 and 5 (or 1 and 3) times each
// power of ten while they are a label apart, else at the powers of ten (or every k-th one); denser
// while fewer than four would be labelled.
void PlotCanvas::applyLogTicks(QValueAxis* axis, double lo, double hi) {
  auto* log = qobject_cast<QCategoryAxis*>(axis);
  const bool newX = axis == m_axisX && (lo != axis->min() || hi != axis->max());
  if (newX && m_content) m_content->viewAboutToChange();
  const bool nested = m_settingRange;
  m_settingRange = true;
  m_viewPending |= newX;
  axis->setRange(lo, hi);
  if (log) {
    const QRectF a = chart()->plotArea();
    const double pixels = std::max(50.0, axis == m_axisX ? a.width() : a.height());
    const double decades = std::max(1e-9, hi - lo);
    const double perDecade = pixels / decades;  // pixels per factor of ten
    // Labels at least a label's width (x) or two lines (y) apart; denser mantissas while fewer
    // than four ticks would be labelled (a short range: one decade or less).
    const QFontMetricsF fm(font());
    const bool x = axis == m_axisX;
    const double room =
        x ? fm.horizontalAdvance(logLabel(std::pow(10.0, std::ceil(hi)))) + 1.5 * fm.height() : 2.0 * fm.height();
    const std::vector<std::vector<double>> sets = {
        {1}, {1, 3}, {1, 2, 5}, {1, 2, 3, 5, 7}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
    // The smallest gap of each set, in decades: 1 (or every-th), log10 3, log10 2, log10 1.4, log10 10/9.
    const double gaps[] = {1, 0.477, 0.301, 0.146, 0.046};
    auto ticksOf = [&](std::size_t set, int every) {
      std::vector<std::pair<double, double>> t;  // value, log10 value
      for (int d = int(std::floor(lo)); d <= int(std::ceil(hi)); ++d) {
        if (set == 0 && d % every != 0) continue;
        for (double m : sets[set]) {
          const double v = m * std::pow(10.0, d), lv = std::log10(v);
          if (lv >= lo - 1e-9 && lv <= hi + 1e-9) t.push_back({v, lv});
        }
      }
      return t;
    };
    std::size_t set = 0;
    while (set + 1 < std::size(gaps) && gaps[set + 1] * perDecade >= room) ++set;
    int every = set == 0 ? std::max(1, int(std::ceil(room / perDecade))) : 1;
    std::vector<std::pair<double, double>> ticks = ticksOf(set, every);
    while (ticks.size() < 4 && (every > 1 || set + 1 < std::size(gaps))) {
      if (every > 1)
        --every;
      else
        ++set;
      ticks = ticksOf(set, every);
    }
    for (const QString& label : log->categoriesLabels()) log->remove(label);
    log->setStartValue(lo - 1e-9 * std::max(1.0, std::abs(lo)));  // a tick on lo itself is labelled
    for (const auto& [v, lv] : ticks) log->append(logLabel(v), lv);
  }
  m_settingRange = nested;
  if (!nested && m_viewPending) {
    m_viewPending = false;
    if (m_content) m_content->viewChanged();
  }
}

void PlotCanvas::requestViewChanged() {
  if (m_settingRange) {
    m_viewPending = true;
  } else if (m_content) {
    m_content->viewChanged();
  }
}

void PlotCanvas::updateTicks() {
  for (QValueAxis* axis : {m_axisX, m_axisY})
    if (axis->max() > axis->min()) applyRange(axis, axis->min(), axis->max() - 2 * m_tickBias[axis == m_axisY]);
}

void PlotCanvas::setXRange(double x0, double x1) {
  const double scale = std::max({1.0, std::abs(x0), std::abs(x1)});
  if (!std::isfinite(x0) || !std::isfinite(x1) || !(x1 - x0 > 1e-12 * scale)) return;  // zoomed in too far
  applyRange(m_axisX, x0, x1);
}

void PlotCanvas::setYRange(double y0, double y1) {
  const double scale = std::max({1e-300, std::abs(y0), std::abs(y1)});
  if (!std::isfinite(y0) || !std::isfinite(y1) || !(y1 - y0 > 1e-12 * scale)) return;
  applyRange(m_axisY, y0, y1);
}

void PlotCanvas::autoRange() {
  m_userView = false;
  const PlotBounds b = m_content ? m_content->dataBounds() : PlotBounds();
  if (b.empty) {
    setXRange(0, 1);
    setYRange(-1, 1);
    return;
  }
  double x0 = b.x0, x1 = b.x1;
  if (!(x1 > x0)) x0 -= 0.5, x1 += 0.5;
  const double h = b.y1 - b.y0;
  const double pad = h > 1e-12 * std::max(std::abs(b.y0), std::abs(b.y1)) ? 0.03 * h
                     : b.y0 != 0                                          ? 0.1 * std::abs(b.y0)
                                                                          : 1.0;
  setXRange(x0, x1);
  double y0 = b.y0 - pad, y1 = b.y1 + pad;
  if (h > 0 && b.y0 >= 0 && y0 < 0) y0 = 0;  // data that never go negative: the axis starts at 0
  if (h > 0 && b.y1 <= 0 && y1 > 0) y1 = 0;
  if (m_scale == Scale::Linear) {
    // Out to the ticks: the ends are labelled, so four ticks need the least height.
    const double shown = chart()->plotArea().height();
    const double pixels = shown >= 40 ? shown : 300;  // before the first layout: a typical height
    const double step = plots::axisTicks(y0, y1, std::max(1, int(pixels / 2.6 / QFontMetricsF(font()).height()))).step;
    y0 = std::floor(y0 / step + 1e-9) * step;
    y1 = std::ceil(y1 / step - 1e-9) * step;
  }
  m_autoY0 = y0;  // before: the range's signals ask showsAutoRange()
  m_autoY1 = y1;
  setYRange(y0, y1);
  m_autoY0 = m_axisY->min();
  m_autoY1 = m_axisY->max();
}

void PlotCanvas::autoRangeIfUntouched() {
  if (!m_userView) autoRange();
}

bool PlotCanvas::showsAutoRange() const {
  const double tol = 1e-9 * std::max(1.0, std::abs(m_autoY1 - m_autoY0));
  return !m_userView && std::abs(m_axisY->min() - m_autoY0) <= tol && std::abs(m_axisY->max() - m_autoY1) <= tol;
}

void PlotCanvas::zoomX(double factor, double around) {
  m_userView = true;
  setXRange(around - (around - m_axisX->min()) * factor, around + (m_axisX->max() - around) * factor);
}

void PlotCanvas::zoomY(double factor, double around) {
  m_userView = true;
  setYRange(around - (around - m_axisY->min()) * factor, around + (m_axisY->max() - around) * factor);
}

void PlotCanvas::panBy(double dx, double dy) {
  const QRectF a = chart()->plotArea();
  if (a.isEmpty()) return;
  m_userView = true;
  const double sx = (m_axisX->max() - m_axisX->min()) / a.width();
  const double sy = (m_axisY->max() - m_axisY->min()) / a.height();
  if (dx != 0) setXRange(m_axisX->min() - dx * sx, m_axisX->max() - dx * sx);
  if (dy != 0) setYRange(m_axisY->min() + dy * sy, m_axisY->max() + dy * sy);
}

// ---- hover read-out ----

void PlotCanvas::updateHover(const QPoint& p) {
  double sampleTime = NAN;
  QList<ReadoutRow> rows;
  if (!m_content || !inPlotArea(p) || !m_content->readout(valueAt(chartPosition(p)).x(), &sampleTime, &rows)) {
    hideHover();
    return;
  }
  const auto [xName, xUnit] = splitLabel(m_axisX->titleText());
  QString yUnit = splitLabel(m_axisY->titleText()).second;
  if (yUnit.contains('|')) yUnit.clear();  // "N·m | N": which one depends on the joint type
  if (m_scale == Scale::LogLog) sampleTime = std::pow(10.0, sampleTime);
  const QString head = (xName.isEmpty() ? QStringLiteral("t") : xName) + " = " + formatValue(sampleTime) +
                       (xUnit.isEmpty() ? QString() : " " + xUnit);
  QStringList plain{head};
  // Up to 12 rows per column, so 32 joints fit on the screen.
  const int perColumn = 12;
  const int columns = std::max(1, int((rows.size() + perColumn - 1) / perColumn));
  const int perCol = std::max(1, int((rows.size() + columns - 1) / columns));
  QString html = QString("<table cellspacing='0' cellpadding='1'><tr><td colspan='%1'><b>%2</b></td></tr>")
                     .arg(3 * columns)
                     .arg(head.toHtmlEscaped());
  for (int r = 0; r < perCol; ++r) {
    html += "<tr>";
    for (int c = 0; c < columns; ++c) {
      const int i = c * perCol + r;
      if (i >= rows.size()) continue;
      const ReadoutRow& row = rows[i];
      html += QString(
                  "<td><span style='color:%1'>&#9632;</span>&nbsp;%2</td><td align='right'>&nbsp;%3</td>"
                  "<td>%4</td>")
                  .arg(row.color.name(), row.name.toHtmlEscaped(), formatValue(row.value),
                       c + 1 < columns ? QStringLiteral("&nbsp;&nbsp;&nbsp;&nbsp;") : QString());
    }
    html += "</tr>";
  }
  html += "</table>";
  for (const ReadoutRow& row : rows)
    plain << row.name + " = " + formatValue(row.value) + (yUnit.isEmpty() ? QString() : " " + yUnit);
  m_hoverPlain = plain.join('\n');
  m_hoverLabel->setText(html);
  m_hoverLabel->adjustSize();
  // Beside the pointer, flipped to stay inside the view.
  const QSize s = m_hoverLabel->size();
  const QRect bounds = viewport()->rect();
  int x = p.x() + 16, y = p.y() + 16;
  if (x + s.width() > bounds.right()) x = p.x() - 16 - s.width();
  if (y + s.height() > bounds.bottom()) y = std::max(0, bounds.bottom() - s.height());
  m_hoverLabel->move(std::max(0, x), y);
  m_hoverLabel->show();
  m_hoverLabel->raise();
}

void PlotCanvas::hideHover() {
  m_hoverLabel->hide();
  m_hoverPlain.clear();
}
