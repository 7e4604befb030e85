// The DH table editor (issue 24). A student builds Saha's 3-link planar arm from an empty table by
// keyboard alone (arrow keys, typing, Enter, Ctrl+Return for a new row); the robot it makes has the
// same joint-space inertia matrix and velocity terms as robots/planar3.dh loaded from its file (the
// reference: that file through the engine's own loader, nothing shared with the editor's path but
// the parser). Switching the convention converts the table and keeps every link where it was; a
// refused cell (a negative mass; an a that puts two joint axes on one line) says why and changes nothing; Undo restores
// the table; Save robot as writes a .dh that loads back to the same table. Screenshots go to $DYNSCOPE_SCREENSHOT_DIR
// when set.
#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <memory>
#include <random>

#include "dh/dh_table_dock.hpp"
#include "dh/dh_table_model.hpp"
#include "document/robot_document.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/io/dh_table.hpp"
#include "dynscope/io/model_builder.hpp"
#include "session/workbench_session.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

class TestDhEditing : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;
  QString m_shots;

  RobotDocument* doc() const { return m_window->document(); }
  DhTableDock* dock() const { return m_window->findChild<DhTableDock*>(); }
  QTableView* view() const { return dock()->view(); }
  void key(Qt::Key k, Qt::KeyboardModifiers mods = Qt::NoModifier) { QTest::keyClick(view(), k, mods); }
  // From the current cell: `right` cells to the right (arrow keys), type `text`, Enter.
  void typeAt(int right, const QString& text) {
    for (int k = 0; k < right; ++k) key(Qt::Key_Right);
    QTest::keyClicks(view(), text.left(1));  // the first key opens the cell's editor, which takes the focus
    QWidget* editor = QApplication::focusWidget();
    QVERIFY(editor && editor != view());
    QTest::keyClicks(editor, text.mid(1));
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents();
  }
  // Largest difference of H(q) and of the velocity terms C(q, qd) (gravity off) at random states.
  static double dynamicsDifference(dyn::Model a, dyn::Model b, bool gravity = false) {
    if (!gravity) {
      a.gravity.setZero();
      b.gravity.setZero();
    }
    dyn::Data da(a), db(b);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> U(-2, 2);
    double worst = 0;
    for (int s = 0; s < 5; ++s) {
      Eigen::VectorXd q(a.nq), qd(a.nv);
      for (int k = 0; k < a.nq; ++k) q[k] = U(rng), qd[k] = U(rng);
      const Eigen::VectorXd zero = Eigen::VectorXd::Zero(a.nv);
      worst = std::max(worst, (dyn::crba(a, da, q) - dyn::crba(b, db, q)).cwiseAbs().maxCoeff());
      worst = std::max(worst, (dyn::rnea(a, da, q, qd, zero) - dyn::rnea(b, db, q, qd, zero)).cwiseAbs().maxCoeff());
    }
    return worst;
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_shots = dyn::testing::screenshotDirectory(m_tmp);
    m_window = dyn::testing::strictWindow();
    m_window->setDefaultDirectory(DYNSCOPE_ROBOTS_DIR);
    QVERIFY(dyn::testing::showWithRobot(*m_window, QSize(1600, 1000), "ur5.urdf"));
    dock()->show();
    dock()->raise();
    m_window->activateWindow();  // the keys (Ctrl+Return, Enter in a cell) need the active window
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
  }
  void cleanupTestCase() { m_window.reset(); }

  void planarArmFromAnEmptyTableByKeyboard() {
    QVERIFY(dock()->newRobot("empty"));
    QVERIFY(doc()->dhTable());
    QCOMPARE(dock()->model()->rowCount(), 1);
    view()->setFocus();
    key(Qt::Key_Return, Qt::ControlModifier);  // Ctrl+Return: two more rows
    key(Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(dock()->model()->rowCount(), 3);
    // Rows of zeros: joints on one line, shown (not refused) until their a is typed in.
    QCOMPARE(dock()->model()->degeneracies().size(), 2);
    QVERIFY(dock()->degeneracyLabel()->isVisibleTo(dock()));
    // Saha's planar arm as robots/planar3.dh writes it: a, mass, COM x, Iyy, Izz per link.
    const char* rows[3][5] = {{"0.3", "0.5", "-0.15", "0.00375", "0.00375"},
                              {"0.25", "0.4", "-0.125", "0.0020833333333", "0.0020833333333"},
                              {"0.1", "0.2", "-0.05", "0.00016666666667", "0.00016666666667"}};
    for (int r = 0; r < 3; ++r) {
      view()->setCurrentIndex(dock()->model()->index(r, DhTableModel::Name));  // row start (Home would do)
      typeAt(DhTableModel::A - DhTableModel::Name, rows[r][0]);
      typeAt(DhTableModel::Mass - DhTableModel::A, rows[r][1]);
      typeAt(DhTableModel::ComX - DhTableModel::Mass, rows[r][2]);
      typeAt(DhTableModel::Iyy - DhTableModel::ComX, rows[r][3]);
      typeAt(DhTableModel::Izz - DhTableModel::Iyy, rows[r][4]);
    }
    QVERIFY2(dock()->problemLabel()->isHidden(), qPrintable(dock()->problemLabel()->text()));
    QVERIFY(dock()->degeneracyLabel()->isHidden());
    const dyn::Model reference = dyn::loadModel(QDir(DYNSCOPE_ROBOTS_DIR).filePath("planar3.dh").toStdString());
    QCOMPARE(doc()->model().nv, 3);
    const double d = dynamicsDifference(doc()->model(), reference);
    QVERIFY2(
        d < 1e-12,
        qPrintable(
            QString("%1 with the table\n%2").arg(d).arg(QString::fromStdString(dyn::writeDhTable(*doc()->dhTable())))));
    QVERIFY(m_window->isWindowModified());  // a table with no file yet
    QVERIFY(m_window->windowTitle().contains("new DH table"));
    dyn::testing::settle(100);
    m_window->grab().save(QDir(m_shots).filePath("dh_planar3_by_keyboard.png"));
    m_window->resize(1366, 768);  // the laptop: every column head and number whole (looked at)
    dyn::testing::settle(300);
    m_window->grab().save(QDir(m_shots).filePath("dh_planar3_1366.png"));
    m_window->resize(1600, 1000);
  }

  // The modified table moves the link frames, not the links: H, the velocity terms and the gravity
  // torques (which place every COM in the world) are those of the standard table. Undo goes back.
  void conventionSwitchKeepsTheRobot() {
    const dyn::Model before = doc()->model();
    QComboBox* c = dock()->conventionBox();
    c->setCurrentIndex(c->findData(int(dyn::DhConvention::Modified)));
    emit c->activated(c->currentIndex());
    QCOMPARE(doc()->dhTable()->convention, dyn::DhConvention::Modified);
    QVERIFY(dock()->model()->headerData(DhTableModel::A, Qt::Horizontal, Qt::DisplayRole).toString().contains("ᵢ₋₁"));
    const double d = dynamicsDifference(doc()->model(), before, true);
    QVERIFY2(d < 1e-12, qPrintable(QString::number(d)));
    m_window->undoStack()->undo();
    QCOMPARE(doc()->dhTable()->convention, dyn::DhConvention::Standard);
  }

  void refusedCellSaysWhy() {
    const std::string before = dyn::writeDhTable(*doc()->dhTable());
    view()->setFocus();
    view()->setCurrentIndex(dock()->model()->index(1, DhTableModel::Mass));
    typeAt(0, "-3");
    QVERIFY2(
        dock()->problemLabel()->text().contains("mass"),
        qPrintable(dock()->problemLabel()->text() + " | " +
                   QString::fromStdString(dyn::writeDhTable(*doc()->dhTable())) + " | focus " +
                   (QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "none")));
    QCOMPARE(dyn::writeDhTable(*doc()->dhTable()), before);
    const QModelIndex cell = dock()->model()->index(1, DhTableModel::Mass);
    QVERIFY(dock()->model()->data(cell, Qt::ToolTipRole).toString().contains("mass"));
    // a₂ = 0 with α₂ = 0 puts joint 3's axis on joint 2's: the chain would lose a degree of freedom.
    view()->setCurrentIndex(dock()->model()->index(1, DhTableModel::A));
    typeAt(0, "0");
    QVERIFY2(dock()->problemLabel()->text().contains("same line"), qPrintable(dock()->problemLabel()->text()));
    QCOMPARE(dyn::writeDhTable(*doc()->dhTable()), before);
    QCOMPARE(doc()->model().nv, 3);
  }

  void savedTableLoadsBack() {
    const QString path = m_tmp.filePath("planar_by_hand.dh");
    QVERIFY(m_window->session()->saveRobot(path));
    QCOMPARE(doc()->sourceFile(), QFileInfo(path).absoluteFilePath());
    QVERIFY2(!m_window->isWindowModified(), qPrintable(QString("traj %1 edits %2 session %3")
                                                           .arg(m_window->trajectory()->isModified())
                                                           .arg(doc()->edits().size())
                                                           .arg(m_window->session()->hasUnsavedWork())));
    const dyn::Model reloaded = dyn::loadModel(path.toStdString());
    QVERIFY(dynamicsDifference(reloaded, doc()->model()) < 1e-12);
  }
};

QTEST_MAIN(TestDhEditing)
#include "test_dh_editing.moc"
