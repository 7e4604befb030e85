// The mass-matrix dock at the sizes the workspaces give it (issue 22): the humanoid's H alone and
// beside the global 6N matrices, with the normal font and presentation mode's (x 1.5). Either a
// view is readable (H: every cell at least 5 px, its title in full on at most two lines; the 6N
// pictures: every caption in full, each picture at least six lines on a side) or it is smaller
// than its minimumSizeHint and paints its "too small" hint; at the readableSize the dock asks for,
// both are readable, and the two views are stacked when only that leaves both readable. With
// DYNSCOPE_GRAB_DIR set, every picture is kept for a human to look at.
#include <QApplication>
#include <QDir>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QtTest>
#include <memory>
#include <random>

#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "massmatrix/global_matrices_view.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "massmatrix/matrix_heat_map.hpp"

namespace {
void settle() {
  for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
}
}  // namespace

class TestMatrixReadability : public QObject {
  Q_OBJECT

  QFont m_normal;
  QString m_dir;
  std::unique_ptr<RobotDocument> m_humanoid;

  void setPresentation(bool on) {
    QFont f = m_normal;
    if (on) f.setPointSizeF(m_normal.pointSizeF() * 1.5);
    QApplication::setFont(f);
    settle();
  }

  void keep(QWidget* w, const QString& name) {
    if (!m_dir.isEmpty()) QVERIFY(w->grab().save(QDir(m_dir).filePath(name + ".png")));
  }

 private slots:
  void initTestCase() {
    m_normal = QApplication::font();
    m_dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (!m_dir.isEmpty()) QDir().mkpath(m_dir);
    m_humanoid = std::make_unique<RobotDocument>();
    QString error;
    QVERIFY2(m_humanoid->load(QDir(DYNSCOPE_ROBOTS_DIR).filePath("humanoid.urdf"), &error), qPrintable(error));
    std::mt19937 rng(4);
    m_humanoid->setQ(dyn::randomConfiguration(m_humanoid->model(), rng, 1.0));
  }

  // H of the humanoid, alone and beside the global 6N matrices, in the mass-matrix dock.
  void massMatrixViews() {
    MassMatrixDock dock(m_humanoid.get());
    dock.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dock));
    for (bool global : {false, true}) {
      dock.setShowGlobal(global);
      for (bool presentation : {false, true}) {
        setPresentation(presentation);
        for (const QSize size : {QSize(900, 700), QSize(600, 500), QSize(1200, 560)}) {
          dock.resize(size);
          dock.recomputeNow();
          settle();
          QTest::qWait(20);
          const QString where = QString("mass matrix%1 at %2x%3%4")
                                    .arg(global ? " + global" : "")
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(presentation ? " (presentation)" : "");
          keep(&dock, QString("mass_matrix%1_%2x%3%4")
                          .arg(global ? "_global" : "")
                          .arg(size.width())
                          .arg(size.height())
                          .arg(presentation ? "_big" : ""));
          MatrixHeatMap* map = dock.heatMap();
          const MatrixHeatMap::Layout l = map->layoutFor(map->size());
          const QSize need = map->minimumSizeHint();
          const bool bigEnough = map->width() >= need.width() && map->height() >= need.height();
          if (bigEnough) QVERIFY2(l.readable, qPrintable(where + ": H not readable at its minimumSizeHint"));
          if (l.readable) {
            QVERIFY2(l.titleLines > 0, qPrintable(where + ": title cut"));
            QVERIFY2(l.cell >= 5, qPrintable(where + QString(": H cells of %1 px").arg(l.cell)));
          }
          if (global) {
            GlobalMatricesView* g = dock.globalView();
            const GlobalMatricesView::Grid grid = g->gridFor(g->size());
            const QSize gneed = g->minimumSizeHint();
            if (g->width() >= gneed.width() && g->height() >= gneed.height())
              QVERIFY2(grid.readable, qPrintable(where + ": global view not readable at its minimumSizeHint"));
            if (grid.readable) QVERIFY(grid.captionsFit);
            // Side by side only when both are readable so; else stacked when that makes them so.
            const QSize area = dock.picturesSplitter()->size();
            const int handle = dock.picturesSplitter()->handleWidth();
            const bool sideFits = area.width() >= need.width() + gneed.width() + handle &&
                                  area.height() >= std::max(need.height(), gneed.height());
            const bool stackFits = area.height() >= need.height() + gneed.height() + handle &&
                                   area.width() >= std::max(need.width(), gneed.width());
            if (sideFits || stackFits) {
              QCOMPARE(dock.picturesSplitter()->orientation(), sideFits ? Qt::Horizontal : Qt::Vertical);
              QVERIFY2(l.readable && grid.readable, qPrintable(where + ": room for both, yet one is too small"));
            }
          }
        }
        // At the readable size the dock asks for, both views are readable.
        dock.resize(dock.readableSize());
        settle();
        QTest::qWait(20);
        const QString where = QString("mass matrix%1 at its readableSize %2x%3%4")
                                  .arg(global ? " + global" : "")
                                  .arg(dock.width())
                                  .arg(dock.height())
                                  .arg(presentation ? " (presentation)" : "");
        keep(&dock, QString("mass_matrix%1_readable%2").arg(global ? "_global" : "").arg(presentation ? "_big" : ""));
        qInfo("%s: H %dx%d (needs %dx%d), global %dx%d (needs %dx%d), pictures %dx%d", qPrintable(where),
              dock.heatMap()->width(), dock.heatMap()->height(), dock.heatMap()->minimumSizeHint().width(),
              dock.heatMap()->minimumSizeHint().height(), dock.globalView()->width(), dock.globalView()->height(),
              dock.globalView()->minimumSizeHint().width(), dock.globalView()->minimumSizeHint().height(),
              dock.picturesSplitter()->width(), dock.picturesSplitter()->height());
        QVERIFY2(dock.heatMap()->isReadable(), qPrintable(where + ": H"));
        const auto* scroll = qobject_cast<QScrollArea*>(dock.widget());
        QVERIFY(scroll);
        QVERIFY2(scroll->verticalScrollBar()->maximum() == 0 && scroll->horizontalScrollBar()->maximum() == 0,
                 qPrintable(where + ": the dock scrolls"));
        if (global)
          QVERIFY2(dock.globalView()->gridFor(dock.globalView()->size()).readable, qPrintable(where + ": global"));
      }
      setPresentation(false);
    }
  }
};

QTEST_MAIN(TestMatrixReadability)
#include "test_matrix_readability.moc"
