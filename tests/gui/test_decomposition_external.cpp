// The τ decomposition of a run with forces from outside (issue 25), as a user meets it: the
// floating-base quadruped stands on the ground in the Simulate workspace; a short run, paused, is
// published with the record's J^T f, and the plots dock's "τ decomposition" has a fourth term −Jᵀf
// whose bands stack with the other three to the joints' τ. References: the engine's RNEA of the
// recorded motion (τ + Jᵀf = ID(q, q̇, q̈)) and the record's own J^T f. Another trajectory source
// takes the fourth term away. DYNSCOPE_SCREENSHOT_DIR: whole-window pictures at 1920x1080 and
// 1366x768, with and without presentation mode.
#include <QtTest>

#include <QAreaSeries>
#include <QLineSeries>
#include <cmath>
#include <memory>

#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "plots/plot_legend.hpp"
#include "plots/stacked_decomposition_plot.hpp"
#include "simulation/ground_box.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "trajectory/plots_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

using Eigen::MatrixXd;
using Eigen::VectorXd;

class TestDecompositionExternal : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;

  RobotDocument* doc() const { return m_window->document(); }
  SimulationDock* dock() const { return m_window->simulationDock(); }
  TrajectoryDocument* traj() const { return m_window->trajectory(); }

  // The signed band heights of the stacked terms at point k of the decimated series, and whether
  // every stacked band has one point per sample.
  static double bandSum(StackedDecompositionPlot* plot, int k) {
    double sum = 0;
    for (auto term : StackedDecompositionPlot::kStacked) {
      QAreaSeries* pos = plot->band(term, true);
      QAreaSeries* neg = plot->band(term, false);
      sum += pos->upperSeries()->at(k).y() - pos->lowerSeries()->at(k).y();
      sum += neg->lowerSeries()->at(k).y() - neg->upperSeries()->at(k).y();
    }
    return sum;
  }

 private slots:
  void init() {
    m_window = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    m_window->resize(1920, 1080);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->setWorkspace("simulate");
  }
  void cleanup() { m_window.reset(); }

  void quadrupedOnTheGroundHasTheFourthTerm() {
    doc()->setFloatingBase(true);
    QVERIFY(dyn::testing::openAndWait(*m_window, QString(DYNSCOPE_ROBOTS_DIR) + "/quadruped.urdf", nullptr, 20));
    QVERIFY(dock()->groundBox()->isChecked());  // a floating base stands on the ground
    dock()->stepOnce();                         // configures the run from the pose shown
    QVERIFY(dock()->runner()->advance(0.4));
    dock()->pause();  // publishes the run
    QTest::qWait(50);
    QCOMPARE(traj()->source(), TrajectoryDocument::Source::Simulation);

    // The document keeps the record's J^T f with the samples.
    const dyn::SimulationRecord record = dock()->runner()->record();
    QVERIFY(!record.tauExternal.empty());
    QVERIFY(traj()->hasExternalForces());
    const MatrixXd& ext = traj()->externalTorques();
    const dyn::SampledTrajectory& s = traj()->samples();
    const int n = s.samples();
    QCOMPARE(n, record.samples());
    QVERIFY(ext == record.externalTorques());
    QVERIFY2(ext.cwiseAbs().maxCoeff() > 0.5 * doc()->model().totalMass(),  // the ground carries the weight
             qPrintable(QString("|J^T f| at most %1").arg(ext.cwiseAbs().maxCoeff())));

    // τ is the joints' share: τ + Jᵀf = ID(q, q̇, q̈); the fourth term is −Jᵀf; the four add up to τ.
    traj()->ensureDetails();
    const dyn::TrajectoryDynamics& d = traj()->dynamics();
    QVERIFY(d.external == -ext);
    const dyn::Model& model = traj()->dynamicsModel();
    dyn::Data data(model);
    for (int k = 0; k < n; ++k) {
      const VectorXd id = dyn::rnea(model, data, s.q.col(k), s.qd.col(k), s.qdd.col(k));
      const double scale = 1 + id.cwiseAbs().maxCoeff() + ext.col(k).cwiseAbs().maxCoeff();
      QVERIFY2((d.tau.col(k) + ext.col(k) - id).cwiseAbs().maxCoeff() < 1e-10 * scale, qPrintable(QString::number(k)));
      const VectorXd sum = d.inertial.col(k) + d.coriolis.col(k) + d.gravity.col(k) + d.external.col(k);
      QVERIFY((sum - d.tau.col(k)).cwiseAbs().maxCoeff() < 1e-10 * scale);
    }
    // The effort-limit check is on the joints' τ.
    const dyn::EffortLimitViolations v = dyn::effortLimitViolations(model, d.tau);
    QCOMPARE(traj()->violations().count(), v.count());

    // The plot: the fourth band, its legend entry, and the stack adding up to τ (the joints').
    PlotsDock* plots = m_window->plotsDock();
    plots->showTab(PlotsDock::Decomposition);
    QTest::qWait(100);
    StackedDecompositionPlot* plot = plots->decompositionPlot();
    QVERIFY(plot->hasExternal());
    QCOMPARE(plot->mode(), StackedDecompositionPlot::Mode::Stacked);
    const QList<PlotLegend::Entry>& legend = plot->canvas()->plotLegend()->entries();
    QCOMPARE(legend.size(), 5);
    QVERIFY2(legend[3].name.contains("Jᵀf"), qPrintable(legend[3].name));
    QCOMPARE(legend[4].name, plot->termNames()[StackedDecompositionPlot::Total]);
    QVERIFY(plot->band(StackedDecompositionPlot::External, true)->isVisible());
    // The joint the ground pushes hardest on (the trunk's vertical dof, or a leg's).
    int joint = 0;
    ext.rowwise().lpNorm<Eigen::Infinity>().maxCoeff(&joint);
    plot->setCurrentJoint(joint);
    QTest::qWait(50);
    QCOMPARE(plot->currentJoint(), joint);
    QLineSeries* total = plot->termLine(StackedDecompositionPlot::Total);
    QVERIFY2(total->count() == n, qPrintable(QString("%1 points for %2 samples").arg(total->count()).arg(n)));
    for (auto term : StackedDecompositionPlot::kStacked) QCOMPARE(plot->band(term, true)->upperSeries()->count(), n);
    double largestExternal = 0;
    for (int k = 0; k < n; ++k) {
      QCOMPARE(total->at(k), QPointF(s.t[k], d.tau(joint, k)));
      const double scale = 1 + std::abs(d.tau(joint, k)) + std::abs(ext(joint, k));
      QVERIFY2(std::abs(bandSum(plot, k) - d.tau(joint, k)) < 1e-10 * scale,
               qPrintable(QString("sample %1: bands %2, τ %3").arg(k).arg(bandSum(plot, k)).arg(d.tau(joint, k))));
      const QAreaSeries* pos = plot->band(StackedDecompositionPlot::External, true);
      const QAreaSeries* neg = plot->band(StackedDecompositionPlot::External, false);
      const double band = pos->upperSeries()->at(k).y() - pos->lowerSeries()->at(k).y() +
                          neg->lowerSeries()->at(k).y() - neg->upperSeries()->at(k).y();
      QVERIFY(std::abs(band + ext(joint, k)) < 1e-10 * scale);  // the band is −Jᵀf
      largestExternal = std::max(largestExternal, std::abs(band));
    }
    QVERIFY(largestExternal > 1.0);

    if (const QString dir = qEnvironmentVariable("DYNSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
      for (const QString workspace : {"simulate", "trajectory"})
        for (const QSize size : {QSize(1920, 1080), QSize(1366, 768)})
          for (bool present : {false, true}) {
            m_window->setWorkspace(workspace);
            plots->showTab(PlotsDock::Decomposition);
            m_window->setPresentationMode(present);
            m_window->setGeometry(QRect(QPoint(0, 0), size));  // the "screen" of the picture
            QTest::qWait(500);
            if (m_window->geometry() != QRect(QPoint(0, 0), size)) {
              m_window->setGeometry(QRect(QPoint(0, 0), size));
              QTest::qWait(300);
            }
            const QString name = QString("%1/decomposition-external-%2-%3%4.png")
                                     .arg(dir, workspace)
                                     .arg(size.width())
                                     .arg(present ? "-present" : "");
            m_window->grab().save(name);
          }
      m_window->setPresentationMode(false);
    }

    // Another source replaces the run: no forces from outside, three terms again.
    std::vector<dyn::Waypoint> w{{0.0, s.q.col(0)}, {1.0, s.q.col(0)}};
    traj()->setWaypoints(w);
    traj()->recomputeNow();
    QVERIFY(!traj()->hasExternalForces());
    plots->showTab(PlotsDock::Torque);
    plots->showTab(PlotsDock::Decomposition);
    QTest::qWait(50);
    QCOMPARE(traj()->dynamics().external.size(), Eigen::Index(0));
    QVERIFY(!plot->hasExternal());
    QCOMPARE(plot->canvas()->plotLegend()->entries().size(), 4);
    QVERIFY(!plot->band(StackedDecompositionPlot::External, true)->isVisible());
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
      m_window->setWorkspace("simulate");  // the same view with three terms, for comparison
      plots->showTab(PlotsDock::Decomposition);
      m_window->presentOnScreenOfSize(QSize(1366, 768));
      QTest::qWait(500);
      m_window->grab().save(dir + "/decomposition-three-terms-simulate-1366-present.png");
    }
  }
};

QTEST_MAIN(TestDecompositionExternal)
#include "test_decomposition_external.moc"
