// The axes of a plot always have readable ticks: at least four inside the range, whose labels
// differ and read back as their values. The rule is checked on thousands of ranges (every
// magnitude, offsets from zero, small and large plots), and on a real τ plot squeezed to a small
// height with the data that used to show only the 0 tick (a 1-2-5 step as large as the range).
#include <QValueAxis>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <random>

#include "plots/plot_canvas.hpp"
#include "plots/plot_ticks.hpp"
#include "plots/time_series_plot.hpp"

namespace {

// Every tick (multiple of step) in [lo, hi] with its label; fails when two labels are equal or a
// label does not read back within half a step.
QString checkLabels(double lo, double hi, const plots::AxisTicks& t) {
  const double eps = 1e-9 * t.step;
  QStringList labels;
  for (double k = std::ceil((lo - eps) / t.step); k * t.step <= hi + eps; ++k) {
    const double value = k * t.step;
    const QString label = QString::asprintf(qPrintable(t.format), value);
    if (std::abs(label.toDouble() - value) > 0.5 * t.step)
      return QString("label %1 of %2 does not read back").arg(label).arg(value);
    if (!labels.isEmpty() && labels.back() == label) return QString("two ticks read %1").arg(label);
    labels << label;
  }
  if (labels.size() < 4)
    return QString("[%1, %2]: only %3 tick(s) (step %4)").arg(lo).arg(hi).arg(labels.size()).arg(t.step);
  return {};
}

}  // namespace

class TestPlotTicks : public QObject {
  Q_OBJECT

 private slots:
  // The case that showed only "0": τ in [-2.6, 49.9] on a short plot (2 ticks wanted): the
  // 1-2-5 step above 26 is 50, whose only multiple in range is 0.
  void theZeroOnlyCase() {
    const plots::AxisTicks t = plots::axisTicks(-2.6, 49.9, 2);
    QVERIFY2(plots::ticksInside(-2.6, 49.9, t.step) >= 4, qPrintable(QString::number(t.step)));
    QCOMPARE(plots::ticksInside(-2.6, 49.9, 50.0), 1);  // what the old rule gave
    QVERIFY2(checkLabels(-2.6, 49.9, t).isEmpty(), qPrintable(checkLabels(-2.6, 49.9, t)));
  }

  void everyRangeHasReadableTicks() {
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> U(0, 1);
    for (int k = 0; k < 20000; ++k) {
      const double span = std::pow(10.0, -12 + 24 * U(rng));
      const double centre = (U(rng) - 0.5) * span * std::pow(10.0, -2 + 8 * U(rng));
      const double lo = centre - span * U(rng), hi = lo + span;
      const int target = 1 + int(U(rng) * 12);
      const plots::AxisTicks t = plots::axisTicks(lo, hi, target);
      const QString problem = checkLabels(lo, hi, t);
      QVERIFY2(problem.isEmpty(), qPrintable(QString("target %1: ").arg(target) + problem));
      // and not too many: at most about twice the wanted count (plus the ends), or the nine that
      // four ticks may need (the next coarser step has three: the range is below eight steps)
      QVERIFY2(plots::ticksInside(lo, hi, t.step) <= std::max(2 * target + 3, 9),
               qPrintable(QString("[%1, %2] target %3: %4 ticks")
                              .arg(lo)
                              .arg(hi)
                              .arg(target)
                              .arg(plots::ticksInside(lo, hi, t.step))));
    }
  }

  // A τ plot as the Plots dock shows it, small: both axes carry at least four readable ticks.
  void aSmallTorquePlot() {
    TimeSeriesPlot plot;
    plot.resize(520, 150);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    const std::vector<double> t{0, 0.5, 1, 1.5, 2};
    Eigen::MatrixXd tau(2, 5);
    tau << -0.3, 10, 30, 45, 47.4, 0, 1, 2, 3, 4;
    QString error;
    QVERIFY2(plot.setData(t, tau, {"j1", "j2"}, "τ [N·m]", "t [s]", &error), qPrintable(error));
    QCoreApplication::processEvents();
    for (const auto& [lo, hi] : {std::pair{-2.6, 49.9}, {-0.0012, 0.0507}, {1e5, 1.0004e5}, {-3e-9, 5e-8}}) {
      plot.canvas()->setYRange(lo, hi);
      QCoreApplication::processEvents();
      for (const QValueAxis* axis : {plot.canvas()->axisY(), plot.canvas()->axisX()}) {
        const plots::AxisTicks ticks{axis->tickInterval(), axis->labelFormat()};
        const QString problem = checkLabels(axis->min(), axis->max(), ticks);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
      }
    }
  }
};

QTEST_MAIN(TestPlotTicks)
#include "test_plot_ticks.moc"
