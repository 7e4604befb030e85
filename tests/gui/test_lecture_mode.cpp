// Lecture mode in the workbench window (issue 15): the keys step RNEA on the UR5 body by body and
// pass by pass, highlight the body in the 3D view and the model tree, show the step's equation with
// its numbers and the running operation count, and act only while the inspector is open; stepping
// back then forward returns to the same state; ABA on a tree (the quadruped) in three passes with
// the bias-force arrows; CRBA (and Saha's GIM) fill the mass-matrix dock column by column; the pass
// arrow points outward, then inward; the arrows of a swinging pendulum read back from the scene's
// actors point the right way with the stated length; F11 makes the equations projector-sized at
// 1920 x 1080; the handout has a section and a picture per step, the arrows in the pictures; every
// formulation of the engine steps on the Stanford arm to the plain function's result; the user's
// body selection comes back when lecture mode ends.
// With DYNSCOPE_GRAB_DIR set, screenshots for a human to judge.
#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkProperty.h>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFontMetricsF>
#include <QOpenGLWidget>
#include <QRegularExpression>
#include <QScreen>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QWebEnginePage>
#include <QWebEngineView>
#include <QtTest>

#include <cmath>
#include <memory>

#include "arrow_readback.hpp"
#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "lecture/algorithm_inspector_dock.hpp"
#include "lecture/equation_html.hpp"
#include "lecture/katex_view.hpp"
#include "lecture/lecture_document.hpp"
#include "lecture/trace_table_model.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "massmatrix/matrix_heat_map.hpp"
#include "pendulum.hpp"
#include "scene/robot_scene.hpp"
#include "scene/trace_arrow_overlay.hpp"
#include "test_vectors.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/joint_row.hpp"
#include "window/joints_dock.hpp"
#include "window/main_window.hpp"
#include "window/model_tree_dock.hpp"
#include "window_loading.hpp"

using Eigen::Vector3d;

namespace {

QString robot(const char* file) { return QDir(DYNSCOPE_ROBOTS_DIR).filePath(file); }

void grab(const QImage& img, const QString& name) {
  const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
  if (!dir.isEmpty()) img.save(QDir(dir).filePath(name));
}

// Pixels close to a colour (arrow shading varies: a generous distance).
int pixelsNear(const QImage& img, const Vector3d& colour, int tolerance = 60) {
  const QColor c = QColor::fromRgbF(float(colour.x()), float(colour.y()), float(colour.z()));
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QRgb p = img.pixel(x, y);
      if (std::abs(qRed(p) - c.red()) + std::abs(qGreen(p) - c.green()) + std::abs(qBlue(p) - c.blue()) < tolerance)
        ++n;
    }
  return n;
}

using dyn::testing::ReadArrow;
using dyn::testing::readArrow;

}  // namespace

class TestLectureMode : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> w;
  QTemporaryDir tmp;

  LectureDocument* lecture() const { return w->lectureDocument(); }
  AlgorithmInspectorDock* dock() const { return w->inspectorDock(); }
  void key(int k, Qt::KeyboardModifiers mods = Qt::NoModifier) {
    if (!w->isActiveWindow()) {  // without a window manager, leaving full screen may deactivate it
      w->activateWindow();
      QVERIFY(QTest::qWaitForWindowActive(w.get()));
    }
    w->viewport()->setFocus();
    QTest::keyClick(w->viewport(), Qt::Key(k), mods);
    QCoreApplication::processEvents();
  }
  void open(const QString& path) {
    QString error;
    QVERIFY2(dyn::testing::openAndWait(*w, path, &error), qPrintable(error));
  }
  // A picture of the window for a human (DYNSCOPE_GRAB_DIR), once the equation page shows the step.
  void grabWindow(const QString& name) {
    if (qEnvironmentVariableIsEmpty("DYNSCOPE_GRAB_DIR")) return;
    QTRY_VERIFY_WITH_TIMEOUT(!dock()->equationView() || dock()->equationsRendered(), 60000);
    QTest::qWait(200);  // painted
    grab(w->grab().toImage(), name);
  }
  // The value of a JavaScript expression in the equation page, once the page shows the current step.
  // The timeouts are generous: the suite runs beside the engine suites on two cores, and Chromium's
  // first typesetting in a new page then takes several seconds.
  QVariant evaluate(const QString& script) {
    [&] { QTRY_VERIFY_WITH_TIMEOUT(dock()->equationView() && dock()->equationsRendered(), 60000); }();
    if (QTest::currentTestFailed()) return {};
    QVariant result;
    bool done = false;
    dock()->equationView()->page()->runJavaScript(script, [&](const QVariant& v) {
      result = v;
      done = true;
    });
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done, 10000); }();
    return result;
  }
  void openInspector(const QString& algorithm) {
    if (!dock()->isVisible()) w->findChild<QAction*>("lectureInspectorAction")->trigger();
    QTRY_VERIFY(lecture()->isActive());
    lecture()->setAlgorithm(algorithm);
    lecture()->retraceNow();
    QVERIFY2(lecture()->hasTrace(), qPrintable(lecture()->error()));
    lecture()->toStart();
  }

 private slots:
  void initTestCase() {
    w = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    w->setDefaultDirectory(DYNSCOPE_ROBOTS_DIR);
    w->setErrorHandler([](const QString& title, const QString& text) { qWarning() << title << text; });
    w->resize(1600, 1000);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    w->activateWindow();  // the keys are window shortcuts: they need the active window
    QVERIFY(QTest::qWaitForWindowActive(w.get()));
    open(robot("ur5.urdf"));
  }

  // The keys do nothing while the inspector is closed, and they leave a joint slider alone.
  void keysActOnlyWhileTheInspectorIsOpen() {
    QVERIFY(!dock()->isVisible());
    QVERIFY(!lecture()->isActive());
    const int before = lecture()->position();
    key(Qt::Key_Right);
    QCOMPARE(lecture()->position(), before);
    QVERIFY(!dock()->forwardAction()->isEnabled());
    QVERIFY(!dock()->equationView());  // a closed inspector starts no web engine
    openInspector("rnea");
    QVERIFY(dock()->equationView());
    JointRow* row = w->jointsDock()->rows().front();
    row->slider()->setFocus();
    const int value = row->slider()->value();
    QTest::keyClick(row->slider(), Qt::Key_Right);
    QCOMPARE(lecture()->position(), 0);  // the slider had the key
    QVERIFY(row->slider()->value() != value || value == row->slider()->maximum());
  }

  // Back in the Lecture workspace from another, → steps: the switch gives the keys to the lecture
  // (they stayed on a Trajectory plot that the switch hid).
  void keysFollowTheWorkspace() {
    openInspector("rnea");
    QVERIFY(w->setWorkspace("trajectory"));
    QWidget* focused = nullptr;  // a widget of that workspace's docks takes the keys, as a click gives them
    for (QDockWidget* d : w->findChildren<QDockWidget*>())
      if (d->isVisible() && d != dock())
        for (QWidget* c : d->findChildren<QWidget*>())
          if (!focused && c->isVisible() && (c->focusPolicy() & Qt::ClickFocus)) focused = c;
    QVERIFY(focused);
    focused->setFocus(Qt::MouseFocusReason);
    QTRY_COMPARE(QApplication::focusWidget(), focused);
    QVERIFY(w->setWorkspace("lecture"));
    QTRY_VERIFY(lecture()->isActive());
    lecture()->toStart();
    QVERIFY(QApplication::focusWidget());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
    QCOMPARE(lecture()->position(), 1);
    lecture()->toStart();
  }

  void rneaOnTheUr5ByKeys() {
    openInspector("rnea");
    const dyn::Model& m = w->document()->model();
    lecture()->setInputSource(LectureDocument::InputSource::Entered);
    lecture()->setEntered(Eigen::VectorXd::Constant(m.nv, 0.8), Eigen::VectorXd::Constant(m.nv, 0.5),
                          Eigen::VectorXd::Zero(m.nv));
    lecture()->retraceNow();
    QCOMPARE(lecture()->stepCount(), 2 * m.N);
    QVERIFY(dock()->equationHtml().contains("Start"));
    key(Qt::Key_Right);
    QCOMPARE(lecture()->position(), 1);
    // Body 1 highlighted in the 3D view and the model tree.
    QCOMPARE(w->document()->selectedBody(), 1);
    QCOMPARE(w->scene()->selectedBody(), 1);
    QCOMPARE(w->modelTreeDock()->tree()->currentItem(), w->modelTreeDock()->itemForBody(1));
    // The equations with seed and numbers, the count so far.
    const QString html = dock()->equationHtml();
    QVERIFY(html.contains("eq. 9") && html.contains("eq. 10") && html.contains("eq. 11"));
    QVERIFY(html.contains("Featherstone Part 2"));
    QVERIFY(html.contains("_{\\lambda (i)}"));                 // the paper's notation, as TeX
    for (int written : lecture()->trace().steps[0].written) {  // every number written, as printed
      const Eigen::MatrixXd& v = lecture()->trace().steps[0].terms[written].value;
      for (int k = 0; k < v.size(); ++k) QVERIFY(html.contains(">" + lecture_html::number(v(k)) + "<"));
    }
    QVERIFY(dock()->countsText().contains("Operations so far"));
    QVERIFY(!dock()->countsText().startsWith("Operations so far: 0 ×"));
    QCOMPARE(dock()->positionText(), QString("Step 1 / 12"));
    // The table: v, a, f of body 1 highlighted.
    TraceTableModel* t = dock()->tableModel();
    int changed = 0;
    for (int c = 0; c < t->columnCount(); ++c) changed += t->isChanged(0, c) ? 1 : 0;
    QCOMPARE(changed, 3);
    QVERIFY(!t->data(t->index(0, 0), Qt::DisplayRole).toString().isEmpty());
    QVERIFY(t->data(t->index(1, 0), Qt::DisplayRole).toString().isEmpty());  // body 2 not reached
    for (int k = 2; k <= 4; ++k) key(Qt::Key_Right);
    QCOMPARE(w->document()->selectedBody(), 4);
    // Shift+Right: the end of the outward pass, then of the inward pass.
    key(Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(lecture()->position(), m.N);
    QCOMPARE(w->document()->selectedBody(), m.N);
    key(Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(lecture()->position(), 2 * m.N);
    QCOMPARE(w->document()->selectedBody(), 1);
    QVERIFY(dock()->equationHtml().contains("Result: tau"));
    QVERIFY(!dock()->forwardAction()->isEnabled());
    grab(w->viewport()->grabImage(), "lecture_rnea_ur5_end.png");
    grabWindow("lecture_rnea_ur5_window.png");
    key(Qt::Key_Home);
    QCOMPARE(lecture()->position(), 0);
    QCOMPARE(w->document()->selectedBody(), -1);
    key(Qt::Key_Left);
    QCOMPARE(lecture()->position(), 0);
  }

  // Back then forward: the same table, equations and arrows as before.
  void backThenForwardIsTheSameState() {
    openInspector("rnea");
    for (int k = 0; k < 8; ++k) key(Qt::Key_Right);
    TraceTableModel* t = dock()->tableModel();
    const auto snapshot = [&] {
      QStringList cells;
      for (int r = 0; r < t->rowCount(); ++r)
        for (int c = 0; c < t->columnCount(); ++c)
          cells << t->data(t->index(r, c), Qt::DisplayRole).toString() + (t->isChanged(r, c) ? "*" : "");
      return cells.join('|') + dock()->equationHtml() + QString::number(w->arrowOverlay()->visibleArrowCount());
    };
    const QString at8 = snapshot();
    key(Qt::Key_Left);
    QVERIFY(snapshot() != at8);
    key(Qt::Key_Right);
    QCOMPARE(snapshot(), at8);
    key(Qt::Key_Left, Qt::ShiftModifier);  // start of the inward pass
    QCOMPARE(lecture()->position(), w->document()->model().N + 1);
  }

  // A pose or time signal re-runs the algorithm only when the input changed, and keeps the step.
  void retracesOnlyOnAChangedInput() {
    openInspector("rnea");
    key(Qt::Key_Right);
    key(Qt::Key_Right);
    int traces = 0;
    const auto counter = connect(lecture(), &LectureDocument::traceChanged, this, [&] { ++traces; });
    emit w->document()->poseChanged();  // the same pose (as a slider released where it was)
    QTest::qWait(100);
    QCOMPARE(traces, 0);
    Eigen::VectorXd q = w->document()->q();
    const Eigen::MatrixXd before = lecture()->trace().result;
    q[1] += 0.2;
    QVERIFY(w->document()->setQ(q));
    QTRY_COMPARE(traces, 1);
    QCOMPARE(lecture()->position(), 2);
    QVERIFY(lecture()->trace().input.q == q);
    QVERIFY(lecture()->trace().result != before);
    disconnect(counter);
    q[1] -= 0.2;
    QVERIFY(w->document()->setQ(q));
    QTRY_VERIFY(lecture()->trace().input.q == q);
  }

  // P plays from the start to the end at the chosen pace, then stops; P again pauses.
  void playWalksToTheEnd() {
    openInspector("rnea");
    lecture()->setPaceMs(50);
    key(Qt::Key_P);
    QVERIFY(lecture()->isPlaying());
    QVERIFY(dock()->playAction()->isChecked());
    QTRY_COMPARE_WITH_TIMEOUT(lecture()->position(), lecture()->stepCount(), 5000);
    QTRY_VERIFY(!lecture()->isPlaying());
    QVERIFY(!dock()->playAction()->isChecked());
    key(Qt::Key_P);  // from the start again
    QVERIFY(lecture()->isPlaying());
    QTRY_VERIFY(lecture()->position() >= 1 && lecture()->position() < lecture()->stepCount());
    key(Qt::Key_P);
    QVERIFY(!lecture()->isPlaying());
    const int stopped = lecture()->position();
    QTest::qWait(150);
    QCOMPARE(lecture()->position(), stopped);
    lecture()->setPaceMs(1200);
  }

  // The arrows: the current body's opaque, earlier ones lighter, unreached ones absent; the
  // screenshot shows them in their colours; the pass arrow points from parent to child outward.
  void arrowsInTheViewport() {
    openInspector("rnea");
    lecture()->setInputSource(LectureDocument::InputSource::Entered);
    const dyn::Model& m = w->document()->model();
    lecture()->setEntered(Eigen::VectorXd::Constant(m.nv, 1.0), Eigen::VectorXd::Constant(m.nv, 1.0),
                          Eigen::VectorXd::Zero(m.nv));
    lecture()->retraceNow();
    key(Qt::Key_Right);
    key(Qt::Key_Right);
    key(Qt::Key_Right);
    TraceArrowOverlay* o = w->arrowOverlay();
    QVERIFY(o->actorFor(3, dyn::ArrowKind::Force));
    QVERIFY(!o->actorFor(4, dyn::ArrowKind::Force));  // not reached
    QCOMPARE(o->actorFor(3, dyn::ArrowKind::Force)->GetProperty()->GetOpacity(), 1.0);
    QCOMPARE(o->actorFor(2, dyn::ArrowKind::Force)->GetProperty()->GetOpacity(), TraceArrowOverlay::kLighterOpacity);
    QVERIFY(o->passArrow()->GetVisibility());
    const ReadArrow pass = readArrow(o->passArrow());
    const dyn::Data& d = w->document()->data();
    const Vector3d from = dyn::arrowPoint(m, d, 2, dyn::ArrowPoint::CenterOfMass);
    const Vector3d to = dyn::arrowPoint(m, d, 3, dyn::ArrowPoint::CenterOfMass);
    QVERIFY((pass.origin - from).norm() < 1e-9);
    QVERIFY(std::abs(pass.length - (to - from).norm()) < 1e-9);
    QVERIFY(QString::fromStdString(o->legendText()).contains("1 m/s = "));
    // Inward: from the body to its parent.
    key(Qt::Key_Right, Qt::ShiftModifier);  // the end of the outward pass
    key(Qt::Key_Right);                     // the first inward step: the last body
    QCOMPARE(lecture()->currentPass()->direction, dyn::TracePass::Direction::Inward);
    QCOMPARE(w->document()->selectedBody(), m.N);
    QVERIFY(o->passArrow()->GetVisibility());
    const ReadArrow inward = readArrow(o->passArrow());
    const Vector3d child = dyn::arrowPoint(m, d, m.N, dyn::ArrowPoint::CenterOfMass);
    const Vector3d parent = dyn::arrowPoint(m, d, m.parent[m.N], dyn::ArrowPoint::CenterOfMass);
    QVERIFY((inward.origin - child).norm() < 1e-9);
    QVERIFY(inward.axis.dot((parent - child).normalized()) > 1 - 1e-9);
    QVERIFY(std::abs(inward.length - (parent - child).norm()) < 1e-9);
    lecture()->setPosition(3);
    const QImage img = w->viewport()->grabImage(960, 600);
    grab(img, "lecture_rnea_ur5_step3.png");
    QVERIFY2(pixelsNear(img, TraceArrowOverlay::colour(dyn::ArrowKind::Force)) > 30, "no red force arrow");
    QVERIFY2(pixelsNear(img, TraceArrowOverlay::colour(dyn::ArrowKind::Velocity)) > 30, "no blue velocity arrow");
    // Hidden: none of them in the picture.
    lecture()->setArrowSettings([&] {
      auto s = lecture()->arrowSettings();
      s.show = false;
      return s;
    }());
    QCOMPARE(o->visibleArrowCount(), 0);
    const QImage none = w->viewport()->grabImage(960, 600);
    QVERIFY(pixelsNear(none, TraceArrowOverlay::colour(dyn::ArrowKind::Force)) <
            pixelsNear(img, TraceArrowOverlay::colour(dyn::ArrowKind::Force)) / 4);
    lecture()->setArrowSettings([&] {
      auto s = lecture()->arrowSettings();
      s.show = true;
      return s;
    }());
  }

  void crbaFillsTheMassMatrix_data() {
    QTest::addColumn<QString>("algorithm");
    QTest::newRow("crba") << "crba";
    QTest::newRow("denoc-gim") << "denoc-gim";  // Saha's GIM fills the same H (his I)
  }
  void crbaFillsTheMassMatrix() {
    QFETCH(QString, algorithm);
    openInspector(algorithm);
    MassMatrixDock* mass = w->massMatrixDock();
    mass->raise();
    QTRY_VERIFY(mass->isVisible());
    mass->recomputeNow();
    QTRY_VERIFY(mass->showsLectureFill());
    const auto pending = [&] {
      int n = 0;
      for (CellKind k : mass->heatMap()->content().kinds) n += k == CellKind::Pending;
      return n;
    };
    const int nv = w->document()->model().nv;
    QCOMPARE(pending(), nv * nv);  // the UR5 is a chain: every entry structurally non-zero
    int last = pending();
    for (int k = 0; k < lecture()->stepCount(); ++k) {
      key(Qt::Key_Right);
      const int now = pending();
      const dyn::StepKind kind = lecture()->currentStep()->kind;
      const bool column = kind == dyn::StepKind::CrbaColumn || kind == dyn::StepKind::DenocGimColumn;
      QVERIFY2(column ? now < last : now == last, "a column walk fills entries, a composite step none");
      last = now;
      if (k == 3) grabWindow("lecture_" + algorithm + "_ur5_filling.png");
    }
    QCOMPARE(pending(), 0);
    // Complete: the values of CRBA.
    dyn::Data data(w->document()->model());
    const Eigen::MatrixXd H = dyn::crba(w->document()->model(), data, w->document()->q());
    QVERIFY((mass->heatMap()->content().values - H).cwiseAbs().maxCoeff() < (algorithm == "crba" ? 1e-300 : 1e-12));
    w->jointsDock()->raise();
  }

  void abaOnATree() {
    open(robot("quadruped.urdf"));
    openInspector("aba");
    const dyn::Model& m = w->document()->model();
    // Moving: the bias forces pA = v x* I v are not zero (at rest they are, and have no arrow).
    lecture()->setInputSource(LectureDocument::InputSource::Entered);
    lecture()->setEntered(Eigen::VectorXd::Constant(m.nv, 1.5), Eigen::VectorXd::Zero(m.nv),
                          Eigen::VectorXd::Constant(m.nv, 2.0));
    lecture()->retraceNow();
    lecture()->toStart();
    QCOMPARE(lecture()->stepCount(), 3 * m.N);
    key(Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(lecture()->position(), m.N);
    QVERIFY(dock()->equationHtml().contains("Part 2, eq. 9 (Fig. 9)"));  // v_i, link coordinates
    key(Qt::Key_Right);                                                  // pass 2, the last body first
    QCOMPARE(w->document()->selectedBody(), m.N);
    QVERIFY(dock()->equationHtml().contains("eq. 62"));
    QVERIFY(w->arrowOverlay()->actorFor(m.N, dyn::ArrowKind::BiasForce));
    key(Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(lecture()->position(), 2 * m.N);
    QCOMPARE(w->document()->selectedBody(), 1);
    grabWindow("lecture_aba_quadruped_pass2.png");
    key(Qt::Key_End);
    QCOMPARE(lecture()->position(), 3 * m.N);
    QVERIFY(dock()->equationHtml().contains("eq. 68"));
    // The result: ABA's q̈ bit for bit.
    dyn::Data data(lecture()->model());
    const dyn::TraceInput in = lecture()->currentInput();
    const Eigen::VectorXd& qdd = dyn::aba(lecture()->model(), data, in.q, in.qd, in.tau);
    QVERIFY(Eigen::MatrixXd(qdd) == lecture()->trace().result);
    grab(w->viewport()->grabImage(), "lecture_aba_quadruped_end.png");
  }

  // A swinging pendulum: after the outward step, the velocity arrow read back from its actor
  // starts at the COM, is perpendicular to the rod and |v| * scale long; the force arrow points
  // along m a - m g with the stated length.
  void pendulumArrowsReadBackFromTheScene() {
    const dyn::testing::Pendulum P;
    const QString path = tmp.filePath("pendulum.urdf");
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray::fromStdString(P.urdf()));
    }
    open(path);
    const double q = 0.7, qd = 1.3, qdd = -0.4;
    QVERIFY(w->document()->setQ(dyn::testing::vec({q})));
    openInspector("rnea");
    lecture()->setInputSource(LectureDocument::InputSource::Entered);
    lecture()->setEntered(dyn::testing::vec({qd}), dyn::testing::vec({qdd}), dyn::testing::vec({0.0}));
    lecture()->retraceNow();
    key(Qt::Key_Right);
    TraceArrowOverlay* o = w->arrowOverlay();
    vtkActor* vActor = o->actorFor(1, dyn::ArrowKind::Velocity);
    vtkActor* fActor = o->actorFor(1, dyn::ArrowKind::Force);
    QVERIFY(vActor && fActor);
    const ReadArrow v = readArrow(vActor), f = readArrow(fActor);
    QVERIFY((v.origin - P.com(q)).norm() < 1e-9);
    QVERIFY(std::abs(v.axis.dot(P.com(q).normalized())) < 1e-9);  // perpendicular to the rod
    QVERIFY(v.axis.dot(P.velocity(q, qd).normalized()) > 1 - 1e-9);
    QVERIFY(std::abs(v.length - P.velocity(q, qd).norm() * o->scale(dyn::ArrowKind::Velocity)) < 1e-9);
    const Vector3d force = P.force(q, qd, qdd);
    QVERIFY(f.axis.dot(force.normalized()) > 1 - 1e-9);
    QVERIFY(std::abs(f.length - force.norm() * o->scale(dyn::ArrowKind::Force)) < 1e-9);
    // The legend states those scales.
    const QString legend = QString::fromStdString(o->legendText());
    QVERIFY2(legend.contains(QString("1 m/s = %1 m").arg(o->scale(dyn::ArrowKind::Velocity))), qPrintable(legend));
    QVERIFY2(legend.contains(QString("1 N = %1 m").arg(o->scale(dyn::ArrowKind::Force))), qPrintable(legend));
    // The size factor doubles every arrow and the stated scale with it.
    auto s = lecture()->arrowSettings();
    const double scale = o->scale(dyn::ArrowKind::Velocity);
    s.size = 2;
    lecture()->setArrowSettings(s);
    QVERIFY(std::abs(o->scale(dyn::ArrowKind::Velocity) - 2 * scale) < 1e-12);
    QVERIFY(std::abs(readArrow(o->actorFor(1, dyn::ArrowKind::Velocity)).length - 2 * v.length) < 1e-9);
    s.size = 1;
    lecture()->setArrowSettings(s);
    grab(w->viewport()->grabImage(), "lecture_pendulum.png");
  }

  // F11 (the key, as the lecturer presses it): full screen at the suites' 1920 x 1080, the inspector
  // about half of it, and every text of the equation panel at 24 pt or more.
  void presentationModeByF11() {
    open(robot("ur5.urdf"));
    openInspector("rnea");
    key(Qt::Key_Right);
    key(Qt::Key_F11);
    QTRY_VERIFY(dock()->presentationMode());
    QTest::qWait(400);
    QCOMPARE(w->geometry().size(), w->screen()->geometry().size());
    QCOMPARE(w->screen()->geometry().size(), QSize(1920, 1080));  // xvfb-run -s "-screen 0 1920x1080x24"
    QVERIFY2(dock()->width() >= 1920 * 40 / 100, qPrintable(QString::number(dock()->width())));
    const QString html = dock()->equationHtml();
    QVERIFY(html.contains("font-size:30.0pt") && html.contains("font-size:24.0pt"));
    const QRegularExpression size("font-size:([0-9.]+)pt");
    int texts = 0;
    for (auto m = size.globalMatch(html); m.hasNext();) {
      const double pt = m.next().captured(1).toDouble();
      QVERIFY2(pt >= 24, qPrintable(QString("%1 pt in presentation mode").arg(pt)));
      ++texts;
    }
    QVERIFY(texts >= 6);
    // As typeset: every formula and every number at 24 pt (32 CSS px) or more, every number on one
    // line (a wrapped one would be two lines high), and KaTeX refused none.
    QCOMPARE(dock()->refusedFormulas(), 0);
    const double smallest = evaluate(
                                "Math.min.apply(null, Array.from(document.querySelectorAll('.katex, table.m td'))"
                                ".map(e => parseFloat(getComputedStyle(e).fontSize)))")
                                .toDouble();
    QVERIFY2(smallest >= 32, qPrintable(QString("%1 px").arg(smallest)));
    QVERIFY(evaluate("document.querySelectorAll('.eq .katex').length").toInt() >= 3);
    const int wrapped = evaluate(
                            "Array.from(document.querySelectorAll('table.m td'))"
                            ".filter(e => e.getClientRects().length > 0 && e.getClientRects()[0].height > 1.8 * "
                            "parseFloat(getComputedStyle(e).fontSize))"
                            ".length")
                            .toInt();
    QCOMPARE(wrapped, 0);
    QVERIFY2(dock()->equationPanel()->height() >= 250, "the equations have room");
    // ... and so does the robot with its arrows: the bottom tabs (plots, log, the Algorithms dock
    // behind them) must not squeeze the 3D view to a strip.
    auto* view = w->findChild<QOpenGLWidget*>();
    QVERIFY(view);
    QVERIFY2(view->height() >= 1080 * 40 / 100, qPrintable(QString("3D view %1 px high").arg(view->height())));
    // The arrow legend is larger, but its lines take at most a third of that view.
    const TraceArrowOverlay* o = w->arrowOverlay();
    QVERIFY(o->legendLines() >= 2);
    QVERIFY2(o->legendFontSize() > 14 && o->legendFontSize() * 1.45 * o->legendLines() <= view->height() / 3.0 + 1,
             qPrintable(QString("%1 lines of %2 px in a %3 px view")
                            .arg(o->legendLines())
                            .arg(o->legendFontSize())
                            .arg(view->height())));
    grabWindow("lecture_presentation.png");
    key(Qt::Key_F11);
    QTRY_VERIFY(!dock()->presentationMode());
    QTest::qWait(300);
  }

  // Presenting, a step is whole on screen (issue 37): on a robot of many joints (the humanoid) the
  // start's q, q̇, q̈ wrap as matrices of 8 columns, and each step of RNEA fits the panel, zoomed no
  // further than 0.6, with the substitutions' numbers, the values the step wrote, or (the longest steps)
  // the equations alone beside the table's highlighted row; no equation breaks inside.
  void presentingShowsTheWholeStep() {
    open(robot("humanoid.urdf"));
    openInspector("rnea");
    const dyn::Model& m = w->document()->model();
    QVERIFY2(m.nv > 8, qPrintable(QString::number(m.nv)));
    lecture()->setInputSource(LectureDocument::InputSource::Entered);
    lecture()->setEntered(Eigen::VectorXd::LinSpaced(m.nv, -1, 1), Eigen::VectorXd::LinSpaced(m.nv, 2, -1),
                          Eigen::VectorXd::LinSpaced(m.nv, 0.5, -0.5));
    lecture()->retraceNow();
    key(Qt::Key_F11);
    QTRY_VERIFY(dock()->presentationMode());
    QTest::qWait(500);
    const auto whole = [&](int position) {
      lecture()->setPosition(position);
      QTRY_VERIFY(dock()->equationsRendered());
      QTest::qWait(300);  // the fonts, then dynFit again
      const QString where = QString("step %1").arg(position);
      QVERIFY2(evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1 && "
                        "document.documentElement.scrollWidth <= window.innerWidth + 1")
                   .toBool(),
               qPrintable(where + ": the step scrolls"));
      const double zoom = evaluate("parseFloat(document.getElementById('dyn-body').style.zoom || '1')").toDouble();
      QVERIFY2(zoom >= 0.6, qPrintable(where + QString(": zoomed to %1").arg(zoom)));
      // Each formula of an equation on one line: a part never breaks inside.
      QCOMPARE(evaluate("Array.from(document.querySelectorAll('.eq .tex')).filter(e => e.getClientRects().length > 1)"
                        ".length")
                   .toInt(),
               0);
    };
    whole(0);
    // q (the robot's pose: 0 everywhere, one line), q̇ and q̈ as matrices.
    QCOMPARE(evaluate("document.querySelectorAll('table.inputs tr').length").toInt(), 3);
    QCOMPARE(evaluate("document.querySelectorAll('.vg').length").toInt(), 2);
    for (int position = 1; position <= 4; ++position) whole(position);
    grabWindow("lecture_presentation_humanoid_step3.png");
    key(Qt::Key_F11);
    QTRY_VERIFY(!dock()->presentationMode());
    QTest::qWait(300);
    lecture()->setInputSource(LectureDocument::InputSource::RobotAndTrajectory);
  }

  void handout() {
    open(robot("ur5.urdf"));  // whatever the suite's earlier functions left open (the humanoid: 130 pictures)
    openInspector("rnea");
    const dyn::Model& m = w->document()->model();
    lecture()->setInputSource(LectureDocument::InputSource::Entered);
    lecture()->setEntered(Eigen::VectorXd::Constant(m.nv, 1.0), Eigen::VectorXd::Constant(m.nv, 1.0),
                          Eigen::VectorXd::Zero(m.nv));
    lecture()->retraceNow();
    lecture()->toStart();
    const QString html = tmp.filePath("handout.html");
    QVERIFY(w->exportHandout(html, QSize(480, 300)));
    QFile f(html);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString page = QString::fromUtf8(f.readAll());
    const int n = lecture()->stepCount();
    QCOMPARE(page.count("<section"), n + 1);
    QCOMPARE(page.count("src=\"data:image/png;base64,"), n + 1);
    QVERIFY(page.contains("eq. 10") && page.contains("Operations so far"));
    QCOMPARE(lecture()->position(), 0);  // the inspector is where it was
    // The pictures show the arrows: none at the start, the velocity (blue) and force (red) arrows of
    // the bodies reached after the outward pass.
    const auto picture = [&](int k) {
      int at = -1;
      for (int n = 0; n <= k; ++n) at = page.indexOf("src=\"data:image/png;base64,", at + 1);
      const int from = at + int(qstrlen("src=\"data:image/png;base64,"));
      return QImage::fromData(QByteArray::fromBase64(page.mid(from, page.indexOf('"', from) - from).toLatin1()));
    };
    const QImage start = picture(0), outward = picture(m.N);
    QVERIFY(!start.isNull() && !outward.isNull());
    grab(outward, "lecture_handout_picture.png");
    for (dyn::ArrowKind k : {dyn::ArrowKind::Velocity, dyn::ArrowKind::Force}) {
      const int before = pixelsNear(start, TraceArrowOverlay::colour(k)),
                after = pixelsNear(outward, TraceArrowOverlay::colour(k));
      QVERIFY2(after > 30 && after > 4 * before,
               qPrintable(QString("%1: %2 pixels, %3 at the start").arg(dyn::arrowName(k)).arg(after).arg(before)));
    }
    const QString pdf = tmp.filePath("handout.pdf");
    QVERIFY(w->exportHandout(pdf, QSize(320, 200)));
    QFile p(pdf);
    QVERIFY(p.open(QIODevice::ReadOnly));
    QVERIFY(p.read(5) == "%PDF-");
    QVERIFY(p.size() > 20000);
    const QString keep = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (!keep.isEmpty()) {
      QFile::remove(QDir(keep).filePath("lecture_handout.html"));
      QFile::copy(html, QDir(keep).filePath("lecture_handout.html"));
      QFile::remove(QDir(keep).filePath("lecture_handout.pdf"));
      QFile::copy(pdf, QDir(keep).filePath("lecture_handout.pdf"));
    }
  }

  // Every formulation of the engine steps, on the Stanford arm (revolute and prismatic joints): the
  // combo box and the menu list it, the keys walk it, the equations name its seed with the numbers,
  // the table shows its quantities, and the result at the end is the plain function's bit for bit.
  void everyFormulationSteps() {
    open(robot("stanford_arm.dh"));
    openInspector("rnea");
    const dyn::Model& m = w->document()->model();
    lecture()->setInputSource(LectureDocument::InputSource::Entered);
    lecture()->setEntered(Eigen::VectorXd::LinSpaced(m.nv, -1, 1), Eigen::VectorXd::LinSpaced(m.nv, 2, -1),
                          Eigen::VectorXd::LinSpaced(m.nv, 5, -3));
    auto* combo = dock()->findChild<QComboBox*>("lectureAlgorithm");
    QVERIFY(combo);
    KatexView everyStep("every step", "everyStep");
    everyStep.resize(900, 700);
    everyStep.QWidget::show();
    for (const dyn::TraceableAlgorithm& a : dyn::traceableAlgorithms()) {
      const QString name = QString::fromUtf8(a.name);
      QVERIFY2(w->findChild<QAction*>("lectureAlgorithm_" + name), a.name);
      QVERIFY2(combo->findData(name) >= 0, a.name);
      combo->setCurrentIndex(combo->findData(name));  // as the lecturer picks it
      QCOMPARE(lecture()->algorithm(), name);
      QVERIFY2(lecture()->hasTrace(), qPrintable(lecture()->error()));
      lecture()->toStart();
      key(Qt::Key_Right);
      QCOMPARE(lecture()->position(), 1);
      QVERIFY(dock()->forwardAction()->isEnabled());
      const QString seed = name.startsWith("denoc")                                        ? "Saha 1999"
                           : std::string(a.source).find("Hollerbach") != std::string::npos ? "Hollerbach 1980"
                                                                                           : "Featherstone";
      QVERIFY2(dock()->equationHtml().contains(seed), a.name);
      QVERIFY2(dock()->tableModel()->columnCount() > 0, a.name);
      QVERIFY(w->document()->selectedBody() == lecture()->currentBody() || lecture()->currentBody() == 0);
      if (name == "denoc-id" || name == "lagrange-4x4" || name == "lagrange-3x3" || name == "denoc-fd") {
        lecture()->setPosition(3);
        grabWindow("lecture_" + name + "_stanford_step3.png");
        key(Qt::Key_Right, Qt::ShiftModifier);
        key(Qt::Key_Right);  // into the next pass
        grabWindow("lecture_" + name + "_stanford_next_pass.png");
      }
      // Every step typesets: KaTeX refuses none of its formulas. The steps' bodies as the panel shows
      // them, in one page (one typesetting per formulation instead of one per step: 40 s less).
      QString steps;
      for (int p = 0; p <= lecture()->stepCount(); ++p) {
        const QString body =
            lecture_html::stepBody(lecture()->model(), lecture()->trace(), p, lecture_html::Style::normal());
        steps += "<section>" + body + "</section>";
        // A possessive ("eq. 56's denominator", "joint i's axis") is not typeset as a prime: outside
        // \text{…} no formula holds "'s".
        static const QRegularExpression span("<span class=\"tex\">([^<]*)</span>"), text("\\\\text\\{[^}]*\\}");
        for (auto m = span.globalMatch(body); m.hasNext();) {
          const QString math = m.next().captured(1).remove(text);
          QVERIFY2(!math.contains("'s"), qPrintable(QString("%1, step %2: %3").arg(name).arg(p).arg(math)));
        }
      }
      everyStep.show(steps, lecture_html::css(lecture_html::Style::normal()), false);
      QTRY_VERIFY_WITH_TIMEOUT(everyStep.isRendered(), 60000);
      QVERIFY2(everyStep.refusedFormulas() == 0,
               qPrintable(QString("%1: %2 formulas refused").arg(name).arg(everyStep.refusedFormulas())));
      key(Qt::Key_End);
      QCOMPARE(lecture()->position(), lecture()->stepCount());
      // The plain function, bound by the registry (its own copy of the model and workspace).
      const dyn::Formulation& f = dyn::formulation(a.problem, a.formulation);
      const dyn::BoundFormulation<double> plain = f.bind(lecture()->model());
      const dyn::TraceInput in = lecture()->currentInput();
      const Eigen::MatrixXd result =
          a.problem == dyn::Problem::InverseDynamics ? Eigen::MatrixXd(plain.inverseDynamics(in.q, in.qd, in.qdd))
          : a.problem == dyn::Problem::MassMatrix    ? Eigen::MatrixXd(plain.massMatrix(in.q))
                                                     : Eigen::MatrixXd(plain.forwardDynamics(in.q, in.qd, in.tau));
      QVERIFY2(result == lecture()->trace().result, a.name);
      QVERIFY2(dock()->equationHtml().contains("Result"), a.name);
      // Beside the engine's default for the same problem: they agree.
      if (std::string(a.formulation) != dyn::formulationNames(a.problem).front()) {
        QVERIFY2(lecture()->referenceResult().size() == result.size(), a.name);
        QVERIFY((lecture()->referenceResult() - result).cwiseAbs().maxCoeff() <
                1e-8 * (1 + result.cwiseAbs().maxCoeff()));
        QVERIFY2(dock()->equationHtml().contains("largest difference"), a.name);
      } else {
        QCOMPARE(lecture()->referenceResult().size(), Eigen::Index(0));
      }
    }
    lecture()->setAlgorithm("rnea");
    open(robot("ur5.urdf"));
  }

  // DeNOC's twist step on the Stanford arm typeset as in Saha 1999: θ̇ and θ̈ as TeX accents (the
  // typesetter's input and KaTeX's output), the joint rate's value labelled θ̇_4, no number wrapped,
  // in both modes at 1920 x 1080 (screenshots with DYNSCOPE_GRAB_DIR).
  void denocTypesetAsInThePaper() {
    open(robot("stanford_arm.dh"));
    openInspector("denoc-id");
    const dyn::Model& m = w->document()->model();
    lecture()->setInputSource(LectureDocument::InputSource::Entered);
    lecture()->setEntered(Eigen::VectorXd::LinSpaced(m.nv, -1, 1), Eigen::VectorXd::LinSpaced(m.nv, 2, -1),
                          Eigen::VectorXd::Zero(m.nv));
    lecture()->retraceNow();
    w->resize(1920, 1080);
    lecture()->setPosition(4);
    const QString html = dock()->equationHtml();
    QVERIFY(html.contains("\\mathbf{p}_{i} \\dot{\\theta}_{i}"));
    QVERIFY(html.contains("\\mathbf{p}_{i} \\ddot{\\theta}_{i}"));
    QVERIFY(html.contains("\\dot{\\mathbf{p}}_{i} \\dot{\\theta}_{i}"));
    const auto check = [&](const char* shot) {
      const QStringList captions =
          evaluate("Array.from(document.querySelectorAll('.cap annotation')).map(e => e.textContent)").toStringList();
      QVERIFY2(captions.contains("\\dot{\\theta}_{4}"), qPrintable(captions.join(" | ")));
      QVERIFY2(captions.contains("\\ddot{\\theta}_{4}"), qPrintable(captions.join(" | ")));
      QCOMPARE(dock()->refusedFormulas(), 0);
      // KaTeX set the dots as accents above their letters (θ̇, θ̈, ṫ, ṗ, Ḃ in the equations).
      QVERIFY(evaluate("document.querySelectorAll('.eq .accent').length").toInt() >= 5);
      QCOMPARE(evaluate("Array.from(document.querySelectorAll('table.m td'))"
                        ".filter(e => e.getClientRects().length > 0 && e.getClientRects()[0].height > 1.8 * "
                        "parseFloat(getComputedStyle(e).fontSize))"
                        ".length")
                   .toInt(),
               0);
      QTest::qWait(300);  // painted
      grab(w->grab().toImage(), shot);
    };
    check("lecture_denoc_stanford_step4.png");
    key(Qt::Key_F11);
    QTRY_VERIFY(dock()->presentationMode());
    QTest::qWait(500);
    check("lecture_denoc_stanford_step4_presentation.png");
    key(Qt::Key_F11);
    QTRY_VERIFY(!dock()->presentationMode());
    QTest::qWait(300);
    w->resize(1600, 1000);
    lecture()->setAlgorithm("rnea");
    open(robot("ur5.urdf"));
  }

  // Lecture mode selects the body of each step; the user's own selection comes back at the start
  // (Home) and when lecture mode ends.
  void lectureModeGivesTheSelectionBack() {
    if (dock()->isVisible()) dock()->close();
    QTRY_VERIFY(!lecture()->isActive());
    ModelTreeDock* tree = w->modelTreeDock();
    tree->tree()->setCurrentItem(tree->itemForBody(3));  // the user picks body 3 in the model tree
    QCOMPARE(w->document()->selectedBody(), 3);
    openInspector("rnea");
    QCOMPARE(w->document()->selectedBody(), 3);  // nothing processed yet
    key(Qt::Key_Right);
    QCOMPARE(w->document()->selectedBody(), 1);
    key(Qt::Key_Home);
    QCOMPARE(w->document()->selectedBody(), 3);
    key(Qt::Key_Right);
    key(Qt::Key_Right);
    QCOMPARE(w->document()->selectedBody(), 2);
    dock()->close();
    QTRY_VERIFY(!lecture()->isActive());
    QCOMPARE(w->document()->selectedBody(), 3);
    QCOMPARE(tree->tree()->currentItem(), tree->itemForBody(3));
  }

  void closingTheInspectorEndsLectureMode() {
    openInspector("rnea");
    key(Qt::Key_Right);
    QVERIFY(w->arrowOverlay()->visibleArrowCount() > 0);
    dock()->close();
    QTRY_VERIFY(!lecture()->isActive());
    QCOMPARE(w->arrowOverlay()->visibleArrowCount(), 0);
    QVERIFY(!w->massMatrixDock()->showsLectureFill());
  }

  // A test that failed while presenting leaves the window as the next one expects it.
  void cleanup() {
    if (w && w->presentationMode()) w->setPresentationMode(false);
  }
  void cleanupTestCase() { w.reset(); }
};

QTEST_MAIN(TestLectureMode)
#include "test_lecture_mode.moc"
