// The Algorithms dock in the whole window (issue 14): its table against the engine called
// directly (every formulation's difference from RNEA / CRBA / ABA, its operation count and a
// time, the configuration-space time marked as including its tables), switching the formulation
// that drives the live τ and q̈ (the live τ and the trajectory's τ are the chosen formulation's to
// the last bit, and still equal RNEA / ABA), the log-log figure against counts taken here on the
// same chains and the registry's paper polynomials, its PNG/SVG/CSV export, presentation mode
// (fonts, rows, columns, names and the figure readable and in view; the dock given its height back),
// refusals of a floating base in the table, the combos and the document, and pictures of the
// dock (DYNSCOPE_GRAB_DIR keeps them). Runs under Xvfb.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLineSeries>
#include <QScatterSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <cmath>
#include <memory>
#include <random>
#include <set>

#include "algorithms/algorithms_dock.hpp"
#include "csv_rows.hpp"
#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "plots/operation_count_plot.hpp"
#include "plots/plot_canvas.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

namespace {

using dyn::testing::settle;
using Eigen::MatrixXd;
using Eigen::VectorXd;

double relativeDifference(const MatrixXd& a, const MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), 1e-300);
}

// Distinct colours in an image: a blank or single-colour grab has very few.
int distinctColours(const QImage& image) {
  std::set<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
  return int(colours.size());
}

}  // namespace

class TestAlgorithmsDock : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;

  RobotDocument* doc() const { return m_window->document(); }
  TrajectoryDocument* traj() const { return m_window->trajectory(); }
  AlgorithmsDock* dock() const { return m_window->algorithmsDock(); }
  const dyn::Model& model() const { return traj()->dynamicsModel(); }

  // Waits for the worker: a fresh table (and figure) for the robot shown.
  bool waitForSurvey(int surveysBefore) {
    return QTest::qWaitFor([&] { return dock()->surveysDone() > surveysBefore && !dock()->busy(); }, 120000);
  }
  bool choose(QComboBox* combo, const char* name) {
    const int i = combo->findData(QString::fromLatin1(name));
    if (i < 0) return false;
    combo->setCurrentIndex(i);
    emit combo->activated(i);  // what a user's pick emits
    settle();
    return true;
  }
  // τ, q̇, q̈ of the trajectory at sample k.
  void sample(int k, VectorXd& q, VectorXd& qd, VectorXd& qdd) const {
    q = traj()->samples().q.col(k), qd = traj()->samples().qd.col(k), qdd = traj()->samples().qdd.col(k);
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_window = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    m_window->setDefaultDirectory(QStringLiteral(DYNSCOPE_ROBOTS_DIR));
    m_window->setErrorHandler([](const QString&, const QString&) {});
    m_window->resize(1700, 1100);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    // Saha's Stanford arm (a prismatic joint) along the cycloidal trajectory of eq. 39.
    QSignalSpy finished(doc(), &RobotDocument::loadingFinished);
    m_window->loadDemo(dyn::DemoTrajectory::SahaStanford, dyn::testing::robotFile("stanford_arm.dh"));
    if (traj()->source() != TrajectoryDocument::Source::Demo) QVERIFY(finished.wait(30000));
    settle();
    QVERIFY(traj()->hasTrajectory());
    QCOMPARE(model().nv, 6);
    traj()->setTime(0.37 * traj()->samples().endTime());  // mid-motion: q̇, q̈ non-zero
    // The shortcut's action shows and raises the dock.
    auto* show = m_window->findChild<QAction*>("showAlgorithmsAction");
    QVERIFY(show);
    QCOMPARE(show->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    const int before = dock()->surveysDone();
    show->trigger();
    settle();
    QVERIFY(dock()->isVisible());
    dock()->recompute();
    QVERIFY(waitForSurvey(before));
    QVERIFY(QTest::qWaitFor([&] { return dock()->curvesDone() > 0; }, 120000));
  }
  void cleanupTestCase() { m_window.reset(); }

  // Every registry formulation has a row whose difference, count and time are the engine's.
  void tableRowsAgreeWithTheEngine() {
    const auto& rows = dock()->rows();
    QCOMPARE(rows.size(), dyn::formulations().size());
    QCOMPARE(dock()->table()->rowCount(), int(rows.size()));
    const VectorXd &q = dock()->surveyQ(), &qd = dock()->surveyQd(), &qdd = dock()->surveyQdd();
    QVERIFY(qd.norm() > 0 && qdd.norm() > 0);
    dyn::Data data(model());
    const VectorXd tau = dyn::rnea(model(), data, q, qd, qdd);
    const MatrixXd M = dyn::crba(model(), data, q);
    const VectorXd a = dyn::aba(model(), data, q, qd, tau);
    int tabulating = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const dyn::Formulation& f = dyn::formulations()[r];
      const survey::Row& row = rows[r];
      QCOMPARE(row.formulation, &f);
      QVERIFY2(row.refusal.empty(), row.refusal.c_str());
      QCOMPARE(dock()->table()->item(int(r), AlgorithmsDock::NameColumn)->data(Qt::UserRole).toString(),
               QString::fromStdString(f.name));
      // The formulation called here, on its own binding, against the reference called here.
      const auto b = f.bind(model());
      MatrixXd result, reference;
      if (f.problem == dyn::Problem::InverseDynamics) result = b.inverseDynamics(q, qd, qdd), reference = tau;
      if (f.problem == dyn::Problem::MassMatrix) result = b.massMatrix(q), reference = M;
      if (f.problem == dyn::Problem::ForwardDynamics) result = b.forwardDynamics(q, qd, tau), reference = a;
      const double rel = relativeDifference(result, reference);
      QVERIFY2(rel < 1e-10, qPrintable(QString::fromStdString(f.name) + ": " + QString::number(rel)));
      QVERIFY2(row.relDiff < 1e-10, f.name.c_str());
      QVERIFY(std::abs(row.maxDiff - (result - reference).cwiseAbs().maxCoeff()) <=
              1e-12 * reference.cwiseAbs().maxCoeff());
      // The counts: one counted call here.
      const dyn::OpTally t =
          dyn::countOperations(f, model(), q, qd, f.problem == dyn::Problem::ForwardDynamics ? tau : qdd);
      QCOMPARE(row.muls, (long long)t.algorithm.muls);
      QCOMPARE(row.adds, (long long)t.algorithm.adds);
      QVERIFY(row.muls > 0 && row.adds > 0);
      QString mulsText = dock()->table()->item(int(r), AlgorithmsDock::MulsColumn)->text();
      QCOMPARE(mulsText.remove(QChar(0x2009)).toLongLong(), row.muls);
      QVERIFY(row.microseconds > 0 && std::isfinite(row.microseconds) && row.calls >= 3);
      // A formulation with off-line tables (configuration space): its count is the evaluation, its
      // time includes the tables, and the time cell says so.
      QCOMPARE(row.tableMuls, (long long)t.tabulation.muls);
      QCOMPARE(row.tableAdds, (long long)t.tabulation.adds);
      const QString time = dock()->table()->item(int(r), AlgorithmsDock::TimeColumn)->text();
      QCOMPARE(time.contains("incl. tables"), f.tabulates);
      QCOMPARE(f.tabulates, t.tabulation.muls > 0);
      tabulating += t.tabulation.muls > 0;
    }
    QCOMPARE(tabulating, 1);  // configuration-space
  }

  // The chosen formulation computes the live τ and the trajectory's τ: they are that formulation's
  // numbers to the last bit (each formulation rounds differently, so a choice the document ignored,
  // leaving RNEA to compute, would show), and they equal RNEA to 1e-10.
  void switchingTheInverseDynamicsKeepsTauRight() {
    QComboBox* combo = dock()->inverseDynamicsCombo();
    QCOMPARE(combo->count(), int(dyn::formulationNames(dyn::Problem::InverseDynamics).size()));
    int distinguishable = 0;  // formulations whose bits differ from RNEA's at the live state
    for (const std::string& name : dyn::formulationNames(dyn::Problem::InverseDynamics)) {
      QVERIFY(choose(combo, name.c_str()));
      QCOMPARE(traj()->inverseDynamicsAlgorithm(), QString::fromStdString(name));
      const dyn::BoundFormulation<double> own =
          dyn::formulation(dyn::Problem::InverseDynamics, name).bind(model());  // called here, on its own binding
      // At a new time, so the live value is computed by the new formulation.
      const double t = (0.2 + 0.05 * combo->currentIndex()) * traj()->samples().endTime();
      traj()->setTime(t);
      const VectorXd q = doc()->q(), qd = traj()->qdAtTime(), qdd = traj()->qddAtTime();
      dyn::Data data(model());
      const VectorXd tau = dyn::rnea(model(), data, q, qd, qdd);
      const VectorXd mine = own.inverseDynamics(q, qd, qdd);
      QVERIFY2(traj()->tauAtTime() == mine, qPrintable(QString::fromStdString(name) + ": the live τ is not its own"));
      QVERIFY2(relativeDifference(traj()->tauAtTime(), tau) < 1e-10, name.c_str());
      distinguishable += mine != tau;
      for (int k : {0, traj()->samples().samples() / 3, traj()->samples().samples() - 1}) {
        VectorXd qk, qdk, qddk;
        sample(k, qk, qdk, qddk);
        const VectorXd column = traj()->dynamics().tau.col(k);
        if (name != "rnea")  // (RNEA's trajectory τ comes from the trajectory code's own RNEA call)
          QVERIFY2(column == own.inverseDynamics(qk, qdk, qddk),
                   qPrintable(QString::fromStdString(name) + ": the trajectory's τ is not its own"));
        QVERIFY2(relativeDifference(column, dyn::rnea(model(), data, qk, qdk, qddk)) < 1e-10, name.c_str());
      }
      QVERIFY(dock()->liveText().contains(QString::fromStdString(name)));
      // The table marks the driving row.
      const int row = int(std::find_if(dyn::formulations().begin(), dyn::formulations().end(),
                                       [&](const dyn::Formulation& f) {
                                         return f.problem == dyn::Problem::InverseDynamics && f.name == name;
                                       }) -
                          dyn::formulations().begin());
      QVERIFY(dock()->table()->item(row, AlgorithmsDock::NameColumn)->font().bold());
    }
    // The bit-for-bit checks can tell the formulations from RNEA: all but RNEA itself (and at most
    // one that happens to round alike here) differ from it in the last bits.
    const int others = int(dyn::formulationNames(dyn::Problem::InverseDynamics).size()) - 1;
    QVERIFY2(distinguishable >= others - 1, qPrintable(QString("%1 of %2").arg(distinguishable).arg(others)));
    QVERIFY(choose(combo, "rnea"));
  }

  // The chosen forward dynamics gives q̈ = FD(q, q̇, τ) = ABA's, which is the trajectory's q̈.
  void switchingTheForwardDynamicsKeepsQddRight() {
    QComboBox* combo = dock()->forwardDynamicsCombo();
    for (const std::string& name : dyn::formulationNames(dyn::Problem::ForwardDynamics)) {
      QVERIFY(choose(combo, name.c_str()));
      QCOMPARE(traj()->forwardDynamicsAlgorithm(), QString::fromStdString(name));
      traj()->setTime((0.27 + 0.13 * combo->currentIndex()) * traj()->samples().endTime());  // not mid-way: q̈ = 0
      dyn::Data data(model());
      const VectorXd qdd = dyn::aba(model(), data, doc()->q(), traj()->qdAtTime(), traj()->tauAtTime());
      QVERIFY2(relativeDifference(traj()->forwardQddAtTime(), qdd) < 1e-10,
               qPrintable(QString::fromStdString(name) + ": " +
                          QString::number(relativeDifference(traj()->forwardQddAtTime(), qdd))));
      QVERIFY2(relativeDifference(traj()->forwardQddAtTime(), traj()->qddAtTime()) < 1e-8, name.c_str());
    }
    QVERIFY(choose(combo, "aba"));
  }

  // The figure: measured counts equal counts taken here; the papers' lines and markers are the registry's.
  void figureShowsMeasuredAndPaperCounts() {
    OperationCountPlot* plot = dock()->plot();
    // Every formulation, then the closed form's τ after CSE (a build with computer algebra).
    const int formulations = int(dyn::formulations().size());
    QVERIFY(plot->seriesCount() == formulations || plot->seriesCount() == formulations + 1);
    if (plot->seriesCount() > formulations) {
      const OperationCountPlot::Series& closed = plot->series(formulations);
      QVERIFY(closed.name.contains("closed form"));
      QCOMPARE(closed.n, (std::vector<int>{1, 2, 3, 4}));
      // Hollerbach's point, measured: cheaper than RNEA for two links, dearer from four on.
      const OperationCountPlot::Series& rnea = plot->series(0);
      QVERIFY(rnea.name.endsWith("rnea"));
      QVERIFY(closed.muls[1] < rnea.muls[1]);
      QVERIFY(closed.muls[3] > rnea.muls[3]);
    }
    QCOMPARE(plot->markedN(), 6);
    std::mt19937 rng(7);
    for (int i = 0; i < formulations; ++i) {
      const dyn::Formulation& f = dyn::formulations()[std::size_t(i)];
      const OperationCountPlot::Series& s = plot->series(i);
      QVERIFY(s.n.size() >= 10);
      QVERIFY(s.n.back() >= 16);  // beyond the robot's 6
      const std::size_t k = std::size_t(std::find(s.n.begin(), s.n.end(), 8) - s.n.begin());
      QVERIFY(k < s.n.size());
      const dyn::Model chain = dyn::generalChain(8);
      const VectorXd q = dyn::randomConfiguration(chain, rng), v = VectorXd::Random(8), w = VectorXd::Random(8);
      const dyn::OpTally t = dyn::countOperations(f, chain, q, v, w);
      QCOMPARE(s.muls[k], double(t.algorithm.muls));
      QCOMPARE(s.adds[k], double(t.algorithm.adds));
      // Drawn on log-log axes.
      bool drawn = false;  // (counts of 0, e.g. at n = 1, have no point on log axes)
      for (const QPointF& p : plot->measuredLine(i)->points())
        drawn |= std::abs(p.x() - std::log10(8.0)) < 1e-12 && std::abs(p.y() - std::log10(s.muls[k])) < 1e-12;
      QVERIFY2(drawn, f.name.c_str());
      // The papers' polynomials (dashed) and tabulated values (markers).
      int polynomials = 0, tabulated = 0;
      for (const dyn::PaperCount& pc : f.paperCounts)
        polynomials += !pc.muls.empty(), tabulated += int(pc.tabulated.size());
      QCOMPARE(int(plot->paperLines(i).size()), polynomials);
      QCOMPARE(plot->paperMarkers(i)->count(), tabulated);
      for (const dyn::PaperCount& pc : f.paperCounts)
        for (const auto& v : pc.tabulated) {
          bool found = false;
          for (const QPointF& m : plot->paperMarkers(i)->points())
            found |= std::abs(m.x() - std::log10(v.n)) < 1e-12 && std::abs(m.y() - std::log10(double(v.muls))) < 1e-12;
          QVERIFY2(found, f.name.c_str());
        }
      if (!f.paperCounts.empty() && !f.paperCounts[0].muls.empty()) {
        const QLineSeries* dashed = plot->paperLines(i)[0];
        QVERIFY(dashed->pen().style() == Qt::DashLine || dashed->pen().style() == Qt::CustomDashLine);
        for (const QPointF& m : dashed->points()) {
          const double n = std::pow(10.0, m.x());
          QVERIFY(std::abs(m.y() - std::log10(*f.paperCounts[0].mulsAt(int(std::lround(n))))) < 1e-9);
        }
      }
    }
    // Uicker/Kahn (O(n⁴)) is capped, and the note says so.
    const int uk = int(std::find_if(dyn::formulations().begin(), dyn::formulations().end(),
                                    [](const dyn::Formulation& f) { return f.name == "uicker-kahn"; }) -
                       dyn::formulations().begin());
    QVERIFY(plot->series(uk).n.back() <= 32);
    // Additions: the same figure for the other count.
    plot->setCount(OperationCountPlot::Count::Additions);
    QCOMPARE(plot->measuredLine(0)->points().back().y(), std::log10(plot->series(0).adds.back()));
    plot->setCount(OperationCountPlot::Count::Multiplications);
  }

  void figureExports() {
    OperationCountPlot* plot = dock()->plot();
    const QString png = m_tmp.filePath("counts.png"), svg = m_tmp.filePath("counts.svg"),
                  csv = m_tmp.filePath("counts.csv");
    QString error;
    QVERIFY2(plot->exportPng(png, QSize(1200, 800), &error), qPrintable(error));
    QVERIFY(distinctColours(QImage(png)) > 20);
    QVERIFY2(plot->exportSvg(svg, &error), qPrintable(error));
    QVERIFY(QFile(svg).size() > 1000);
    QVERIFY2(plot->exportCsv(csv, &error), qPrintable(error));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QStringList header;
    const auto rows = dyn::testing::parseCsv(file.readAll(), &header);
    QCOMPARE(int(rows.size()), int(plot->series(0).n.size()));
    QCOMPARE(header.value(0), QString("n"));
    QVERIFY(header.contains("id: denoc paper muls"));
    const int column = int(header.indexOf("id: denoc muls"));
    const int denoc = int(std::find_if(dyn::formulations().begin(), dyn::formulations().end(),
                                       [](const dyn::Formulation& f) {
                                         return f.problem == dyn::Problem::InverseDynamics && f.name == "denoc";
                                       }) -
                          dyn::formulations().begin());
    QVERIFY(column > 0);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      QCOMPARE(rows[k][0], double(plot->series(denoc).n[k]));
      QCOMPARE(rows[k][std::size_t(column)], plot->series(denoc).muls[k]);
    }
  }

  // A picture of the window with the dock in front, for a human to judge.
  void grabPicture() {
    dock()->raise();
    settle(200);
    const QImage image = m_window->grab().toImage();
    QVERIFY(distinctColours(image) > 50);
    const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (!dir.isEmpty()) {
      QVERIFY(image.save(QDir(dir).filePath("algorithms_window.png")));
      dock()->setFloating(true);  // and the dock alone, as wide as on a projector
      dock()->resize(1200, 1000);
      settle(300);
      QVERIFY(dock()->grab().save(QDir(dir).filePath("algorithms_dock.png")));
      dock()->setFloating(false);
      dock()->raise();  // re-docked behind another tab: in front again
      settle(300);
    }
  }

  // Presentation mode (F11): every text of the dock at least at the presentation size (the table's
  // cells too, the driving row's bold title included), rows tall enough and number columns wide
  // enough for their text, and the figure with room for its axes; a picture for a human to judge.
  void presentationModeIsReadable() {
    const double normal = QApplication::font().pointSizeF();
    QAction* f11 = m_window->findChild<QAction*>("presentationAction");
    QVERIFY(f11);
    QVERIFY(choose(dock()->inverseDynamicsCombo(), "lagrange-3x3"));  // a bold driving row
    dock()->raise();
    settle(300);
    const int normalHeight = dock()->height();
    f11->trigger();
    QVERIFY(m_window->presentationMode());
    const double big = QApplication::font().pointSizeF();
    QVERIFY(big >= 1.4 * normal);
    dock()->show();
    dock()->raise();
    settle(800);  // the font change, the full-screen geometry and the docks' layout
    QVERIFY(dock()->isVisible());
    const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");  // (a picture also when a check fails)
    if (!dir.isEmpty()) QVERIFY(m_window->grab().save(QDir(dir).filePath("algorithms_presentation.png")));
    for (QWidget* w : dock()->findChildren<QWidget*>())
      if (w->isVisibleTo(dock()))
        QVERIFY2(w->font().pointSizeF() >= big - 1e-9,
                 qPrintable(QString("%1 (%2): %3 pt")
                                .arg(w->objectName(), w->metaObject()->className())
                                .arg(w->font().pointSizeF())));
    QTableWidget* table = dock()->table();
    int bold = 0;
    for (int r = 0; r < table->rowCount(); ++r) {
      for (int c = 0; c < table->columnCount(); ++c) {
        const QTableWidgetItem* it = table->item(r, c);
        if (!it) continue;
        const QFont font = it->font().resolve(table->font());  // what the delegate draws with
        QVERIFY2(font.pointSizeF() >= big - 1e-9,
                 qPrintable(QString("cell %1, %2: %3 pt").arg(r).arg(c).arg(font.pointSizeF())));
        bold += font.bold();
        const QFontMetrics fm(font);
        QVERIFY2(table->rowHeight(r) >= fm.height(), qPrintable(QString("row %1 is cut").arg(r)));
        if (c != AlgorithmsDock::NameColumn && table->columnSpan(r, c) == 1)  // (long titles elide by design)
          QVERIFY2(table->columnWidth(c) >= fm.horizontalAdvance(it->text()),
                   qPrintable(QString("'%1' is cut (%2 px for %3)")
                                  .arg(it->text())
                                  .arg(table->columnWidth(c))
                                  .arg(fm.horizontalAdvance(it->text()))));
      }
    }
    QCOMPARE(bold, 2);                                      // the rows driving the live inverse and forward dynamics
    QVERIFY2(table->horizontalScrollBar()->maximum() == 0,  // every column in view
             qPrintable(QString("the table scrolls sideways: %1 px of columns in %2 px")
                            .arg(table->horizontalHeader()->length())
                            .arg(table->viewport()->width())));
    QVERIFY2(table->viewport()->height() >= 4 * table->rowHeight(0),
             qPrintable(QString("the table shows %1 px").arg(table->viewport()->height())));
    {  // the formulations' names in full (their titles may elide)
      QFont bold = table->font();
      bold.setBold(true);
      for (const dyn::Formulation& f : dyn::formulations()) {
        const int needed = QFontMetrics(bold).horizontalAdvance(QString::fromStdString("▶ " + f.name));
        QVERIFY2(table->columnWidth(AlgorithmsDock::NameColumn) >= needed,
                 qPrintable(QString("'%1' is cut: %2 px for %3")
                                .arg(f.name.c_str())
                                .arg(table->columnWidth(AlgorithmsDock::NameColumn))
                                .arg(needed)));
      }
    }
    // The dock shows its whole content: nothing scrolled out of view (its scroll area is for laptops).
    auto* scroll = qobject_cast<QScrollArea*>(dock()->widget());
    QVERIFY(scroll);
    QVERIFY2(scroll->verticalScrollBar()->maximum() == 0 && scroll->horizontalScrollBar()->maximum() == 0,
             qPrintable(QString("the dock scrolls: %1 x %2 px of content in %3 x %4")
                            .arg(scroll->widget()->width())
                            .arg(scroll->widget()->height())
                            .arg(scroll->viewport()->width())
                            .arg(scroll->viewport()->height())));
    OperationCountPlot* plot = dock()->plot();
    // Side by side, or (a dock too narrow for both) as two tabs, each over the whole dock.
    for (QWidget* part : {static_cast<QWidget*>(table), static_cast<QWidget*>(plot)}) {
      if (QTabWidget* tabs = dock()->viewTabs()) {
        for (int i = 0; i < tabs->count(); ++i)
          if (tabs->widget(i)->isAncestorOf(part)) tabs->setCurrentIndex(i);
        settle(300);
      }
      QVERIFY2(part->isVisible(), part->metaObject()->className());
      const QRect shown(part->mapTo(scroll->viewport(), QPoint(0, 0)), part->size());
      QVERIFY2(scroll->viewport()->rect().contains(shown), part->metaObject()->className());
    }
    if (!dir.isEmpty() && dock()->viewTabs())
      QVERIFY(m_window->grab().save(QDir(dir).filePath("algorithms_presentation_figure.png")));
    QVERIFY2(plot->height() >= 200, qPrintable(QString("the figure is %1 px high").arg(plot->height())));
    const QRectF area = plot->canvas()->chart()->plotArea();
    QVERIFY2(area.height() >= 120 && area.width() >= 300,
             qPrintable(QString("plot area %1 x %2").arg(area.width()).arg(area.height())));
    // The figure is readable: every name, tick label and title in full (else its hint would show).
    QVERIFY2(plot->canvas()->isReadable(), qPrintable(plot->canvas()->unreadableReason()));
    f11->trigger();
    settle(800);
    QVERIFY(!m_window->presentationMode());
    QCOMPARE(QApplication::font().pointSizeF(), normal);
    for (int r = 0; r < table->rowCount(); ++r)  // and the cells back at the normal size
      for (int c = 0; c < table->columnCount(); ++c)
        if (const QTableWidgetItem* it = table->item(r, c))
          QCOMPARE(it->font().resolve(table->font()).pointSizeF(), normal);
    QVERIFY2(std::abs(dock()->height() - normalHeight) <= 2,  // its height back
             qPrintable(QString("%1 px, was %2").arg(dock()->height()).arg(normalHeight)));
    QVERIFY(choose(dock()->inverseDynamicsCombo(), "rnea"));
  }

  // A floating base: the formulations written for fixed-base chains refuse, in the table and the
  // combo, and the document falls back to RNEA with a note.
  void floatingBaseRefusalsAreShown() {
    QVERIFY(choose(dock()->inverseDynamicsCombo(), "denoc"));
    doc()->setFloatingBase(true);
    const int before = dock()->surveysDone();
    QVERIFY(dyn::testing::openAndWait(*m_window, dyn::testing::robotFile("ur5.urdf")));
    QVERIFY(waitForSurvey(before));
    QCOMPARE(traj()->inverseDynamicsAlgorithm(), QString("rnea"));
    QVERIFY2(dock()->noteText().contains("refuses"), qPrintable(dock()->noteText()));
    int refused = 0;
    auto* items = qobject_cast<QStandardItemModel*>(dock()->inverseDynamicsCombo()->model());
    for (std::size_t r = 0; r < dock()->rows().size(); ++r) {
      const survey::Row& row = dock()->rows()[r];
      bool refuses = false;
      try {
        (void)row.formulation->bind(model());
      } catch (const std::exception&) {
        refuses = true;
      }
      QCOMPARE(!row.refusal.empty(), refuses);
      if (!refuses) continue;
      ++refused;
      QVERIFY(QString::fromStdString(row.refusal).contains("float"));
      QTableWidgetItem* cell = dock()->table()->item(int(r), AlgorithmsDock::DiffColumn);
      QVERIFY(cell->text().contains(QString::fromStdString(row.refusal)));
      QCOMPARE(dock()->table()->columnSpan(int(r), AlgorithmsDock::DiffColumn),
               AlgorithmsDock::TimeColumn - AlgorithmsDock::DiffColumn + 1);
      if (row.formulation->problem == dyn::Problem::InverseDynamics) {
        const int i = dock()->inverseDynamicsCombo()->findData(QString::fromStdString(row.formulation->name));
        QVERIFY(!items->item(i)->isEnabled());
      }
    }
    QVERIFY(refused >= 5);  // DeNOC ×3, Newton-Euler, the 4x4 and 3x3 forms ...
    // Choosing a refusing formulation is refused with the engine's message.
    QString error;
    QVERIFY(!traj()->setInverseDynamicsAlgorithm("lagrange-3x3", &error));
    QVERIFY(error.contains("float"));
    QCOMPARE(traj()->inverseDynamicsAlgorithm(), QString("rnea"));
    doc()->setFloatingBase(false);
  }

  // A 300-link chain: the formulations whose one call would take too long are not run (Uicker/Kahn's
  // n^4 would take hours), and say so with their estimate; the O(n) ones are run and agree.
  void bigRobotsSkipTheCostlyFormulations() {
    const dyn::Model chain = dyn::generalChain(300);
    std::mt19937 rng(7);
    const VectorXd q = dyn::randomConfiguration(chain, rng);
    const VectorXd qd = VectorXd::Constant(chain.nv, 0.1), qdd = VectorXd::Constant(chain.nv, -0.2);
    const std::vector<survey::Row> rows = survey::surveyModel(chain, q, qd, qdd, 1.0);
    QCOMPARE(rows.size(), dyn::formulations().size());
    int skipped = 0;
    for (const survey::Row& row : rows) {
      const dyn::Formulation& f = *row.formulation;
      if (!row.refusal.empty()) {  // Uicker/Kahn's and the configuration-space tables: over their memory limits
        QVERIFY2(f.degree >= 3 && (row.refusal.find("limit") != std::string::npos ||
                                   row.refusal.find("at most") != std::string::npos),
                 row.refusal.c_str());
        continue;
      }
      // The estimate grows with the formulation's degree from its count on an 8-link chain.
      const double ops8 = survey::estimatedOperations(f, 8);
      QVERIFY(std::abs(row.estimatedOps / ops8 - std::pow(300.0 / 8, f.degree)) < 1e-9 * std::pow(300.0 / 8, f.degree));
      if (row.estimatedOps > survey::kMaxTimedOps) {
        ++skipped;
        QVERIFY(QString::fromStdString(row.skipped).contains("not run"));
        QVERIFY(std::isnan(row.microseconds));
      } else {
        QVERIFY(row.skipped.empty());
        QVERIFY2(row.relDiff < 1e-8 || &f == &survey::reference(f.problem), f.name.c_str());
        QVERIFY(row.microseconds > 0);
      }
      if (f.degree == 1) QVERIFY2(row.skipped.empty(), f.name.c_str());
      if (f.degree >= 4) QVERIFY2(!row.skipped.empty(), f.name.c_str());
    }
    QVERIFY(skipped >= 1);  // the n^3 CRBA + Cholesky forward dynamics at n = 300
  }
};

QTEST_MAIN(TestAlgorithmsDock)
#include "test_algorithms_dock.moc"
