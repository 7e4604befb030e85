// Readable plots and matrix views at the sizes the workspaces give them (issue 22): the τ plot
// of a six-joint arm with its effort limits, the energy plot, the decomposition, a humanoid's 32
// torques and the operation-count figure with its 13 formulations (the mass-matrix views:
// test_matrix_readability); each at 900 x 350 and 600 x 260, with the normal font and with
// presentation mode's (the application font x 1.5). Either a view is readable, and then no tick
// label, axis title or legend name is cut, nothing wraps, each axis has at least four labelled
// ticks and each limit line is in range or named by the note at its edge; or it is smaller than
// its minimumSizeHint and says so with its "too small" hint. At its own minimumSizeHint every view is readable. With
// DYNSCOPE_GRAB_DIR set, every picture is kept for a human to look at.
#include <QApplication>
#include <QDir>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QValueAxis>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "plots/operation_count_plot.hpp"
#include "plots/plot_canvas.hpp"
#include "plots/plot_legend.hpp"
#include "plots/stacked_decomposition_plot.hpp"
#include "plots/time_series_plot.hpp"

namespace {

void settle() {
  for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
}

std::vector<double> times(int n, double dt) {
  std::vector<double> t(std::size_t(n), 0.0);
  for (int k = 0; k < n; ++k) t[std::size_t(k)] = k * dt;
  return t;
}

bool cut(const QString& s) { return s.contains(QStringLiteral("...")) || s.contains(QChar(0x2026)); }

// What is wrong with a readable-looking canvas (empty: nothing). Tick labels are Qt Charts'
// QGraphicsTextItems below (x) and left of (y) the plot area.
QString problemsOf(PlotCanvas* c) {
  QStringList problems;
  QChart* chart = c->chart();
  const QRectF area = chart->mapRectToScene(chart->plotArea());
  const QRectF chartRect = chart->mapRectToScene(QRectF(QPointF(0, 0), chart->size())).adjusted(-1, -1, 1, 1);
  const double line = QFontMetricsF(c->font()).height();
  if (std::abs(chart->size().width() - c->viewport()->width()) > 1 ||
      std::abs(chart->size().height() - c->viewport()->height()) > 1)
    problems << QString("the chart (%1 x %2) is cut by the view (%3 x %4)")
                    .arg(chart->size().width())
                    .arg(chart->size().height())
                    .arg(c->viewport()->width())
                    .arg(c->viewport()->height());
  if (c->axisX()->labelsTruncated()) problems << "x tick labels truncated";
  if (c->axisY()->labelsTruncated()) problems << "y tick labels truncated";
  QList<QRectF> xLabels, yLabels;
  QStringList xTexts, yTexts;
  for (QGraphicsItem* item : c->scene()->items()) {
    auto* text = dynamic_cast<QGraphicsTextItem*>(item);
    if (!text || !text->isVisible() || text->toPlainText().isEmpty()) continue;
    const QRectF r = text->sceneBoundingRect();
    if (cut(text->toPlainText())) problems << "label cut: " + text->toPlainText();
    static const QRegularExpression negativeZero(QStringLiteral("^[-\u2212]0([.,]0*)?$"));
    if (negativeZero.match(text->toPlainText()).hasMatch()) problems << "negative zero: " + text->toPlainText();
    if (r.height() > 1.8 * line) problems << "label wraps: " + text->toPlainText();
    if (!chartRect.contains(r)) problems << "label outside the chart: " + text->toPlainText();
    if (r.center().x() < area.left() - 1) {
      yLabels << r;
      yTexts << text->toPlainText();
    } else if (r.center().y() > area.bottom() + 1) {
      xLabels << r;
      xTexts << text->toPlainText();
    }
  }
  if (xLabels.size() < 4) problems << QString("%1 labelled x ticks").arg(xLabels.size());
  if (yLabels.size() < 4) problems << QString("%1 labelled y ticks").arg(yLabels.size());
  const auto overlaps = [&](const QList<QRectF>& labels, const QStringList& texts) {
    for (int i = 0; i < labels.size(); ++i)
      for (int j = 0; j < i; ++j)
        if (labels[i].adjusted(2, 2, -2, -2).intersects(labels[j].adjusted(2, 2, -2, -2)))
          problems << QString("tick labels %1 and %2 overlap").arg(texts[i], texts[j]);
  };
  overlaps(xLabels, xTexts);
  overlaps(yLabels, yTexts);
  for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical}) {
    QGraphicsSimpleTextItem* title = c->axisTitleItem(o);
    if (c->axisTitleElided(o) || title->text() != c->axisTitle(o)) problems << "axis title cut: " + title->text();
    if (!c->axisTitle(o).isEmpty() && !chartRect.contains(title->sceneBoundingRect()))
      problems << "axis title outside the chart: " + title->text();
    if (title->sceneBoundingRect().adjusted(1, 1, -1, -1).intersects(area)) problems << "axis title over the plot";
    for (const QList<QRectF>* labels : {&xLabels, &yLabels})
      for (const QRectF& r : *labels)
        if (title->sceneBoundingRect().adjusted(1, 1, -1, -1).intersects(r.adjusted(2, 2, -2, -2)))
          problems << "axis title over a tick label: " + title->text();
  }
  PlotLegend* legend = c->plotLegend();
  for (int i = 0; i < legend->entries().size(); ++i) {
    const QRectF r = legend->mapRectToScene(legend->entryRect(i));
    if (legend->entryElided(i)) problems << "legend name cut: " + legend->entries()[i].name;
    if (!chartRect.contains(r)) problems << "legend entry outside the chart: " + legend->entries()[i].name;
    if (r.adjusted(1, 1, -1, -1).intersects(area)) problems << "legend over the plot: " + legend->entries()[i].name;
  }
  problems.removeDuplicates();
  return problems.join("; ");
}

// The limit notes whole inside the chart, clear of the y title and of each other ("" if so).
QString notesProblems(TimeSeriesPlot& plot) {
  QChart* chart = plot.canvas()->chart();
  const QRectF chartRect = chart->mapRectToScene(QRectF(QPointF(0, 0), chart->size())).adjusted(-1, -1, 1, 1);
  QList<QRectF> taken = {plot.canvas()->axisTitleItem(Qt::Vertical)->sceneBoundingRect()};
  for (Qt::Edge edge : {Qt::TopEdge, Qt::BottomEdge}) {
    const QString note = plot.limitNote(edge);
    if (note.isEmpty() || (edge == Qt::BottomEdge && note == plot.limitNote(Qt::TopEdge))) continue;
    for (QGraphicsItem* item : plot.canvas()->scene()->items()) {
      auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
      if (!text || text->text() != note || !text->isVisible()) continue;
      const QRectF r = text->sceneBoundingRect();
      if (!chartRect.contains(r)) return "note outside the chart: " + note;
      for (const QRectF& other : taken)
        if (r.adjusted(1, 1, -1, -1).intersects(other)) return "note over another text: " + note;
      taken << r;
    }
  }
  return {};
}

}  // namespace

class TestPlotReadability : public QObject {
  Q_OBJECT

  QFont m_normal;
  QString m_dir;

  // Sets the application font as presentation mode does (x 1.5) or back to normal.
  void setPresentation(bool on) {
    QFont f = m_normal;
    if (on) f.setPointSizeF(m_normal.pointSizeF() * 1.5);
    QApplication::setFont(f);
    settle();
  }

  void keep(QWidget* w, const QString& name) {
    if (!m_dir.isEmpty()) QVERIFY(w->grab().save(QDir(m_dir).filePath(name + ".png")));
  }

  // Shows `plot` at every size and font; checks readability, or the hint below minimumSizeHint.
  // `mustBeReadable`: the sizes (index into kSizes, x2 + presentation) at which it has to be readable.
  void checkAtWorkspaceSizes(PlotWidget* plot, const QString& name, std::function<void()> extra = {},
                             std::vector<std::pair<int, bool>> mustBeReadable = {}) {
    const QSize sizes[] = {{900, 350}, {600, 260}};
    for (bool presentation : {false, true}) {
      setPresentation(presentation);
      for (int k = 0; k < 2; ++k) {
        const QSize size = sizes[k];
        plot->resize(size);
        settle();
        plot->autoRange();
        settle();
        const QString where = QString("%1 at %2x%3%4")
                                  .arg(name)
                                  .arg(size.width())
                                  .arg(size.height())
                                  .arg(presentation ? " (presentation)" : "");
        keep(plot,
             QString("%1_%2x%3%4").arg(name).arg(size.width()).arg(size.height()).arg(presentation ? "_big" : ""));
        PlotCanvas* c = plot->canvas();
        const QSize need = plot->minimumSizeHint();
        const bool bigEnough = size.width() >= need.width() && size.height() >= need.height();
        const auto* hint = c->findChild<QLabel*>("plotTooSmall");
        QVERIFY(hint);
        if (std::find(mustBeReadable.begin(), mustBeReadable.end(), std::pair{k, presentation}) != mustBeReadable.end())
          QVERIFY2(bigEnough, qPrintable(where + QString(" needs %1x%2").arg(need.width()).arg(need.height())));
        if (c->isReadable()) {
          QVERIFY2(!hint->isVisible(), qPrintable(where));
          const QString problems = problemsOf(c);
          QVERIFY2(problems.isEmpty(), qPrintable(where + ": " + problems));
          if (extra) extra();
        } else {
          QVERIFY2(hint->isVisible(), qPrintable(where + ": not readable, and no hint"));
          QVERIFY2(
              !bigEnough,
              qPrintable(where +
                         QString(": not readable at its minimumSizeHint %1x%2").arg(need.width()).arg(need.height())));
        }
      }
      // At its own readable minimum it is readable.
      plot->resize(plot->minimumSizeHint());
      settle();
      plot->autoRange();
      settle();
      const QString where = QString("%1 at its minimumSizeHint %2x%3%4")
                                .arg(name)
                                .arg(plot->width())
                                .arg(plot->height())
                                .arg(presentation ? " (presentation)" : "");
      keep(plot, QString("%1_minimum%2").arg(name).arg(presentation ? "_big" : ""));
      {
        const QRectF a = plot->canvas()->chart()->plotArea();
        QVERIFY2(
            plot->canvas()->isReadable(),
            qPrintable(where + ": " + plot->canvas()->unreadableReason() +
                       QString(": plot area %1 x %2, legend %3")
                           .arg(a.width())
                           .arg(a.height())
                           .arg(plot->canvas()->legendPlace() == PlotCanvas::LegendPlace::Right ? "right" : "below")));
      }
      const QString problems = problemsOf(plot->canvas());
      QVERIFY2(problems.isEmpty(), qPrintable(where + ": " + problems));
      const QRectF a = plot->canvas()->chart()->plotArea();
      qInfo("%s: plot area %.0f x %.0f, legend %s", qPrintable(where), a.width(), a.height(),
            plot->canvas()->legendPlace() == PlotCanvas::LegendPlace::Right ? "right" : "below");
    }
    setPresentation(false);
  }

 private slots:
  void initTestCase() {
    m_normal = QApplication::font();
    m_dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (!m_dir.isEmpty()) QDir().mkpath(m_dir);
  }

  // The UR5's τ: shoulder torques of tens of N·m against 150 N·m limits, wrists of a few N·m
  // against 28 N·m: every limit line inside the range or named by the note at its edge.
  void torquePlotOfAnArm() {
    const int n = 1001;
    const std::vector<double> t = times(n, 0.004);
    Eigen::MatrixXd tau(6, n);
    for (int k = 0; k < n; ++k) {
      const double s = t[std::size_t(k)];
      tau(0, k) = 18 * std::sin(1.3 * s) + 3 * std::sin(9 * s);
      tau(1, k) = -62 + 25 * std::cos(0.9 * s);
      tau(2, k) = -15 + 12 * std::sin(1.7 * s + 1);
      tau(3, k) = 4 * std::sin(2.5 * s);
      tau(4, k) = 2.5 * std::cos(3.1 * s);
      tau(5, k) = 0.8 * std::sin(5 * s);
    }
    TimeSeriesPlot plot;
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QVERIFY(plot.setData(
        t, tau,
        {"shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"},
        "τ [N·m | N]"));
    QVERIFY(plot.setLimits({-150, -150, -150, -28, -28, -28}, {150, 150, 150, 28, 28, 28}));
    plot.setCursorTime(1.7);
    plot.setLimitUnits(QStringList(6, QStringLiteral("N·m")));
    const auto limitsInRange = [&] {
      const QValueAxis* y = plot.canvas()->axisY();
      for (int i = 0; i < 6; ++i)
        for (QLineSeries* limit : {plot.lowerLimitSeries(i), plot.upperLimitSeries(i)}) {
          QVERIFY(limit);
          const double v = limit->at(0).y();
          const QString note = plot.limitNote(v > y->max() ? Qt::TopEdge : Qt::BottomEdge);
          const QString value = QString::number(std::abs(v));
          QVERIFY2((v >= y->min() && v <= y->max()) || note.contains(value),
                   qPrintable(QString("limit %1 of series %2 outside [%3, %4] and not in the note '%5'")
                                  .arg(v)
                                  .arg(i)
                                  .arg(y->min())
                                  .arg(y->max())
                                  .arg(note)));
        }
      QVERIFY2(notesProblems(plot).isEmpty(), qPrintable(notesProblems(plot)));
    };
    checkAtWorkspaceSizes(&plot, "tau_ur5", limitsInRange, {{0, false}, {1, false}, {0, true}});
  }

  // Limits far beyond small torques (a UR5's 150 N·m against a few N·m) stay out of the auto
  // range: the curves fill a good part of the height, and a note at the edge names the limit.
  // Torques that come near their limits keep the limit lines in range, with no note.
  void limitsFarFromTheTorques() {
    const int n = 501;
    const std::vector<double> t = times(n, 0.01);
    Eigen::MatrixXd tau(3, n);
    for (int k = 0; k < n; ++k) {
      const double s = t[std::size_t(k)];
      tau(0, k) = 5 * std::sin(1.3 * s);
      tau(1, k) = -3 + 2 * std::cos(0.9 * s);
      tau(2, k) = 1.5 * std::sin(2.1 * s);
    }
    TimeSeriesPlot plot;
    plot.resize(900, 350);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QVERIFY(plot.setData(t, tau, {"shoulder_pan_joint", "shoulder_lift_joint", "wrist_1_joint"}, "τ [N·m | N]"));
    QVERIFY(plot.setLimits({-150, -150, -28}, {150, 150, 28}));
    plot.setLimitUnits(QStringList(3, QStringLiteral("N·m")));
    settle();
    plot.autoRange();
    settle();
    keep(&plot, "tau_far_limits");
    const QValueAxis* y = plot.canvas()->axisY();
    const double dataLo = tau.minCoeff(), dataHi = tau.maxCoeff();
    const double filled = (dataHi - dataLo) / (y->max() - y->min());
    QVERIFY2(filled >= 0.5, qPrintable(QString("the data [%1, %2] fill %3 of the range [%4, %5]")
                                           .arg(dataLo)
                                           .arg(dataHi)
                                           .arg(filled)
                                           .arg(y->min())
                                           .arg(y->max())));
    for (int i = 0; i < 3; ++i) {
      QVERIFY(!plot.limitInView(i, true));
      QVERIFY(!plot.limitInView(i, false));
    }
    QVERIFY2(plot.limitNote(Qt::TopEdge).contains("150") && plot.limitNote(Qt::TopEdge).contains("28"),
             qPrintable(plot.limitNote(Qt::TopEdge)));
    QVERIFY2(plot.limitNote(Qt::BottomEdge).contains(QStringLiteral("\u00b1150")),  // ±: one note for both
             qPrintable(plot.limitNote(Qt::BottomEdge)));
    QVERIFY(plot.limitNote(Qt::TopEdge).contains(QStringLiteral("N·m")));
    QVERIFY2(notesProblems(plot).isEmpty(), qPrintable(notesProblems(plot)));
    // Both notes whole in a narrow plot with presentation mode's font too.
    setPresentation(true);
    plot.resize(600, 260);
    settle();
    plot.autoRange();
    settle();
    keep(&plot, "tau_far_limits_600x260_big");
    QVERIFY2(!plot.limitNote(Qt::TopEdge).isEmpty() && !plot.limitNote(Qt::BottomEdge).isEmpty(), "notes");
    const QString narrow = notesProblems(plot);
    setPresentation(false);
    QVERIFY2(narrow.isEmpty(), qPrintable(narrow));
    plot.resize(900, 350);
    settle();
    plot.autoRange();
    settle();

    // Zoomed out by hand until the limits are in view: no note.
    plot.canvas()->setYRange(-200, 200);
    settle();
    QVERIFY(plot.limitInView(0, true) && plot.limitInView(0, false));
    QVERIFY2(plot.limitNote(Qt::TopEdge).isEmpty(), qPrintable(plot.limitNote(Qt::TopEdge)));
    QVERIFY(plot.limitNote(Qt::BottomEdge).isEmpty());

    // Torques near their limits (the wrist at up to 20 of 28 N·m): the line is in range.
    for (int k = 0; k < n; ++k) tau(2, k) = 20 * std::sin(2.1 * t[std::size_t(k)]);
    QVERIFY(plot.setData(t, tau, {"shoulder_pan_joint", "shoulder_lift_joint", "wrist_1_joint"}, "τ [N·m | N]"));
    plot.autoRange();
    settle();
    keep(&plot, "tau_near_limits");
    QVERIFY2(plot.limitInView(2, true) && plot.limitInView(2, false),
             qPrintable(QString("28 N·m outside [%1, %2]").arg(y->min()).arg(y->max())));
    QVERIFY(!plot.limitInView(0, true));  // 150 N·m is still far
    QVERIFY(!plot.limitNote(Qt::TopEdge).contains("28"));
    QVERIFY(plot.limitNote(Qt::TopEdge).contains("150"));
  }

  void energyPlot() {
    const int n = 801;
    const std::vector<double> t = times(n, 0.005);
    Eigen::MatrixXd e(3, n);
    for (int k = 0; k < n; ++k) {
      const double s = t[std::size_t(k)];
      e(0, k) = 12 * std::pow(std::sin(1.1 * s), 2);
      e(1, k) = 95 - 10 * std::cos(0.7 * s);
      e(2, k) = e(0, k) + e(1, k);
    }
    TimeSeriesPlot plot;
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QVERIFY(plot.setData(t, e, {"kinetic", "potential", "total"}, "energy [J]"));
    checkAtWorkspaceSizes(&plot, "energy", {}, {{0, false}, {1, false}, {0, true}, {1, true}});
  }

  // Ranges whose steps are not binary fractions (0.1, 0.2, 0.05): Qt Charts adds the step up from
  // the first tick, and the tick at zero must still read "0", never "-0.0".
  void zeroTickIsNotNegative() {
    const int n = 401;
    const std::vector<double> t = times(n, 0.01);
    TimeSeriesPlot plot;
    plot.resize(900, 420);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    int zeros = 0;
    for (double amplitude : {0.3, 0.7, 0.15, 0.035, 1.3, 3.3}) {
      Eigen::MatrixXd y(1, n);
      for (int k = 0; k < n; ++k) y(0, k) = amplitude * std::sin(1.7 * t[std::size_t(k)] - 0.4);
      QVERIFY(plot.setData(t, y, {"q̇"}, "velocity [rad/s]"));
      settle();
      const QString problems = problemsOf(plot.canvas());
      QVERIFY2(!problems.contains("negative zero"),
               qPrintable(QString("amplitude %1: %2").arg(amplitude).arg(problems)));
      for (QGraphicsItem* item : plot.canvas()->scene()->items())
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
          zeros += QRegularExpression(QStringLiteral("^0([.]0*)?$")).match(text->toPlainText()).hasMatch();
    }
    QVERIFY2(zeros >= 6, qPrintable(QString("a zero tick on %1 of 6 axes").arg(zeros)));
  }

  void decompositionPlot() {
    const int n = 1001;
    const std::vector<double> t = times(n, 0.004);
    Eigen::MatrixXd inertial(2, n), coriolis(2, n), gravity(2, n), total(2, n);
    for (int k = 0; k < n; ++k) {
      const double s = t[std::size_t(k)];
      for (int j = 0; j < 2; ++j) {
        inertial(j, k) = (12 - 4 * j) * std::sin(1.6 * s);
        coriolis(j, k) = 3 * std::cos(3.2 * s) * std::sin(1.6 * s);
        gravity(j, k) = -9 + 4 * std::cos(0.8 * s);
        total(j, k) = inertial(j, k) + coriolis(j, k) + gravity(j, k);
      }
    }
    StackedDecompositionPlot plot;
    plot.setTermNames({"inertial M(q)·d²q/dt²", "Coriolis/centrifugal c(q, dq/dt)", "gravity g(q)", "τ"});
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QVERIFY(plot.setData(t, inertial, coriolis, gravity, total, {"shoulder_lift_joint", "elbow_joint"}, "τ [N·m | N]"));
    checkAtWorkspaceSizes(&plot, "decomposition", {}, {{0, false}, {1, false}, {0, true}});
  }

  // A humanoid's 32 joint torques: the legend's 32 names in full, beside or below the plot.
  void thirtyTwoJoints() {
    const int m = 32, n = 2001;
    const std::vector<double> t = times(n, 0.002);
    Eigen::MatrixXd y(m, n);
    // robots/humanoid.urdf's joints
    const QStringList names =
        QStringLiteral(
            "torso_yaw_joint torso_pitch_joint head_yaw_joint head_pitch_joint left_shoulder_pitch_joint "
            "left_shoulder_roll_joint left_shoulder_yaw_joint left_elbow_joint left_wrist_yaw_joint "
            "left_wrist_pitch_joint left_wrist_roll_joint left_gripper_joint right_shoulder_pitch_joint "
            "right_shoulder_roll_joint right_shoulder_yaw_joint right_elbow_joint right_wrist_yaw_joint "
            "right_wrist_pitch_joint right_wrist_roll_joint right_gripper_joint left_hip_yaw_joint "
            "left_hip_roll_joint left_hip_pitch_joint left_knee_joint left_ankle_pitch_joint "
            "left_ankle_roll_joint right_hip_yaw_joint right_hip_roll_joint right_hip_pitch_joint "
            "right_knee_joint right_ankle_pitch_joint right_ankle_roll_joint")
            .split(' ');
    QCOMPARE(names.size(), m);
    for (int i = 0; i < m; ++i)
      for (int k = 0; k < n; ++k) y(i, k) = (1 + 0.4 * (i % 7)) * std::sin((0.5 + 0.13 * i) * t[std::size_t(k)] + i);
    TimeSeriesPlot plot;
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QVERIFY(plot.setData(t, y, names, "τ [N·m | N]"));
    checkAtWorkspaceSizes(&plot, "tau_humanoid", {}, {{0, false}});
  }

  // The Algorithms dock's figure: 13 formulations (the registry's names), log-log.
  void operationCountFigure() {
    const QStringList names = {"id: rnea",
                               "id: denoc",
                               "id: newton-euler-3",
                               "id: uicker-kahn",
                               "id: waters",
                               "id: lagrange-4x4",
                               "id: lagrange-3x3",
                               "id: configuration-space",
                               "mass: crba",
                               "mass: denoc",
                               "fd: aba",
                               "fd: crba",
                               "fd: denoc"};
    const double degree[] = {1, 1, 1, 4, 2, 2, 1, 3, 2, 2, 1, 3, 1};
    std::vector<OperationCountPlot::Series> series;
    for (int i = 0; i < names.size(); ++i) {
      OperationCountPlot::Series s;
      s.name = names[i];
      for (int k = 1; k <= (degree[i] >= 4 ? 32 : 64); k = k < 8 ? k + 1 : 2 * k) {
        s.n.push_back(k);
        s.muls.push_back((90 + 7 * i) * std::pow(k, degree[i]) + 30 * k);
        s.adds.push_back((70 + 5 * i) * std::pow(k, degree[i]) + 20 * k);
      }
      if (i < 4) s.papers.push_back({{-40.0 + i, 130.0 + 3 * i}, {-30.0, 100.0 + 2 * i}, {{6, 800.0 + i, 600.0}}});
      series.push_back(std::move(s));
    }
    OperationCountPlot plot;
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.setSeries(std::move(series), 64);
    plot.setMarkedN(6);
    // Each formulation has its own marker or colour, in the legend as on the plot.
    const PlotLegend* legend = plot.canvas()->plotLegend();
    QCOMPARE(legend->entries().size(), 13);
    for (int i = 0; i < 13; ++i) {
      QCOMPARE(legend->entries()[i].name, names[i]);
      QCOMPARE(legend->entries()[i].marker, plots::seriesMarker(i));
      QVERIFY(plot.measuredMarkers(i)->color() == plots::seriesColor(i));
    }
    checkAtWorkspaceSizes(&plot, "operation_counts", {}, {{0, false}});
  }
};

QTEST_MAIN(TestPlotReadability)
#include "test_plot_readability.moc"
