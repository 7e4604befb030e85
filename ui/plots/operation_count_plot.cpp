#include "plots/operation_count_plot.hpp"

#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <set>

#include "plots/csv_export.hpp"
#include "plots/plot_legend.hpp"
#include "plots/plot_palette.hpp"

namespace {

double evaluate(const std::vector<double>& c, double n) {
  double v = 0;
  for (std::size_t k = c.size(); k-- > 0;) v = v * n + c[k];  // Horner
  return v;
}

// A point of the log-log plane; none for a count <= 0 (a paper's polynomial at small n).
bool logPoint(double n, double count, QPointF* p) {
  if (!(n > 0) || !(count > 0) || !std::isfinite(count)) return false;
  *p = QPointF(std::log10(n), std::log10(count));
  return true;
}

const QColor kRobotLine(40, 40, 40);

QScatterSeries::MarkerShape shapeOf(plots::Marker m) {
  switch (m) {
    case plots::Marker::Square:
      return QScatterSeries::MarkerShapeRectangle;
    case plots::Marker::Triangle:
      return QScatterSeries::MarkerShapeTriangle;
    case plots::Marker::Star:
      return QScatterSeries::MarkerShapeStar;
    case plots::Marker::Pentagon:
      return QScatterSeries::MarkerShapePentagon;
    default:
      return QScatterSeries::MarkerShapeCircle;
  }
}

}  // namespace

OperationCountPlot::OperationCountPlot(QWidget* parent) : PlotWidget(parent, PlotCanvas::Scale::LogLog) {
  setObjectName("operationCountPlot");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_canvas);
  m_canvas->setAxisTitles(tr("n (joints)"), tr("multiplications per call"));
  // A click does not move a time cursor here: the vertical line is the robot's n.
  connect(this, &PlotWidget::cursorTimeRequested, this, [this] { m_canvas->setCursorTime(NAN); });
}

void OperationCountPlot::setSeries(std::vector<Series> series, int nMax) {
  m_series = std::move(series);
  m_nMax = std::max(1, nMax);
  std::vector<bool> visible;
  for (std::size_t i = 0; i < m_series.size(); ++i) visible.push_back(i >= m_drawn.size() || m_drawn[i].visible);
  rebuild();
  for (std::size_t i = 0; i < m_drawn.size(); ++i)
    if (!visible[i]) setSeriesVisible(int(i), false);
  m_canvas->autoRange();
}

void OperationCountPlot::setCount(Count count) {
  if (count == m_count) return;
  m_count = count;
  m_canvas->setAxisTitles(tr("n (joints)"),
                          count == Count::Multiplications ? tr("multiplications per call") : tr("additions per call"));
  std::vector<bool> visible;
  for (const Drawn& d : m_drawn) visible.push_back(d.visible);
  rebuild();
  for (std::size_t i = 0; i < m_drawn.size(); ++i)
    if (!visible[i]) setSeriesVisible(int(i), false);
  m_canvas->autoRange();
}

void OperationCountPlot::setMarkedN(int n) {
  m_markedN = std::max(0, n);
  rebuild();
}

void OperationCountPlot::rebuild() {
  QChart* chart = m_canvas->chart();
  for (QAbstractSeries* s : chart->series()) {
    chart->removeSeries(s);
    delete s;
  }
  m_drawn.assign(m_series.size(), Drawn{});
  for (std::size_t i = 0; i < m_series.size(); ++i) {
    const Series& s = m_series[i];
    const QColor color = plots::seriesColor(int(i));
    Drawn& d = m_drawn[i];
    QPointF p;
    // The papers' polynomials: dashed, over every integer n of the figure.
    for (const Paper& paper : s.papers) {
      const std::vector<double>& c = polynomial(paper);
      if (c.empty()) continue;
      auto* line = new QLineSeries(this);
      QPen pen(color, 1.3, Qt::DashLine);
      pen.setDashPattern({6, 4});
      line->setPen(pen);
      for (int n = 1; n <= m_nMax; ++n)
        if (logPoint(n, evaluate(c, n), &p)) line->append(p);
      m_canvas->addSeries(line);
      d.papers.push_back(line);
    }
    // What the papers tabulate (n = 6, and 12 for forward dynamics): diamonds.
    d.tabulated = new QScatterSeries(this);
    d.tabulated->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    d.tabulated->setMarkerSize(11);
    d.tabulated->setColor(Qt::white);
    d.tabulated->setBorderColor(color);
    d.tabulated->setPen(QPen(color, 2));
    for (const Paper& paper : s.papers)
      for (const Paper::Value& v : paper.tabulated)
        if (logPoint(v.n, m_count == Count::Multiplications ? v.muls : v.adds, &p)) d.tabulated->append(p);
    m_canvas->addSeries(d.tabulated);
    // Measured: solid line with dots.
    d.measured = new QLineSeries(this);
    d.measured->setPen(QPen(color, 2.0));
    // Each formulation's own marker on its measured points: 13 lines stay apart in grey too.
    d.dots = new QScatterSeries(this);
    d.dots->setMarkerShape(shapeOf(plots::seriesMarker(int(i))));
    d.dots->setMarkerSize(9);
    d.dots->setColor(color);
    d.dots->setBorderColor(color.darker(115));
    const std::vector<double>& m = measured(s);
    for (std::size_t k = 0; k < s.n.size() && k < m.size(); ++k)
      if (logPoint(s.n[k], m[k], &p)) d.measured->append(p), d.dots->append(p);
    m_canvas->addSeries(d.measured);
    m_canvas->addSeries(d.dots);
  }
  // The loaded robot's n: a vertical line across the data.
  const PlotBounds b = dataBounds();
  if (m_markedN > 0 && !b.empty) {
    auto* line = new QLineSeries(this);
    QPen pen(kRobotLine, 1.5, Qt::DotLine);
    line->setPen(pen);
    const double x = std::log10(double(m_markedN));
    line->append(x, b.y0);
    line->append(x, b.y1);
    line->setObjectName("robotLine");
    m_canvas->addSeries(line);
  }
  QList<PlotLegend::Entry> entries;
  for (std::size_t i = 0; i < m_series.size(); ++i)
    entries.append({m_series[i].name,
                    plots::seriesColor(int(i)),
                    PlotLegend::Swatch::Line,
                    m_drawn[i].visible,
                    {},
                    plots::seriesMarker(int(i))});
  m_canvas->plotLegend()->setEntries(entries);
  m_canvas->legendChanged();
}

void OperationCountPlot::setSeriesVisible(int i, bool visible) {
  if (i < 0 || i >= seriesCount()) return;
  Drawn& d = m_drawn[std::size_t(i)];
  d.visible = visible;
  d.measured->setVisible(visible);
  d.dots->setVisible(visible);
  d.tabulated->setVisible(visible);
  for (QLineSeries* l : d.papers) l->setVisible(visible);
  m_canvas->plotLegend()->setEntryShown(i, visible);
}

bool OperationCountPlot::isSeriesVisible(int i) const {
  return i >= 0 && i < seriesCount() && m_drawn[std::size_t(i)].visible;
}

void OperationCountPlot::setAllSeriesVisible(bool visible) {
  for (int i = 0; i < seriesCount(); ++i) setSeriesVisible(i, visible);
}

void OperationCountPlot::legendEntryClicked(int entry) { setSeriesVisible(entry, !isSeriesVisible(entry)); }

PlotBounds OperationCountPlot::dataBounds() const {
  PlotBounds b;
  for (std::size_t i = 0; i < m_series.size(); ++i) {
    if (i < m_drawn.size() && !m_drawn[i].visible) continue;
    const Series& s = m_series[i];
    const std::vector<double>& m = measured(s);
    QPointF p;
    for (std::size_t k = 0; k < s.n.size() && k < m.size(); ++k)
      if (logPoint(s.n[k], m[k], &p)) b.include(p.x(), p.y());
    for (const Paper& paper : s.papers)
      for (const Paper::Value& v : paper.tabulated)
        if (logPoint(v.n, m_count == Count::Multiplications ? v.muls : v.adds, &p)) b.include(p.x(), p.y());
  }
  return b;
}

bool OperationCountPlot::readout(double x, double* sampleX, QList<ReadoutRow>* rows) const {
  std::set<int> sizes;
  for (const Series& s : m_series) sizes.insert(s.n.begin(), s.n.end());
  if (sizes.empty() || !std::isfinite(x)) return false;
  const int n = *std::min_element(sizes.begin(), sizes.end(), [x](int a, int b) {
    return std::abs(std::log10(a) - x) < std::abs(std::log10(b) - x);
  });
  *sampleX = std::log10(double(n));
  for (std::size_t i = 0; i < m_series.size(); ++i) {
    if (!m_drawn[i].visible) continue;
    const Series& s = m_series[i];
    const auto it = std::find(s.n.begin(), s.n.end(), n);
    if (it == s.n.end()) continue;
    rows->append({s.name, plots::seriesColor(int(i)), measured(s)[std::size_t(it - s.n.begin())]});
  }
  return true;
}

// n, then per formulation its measured multiplications and additions and each paper polynomial's
// value (NaN where a formulation was not measured, e.g. beyond its cap).
bool OperationCountPlot::exportCsv(const QString& path, QString* error) const {
  std::set<int> sizes;
  for (const Series& s : m_series) sizes.insert(s.n.begin(), s.n.end());
  const std::vector<double> ns(sizes.begin(), sizes.end());
  QStringList names;
  std::vector<std::vector<double>> values;
  for (const Series& s : m_series) {
    for (const bool muls : {true, false}) {
      names << s.name + (muls ? " muls" : " adds");
      std::vector<double> col;
      for (double n : ns) {
        const auto it = std::find(s.n.begin(), s.n.end(), int(n));
        const std::vector<double>& m = muls ? s.muls : s.adds;
        col.push_back(it == s.n.end() ? NAN : m[std::size_t(it - s.n.begin())]);
      }
      values.push_back(std::move(col));
    }
    for (std::size_t k = 0; k < s.papers.size(); ++k)
      for (const bool muls : {true, false}) {
        const std::vector<double>& c = muls ? s.papers[k].muls : s.papers[k].adds;
        if (c.empty()) continue;
        names << s.name + QStringLiteral(" paper%1 ").arg(s.papers.size() > 1 ? QString::number(k + 1) : QString()) +
                     (muls ? "muls" : "adds");
        std::vector<double> col;
        for (double n : ns) col.push_back(evaluate(c, n));
        values.push_back(std::move(col));
      }
  }
  std::vector<std::span<const double>> columns(values.begin(), values.end());
  return plots::writeCsv(path, QStringLiteral("n"), ns, names, columns, error);
}
