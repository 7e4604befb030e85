// The plot widgets (ui/plots) driven with analytic data (sin, cos, ramps) and simulated mouse and
// keyboard input: data in and out, decimation against brute force, legend toggling, the time
// cursor, hover read-out, zoom/pan, limits and flags, PNG/SVG/CSV export, and the decomposition
// view. Runs under Xvfb. Set DYNSCOPE_GRAB_DIR to keep rendered pictures for a human to look at.
#include <QtTest>

#include <QAreaSeries>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QPainter>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QToolButton>
#include <QValueAxis>
#include <QXmlStreamReader>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "plots/decimation.hpp"
#include "plots/plot_canvas.hpp"
#include "plots/plot_legend.hpp"
#include "plots/plot_palette.hpp"
#include "plots/stacked_decomposition_plot.hpp"
#include "plots/time_series_plot.hpp"

namespace {

// Three series on t = 0, 0.05, ..., 5: few enough samples that nothing is decimated.
constexpr int kSamples = 101;
constexpr double kDt = 0.05;
double ramp(double t) { return 0.2 * t - 0.5; }

std::vector<double> times(int n, double dt) {
  std::vector<double> t(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) t[std::size_t(k)] = k * dt;
  return t;
}

Eigen::MatrixXd threeSeries(const std::vector<double>& t) {
  Eigen::MatrixXd y(3, Eigen::Index(t.size()));
  for (Eigen::Index k = 0; k < y.cols(); ++k) {
    y(0, k) = std::sin(t[std::size_t(k)]);
    y(1, k) = std::cos(t[std::size_t(k)]);
    y(2, k) = ramp(t[std::size_t(k)]);
  }
  return y;
}

void settle() {
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
}

// Viewport pixel <-> data value through QChart's own mapping (independent of PlotCanvas's).
QPointF valueAtPixel(PlotCanvas* view, QAbstractSeries* series, const QPoint& pixel) {
  QChart* chart = view->chart();
  return chart->mapToValue(chart->mapFromScene(view->mapToScene(pixel)), series);
}
QPoint pixelOfValue(PlotCanvas* view, QAbstractSeries* series, const QPointF& value) {
  QChart* chart = view->chart();
  return view->mapFromScene(chart->mapToScene(chart->mapToPosition(value, series)));
}
double secondsPerPixel(PlotCanvas* view) {
  return (view->axisX()->max() - view->axisX()->min()) / view->chart()->plotArea().width();
}
QPoint legendEntryPixel(PlotCanvas* view, int entry) {
  PlotLegend* legend = view->plotLegend();
  return view->mapFromScene(legend->mapToScene(legend->entryRect(entry).center()));
}

void sendMouse(QWidget* target, QEvent::Type type, const QPoint& pos, Qt::MouseButton button, Qt::MouseButtons buttons,
               Qt::KeyboardModifiers mods = Qt::NoModifier) {
  QMouseEvent event(type, QPointF(pos), QPointF(target->mapToGlobal(pos)), button, buttons, mods);
  QCoreApplication::sendEvent(target, &event);
}
void drag(QWidget* target, Qt::MouseButton button, const QPoint& from, const QPoint& to,
          Qt::KeyboardModifiers mods = Qt::NoModifier) {
  sendMouse(target, QEvent::MouseButtonPress, from, button, button, mods);
  for (int s = 1; s <= 4; ++s)
    sendMouse(target, QEvent::MouseMove, from + (to - from) * s / 4, Qt::NoButton, button, mods);
  sendMouse(target, QEvent::MouseButtonRelease, to, button, Qt::NoButton, mods);
}
void sendWheel(QWidget* target, const QPoint& pos, int angle, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  QWheelEvent event(QPointF(pos), QPointF(target->mapToGlobal(pos)), QPoint(), QPoint(0, angle), Qt::NoButton, mods,
                    Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(target, &event);
}

// "name = value [unit]" lines of a hover read-out.
std::map<QString, double> parseReadout(const QString& text) {
  std::map<QString, double> values;
  static const QRegularExpression line("^(.*) = (\\S+)");
  for (const QString& l : text.split('\n')) {
    const QRegularExpressionMatch m = line.match(l);
    if (m.hasMatch()) values[m.captured(1)] = m.captured(2).toDouble();
  }
  return values;
}

int countPixels(const QImage& image, const std::function<bool(QColor)>& match) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) n += match(image.pixelColor(x, y));
  return n;
}
bool isFlagRed(QColor c) { return c.red() > 215 && c.green() < 25 && c.blue() < 25; }

}  // namespace

class TestPlots : public QObject {
  Q_OBJECT

  std::unique_ptr<TimeSeriesPlot> makePlot() {
    auto plot = std::make_unique<TimeSeriesPlot>();
    plot->resize(900, 560);
    plot->show();
    if (!QTest::qWaitForWindowExposed(plot.get())) return nullptr;
    const std::vector<double> t = times(kSamples, kDt);
    QString error;
    if (!plot->setData(t, threeSeries(t), {"sin", "cos", "ramp"}, "τ [N·m]", "t [s]", &error)) return nullptr;
    settle();
    return plot;
  }

 private slots:
  // ---- palette ----
  void paletteLabMatchesReferenceValues() {
    // CIELAB of sRGB primaries and white (D65), as tabulated e.g. by Lindbloom / the CIE.
    const plots::Lab red = plots::toLab(QColor(255, 0, 0));
    QVERIFY(std::abs(red.L - 53.24) < 0.05 && std::abs(red.a - 80.09) < 0.1 && std::abs(red.b - 67.20) < 0.1);
    const plots::Lab blue = plots::toLab(QColor(0, 0, 255));
    QVERIFY(std::abs(blue.L - 32.30) < 0.05 && std::abs(blue.a - 79.19) < 0.1 && std::abs(blue.b + 107.86) < 0.1);
    const plots::Lab white = plots::toLab(Qt::white);
    QVERIFY(std::abs(white.L - 100) < 0.01 && std::abs(white.a) < 0.01 && std::abs(white.b) < 0.01);
  }
  // Okabe & Ito's colours (without their yellow), each further cycle of seven with its own dash
  // pattern: 35 series differ in colour or pattern; the colours stay apart for the three kinds of
  // colour blindness (Machado et al. 2009, severity 1), and the operation-count figure's 13
  // formulations stay apart in grey through their markers.
  void paletteColoursAreDistinguishable() {
    QCOMPARE(plots::seriesColor(0), QColor("#0072b2"));
    QCOMPARE(plots::seriesColor(1), QColor("#e69f00"));
    QCOMPARE(plots::seriesColor(plots::kColorCount), plots::seriesColor(0));  // colours cycle
    QCOMPARE(plots::seriesDashes(plots::kPaletteSize), plots::seriesDashes(0));
    for (int i = 0; i < plots::kPaletteSize; ++i)
      for (int j = 0; j < i; ++j)
        QVERIFY2(plots::seriesColor(i) != plots::seriesColor(j) || plots::seriesDashes(i) != plots::seriesDashes(j),
                 qPrintable(QString("series %1 and %2 look alike").arg(i).arg(j)));
    const double machado[4][3][3] = {
        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
        {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
        {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
        {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};
    const char* vision[] = {"normal", "protanopia", "deuteranopia", "tritanopia"};
    auto toLinear = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    auto toSrgb = [](double c) {
      c = std::clamp(c, 0.0, 1.0);
      return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
    };
    for (int v = 0; v < 4; ++v) {
      std::vector<plots::Lab> seen;
      for (int i = 0; i < plots::kColorCount; ++i) {
        const QColor c = plots::seriesColor(i);
        const double rgb[3] = {toLinear(c.redF()), toLinear(c.greenF()), toLinear(c.blueF())};
        double out[3];
        for (int r = 0; r < 3; ++r)
          out[r] = toSrgb(machado[v][r][0] * rgb[0] + machado[v][r][1] * rgb[1] + machado[v][r][2] * rgb[2]);
        seen.push_back(plots::toLab(QColor::fromRgbF(float(out[0]), float(out[1]), float(out[2]))));
        // Readable on white (not the yellow) and darker than a hidden legend entry's grey.
        if (v == 0) QVERIFY2(seen.back().L <= 75, qPrintable(c.name()));
      }
      double closest = INFINITY;
      for (std::size_t i = 0; i < seen.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          closest = std::min(closest, std::hypot(seen[i].L - seen[j].L, seen[i].a - seen[j].a, seen[i].b - seen[j].b));
      QVERIFY2(closest >= (v == 0 ? 25 : 15),
               qPrintable(QString("%1: closest pair ΔE = %2").arg(vision[v]).arg(closest)));
    }
    // 13 formulations: colour and marker pairs all different; two with the same marker differ in
    // lightness, so they stay apart in grey.
    for (int i = 0; i < 13; ++i)
      for (int j = 0; j < i; ++j) {
        if (plots::seriesMarker(i) != plots::seriesMarker(j)) continue;
        const double dL = std::abs(plots::toLab(plots::seriesColor(i)).L - plots::toLab(plots::seriesColor(j)).L);
        QVERIFY2(dL >= 8, qPrintable(QString("series %1 and %2: same marker, ΔL* = %3").arg(i).arg(j).arg(dL)));
      }
  }

  // ---- decimation, as a function ----
  void decimationKeepsBucketExtremes() {
    // 20,000 samples of a chirp with spikes; window [3, 17] of [0, 20]; 300 buckets.
    const int n = 20000;
    std::vector<double> t(n), y(n);
    for (int k = 0; k < n; ++k) {
      t[k] = k * 1e-3;
      y[k] = std::sin(t[k] * t[k]) + (k % 997 == 0 ? 3.0 : 0.0) - (k % 1511 == 0 ? 2.5 : 0.0);
    }
    const double x0 = 3, x1 = 17;
    const int buckets = 300;
    const QList<QPointF> out = plots::decimateMinMax(t, y, x0, x1, buckets);

    // Brute force: every sample in the window assigned to its bucket.
    std::vector<double> lo(buckets, INFINITY), hi(buckets, -INFINITY);
    int inWindow = 0;
    for (int k = 0; k < n; ++k) {
      if (t[k] < x0 || t[k] > x1) continue;
      ++inWindow;
      const int b = std::min(int((t[k] - x0) / (x1 - x0) * buckets), buckets - 1);
      lo[b] = std::min(lo[b], y[k]);
      hi[b] = std::max(hi[b], y[k]);
    }
    QVERIFY(inWindow > 2 * buckets);  // the decimating branch
    QVERIFY(out.size() <= 2 * buckets + 2);
    for (int i = 1; i < out.size(); ++i) QVERIFY(out[i].x() >= out[i - 1].x());
    // Edges: the nearest samples outside the window lead the line to the plot's borders.
    QVERIFY(out.first().x() < x0 && out.last().x() > x1);
    for (int b = 0; b < buckets; ++b) {
      bool haveLo = false, haveHi = false;
      for (const QPointF& p : out) {
        if (p.x() < x0 || p.x() > x1) continue;
        if (std::min(int((p.x() - x0) / (x1 - x0) * buckets), buckets - 1) != b) continue;
        haveLo |= p.y() == lo[b];
        haveHi |= p.y() == hi[b];
      }
      QVERIFY2(haveLo && haveHi, qPrintable(QString("bucket %1 lost its min or max").arg(b)));
    }
    // Every output point is a sample of the input.
    for (const QPointF& p : out) {
      const int k = int(std::lround(p.x() / 1e-3));
      QCOMPARE(p.y(), y[k]);
    }
  }
  void decimationPassesFewSamplesThrough() {
    const std::vector<double> t = times(50, 0.1), y = [&] {
      std::vector<double> v;
      for (double x : t) v.push_back(std::cos(x));
      return v;
    }();
    const QList<QPointF> out = plots::decimateMinMax(t, y, 0.0, 10.0, 100);
    QCOMPARE(out.size(), 50);
    for (int k = 0; k < 50; ++k) QCOMPARE(out[k], QPointF(t[k], std::cos(t[k])));
    // Non-finite values are skipped, never drawn.
    std::vector<double> holes = y;
    holes[10] = NAN;
    holes[11] = INFINITY;
    QCOMPARE(plots::decimateMinMax(t, holes, 0.0, 10.0, 100).size(), 48);
    QVERIFY(plots::decimateMinMax(t, y, 1.0, 1.0, 100).isEmpty());  // empty window
  }
  void nearestSampleRoundsToTheClosestTime() {
    const std::vector<double> t{0.0, 1.0, 1.5, 4.0};
    QCOMPARE(plots::nearestSample(t, -3), 0);
    QCOMPARE(plots::nearestSample(t, 0.49), 0);
    QCOMPARE(plots::nearestSample(t, 0.51), 1);
    QCOMPARE(plots::nearestSample(t, 2.7), 1 + 1);
    QCOMPARE(plots::nearestSample(t, 2.8), 3);
    QCOMPARE(plots::nearestSample(t, 99), 3);
    QCOMPARE(plots::nearestSample({}, 1), -1);
  }

  // ---- TimeSeriesPlot: data in and out ----
  void dataGoesInAndComesOut() {
    auto plot = makePlot();
    QVERIFY(plot);
    QCOMPARE(plot->seriesCount(), 3);
    QCOMPARE(plot->seriesNames(), QStringList({"sin", "cos", "ramp"}));
    QCOMPARE(plot->canvas()->axisX()->titleText(), QString("t [s]"));
    QCOMPARE(plot->canvas()->axisY()->titleText(), QString("τ [N·m]"));
    QCOMPARE(plot->canvas()->plotLegend()->entries().size(), 3);
    for (int i = 0; i < 3; ++i) {
      QCOMPARE(plot->lineSeries(i)->name(), plot->seriesNames()[i]);
      QCOMPARE(plot->lineSeries(i)->pen().color(), plots::seriesColor(i));
      QCOMPARE(plot->canvas()->plotLegend()->entries()[i].color, plots::seriesColor(i));
    }
    // 101 samples on a ~800-pixel plot: drawn as given.
    for (int k : {0, 17, 50, 100}) {
      const double t = k * kDt;
      QCOMPARE(plot->lineSeries(0)->points().size(), kSamples);
      QCOMPARE(plot->lineSeries(0)->at(k), QPointF(t, std::sin(t)));
      QCOMPARE(plot->lineSeries(1)->at(k), QPointF(t, std::cos(t)));
      QCOMPARE(plot->lineSeries(2)->at(k), QPointF(t, ramp(t)));
    }
    // Auto-range: all of t, and y covering [-1, 1] with a margin.
    QCOMPARE(plot->canvas()->axisX()->min(), 0.0);
    QCOMPARE(plot->canvas()->axisX()->max(), 5.0);
    QVERIFY(plot->canvas()->axisY()->min() < -0.99 && plot->canvas()->axisY()->min() > -1.3);
    QVERIFY(plot->canvas()->axisY()->max() > 0.99 && plot->canvas()->axisY()->max() < 1.3);
  }
  void badDataIsRefusedWithAMessage() {
    auto plot = makePlot();
    QVERIFY(plot);
    const std::vector<double> t = times(kSamples, kDt);
    QString error;
    QVERIFY(!plot->setData(times(10, kDt), threeSeries(t), {"a", "b", "c"}, "y", "t", &error));
    QVERIFY2(error.contains("10 times") && error.contains("101 samples"), qPrintable(error));
    QVERIFY(!plot->setData(t, threeSeries(t), {"a", "b"}, "y", "t", &error));
    QVERIFY2(error.contains("2 names for 3 series"), qPrintable(error));
    std::vector<double> backwards = t;
    backwards[40] = 0.1;
    QVERIFY(!plot->setData(backwards, threeSeries(t), {"a", "b", "c"}, "y", "t", &error));
    QVERIFY2(error.contains("t[40]"), qPrintable(error));
    std::vector<double> nan = t;
    nan[7] = NAN;
    QVERIFY(!plot->setData(nan, threeSeries(t), {"a", "b", "c"}, "y", "t", &error));
    QVERIFY2(error.contains("t[7]"), qPrintable(error));
    // The previous data stays.
    QCOMPARE(plot->seriesNames(), QStringList({"sin", "cos", "ramp"}));
    QCOMPARE(plot->lineSeries(0)->points().size(), kSamples);
    // Bad limits and flags too.
    QVERIFY(!plot->setLimits({-1, -1}, {1, 1}, &error));
    QVERIFY(!plot->setLimits({-1, 2, -1}, {1, 1, 1}, &error));
    QVERIFY2(error.contains("cos"), qPrintable(error));
    QVERIFY(!plot->setFlaggedSamples(5, {1}, &error));
    QVERIFY(!plot->setFlaggedSamples(0, {1, 101}, &error));
    QVERIFY2(error.contains("101"), qPrintable(error));
  }

  void widgetDecimatesLargeDataAndRedecimatesOnZoom() {
    auto plot = makePlot();
    QVERIFY(plot);
    const int n = 10000;
    const std::vector<double> t = times(n, 1e-3);
    Eigen::MatrixXd y(2, n);
    for (int k = 0; k < n; ++k) {
      y(0, k) = std::sin(40 * t[k]) + (k == 6543 ? 5.0 : 0.0);  // a one-sample spike
      y(1, k) = std::sin(3 * t[k]) * std::exp(-t[k]);
    }
    QVERIFY(plot->setData(t, y, {"fast", "slow"}, "y"));
    settle();
    auto check = [&](int series) {
      const QValueAxis* ax = plot->canvas()->axisX();
      const int w = plot->canvas()->plotWidthPixels();
      const QList<QPointF> pts = plot->lineSeries(series)->points();
      if (pts.size() > 2 * w + 2) return QString("%1 points for %2 pixels").arg(pts.size()).arg(w);
      // Brute-force extremes of every pixel bucket must be among the drawn points.
      std::vector<double> lo(std::size_t(w), INFINITY), hi(std::size_t(w), -INFINITY);
      for (int k = 0; k < n; ++k) {
        if (t[k] < ax->min() || t[k] > ax->max()) continue;
        const int b = std::min(int((t[k] - ax->min()) / (ax->max() - ax->min()) * w), w - 1);
        lo[b] = std::min(lo[b], y(series, k));
        hi[b] = std::max(hi[b], y(series, k));
      }
      std::set<double> drawn;
      for (const QPointF& p : pts) drawn.insert(p.y());
      for (int b = 0; b < w; ++b)
        if (std::isfinite(lo[b]) && (!drawn.count(lo[b]) || !drawn.count(hi[b])))
          return QString("bucket %1 of %2 lost its extremes").arg(b).arg(w);
      return QString();
    };
    QString problem = check(0);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(plot->lineSeries(0)->points().size() < n / 4);
    bool spike = false;
    for (const QPointF& p : plot->lineSeries(0)->points()) spike |= p == QPointF(t[6543], y(0, 6543));
    QVERIFY(spike);  // a single-sample peak survives decimation
    // Zoom into [2, 3]: 1,001 samples on ~800 pixels are drawn raw; back out: decimated again.
    QVERIFY(plot->canvas()->plotWidthPixels() > 501);
    plot->canvas()->setXRange(2.0, 3.0);
    QCOMPARE(plot->lineSeries(1)->points().size(), 1001 + 2);  // + the neighbours outside
    QCOMPARE(plot->lineSeries(1)->points()[1], QPointF(t[2000], y(1, 2000)));
    plot->canvas()->setXRange(0.5, 9.5);
    problem = check(1);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  // ---- legend ----
  void legendClickTogglesSeries() {
    auto plot = makePlot();
    QVERIFY(plot);
    QSignalSpy spy(plot.get(), &TimeSeriesPlot::seriesVisibilityChanged);
    const QPoint entry = legendEntryPixel(plot->canvas(), 1);
    QVERIFY(plot->canvas()->viewport()->rect().contains(entry));
    QTest::mouseClick(plot->canvas()->viewport(), Qt::LeftButton, {}, entry);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toInt(), 1);
    QCOMPARE(spy[0][1].toBool(), false);
    QVERIFY(!plot->isSeriesVisible(1));
    QVERIFY(!plot->lineSeries(1)->isVisible());
    QVERIFY(plot->lineSeries(0)->isVisible() && plot->lineSeries(2)->isVisible());
    QVERIFY(!plot->canvas()->plotLegend()->entries()[1].shown);  // greyed
    // Auto-range now ignores the hidden series: sin and the ramp only.
    plot->autoRange();
    {  // the data's top (1), padded by 3 % and rounded out to the next tick
      const QValueAxis* y = plot->canvas()->axisY();
      QVERIFY2(y->max() >= 1 && y->max() <= std::ceil(1.03 / y->tickInterval() - 1e-9) * y->tickInterval() + 1e-9,
               qPrintable(QString("max %1, ticks every %2").arg(y->max()).arg(y->tickInterval())));
    }
    QTest::mouseClick(plot->canvas()->viewport(), Qt::LeftButton, {}, entry);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy[1][1].toBool(), true);
    QVERIFY(plot->lineSeries(1)->isVisible());
    QVERIFY(plot->canvas()->plotLegend()->entries()[1].shown);
    // The API, and no signal when nothing changes.
    plot->setSeriesVisible(2, false);
    plot->setSeriesVisible(2, false);
    QCOMPARE(spy.count(), 3);
    QVERIFY(!plot->isSeriesVisible(2));
    plot->setSeriesVisible(7, false);  // no such series: ignored
    QCOMPARE(spy.count(), 3);
  }

  // ---- cursor ----
  void clickOnPlotRequestsTheTimeUnderThePixel() {
    auto plot = makePlot();
    QVERIFY(plot);
    QSignalSpy spy(plot.get(), &PlotWidget::cursorTimeRequested);
    PlotCanvas* view = plot->canvas();
    const QPoint pixel = pixelOfValue(view, plot->lineSeries(0), {1.737, 0.0});
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pixel);
    QCOMPARE(spy.count(), 1);
    const double expected = valueAtPixel(view, plot->lineSeries(0), pixel).x();
    const double got = spy[0][0].toDouble();
    QVERIFY2(std::abs(got - expected) <= secondsPerPixel(view),
             qPrintable(QString("requested %1, pixel maps to %2").arg(got).arg(expected)));
    QVERIFY(std::abs(got - 1.737) <= secondsPerPixel(view));
    QCOMPARE(plot->cursorTime(), got);  // the cursor moved there
    // The timeline answering with setCursorTime does not echo back.
    plot->setCursorTime(got);
    QCOMPARE(spy.count(), 1);
    // Dragging scrubs: one request per move, the last one at the release pixel.
    const QPoint end = pixelOfValue(view, plot->lineSeries(0), {3.9, 0.0});
    drag(view->viewport(), Qt::LeftButton, pixel, end);
    QVERIFY(spy.count() >= 4);
    QVERIFY(std::abs(spy.last()[0].toDouble() - valueAtPixel(view, plot->lineSeries(0), end).x()) <=
            secondsPerPixel(view));
    // Clicks outside the plot area (on the axis labels) request nothing.
    const int before = spy.count();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, QPoint(3, 3));
    QCOMPARE(spy.count(), before);
  }
  void setCursorTimeMovesTheLine() {
    auto plot = makePlot();
    QVERIFY(plot);
    QVERIFY(plot->canvas()->cursorLine().isNull());  // no cursor before the first time
    QSignalSpy spy(plot.get(), &PlotWidget::cursorTimeRequested);
    const QRectF area = plot->canvas()->chart()->plotArea();
    for (double t : {0.0, 1.25, 4.0, 5.0}) {
      plot->setCursorTime(t);
      const QLineF line = plot->canvas()->cursorLine();
      const double x = area.left() + t / 5.0 * area.width();  // the axis runs over [0, 5]
      QVERIFY2(std::abs(line.x1() - x) < 0.5 && std::abs(line.x2() - x) < 0.5,
               qPrintable(QString("t=%1: line at x=%2, expected %3").arg(t).arg(line.x1()).arg(x)));
      QCOMPARE(std::min(line.y1(), line.y2()), area.top());
      QCOMPARE(std::max(line.y1(), line.y2()), area.bottom());
    }
    plot->setCursorTime(7.5);  // outside the view: not drawn
    QVERIFY(plot->canvas()->cursorLine().isNull());
    QCOMPARE(spy.count(), 0);
    // Zooming keeps the line on its time.
    plot->setCursorTime(2.0);
    plot->canvas()->setXRange(1.0, 3.0);
    const QRectF a = plot->canvas()->chart()->plotArea();
    QVERIFY(std::abs(plot->canvas()->cursorLine().x1() - (a.left() + 0.5 * a.width())) < 0.5);
  }

  // ---- hover ----
  void hoverShowsValuesOfVisibleSeriesAtNearestSample() {
    auto plot = makePlot();
    QVERIFY(plot);
    plot->setSeriesVisible(2, false);
    PlotCanvas* view = plot->canvas();
    const QPoint pixel = pixelOfValue(view, plot->lineSeries(0), {2.31, 0.2});
    sendMouse(view->viewport(), QEvent::MouseMove, pixel, Qt::NoButton, Qt::NoButton);
    const QString text = plot->hoverText();
    QVERIFY2(!text.isEmpty(), "no read-out");
    const double tHover = valueAtPixel(view, plot->lineSeries(0), pixel).x();
    const double tk = std::round(tHover / kDt) * kDt;  // nearest sample
    QVERIFY2(text.startsWith(QString("t = %1 s").arg(tk)), qPrintable(text));
    const auto values = parseReadout(text);
    QCOMPARE(values.count("ramp"), std::size_t(0));  // hidden
    QVERIFY2(std::abs(values.at("sin") - std::sin(tk)) < 1e-5, qPrintable(text));
    QVERIFY2(std::abs(values.at("cos") - std::cos(tk)) < 1e-5, qPrintable(text));
    QVERIFY(text.contains("N·m"));
    QVERIFY(view->findChild<QLabel*>("plotHoverLabel")->isVisible());
    // Leaving the plot area hides it.
    sendMouse(view->viewport(), QEvent::MouseMove, QPoint(2, 2), Qt::NoButton, Qt::NoButton);
    QVERIFY(plot->hoverText().isEmpty());
  }

  // ---- zoom and pan ----
  void wheelZoomsAroundTheMouse() {
    auto plot = makePlot();
    QVERIFY(plot);
    PlotCanvas* view = plot->canvas();
    QLineSeries* s = plot->lineSeries(0);
    const QPoint pixel = pixelOfValue(view, s, {1.0, 0.5});
    const QPointF before = valueAtPixel(view, s, pixel);
    const double y0 = view->axisY()->min(), y1 = view->axisY()->max();
    sendWheel(view->viewport(), pixel, 120);
    QVERIFY(std::abs((view->axisX()->max() - view->axisX()->min()) - 0.8 * 5.0) < 1e-9);
    QVERIFY(std::abs(valueAtPixel(view, s, pixel).x() - before.x()) <= secondsPerPixel(view));  // fixed point
    QCOMPARE(view->axisY()->min(), y0);                                                         // x only by default
    sendWheel(view->viewport(), pixel, -120);
    QVERIFY(std::abs(view->axisX()->max() - view->axisX()->min() - 5.0) < 1e-9);
    const double xSpan = view->axisX()->max() - view->axisX()->min();
    sendWheel(view->viewport(), pixel, 240, Qt::ControlModifier);  // Ctrl: y only
    QVERIFY(std::abs((view->axisY()->max() - view->axisY()->min()) - 0.64 * (y1 - y0)) < 1e-9);
    QCOMPARE(view->axisX()->max() - view->axisX()->min(), xSpan);
    // Home fits everything again; setData keeps a zoomed view.
    const std::vector<double> t = times(kSamples, kDt);
    QVERIFY(plot->setData(t, 2 * threeSeries(t), {"sin", "cos", "ramp"}, "y"));
    QVERIFY(view->axisY()->max() - view->axisY()->min() < 2);
    QTest::keyClick(view, Qt::Key_Home);
    QVERIFY(view->axisY()->max() > 1.99 && view->axisY()->min() < -1.99);
    QCOMPARE(view->axisX()->min(), 0.0);
    QCOMPARE(view->axisX()->max(), 5.0);
  }
  void keyboardZoomsAndPans() {
    auto plot = makePlot();
    QVERIFY(plot);
    PlotCanvas* view = plot->canvas();
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Plus);
    QVERIFY(std::abs(view->axisX()->min() - 0.5) < 1e-9 && std::abs(view->axisX()->max() - 4.5) < 1e-9);
    QTest::keyClick(view, Qt::Key_Right);  // 10% of the 4-second view later
    QVERIFY(std::abs(view->axisX()->min() - 0.9) < 1e-9 && std::abs(view->axisX()->max() - 4.9) < 1e-9);
    QTest::keyClick(view, Qt::Key_Left);
    QVERIFY(std::abs(view->axisX()->min() - 0.5) < 1e-9);
    const double y0 = view->axisY()->min(), y1 = view->axisY()->max();
    QTest::keyClick(view, Qt::Key_Up);
    QVERIFY(std::abs(view->axisY()->min() - (y0 + 0.1 * (y1 - y0))) < 1e-9);
    QTest::keyClick(view, Qt::Key_Minus);
    QVERIFY(std::abs(view->axisX()->max() - view->axisX()->min() - 5.0) < 1e-9);
    // Double-click fits all again.
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, view->viewport()->rect().center());
    QCOMPARE(view->axisX()->min(), 0.0);
    QCOMPARE(view->axisY()->min(), y0);
  }
  void rubberBandAndPanDrags() {
    auto plot = makePlot();
    QVERIFY(plot);
    PlotCanvas* view = plot->canvas();
    QLineSeries* s = plot->lineSeries(0);
    const QPoint a = pixelOfValue(view, s, {1.0, 0.75}), b = pixelOfValue(view, s, {2.5, -0.25});
    const QPointF va = valueAtPixel(view, s, a), vb = valueAtPixel(view, s, b);
    QSignalSpy requests(plot.get(), &PlotWidget::cursorTimeRequested);
    drag(view->viewport(), Qt::RightButton, a, b);  // right-drag: zoom to the band
    QVERIFY(std::abs(view->axisX()->min() - va.x()) < 0.01 && std::abs(view->axisX()->max() - vb.x()) < 0.01);
    QVERIFY(std::abs(view->axisY()->min() - vb.y()) < 0.01 && std::abs(view->axisY()->max() - va.y()) < 0.01);
    QCOMPARE(requests.count(), 0);
    plot->autoRange();
    drag(view->viewport(), Qt::LeftButton, a, b, Qt::ControlModifier);  // Ctrl+drag: the same
    QVERIFY(std::abs(view->axisX()->min() - va.x()) < 0.01 && std::abs(view->axisX()->max() - vb.x()) < 0.01);
    plot->autoRange();
    // Middle-drag by 100 pixels to the right shows 100 pixels' worth of earlier time.
    const double spp = secondsPerPixel(view);
    const QPoint c = view->viewport()->rect().center();
    drag(view->viewport(), Qt::MiddleButton, c, c + QPoint(100, 0));
    QVERIFY(std::abs(view->axisX()->min() + 100 * spp) < 1e-6);
    plot->autoRange();
    drag(view->viewport(), Qt::LeftButton, c, c + QPoint(-50, 0), Qt::ShiftModifier);  // Shift+drag pans too
    QVERIFY(std::abs(view->axisX()->min() - 50 * spp) < 1e-6);
    QCOMPARE(requests.count(), 0);
  }
  void contextMenuOffersViewAndExportActions() {
    auto plot = makePlot();
    QVERIFY(plot);
    std::unique_ptr<QMenu> menu(plot->canvas()->createContextMenu());
    for (const char* name :
         {"autoRangeAction", "exportPngAction", "exportSvgAction", "exportCsvAction", "showAllAction", "hideAllAction"})
      QVERIFY2(menu->findChild<QAction*>(name), name);
    QSignalSpy spy(plot.get(), &TimeSeriesPlot::seriesVisibilityChanged);
    menu->findChild<QAction*>("hideAllAction")->trigger();
    QCOMPARE(spy.count(), 3);
    for (int i = 0; i < 3; ++i) QVERIFY(!plot->isSeriesVisible(i));
    menu->findChild<QAction*>("showAllAction")->trigger();
    for (int i = 0; i < 3; ++i) QVERIFY(plot->isSeriesVisible(i));
    plot->canvas()->zoomX(0.5, 1.0);
    menu->findChild<QAction*>("autoRangeAction")->trigger();
    QCOMPARE(plot->canvas()->axisX()->max(), 5.0);
  }

  // ---- limits and flags ----
  void limitsAndFlaggedSamplesAreDrawn() {
    auto plot = makePlot();
    QVERIFY(plot);
    QVERIFY(plot->setLimits({-0.5, -INFINITY, -INFINITY}, {0.8, INFINITY, 0.25}));
    QCOMPARE(plot->lowerLimitSeries(0)->at(0).y(), -0.5);
    QCOMPARE(plot->upperLimitSeries(0)->at(1).y(), 0.8);
    QCOMPARE(plot->upperLimitSeries(0)->pen().color(), plots::seriesColor(0));
    QCOMPARE(plot->upperLimitSeries(0)->pen().style(), Qt::CustomDashLine);
    QVERIFY(!plot->lowerLimitSeries(1) && !plot->upperLimitSeries(1));
    QVERIFY(!plot->lowerLimitSeries(2));
    QCOMPARE(plot->upperLimitSeries(2)->at(0).y(), 0.25);

    // Samples outside the limits, against the closed form.
    const std::vector<int> outside = plot->samplesOutsideLimits(0);
    std::vector<int> expected;
    for (int k = 0; k < kSamples; ++k)
      if (std::sin(k * kDt) > 0.8 || std::sin(k * kDt) < -0.5) expected.push_back(k);
    QCOMPARE(outside, expected);
    QVERIFY(!expected.empty());
    std::vector<int> rampOver;
    for (int k = 0; k < kSamples; ++k)
      if (ramp(k * kDt) > 0.25) rampOver.push_back(k);
    QCOMPARE(plot->samplesOutsideLimits(2), rampOver);

    const QImage clean = plot->canvas()->grab().toImage();
    QCOMPARE(countPixels(clean, isFlagRed), 0);
    QVERIFY(plot->setFlaggedSamples(0, outside));
    QScatterSeries* flags = plot->flagSeries(0);
    QVERIFY(flags && flags->isVisible());
    QCOMPARE(flags->color(), QColor(230, 0, 0));
    // Each marker sits on a flagged sample, and every flagged sample has a marker within 10
    // pixels (markers are thinned to one per marker width).
    QVERIFY(flags->count() > 0 && flags->count() <= qsizetype(outside.size()));
    for (const QPointF& p : flags->points()) {
      const int k = int(std::lround(p.x() / kDt));
      QVERIFY(std::find(outside.begin(), outside.end(), k) != outside.end());
      QCOMPARE(p, QPointF(k * kDt, std::sin(k * kDt)));
    }
    const double spp = secondsPerPixel(plot->canvas());
    for (int k : outside) {
      double nearest = INFINITY;
      for (const QPointF& p : flags->points()) nearest = std::min(nearest, std::abs(p.x() - k * kDt));
      QVERIFY2(nearest <= 10 * spp, qPrintable(QString("sample %1 has no marker nearby").arg(k)));
    }
    settle();
    QVERIFY(countPixels(plot->canvas()->grab().toImage(), isFlagRed) > 20);  // visibly drawn
    // Markers follow their series' visibility; new data clears them.
    plot->setSeriesVisible(0, false);
    QVERIFY(!flags->isVisible() && !plot->upperLimitSeries(0)->isVisible());
    plot->setSeriesVisible(0, true);
    QVERIFY(flags->isVisible());
    const std::vector<double> t = times(kSamples, kDt);
    QVERIFY(plot->setData(t, threeSeries(t), {"sin", "cos", "ramp"}, "y"));
    QVERIFY(plot->flaggedSamples(0).empty() && !flags->isVisible());
    QCOMPARE(plot->upperLimitSeries(0)->at(0).y(), 0.8);  // limits kept: same series
  }

  // ---- export ----
  // The auto range holds the limit lines near the data (the ramp's -2 and 0.5); a limit far
  // beyond them (a wrist's 28 N·m against torques of a few N·m) stays out, so that the curves are
  // not flattened into a band, and the note at the plot's edge names it instead.
  void limitLinesNearTheDataAreInsideTheAutoRange() {
    auto plot = makePlot();
    QVERIFY(plot);
    // The ramp (-0.5 … 0.5) comes near its own limits -1.2 and 0.5; the sine is far from its ±28.
    QVERIFY(plot->setLimits({-28, -INFINITY, -1.2}, {28, INFINITY, 0.5}));
    settle();
    const QValueAxis* y = plot->canvas()->axisY();
    for (QLineSeries* limit : {plot->lowerLimitSeries(2), plot->upperLimitSeries(2)}) {
      QVERIFY(limit && limit->count() == 2);
      QVERIFY2(limit->at(0).y() >= y->min() && limit->at(0).y() <= y->max(),
               qPrintable(QString("limit %1 outside [%2, %3]").arg(limit->at(0).y()).arg(y->min()).arg(y->max())));
    }
    QVERIFY2(y->max() < 28 && y->min() > -28, qPrintable(QString("[%1, %2]").arg(y->min()).arg(y->max())));
    QVERIFY(!plot->limitInView(0, true) && !plot->limitInView(0, false));
    QVERIFY2(plot->limitNote(Qt::TopEdge).contains("28"), qPrintable(plot->limitNote(Qt::TopEdge)));
    QVERIFY2(plot->limitNote(Qt::BottomEdge).contains("28"), qPrintable(plot->limitNote(Qt::BottomEdge)));
    QVERIFY(plot->lowerLimitSeries(2)->isVisible() && plot->upperLimitSeries(2)->isVisible());
    // A hidden series' limits are not named.
    plot->setSeriesVisible(0, false);
    plot->autoRange();
    settle();
    QVERIFY2(plot->limitNote(Qt::TopEdge).isEmpty(), qPrintable(plot->limitNote(Qt::TopEdge)));
    // A limit its own curve stays far from (the ramp's -2: 2.5 times the ramp's extent away) is not
    // drawn, though the cosine comes near it (a curve crossing another joint's limit line would read
    // as a violation): the range leaves it out and a note names it (issue 37).
    QVERIFY(plot->setLimits({-28, -INFINITY, -2}, {28, INFINITY, 0.5}));
    plot->autoRange();
    settle();
    QVERIFY(!plot->lowerLimitSeries(2)->isVisible());
    QVERIFY(plot->upperLimitSeries(2)->isVisible());
    QVERIFY2(y->min() > -2, qPrintable(QString("[%1, %2]").arg(y->min()).arg(y->max())));
    QVERIFY2(plot->limitNote(Qt::BottomEdge).contains("2"), qPrintable(plot->limitNote(Qt::BottomEdge)));
    // Zoomed out by hand to take it in: drawn (the user asked to see that far).
    plot->canvas()->setYRange(-3, 3);
    settle();
    QVERIFY(plot->lowerLimitSeries(2)->isVisible());
  }

  // After switching robots the plots are emptied: no time cursor stays on an empty plot, also
  // when the timeline moves on.
  void emptyPlotShowsNoCursor() {
    auto plot = makePlot();
    QVERIFY(plot);
    plot->setCursorTime(0.5);
    QVERIFY(!plot->canvas()->cursorLine().isNull());
    plot->clear();
    settle();
    QVERIFY(plot->canvas()->cursorLine().isNull());
    plot->setCursorTime(0.7);  // inside the empty plot's 0..1 axis
    QVERIFY(plot->canvas()->cursorLine().isNull());
    const std::vector<double> t = times(kSamples, kDt);
    QVERIFY(plot->setData(t, threeSeries(t), {"sin", "cos", "ramp"}, "τ [N·m]"));
    plot->setCursorTime(0.7);
    QVERIFY(!plot->canvas()->cursorLine().isNull());
    StackedDecompositionPlot dec;
    dec.resize(600, 400);
    dec.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dec));
    dec.setCursorTime(0.5);
    QVERIFY(dec.canvas()->cursorLine().isNull());
  }

  void exportPngWritesAnImageOfTheRequestedSize() {
    auto plot = makePlot();
    QVERIFY(plot);
    QTemporaryDir dir;
    const QSize before = plot->canvas()->chart()->size().toSize();
    QString error;
    QVERIFY2(plot->exportPng(dir.filePath("plot.png"), QSize(640, 400), &error), qPrintable(error));
    QImage image;
    QVERIFY(image.load(dir.filePath("plot.png"), "PNG"));
    QCOMPARE(image.size(), QSize(640, 400));
    // Not blank: the three series' colours are in it.
    for (int i = 0; i < 3; ++i) {
      const QColor c = plots::seriesColor(i);
      const int n = countPixels(image, [&](QColor p) {
        return std::abs(p.red() - c.red()) < 12 && std::abs(p.green() - c.green()) < 12 &&
               std::abs(p.blue() - c.blue()) < 12;
      });
      QVERIFY2(n > 100, qPrintable(QString("series %1: %2 pixels").arg(i).arg(n)));
    }
    // The widget's own layout is restored afterwards.
    QCOMPARE(plot->canvas()->chart()->size().toSize(), before);
    QCOMPARE(plot->lineSeries(0)->points().size(), kSamples);
    QVERIFY(!plot->exportPng("/nonexistent-dir/plot.png", QSize(640, 400), &error));
    QVERIFY2(error.contains("/nonexistent-dir/plot.png"), qPrintable(error));
    QVERIFY(!plot->exportPng(dir.filePath("zero.png"), QSize(0, 10), &error));
    QVERIFY(!QFile::exists(dir.filePath("zero.png")));
  }
  void exportSvgWritesParseableSvg() {
    auto plot = makePlot();
    QVERIFY(plot);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(plot->exportSvg(dir.filePath("plot.svg"), &error), qPrintable(error));
    QFile file(dir.filePath("plot.svg"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QString root;
    int paths = 0;
    while (!xml.atEnd()) {
      if (xml.readNext() == QXmlStreamReader::StartElement) {
        if (root.isEmpty()) root = xml.name().toString();
        paths += xml.name() == QLatin1String("path") || xml.name() == QLatin1String("polyline");
      }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(root, QString("svg"));
    QVERIFY(paths > 3);
    QVERIFY(QSvgRenderer(dir.filePath("plot.svg")).isValid());
    QVERIFY(!plot->exportSvg("/nonexistent-dir/plot.svg", &error));
    QVERIFY2(error.contains("/nonexistent-dir/plot.svg"), qPrintable(error));
  }
  void exportCsvRoundTrips() {
    auto plot = makePlot();
    QVERIFY(plot);
    // Values that need all 17 digits, names that need quoting; hidden series are exported too.
    const std::vector<double> t = times(kSamples, 0.0123456789);
    Eigen::MatrixXd y(2, kSamples);
    for (int k = 0; k < kSamples; ++k) {
      y(0, k) = std::sin(t[std::size_t(k)] * std::sqrt(2.0)) * 1e-7;
      y(1, k) = std::exp(t[std::size_t(k)]) * 12345.678;
    }
    QVERIFY(plot->setData(t, y, {"elbow, left", "wrist \"2\""}, "y"));
    plot->setSeriesVisible(1, false);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(plot->exportCsv(dir.filePath("plot.csv"), &error), qPrintable(error));
    QFile file(dir.filePath("plot.csv"));
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), kSamples + 1);
    QCOMPARE(lines[0], QString("t,\"elbow, left\",\"wrist \"\"2\"\"\""));
    for (int k = 0; k < kSamples; ++k) {
      const QStringList cells = lines[k + 1].split(',');
      QCOMPARE(cells.size(), 3);
      const double expected[] = {t[std::size_t(k)], y(0, k), y(1, k)};
      for (int c = 0; c < 3; ++c) {
        const double v = std::strtod(cells[c].toLatin1().constData(), nullptr);
        QVERIFY2(std::abs(v - expected[c]) <= 1e-15 * std::abs(expected[c]),
                 qPrintable(QString("row %1 col %2: %3").arg(k).arg(c).arg(cells[c])));
      }
    }
    QVERIFY(!plot->exportCsv("/nonexistent-dir/plot.csv", &error));
    QVERIFY2(error.contains("/nonexistent-dir/plot.csv"), qPrintable(error));
  }

  // ---- StackedDecompositionPlot ----
  void decompositionShowsTheSelectedJointInBothModes() {
    // Two joints on [0, 2π]: inertial (j+1) sin t, Coriolis 0.5 cos 2t, gravity -0.8 + 0.9 j.
    const int n = 201;
    const std::vector<double> t = times(n, 2 * M_PI / (n - 1));
    Eigen::MatrixXd inertial(2, n), coriolis(2, n), gravity(2, n), total(2, n);
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < n; ++k) {
        const double tk = t[std::size_t(k)];
        inertial(j, k) = (j + 1) * std::sin(tk);
        coriolis(j, k) = 0.5 * std::cos(2 * tk);
        gravity(j, k) = -0.8 + 0.9 * j;
        total(j, k) = (j + 1) * std::sin(tk) + 0.5 * std::cos(2 * tk) - 0.8 + 0.9 * j;
      }
    StackedDecompositionPlot plot;
    plot.resize(900, 600);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QString error;
    QVERIFY(!plot.setData(t, inertial, coriolis, gravity.leftCols(5), total, {"shoulder", "elbow"}, "τ [N·m]", "t [s]",
                          &error));
    QVERIFY2(error.contains("gravity is 2 x 5"), qPrintable(error));
    QVERIFY(plot.setData(t, inertial, coriolis, gravity, total, {"shoulder", "elbow"}));
    settle();
    QCOMPARE(plot.jointSelector()->count(), 2);
    QCOMPARE(plot.currentJoint(), 0);
    QCOMPARE(plot.mode(), StackedDecompositionPlot::Mode::Stacked);

    auto checkStack = [&](int j) {
      // Signed band heights add up to τ at every sample; the total line is τ.
      for (int k = 0; k < n; k += 7) {
        double sum = 0;
        for (int term = 0; term < 3; ++term) {
          const auto T = StackedDecompositionPlot::Term(term);
          QAreaSeries* pos = plot.band(T, true);
          QAreaSeries* neg = plot.band(T, false);
          if (!pos->isVisible()) return QString("band %1 hidden").arg(term);
          if (pos->upperSeries()->count() != n || neg->lowerSeries()->count() != n)
            return QString("band %1 has %2 points").arg(term).arg(pos->upperSeries()->count());
          const double up = pos->upperSeries()->at(k).y() - pos->lowerSeries()->at(k).y();
          const double down = neg->lowerSeries()->at(k).y() - neg->upperSeries()->at(k).y();
          if (up < 0 || down > 0) return QString("band %1 inverted at sample %2").arg(term).arg(k);
          sum += up + down;
        }
        if (std::abs(sum - total(j, k)) > 1e-12)
          return QString("sample %1: bands sum %2, τ %3").arg(k).arg(sum).arg(total(j, k));
        const QPointF line = plot.termLine(StackedDecompositionPlot::Total)->at(k);
        if (line != QPointF(t[std::size_t(k)], total(j, k))) return QString("total line wrong at %1").arg(k);
      }
      return QString();
    };
    QString problem = checkStack(0);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(!plot.termLine(StackedDecompositionPlot::Inertial)->isVisible());
    QVERIFY(plot.termLine(StackedDecompositionPlot::Total)->isVisible());
    QCOMPARE(plot.canvas()->plotLegend()->entries()[0].swatch, PlotLegend::Swatch::Area);

    // Switch joint through the combo box.
    QSignalSpy jointSpy(&plot, &StackedDecompositionPlot::currentJointChanged);
    plot.jointSelector()->setCurrentIndex(1);
    QCOMPARE(jointSpy.count(), 1);
    QCOMPARE(plot.currentJoint(), 1);
    QVERIFY2(plot.canvas()->axisTitle(Qt::Vertical).startsWith("elbow: τ"),
             qPrintable(plot.canvas()->axisTitle(Qt::Vertical)));
    problem = checkStack(1);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));

    // Side by side through the tool button: three lines and τ, no bands.
    QSignalSpy modeSpy(&plot, &StackedDecompositionPlot::modeChanged);
    plot.findChild<QToolButton*>("decompositionSideBySide")->click();
    QCOMPARE(modeSpy.count(), 1);
    QCOMPARE(plot.mode(), StackedDecompositionPlot::Mode::SideBySide);
    for (int term = 0; term < 3; ++term) {
      QVERIFY(!plot.band(StackedDecompositionPlot::Term(term), true)->isVisible());
      QLineSeries* line = plot.termLine(StackedDecompositionPlot::Term(term));
      QVERIFY(line->isVisible());
      QCOMPARE(line->count(), n);
      const Eigen::MatrixXd& m = term == 0 ? inertial : term == 1 ? coriolis : gravity;
      for (int k = 0; k < n; k += 13) QCOMPARE(line->at(k), QPointF(t[std::size_t(k)], m(1, k)));
    }
    QCOMPARE(plot.canvas()->plotLegend()->entries()[0].swatch, PlotLegend::Swatch::Line);

    // Legend toggles terms; the stack then holds the visible terms only.
    QTest::mouseClick(plot.canvas()->viewport(), Qt::LeftButton, {}, legendEntryPixel(plot.canvas(), 1));
    QVERIFY(!plot.isTermVisible(StackedDecompositionPlot::Coriolis));
    QVERIFY(!plot.termLine(StackedDecompositionPlot::Coriolis)->isVisible());
    plot.setMode(StackedDecompositionPlot::Mode::Stacked);
    QVERIFY(!plot.band(StackedDecompositionPlot::Coriolis, true)->isVisible());
    const int k = 40;
    const double stackTop = plot.band(StackedDecompositionPlot::Gravity, true)->upperSeries()->at(k).y();
    const double expectTop = std::max(inertial(1, k), 0.0) + std::max(gravity(1, k), 0.0);
    QVERIFY(std::abs(stackTop - expectTop) < 1e-12);
    plot.setTermVisible(StackedDecompositionPlot::Coriolis, true);

    // Hover lists the terms at the nearest sample; the cursor is shared behaviour.
    PlotCanvas* view = plot.canvas();
    QLineSeries* ref = plot.termLine(StackedDecompositionPlot::Total);
    const QPoint pixel = pixelOfValue(view, ref, {t[60], 0.0});
    sendMouse(view->viewport(), QEvent::MouseMove, pixel, Qt::NoButton, Qt::NoButton);
    const auto values = parseReadout(plot.hoverText());
    const int kh = plots::nearestSample(t, valueAtPixel(view, ref, pixel).x());
    QVERIFY2(std::abs(values.at(plot.termNames()[0]) - inertial(1, kh)) < 1e-5, qPrintable(plot.hoverText()));
    QVERIFY(std::abs(values.at(plot.termNames()[3]) - total(1, kh)) < 1e-5);
    QSignalSpy cursorSpy(&plot, &PlotWidget::cursorTimeRequested);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pixel);
    QCOMPARE(cursorSpy.count(), 1);
    QVERIFY(std::abs(cursorSpy[0][0].toDouble() - valueAtPixel(view, ref, pixel).x()) <= secondsPerPixel(view));

    // CSV of the selected joint.
    QTemporaryDir dir;
    QVERIFY(plot.exportCsv(dir.filePath("d.csv"), &error));
    QFile file(dir.filePath("d.csv"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList header = QString::fromUtf8(file.readLine()).trimmed().split(',');
    QCOMPARE(header.size(), 5);
    QCOMPARE(header[1], "elbow " + plot.termNames()[0]);
    const QStringList row = QString::fromUtf8(file.readLine()).trimmed().split(',');
    QCOMPARE(row[4].toDouble(), total(1, 0));
    QVERIFY(plot.exportPng(dir.filePath("d.png"), QSize(500, 300), &error));
    QCOMPARE(QImage(dir.filePath("d.png")).size(), QSize(500, 300));
  }

  // ---- size: 10,000 samples x 32 series (timings printed, not asserted) ----
  void thirtyTwoSeriesOfTenThousandSamples() {
    TimeSeriesPlot plot;
    plot.resize(1200, 700);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    settle();
    const int n = 10000, m = 32;
    const std::vector<double> t = times(n, 1e-3);
    Eigen::MatrixXd y(m, n);
    QStringList names;
    for (int i = 0; i < m; ++i) {
      names << QString("joint_%1").arg(i + 1);
      for (int k = 0; k < n; ++k) y(i, k) = (1 + 0.1 * i) * std::sin((1 + 0.37 * i) * t[std::size_t(k)] + i);
    }
    // Median of five runs each: the machine is shared.
    auto median = [](auto&& run) {
      std::vector<double> ms;
      for (int r = 0; r < 5; ++r) {
        QElapsedTimer timer;
        timer.start();
        run(r);
        ms.push_back(timer.nsecsElapsed() / 1e6);
      }
      std::sort(ms.begin(), ms.end());
      return ms[2];
    };
    QImage image(plot.canvas()->size(), QImage::Format_ARGB32_Premultiplied);
    auto render = [&] {
      image.fill(Qt::white);
      QPainter painter(&image);
      plot.canvas()->render(&painter);
    };
    const double setDataMs = median([&](int) { QVERIFY(plot.setData(t, y, names, "τ [N·m]")); });
    const double renderMs = median([&](int) { render(); });
    const double zoomMs = median([&](int r) {
      sendWheel(plot.canvas()->viewport(), plot.canvas()->viewport()->rect().center(), r % 2 ? -120 : 120);
      render();
    });
    const double panMs = median([&](int r) {
      plot.canvas()->panBy(r % 2 ? -40 : 40, 0);
      render();
    });
    qInfo(
        "10,000 samples x 32 series on a %d-pixel plot: setData %.1f ms, render %.1f ms, wheel zoom + render "
        "%.1f ms, pan + render %.1f ms (medians of 5)",
        plot.canvas()->plotWidthPixels(), setDataMs, renderMs, zoomMs, panMs);
    const int w = plot.canvas()->plotWidthPixels();
    for (int i = 0; i < m; ++i) QVERIFY(plot.lineSeries(i)->count() <= 2 * w + 2);
    QCOMPARE(plot.canvas()->plotLegend()->entries().size(), m);
    // All 32 legend entries inside the chart, none overlapping.
    const QRectF chartRect(QPointF(0, 0), plot.canvas()->chart()->size());
    for (int i = 0; i < m; ++i) {
      const QRectF r = plot.canvas()->plotLegend()->mapRectToParent(plot.canvas()->plotLegend()->entryRect(i));
      QVERIFY2(chartRect.contains(r), qPrintable(QString("legend entry %1 outside the chart").arg(i)));
      for (int j = 0; j < i; ++j)
        QVERIFY(!r.intersects(plot.canvas()->plotLegend()->mapRectToParent(plot.canvas()->plotLegend()->entryRect(j))));
    }
  }

  // ---- pictures for a human ----
  void grabPictures() {
    const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (dir.isEmpty()) QSKIP("DYNSCOPE_GRAB_DIR not set");
    // Six joint torques of a 5-second move, with effort limits and flagged samples.
    const int n = 2501;
    const std::vector<double> t = times(n, 0.002);
    Eigen::MatrixXd tau(6, n);
    for (int k = 0; k < n; ++k) {
      const double s = t[std::size_t(k)];
      tau(0, k) = 18 * std::sin(1.3 * s) + 3 * std::sin(9 * s);
      tau(1, k) = -42 + 25 * std::cos(0.9 * s) + 6 * std::sin(4 * s);
      tau(2, k) = -15 + 12 * std::sin(1.7 * s + 1);
      tau(3, k) = 4 * std::sin(2.5 * s);
      tau(4, k) = 2.5 * std::cos(3.1 * s);
      tau(5, k) = 0.8 * std::sin(5 * s);
    }
    TimeSeriesPlot plot;
    plot.resize(1100, 600);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QVERIFY(
        plot.setData(t, tau, {"shoulder_pan", "shoulder_lift", "elbow", "wrist_1", "wrist_2", "wrist_3"}, "τ [N·m]"));
    QVERIFY(plot.setLimits({-20, -60, -INFINITY, -INFINITY, -INFINITY, -INFINITY},
                           {20, 60, INFINITY, INFINITY, INFINITY, INFINITY}));
    for (int i = 0; i < 6; ++i) QVERIFY(plot.setFlaggedSamples(i, plot.samplesOutsideLimits(i)));
    plot.setSeriesVisible(5, false);
    plot.setCursorTime(2.2);
    settle();
    PlotCanvas* view = plot.canvas();
    sendMouse(view->viewport(), QEvent::MouseMove, pixelOfValue(view, plot.lineSeries(0), {3.6, 10}), Qt::NoButton,
              Qt::NoButton);
    QVERIFY(plot.grab().save(dir + "/plot_torques_widget.png"));
    QVERIFY(plot.exportPng(dir + "/plot_torques_export.png", QSize(1280, 720)));
    QVERIFY(plot.exportSvg(dir + "/plot_torques.svg"));
    // The SVG as another program would see it.
    QSvgRenderer svg(dir + "/plot_torques.svg");
    QImage fromSvg(svg.defaultSize(), QImage::Format_ARGB32);
    fromSvg.fill(Qt::white);
    {
      QPainter painter(&fromSvg);
      svg.render(&painter);
    }
    QVERIFY(fromSvg.save(dir + "/plot_torques_svg_rendered.png"));

    // 32 series (a humanoid), zoomed in with the wheel.
    TimeSeriesPlot many;
    many.resize(1200, 700);
    many.show();
    QVERIFY(QTest::qWaitForWindowExposed(&many));
    const int m = 32, n2 = 10000;
    const std::vector<double> t2 = times(n2, 1e-3);
    Eigen::MatrixXd y(m, n2);
    QStringList names;
    const char* sides[] = {"l", "r"};
    const char* parts[] = {"hip_yaw",    "hip_roll",       "hip_pitch",     "knee",         "ankle_pitch",
                           "ankle_roll", "shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow",
                           "wrist_roll", "wrist_pitch",    "wrist_yaw",     "grip"};
    for (int i = 0; i < m; ++i) {
      names << (i < 28 ? QString("%1_%2").arg(sides[i % 2], parts[i / 2])
                       : QString(QStringList{"torso_yaw", "torso_pitch", "neck_yaw", "neck_pitch"}[i - 28]));
      for (int k = 0; k < n2; ++k) y(i, k) = (1 + 0.4 * (i % 7)) * std::sin((0.5 + 0.13 * i) * t2[std::size_t(k)] + i);
    }
    QVERIFY(many.setData(t2, y, names, "τ [N·m]"));
    many.setCursorTime(6.0);
    settle();
    sendMouse(many.canvas()->viewport(), QEvent::MouseMove, pixelOfValue(many.canvas(), many.lineSeries(0), {2.5, 0}),
              Qt::NoButton, Qt::NoButton);
    QVERIFY(many.grab().save(dir + "/plot_32_series.png"));
    // Presentation mode makes the application font larger: axes and legend follow.
    QFont big = many.font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    many.setFont(big);
    settle();
    QVERIFY(many.grab().save(dir + "/plot_32_series_large_font.png"));

    // The decomposition, stacked and side by side.
    Eigen::MatrixXd inertial(1, n), coriolis(1, n), gravity(1, n), total(1, n);
    for (int k = 0; k < n; ++k) {
      const double s = t[std::size_t(k)];
      inertial(0, k) = 12 * std::sin(1.6 * s);
      coriolis(0, k) = 3 * std::cos(3.2 * s) * std::sin(1.6 * s);
      gravity(0, k) = -9 + 4 * std::cos(0.8 * s);
      total(0, k) = inertial(0, k) + coriolis(0, k) + gravity(0, k);
    }
    StackedDecompositionPlot dec;
    dec.resize(1000, 560);
    dec.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dec));
    QVERIFY(dec.setData(t, inertial, coriolis, gravity, total, {"shoulder_lift"}));
    dec.setCursorTime(1.0);
    settle();
    QVERIFY(dec.grab().save(dir + "/plot_decomposition_stacked.png"));
    dec.setMode(StackedDecompositionPlot::Mode::SideBySide);
    settle();
    QVERIFY(dec.grab().save(dir + "/plot_decomposition_side.png"));
  }
};

QTEST_MAIN(TestPlots)
#include "test_plots.moc"
