#include "plots/time_series_plot.hpp"

#include <QBrush>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QScopedValueRollback>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "plots/csv_export.hpp"
#include "plots/decimation.hpp"
#include "plots/plot_failure.hpp"
#include "plots/plot_legend.hpp"
#include "plots/plot_palette.hpp"

namespace {

// Buckets for decimation: one per horizontal pixel (before the first layout, a typical width).
int bucketsFor(const PlotCanvas* canvas) {
  const int w = canvas->plotWidthPixels();
  return w >= 50 ? w : 1000;
}

const QColor kFlagColor(230, 0, 0);
constexpr double kFlagSpacing = 9;  // pixels: one flag marker at most per this many

// A limit joins the auto range only if the range with it is at most this many times the data's
// extent, so that the data still fill at least half of the plot's height. A torque that comes
// within a factor of two of its limit is what the dashed line is drawn for; a limit ten times the
// torques (a UR5's 150 N·m against 5 N·m) would flatten the curves into a band, so it gets a
// note at the plot's edge instead.
constexpr double kNearLimit = 2.0;

QString limitValue(double v, const QString& unit) {
  QString s = QString::number(std::abs(v), 'g', 4);
  if (v < 0) s.prepend(QChar(0x2212));  // a true minus sign
  return unit.isEmpty() ? s : s + QChar(0x202F) + unit;
}

}  // namespace

TimeSeriesPlot::TimeSeriesPlot(QWidget* parent) : PlotWidget(parent) {
  setObjectName("timeSeriesPlot");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_canvas);
  m_canvas->setAxisTitles(QStringLiteral("t [s]"), QString());
  for (Note* note : {&m_noteTop, &m_noteBottom}) {
    note->box = new QGraphicsRectItem(m_canvas->chart());
    note->box->setPen(Qt::NoPen);
    note->box->setBrush(Qt::NoBrush);
    note->text = new QGraphicsSimpleTextItem(note->box);
    note->box->setVisible(false);
  }
  connect(m_canvas->chart(), &QChart::plotAreaChanged, this, &TimeSeriesPlot::updateLimitNotes);
  connect(m_canvas->axisY(), &QValueAxis::rangeChanged, this, &TimeSeriesPlot::updateLimitNotes);
}

bool TimeSeriesPlot::setData(const std::vector<double>& t, const Eigen::MatrixXd& values, QStringList names,
                             QString yLabel, QString xLabel, QString* error) {
  if (values.cols() != Eigen::Index(t.size()))
    return plotFailure(error, tr("Plot data: %1 times but %2 samples per series (values must be series x samples)")
                                  .arg(t.size())
                                  .arg(values.cols()));
  if (names.size() != values.rows())
    return plotFailure(error, tr("Plot data: %1 names for %2 series").arg(names.size()).arg(values.rows()));
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (!std::isfinite(t[k])) return plotFailure(error, tr("Plot data: t[%1] = %2 is not finite").arg(k).arg(t[k]));
    if (k > 0 && t[k] < t[k - 1])
      return plotFailure(error, tr("Plot data: t[%1] = %2 comes before t[%3] = %4; times must not decrease")
                                    .arg(k)
                                    .arg(t[k], 0, 'g', 17)
                                    .arg(k - 1)
                                    .arg(t[k - 1], 0, 'g', 17));
  }
  QScopedValueRollback batch(m_batch, true);
  viewAboutToChange();  // no stroking of the old points on the new axes
  const int n = int(values.rows());
  if (n != seriesCount()) {
    m_lower.assign(std::size_t(n), -INFINITY);
    m_upper.assign(std::size_t(n), INFINITY);
    m_limitUnits.clear();
  }
  m_t = t;
  m_values = values;
  m_names = std::move(names);
  m_flags.assign(std::size_t(n), {});
  resizeSeries(n);
  for (int i = 0; i < n; ++i) m_drawn[std::size_t(i)].line->setName(m_names[i]);
  m_canvas->setAxisTitles(xLabel, yLabel);
  updateLegend();
  m_canvas->autoRangeIfUntouched();
  m_batch = false;
  viewChanged();
  updateLimitNotes();
  return true;
}

void TimeSeriesPlot::clear() { setData({}, Eigen::MatrixXd(0, 0), {}, QString()); }

QColor TimeSeriesPlot::seriesColor(int i) const { return plots::seriesColor(i); }

std::span<const double> TimeSeriesPlot::seriesValues(int i) const {
  if (i < 0 || i >= seriesCount()) return {};
  return {m_values.row(i).data(), std::size_t(m_values.cols())};
}

void TimeSeriesPlot::resizeSeries(int n) {
  while (int(m_drawn.size()) > n) {
    Drawn d = m_drawn.back();
    m_drawn.pop_back();
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{d.line, d.lower, d.upper, d.flags}) {
      if (!s) continue;
      m_canvas->chart()->removeSeries(s);
      delete s;
    }
  }
  while (int(m_drawn.size()) < n) {
    const int i = int(m_drawn.size());
    Drawn d;
    d.line = new QLineSeries(this);
    d.line->setPen(plots::seriesPen(i, 1.6));
    m_canvas->addSeries(d.line);
    m_drawn.push_back(d);
  }
  for (int i = 0; i < n; ++i) {
    rebuildLimits(i);
    rebuildFlags(i);
  }
}

void TimeSeriesPlot::updateLegend() {
  QList<PlotLegend::Entry> entries;
  for (int i = 0; i < seriesCount(); ++i)
    entries.append({m_names[i], seriesColor(i), PlotLegend::Swatch::Line, m_drawn[std::size_t(i)].visible,
                    plots::seriesDashes(i)});
  m_canvas->plotLegend()->setEntries(entries);
  m_canvas->legendChanged();
}

// ---- visibility ----

void TimeSeriesPlot::setSeriesVisible(int i, bool visible) {
  if (i < 0 || i >= seriesCount() || m_drawn[std::size_t(i)].visible == visible) return;
  m_drawn[std::size_t(i)].visible = visible;
  applyVisibility(i);
  m_canvas->plotLegend()->setEntryShown(i, visible);
  emit seriesVisibilityChanged(i, visible);
}

bool TimeSeriesPlot::isSeriesVisible(int i) const {
  return i >= 0 && i < seriesCount() && m_drawn[std::size_t(i)].visible;
}

void TimeSeriesPlot::setAllSeriesVisible(bool visible) {
  for (int i = 0; i < seriesCount(); ++i) setSeriesVisible(i, visible);
}

void TimeSeriesPlot::legendEntryClicked(int entry) { setSeriesVisible(entry, !isSeriesVisible(entry)); }

void TimeSeriesPlot::applyVisibility(int i) {
  const Drawn& d = m_drawn[std::size_t(i)];
  if (d.visible) {  // hidden series are not re-decimated while hidden
    rebuildPoints(i);
    rebuildLimits(i);
    rebuildFlags(i);
  }
  d.line->setVisible(d.visible);
  if (d.lower) d.lower->setVisible(d.visible && limitDrawn(i, m_lower[std::size_t(i)]));
  if (d.upper) d.upper->setVisible(d.visible && limitDrawn(i, m_upper[std::size_t(i)]));
  if (d.flags) d.flags->setVisible(d.visible && !m_flags[std::size_t(i)].empty());
  updateLimitNotes();
}

// ---- drawing ----

void TimeSeriesPlot::viewChanged() {
  if (m_batch) return;
  for (int i = 0; i < seriesCount(); ++i) {
    if (!m_drawn[std::size_t(i)].visible) continue;
    rebuildPoints(i);
    rebuildLimits(i);
    rebuildFlags(i);
  }
}

void TimeSeriesPlot::viewAboutToChange() {
  for (const Drawn& d : m_drawn) d.line->clear();
}

void TimeSeriesPlot::rebuildPoints(int i) {
  const QValueAxis* x = m_canvas->axisX();
  m_drawn[std::size_t(i)].line->replace(
      plots::decimateMinMax(m_t, seriesValues(i), x->min(), x->max(), bucketsFor(m_canvas)));
}

void TimeSeriesPlot::rebuildLimits(int i) {
  Drawn& d = m_drawn[std::size_t(i)];
  const double x0 = m_canvas->axisX()->min(), x1 = m_canvas->axisX()->max();
  auto update = [&](QLineSeries*& series, double limit) {
    if (!std::isfinite(limit)) {
      if (series) {
        m_canvas->chart()->removeSeries(series);
        delete series;
        series = nullptr;
      }
      return;
    }
    if (!series) {
      series = new QLineSeries(this);
      QPen pen(seriesColor(i), 1.3, Qt::DashLine);
      pen.setDashPattern({10, 4});  // long dashes, horizontal across the view: unlike any series' pattern
      series->setPen(pen);
      m_canvas->addSeries(series);
    }
    series->setVisible(d.visible && limitDrawn(i, limit));
    series->replace({QPointF(x0, limit), QPointF(x1, limit)});  // spans the view, whatever the zoom
  };
  if (std::size_t(i) < m_lower.size()) {
    update(d.lower, m_lower[std::size_t(i)]);
    update(d.upper, m_upper[std::size_t(i)]);
  }
}

void TimeSeriesPlot::rebuildFlags(int i) {
  Drawn& d = m_drawn[std::size_t(i)];
  const std::vector<int>& flags = m_flags[std::size_t(i)];
  if (flags.empty()) {
    if (d.flags) {
      d.flags->clear();
      d.flags->setVisible(false);
    }
    return;
  }
  if (!d.flags) {
    d.flags = new QScatterSeries(this);
    d.flags->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    d.flags->setMarkerSize(7);
    d.flags->setColor(kFlagColor);
    d.flags->setBorderColor(Qt::white);
    m_canvas->addSeries(d.flags);
  }
  // Markers inside the view, at most one per marker width: a run of flagged samples reads as
  // a dotted red row, and thousands of them cost no more than the plot's width.
  const double x0 = m_canvas->axisX()->min(), x1 = m_canvas->axisX()->max();
  const double perPixel = bucketsFor(m_canvas) / (x1 - x0) / kFlagSpacing;
  QList<QPointF> points;
  long lastColumn = -1;
  const std::span<const double> y = seriesValues(i);
  for (int k : flags) {
    const double tk = m_t[std::size_t(k)];
    if (tk < x0 || tk > x1 || !std::isfinite(y[std::size_t(k)])) continue;
    const long column = long((tk - x0) * perPixel);
    if (column == lastColumn) continue;
    lastColumn = column;
    points.append(QPointF(tk, y[std::size_t(k)]));
  }
  d.flags->replace(points);
  d.flags->setVisible(d.visible);
}

// ---- limits and flags ----

bool TimeSeriesPlot::setLimits(const std::vector<double>& lower, const std::vector<double>& upper, QString* error) {
  if (int(lower.size()) != seriesCount() || int(upper.size()) != seriesCount())
    return plotFailure(error, tr("Plot limits: %1 lower and %2 upper limits for %3 series")
                                  .arg(lower.size())
                                  .arg(upper.size())
                                  .arg(seriesCount()));
  for (int i = 0; i < seriesCount(); ++i)
    if (lower[std::size_t(i)] > upper[std::size_t(i)])
      return plotFailure(error, tr("Plot limits: series '%1' has lower limit %2 above upper limit %3")
                                    .arg(m_names[i])
                                    .arg(lower[std::size_t(i)])
                                    .arg(upper[std::size_t(i)]));
  m_lower = lower;
  m_upper = upper;
  for (int i = 0; i < seriesCount(); ++i) rebuildLimits(i);
  m_canvas->autoRangeIfUntouched();  // the limits near the data are part of the auto range
  updateLimitNotes();
  return true;
}

void TimeSeriesPlot::setLimitUnits(QStringList units) {
  m_limitUnits = std::move(units);
  updateLimitNotes();
}

bool TimeSeriesPlot::limitInView(int series, bool upper) const {
  if (series < 0 || series >= seriesCount() || std::size_t(series) >= m_lower.size()) return false;
  const double v = upper ? m_upper[std::size_t(series)] : m_lower[std::size_t(series)];
  const QValueAxis* y = m_canvas->axisY();
  return std::isfinite(v) && v >= y->min() && v <= y->max();
}

QString TimeSeriesPlot::limitNote(Qt::Edge edge) const {
  const Note& note = edge == Qt::BottomEdge && m_noteBottom.box->isVisible() ? m_noteBottom : m_noteTop;
  if (!note.box->isVisible()) return {};
  // One note for symmetric limits names both edges (its arrow ↕).
  const bool both = note.text->text().endsWith(QChar(0x2195));
  return edge == Qt::BottomEdge && &note == &m_noteTop && !both ? QString() : note.text->text();
}

// The limits of the visible series beyond the view's top or bottom, named in the row of the y
// axis title, right-aligned (the top edge's, then left of it the bottom edge's): outside the plot,
// so that they never hide a curve. Symmetric limits (an effort limit ±e) make one note,
// "limits ±150 N·m, ±28 N·m ↕". In the series' colour when they all belong to one series.
void TimeSeriesPlot::updateLimitNotes() {
  const QValueAxis* y = m_canvas->axisY();
  const QRectF area = m_canvas->chart()->plotArea();
  struct Side {
    QStringList values, magnitudes;
    QList<int> owners;
  } sides[2];  // top, bottom
  bool symmetric = true;
  for (int i = 0; i < seriesCount() && std::size_t(i) < m_lower.size(); ++i) {
    if (!m_drawn[std::size_t(i)].visible) continue;
    const QString unit = i < m_limitUnits.size() ? m_limitUnits[i] : QString();
    const double hi = m_upper[std::size_t(i)], lo = m_lower[std::size_t(i)];
    // Beyond the view, or in it but not drawn (another joint's curve would seem to cross it).
    const bool above = std::isfinite(hi) && (hi > y->max() || !limitDrawn(i, hi));
    const bool below = std::isfinite(lo) && (lo < y->min() || !limitDrawn(i, lo));
    symmetric &= above == below && (!above || lo == -hi);
    for (int k : {0, 1}) {
      const double v = k == 0 ? hi : lo;
      if (!(k == 0 ? above : below)) continue;
      Side& side = sides[k];
      const QString text = limitValue(v, unit), magnitude = QChar(0x00b1) + limitValue(std::abs(v), unit);
      if (!side.values.contains(text)) side.values << text;
      if (!side.magnitudes.contains(magnitude)) side.magnitudes << magnitude;
      side.owners << i;
    }
  }
  const auto color = [&](const QList<int>& owners) {
    bool one = true;
    for (int i : owners) one &= i == owners.front();
    return one ? seriesColor(owners.front()).darker(130) : QColor(60, 60, 60);
  };
  const auto words = [](const QStringList& values) {
    return (values.size() == 1 ? tr("limit %1") : tr("limits %1")).arg(values.join(", "));
  };
  const bool one = symmetric && !sides[0].values.isEmpty();
  const QGraphicsSimpleTextItem* title = m_canvas->axisTitleItem(Qt::Vertical);
  const QFontMetricsF fm(m_canvas->font());
  const qreal titleRight = title->pos().x() + title->boundingRect().width() + fm.height();
  qreal right = std::max(area.right(), m_canvas->chart()->size().width() - 8);  // over the legend's column too
  for (int k : {0, 1}) {
    Note& note = k == 0 ? m_noteTop : m_noteBottom;
    if (sides[k].values.isEmpty() || area.isEmpty() || (one && k == 1)) {
      note.box->setVisible(false);
      continue;
    }
    note.text->setText(one ? words(sides[0].magnitudes) + QStringLiteral(" \u2195")
                           : words(sides[k].values) + (k == 0 ? QStringLiteral(" \u2191") : QStringLiteral(" \u2193")));
    note.text->setFont(m_canvas->font());
    note.text->setBrush(color(sides[k].owners + (one ? sides[1].owners : QList<int>())));
    const QSizeF size(fm.horizontalAdvance(note.text->text()), fm.height());
    note.box->setRect(0, 0, size.width(), size.height());
    const qreal x = std::max(titleRight, right - size.width());
    // On the title's line, its text's baseline with the bold title's.
    const qreal titleH = title->boundingRect().height();
    note.box->setPos(x, title->pos().y() + std::max(0.0, titleH - size.height()));
    note.box->setVisible(true);
    right = x - fm.height();  // the bottom edge's note left of the top edge's
  }
}

bool TimeSeriesPlot::setFlaggedSamples(int series, std::vector<int> sampleIndices, QString* error) {
  if (series < 0 || series >= seriesCount())
    return plotFailure(error, tr("Flagged samples: no series %1 (the plot has %2)").arg(series).arg(seriesCount()));
  for (int k : sampleIndices)
    if (k < 0 || k >= sampleCount())
      return plotFailure(error, tr("Flagged samples of '%1': sample %2 is out of range (0..%3)")
                                    .arg(m_names[series])
                                    .arg(k)
                                    .arg(sampleCount() - 1));
  std::sort(sampleIndices.begin(), sampleIndices.end());
  sampleIndices.erase(std::unique(sampleIndices.begin(), sampleIndices.end()), sampleIndices.end());
  m_flags[std::size_t(series)] = std::move(sampleIndices);
  rebuildFlags(series);
  return true;
}

std::vector<int> TimeSeriesPlot::flaggedSamples(int series) const {
  return series >= 0 && series < seriesCount() ? m_flags[std::size_t(series)] : std::vector<int>{};
}

std::vector<int> TimeSeriesPlot::samplesOutsideLimits(int series) const {
  std::vector<int> out;
  if (series < 0 || series >= seriesCount()) return out;
  const double lo = m_lower[std::size_t(series)], hi = m_upper[std::size_t(series)];
  const std::span<const double> y = seriesValues(series);
  for (std::size_t k = 0; k < y.size(); ++k)
    if (y[k] < lo || y[k] > hi) out.push_back(int(k));
  return out;
}

// ---- canvas queries ----

PlotBounds TimeSeriesPlot::dataBounds() const {
  PlotBounds b;
  if (m_t.empty()) return b;
  for (int i = 0; i < seriesCount(); ++i) {
    if (!m_drawn[std::size_t(i)].visible) continue;
    double lo = INFINITY, hi = -INFINITY;
    for (double v : seriesValues(i))
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    b.include(m_t.front(), lo);
    b.include(m_t.back(), hi);
  }
  if (b.empty) {  // nothing visible: keep the time range
    b.include(m_t.front(), -1);
    b.include(m_t.back(), 1);
    return b;
  }
  // The limit lines near the data inside the range: how close τ comes to them is what they are
  // drawn for. The data's extent is their span, but at least half their magnitude, so that a
  // nearly constant signal (a held pose's gravity torque) still shows a limit a little above it.
  // Each joint's own curve decides (nearOwnCurve).
  for (int i = 0; i < seriesCount() && std::size_t(i) < m_lower.size(); ++i) {
    if (!m_drawn[std::size_t(i)].visible) continue;
    for (double limit : {m_lower[std::size_t(i)], m_upper[std::size_t(i)]})
      if (nearOwnCurve(i, limit)) b.include(m_t.front(), limit);
  }
  return b;
}

bool TimeSeriesPlot::nearOwnCurve(int i, double limit) const {
  if (!std::isfinite(limit) || i < 0 || i >= seriesCount()) return false;
  double lo = INFINITY, hi = -INFINITY;
  for (double v : seriesValues(i))
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!(hi >= lo)) return false;
  // The curve's extent, but at least half its magnitude: a nearly constant signal (a held pose's
  // gravity torque) still shows a limit a little above it.
  const double extent = std::max(hi - lo, 0.5 * std::max(std::abs(lo), std::abs(hi)));
  return std::max(hi, limit) - std::min(lo, limit) <= kNearLimit * extent;
}

bool TimeSeriesPlot::limitDrawn(int i, double limit) const {
  if (!std::isfinite(limit)) return false;
  return !m_canvas->showsAutoRange() || nearOwnCurve(i, limit);
}

bool TimeSeriesPlot::readout(double t, double* sampleTime, QList<ReadoutRow>* rows) const {
  const int k = plots::nearestSample(m_t, t);
  if (k < 0) return false;
  *sampleTime = m_t[std::size_t(k)];
  for (int i = 0; i < seriesCount(); ++i)
    if (m_drawn[std::size_t(i)].visible) rows->append({m_names[i], seriesColor(i), m_values(i, k)});
  return true;
}

bool TimeSeriesPlot::exportCsv(const QString& path, QString* error) const {
  std::vector<std::span<const double>> columns;
  for (int i = 0; i < seriesCount(); ++i) columns.push_back(seriesValues(i));
  return plots::writeCsv(path, QStringLiteral("t"), m_t, m_names, columns, error);
}

// ---- accessors ----

QLineSeries* TimeSeriesPlot::lineSeries(int i) const {
  return i >= 0 && i < seriesCount() ? m_drawn[std::size_t(i)].line : nullptr;
}
QLineSeries* TimeSeriesPlot::lowerLimitSeries(int i) const {
  return i >= 0 && i < seriesCount() ? m_drawn[std::size_t(i)].lower : nullptr;
}
QLineSeries* TimeSeriesPlot::upperLimitSeries(int i) const {
  return i >= 0 && i < seriesCount() ? m_drawn[std::size_t(i)].upper : nullptr;
}
QScatterSeries* TimeSeriesPlot::flagSeries(int i) const {
  return i >= 0 && i < seriesCount() ? m_drawn[std::size_t(i)].flags : nullptr;
}
