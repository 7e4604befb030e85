// Editing a robot's parameters in the window (issue 24): the Properties dock's editor on the UR5.
// Typing a link's mass changes τ along the trajectory by what an independent RNEA on a model with
// that mass (the description changed by hand, built afresh) gives; the typing is one undo step and
// Undo restores the previous τ bit for bit; a refused value (a negative mass, lower above upper) is
// refused in its box with the reason and leaves the robot as it was; the edits mark the work unsaved
// and come back with the project. Screenshots go to $DYNSCOPE_SCREENSHOT_DIR when set.
#include <vtkCamera.h>
#include <vtkMapper.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QWheelEvent>
#include <array>
#include <memory>

#include "document/robot_document.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/io/model_builder.hpp"
#include "scene/robot_scene.hpp"
#include "session/workbench_session.hpp"
#include "trajectory/trajectory_document.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/joint_row.hpp"
#include "window/joints_dock.hpp"
#include "window/main_window.hpp"
#include "window/properties_dock.hpp"
#include "window/robot_parameters_editor.hpp"
#include "window_loading.hpp"

class TestRobotEditing : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;
  QString m_shots;

  RobotDocument* doc() const { return m_window->document(); }
  RobotParametersEditor* editor() const { return m_window->propertiesDock()->editor(); }
  // τ along the window's trajectory, recomputed now.
  Eigen::MatrixXd trajectoryTau() const {
    m_window->trajectory()->recomputeNow();
    return m_window->trajectory()->dynamics().tau;
  }
  static void typeInto(QDoubleSpinBox* box, const QString& text) {
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_shots = dyn::testing::screenshotDirectory(m_tmp);
    m_window = dyn::testing::strictWindow();
    QVERIFY(dyn::testing::showWithRobot(*m_window, QSize(1600, 1000), "ur5.urdf"));
    m_window->propertiesDock()->show();
    m_window->propertiesDock()->raise();
    m_window->propertiesDock()->tabs()->setCurrentIndex(1);  // the editor's page
  }
  void cleanupTestCase() { m_window.reset(); }

  void typingAMassChangesTauAsAnIndependentRneaSays() {
    // Values, not a reference: every edit (and its undo) replaces the document's model.
    const int forearm = doc()->model().bodyIndex("forearm_link");
    const double forearmMass = doc()->model().I[size_t(forearm)].m;
    Eigen::VectorXd q1 = doc()->q(), q2 = q1;
    q2.setConstant(0.8);
    m_window->trajectory()->setWaypoints({{0.0, q1}, {1.0, q2}});
    const Eigen::MatrixXd before = trajectoryTau();
    QVERIFY(before.cols() > 50);
    doc()->setSelectedBody(forearm);
    QVERIFY(!editor()->boxes(dyn::EditField::Mass).empty());
    QDoubleSpinBox* mass = editor()->boxes(dyn::EditField::Mass)[0];
    const int steps = m_window->undoStack()->count();
    typeInto(mass, "5.5");
    QCOMPARE(m_window->undoStack()->count(), steps + 1);  // "5", "5.", "5.5": one step
    QCOMPARE(int(doc()->edits().size()), 1);
    QVERIFY(m_window->isWindowModified());
    const Eigen::MatrixXd after = trajectoryTau();
    // The reference: the file's description with the mass changed by hand, built and run afresh.
    dyn::RobotDescription d = dyn::loadDescription(doc()->sourceFile().toStdString());
    for (dyn::LinkDesc& l : d.links)
      if (l.name == "forearm_link") l.inertial->mass = 5.5;
    const dyn::Model edited = dyn::buildModel(d);
    dyn::Data data(edited);
    const dyn::SampledTrajectory& s = m_window->trajectory()->samples();
    double worst = 0;
    for (int k = 0; k < s.samples(); ++k)
      worst = std::max(
          worst, (after.col(k) - dyn::rnea(edited, data, s.q.col(k), s.qd.col(k), s.qdd.col(k))).cwiseAbs().maxCoeff());
    QVERIFY2(worst < 1e-9, qPrintable(QString::number(worst)));
    QVERIFY((after - before).cwiseAbs().maxCoeff() > 1e-2);  // the mass mattered
    dyn::testing::settle(100);
    m_window->grab().save(QDir(m_shots).filePath("ur5_edit_mass.png"));
    // Undo: the previous τ, bit for bit; Redo: the edited one.
    m_window->undoStack()->undo();
    QVERIFY(doc()->edits().empty());
    QCOMPARE(trajectoryTau(), before);
    QVERIFY(!m_window->isWindowModified());
    QVERIFY(std::abs(editor()->boxes(dyn::EditField::Mass)[0]->value() - forearmMass) < 1e-12);
    m_window->undoStack()->redo();
    QCOMPARE(trajectoryTau(), after);
  }

  // An edit of numbers keeps the scene's actors and the joints dock's rows (no rebuild per keystroke:
  // a 1,000-body robot would stall, tests/gui/test_big_model.cpp); the inertia solids it updates in
  // place equal those of a scene built afresh for the edited robot. A body that loses its mass has
  // its solid removed (the scene is built again).
  void anEditOfNumbersUpdatesTheSceneInPlace() {
    RobotScene* scene = m_window->scene();
    scene->setShowInertiaBoxes(true);
    const QList<vtkActor*> geometry = scene->geometryActors();
    const std::vector<JointRow*> rows = m_window->jointsDock()->rows();
    const int solids = scene->inertiaActors().size();
    QDoubleSpinBox* mass = editor()->boxes(dyn::EditField::Mass)[0];
    typeInto(mass, "9.25");
    QCOMPARE(doc()->model().I[size_t(doc()->selectedBody())].m, 9.25);
    QCOMPARE(scene->geometryActors(), geometry);
    QCOMPARE(m_window->jointsDock()->rows(), rows);
    QCOMPARE(scene->inertiaActors().size(), solids);
    const auto sameSolids = [&] {
      vtkNew<vtkRenderer> renderer;
      RobotScene fresh(renderer);
      fresh.setModel(doc()->model(), doc()->sourceFile());
      fresh.updatePose(doc()->model(), doc()->data());
      const QList<vtkActor*> a = scene->inertiaActors(), b = fresh.inertiaActors();
      if (a.size() != b.size()) return false;
      for (int k = 0; k < a.size(); ++k) {
        double ba[6], bb[6];
        a[k]->GetMapper()->GetInput()->GetBounds(ba);
        b[k]->GetMapper()->GetInput()->GetBounds(bb);
        for (int j = 0; j < 6; ++j)
          if (std::abs(ba[j] - bb[j]) > 1e-12) return false;
        for (int r = 0; r < 4; ++r)
          for (int c = 0; c < 4; ++c)
            if (std::abs(a[k]->GetUserMatrix()->GetElement(r, c) - b[k]->GetUserMatrix()->GetElement(r, c)) > 1e-12)
              return false;
      }
      return true;
    };
    QVERIFY(sameSolids());
    typeInto(mass, "0");  // massless: no solid
    QCOMPARE(scene->inertiaActors().size(), solids - 1);
    QVERIFY(sameSolids());
    m_window->undoStack()->undo();  // a mass again
    QCOMPARE(scene->inertiaActors().size(), solids);
    QVERIFY(sameSolids());
    scene->setShowInertiaBoxes(false);
  }

  // Presenting on the laptop (1366x768, F11): the editor's boxes whole, every number in them
  // readable (a box narrower than its text would cut it); screenshot looked at.
  void editorReadableWhenPresenting() {
    const auto leave = qScopeGuard([this] {
      m_window->setPresentationMode(false);
      m_window->resize(1600, 1000);
    });
    m_window->presentOnScreenOfSize(QSize(1366, 768));
    m_window->propertiesDock()->show();
    m_window->propertiesDock()->raise();
    m_window->propertiesDock()->tabs()->setCurrentIndex(1);
    dyn::testing::settle(600);
    m_window->grab().save(QDir(m_shots).filePath("ur5_edit_1366_F11.png"));
    QDoubleSpinBox* mass = editor()->boxes(dyn::EditField::Mass)[0];
    QVERIFY(mass->isVisible() && !mass->visibleRegion().isEmpty());
    for (const dyn::EditField f : {dyn::EditField::Mass, dyn::EditField::Com, dyn::EditField::Inertia})
      for (QDoubleSpinBox* box : editor()->boxes(f)) {
        const int text = box->fontMetrics().horizontalAdvance(box->text());
        QVERIFY2(box->width() >= text, qPrintable(QString("'%1' in %2 px").arg(box->text()).arg(box->width())));
      }
  }

  void refusedValuesStayInTheirBox() {
    const std::vector<dyn::RobotEdit> edits = doc()->edits();
    const Eigen::MatrixXd tau = trajectoryTau();
    QDoubleSpinBox* mass = editor()->boxes(dyn::EditField::Mass)[0];
    typeInto(mass, "-2");
    QVERIFY2(editor()->problemText().contains("cannot be negative"), qPrintable(editor()->problemText()));
    QVERIFY(mass->styleSheet().contains("background"));
    QCOMPARE(doc()->edits(), edits);
    QCOMPARE(trajectoryTau(), tau);
    // Limits: lower above upper is refused; "limited" off means no limits.
    const std::vector<QDoubleSpinBox*> limits = editor()->boxes(dyn::EditField::Limits);
    QCOMPARE(int(limits.size()), 2);
    typeInto(limits[0], "170");
    typeInto(limits[1], "100");
    QVERIFY2(editor()->problemText().contains("lower limit is above"), qPrintable(editor()->problemText()));
    typeInto(limits[1], "175");
    QVERIFY(editor()->problemText().isEmpty());
    const int elbow = doc()->model().jointIndex("elbow_joint");
    const int iq = doc()->model().joints[size_t(elbow)].idx_q;
    QVERIFY(std::abs(doc()->model().lowerLimit[iq] - 170 * M_PI / 180) < 1e-9);
    editor()->limitedBox()->setChecked(false);
    QVERIFY(!std::isfinite(doc()->model().upperLimit[iq]));
    typeInto(mass, "5.5");  // the valid value again
    QVERIFY(editor()->problemText().isEmpty());
  }

  // The wheel over the panel scrolls it: a number box or the joint type changes only once it has the
  // focus (a wheel passing over made a link's Ixy -5 kg m^2).
  void wheelEditsOnlyAFocusedField() {
    doc()->setSelectedBody(doc()->model().bodyIndex("forearm_link"));
    const std::vector<dyn::RobotEdit> edits = doc()->edits();
    QDoubleSpinBox* ixy = editor()->boxes(dyn::EditField::Inertia)[3];
    QComboBox* kind = editor()->kindBox();
    QVERIFY(kind);
    m_window->jointsDock()->setFocus();
    const auto wheel = [](QWidget* w) {
      const QPoint at = w->rect().center();
      QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                    false);
      QApplication::sendEvent(w, &e);
    };
    const double before = ixy->value();
    const int kindBefore = kind->currentIndex();
    for (int k = 0; k < 5; ++k) wheel(ixy), wheel(kind);
    QCOMPARE(ixy->value(), before);
    QCOMPARE(kind->currentIndex(), kindBefore);
    QCOMPARE(doc()->edits(), edits);
    QDoubleSpinBox* mass = editor()->boxes(dyn::EditField::Mass)[0];
    const double massBefore = mass->value();
    mass->setFocus();  // clicked into: now the wheel steps it
    QTRY_VERIFY(mass->hasFocus());
    wheel(mass);
    QCOMPARE(editor()->boxes(dyn::EditField::Mass)[0]->value(), massBefore + 1);
    typeInto(editor()->boxes(dyn::EditField::Mass)[0], QString::number(massBefore, 'g', 17));
  }

  // A joint made fixed merges its link into the parent (one dof less); Undo brings it back.
  void jointTypeChangesTheTree() {
    const int nv = doc()->model().nv;
    doc()->setSelectedBody(doc()->model().bodyIndex("wrist_3_link"));
    QComboBox* kind = editor()->kindBox();
    QVERIFY(kind);
    kind->setCurrentIndex(kind->findData(int(dyn::JointKind::Fixed)));
    emit kind->activated(kind->currentIndex());
    QCOMPARE(doc()->model().nv, nv - 1);
    QVERIFY(doc()->model().bodyIndex("wrist_3_link") < 0);  // merged into wrist_2_link
    m_window->undoStack()->undo();
    QCOMPARE(doc()->model().nv, nv);
    doc()->setSelectedBody(doc()->model().bodyIndex("forearm_link"));
  }

  // A lecturer who has turned the camera and selected a link edits the tree (a joint made fixed) and
  // undoes it: the camera stays where it was and the selected link stays drawn selected.
  void selectionAndCameraSurviveAnEditAndItsUndo() {
    RobotScene* scene = m_window->scene();
    const int forearm = doc()->model().bodyIndex("forearm_link");
    doc()->setSelectedBody(forearm);
    vtkCamera* camera = m_window->viewport()->renderer()->GetActiveCamera();
    camera->Azimuth(25);
    camera->Elevation(10);
    camera->Dolly(1.2);
    const auto state = [&] {
      std::array<double, 9> s{};
      camera->GetPosition(s.data());
      camera->GetFocalPoint(s.data() + 3);
      camera->GetViewUp(s.data() + 6);
      return s;
    };
    const std::array<double, 9> before = state();
    const auto same = [&] {
      const std::array<double, 9> now = state();
      for (int k = 0; k < 9; ++k)
        if (std::abs(now[size_t(k)] - before[size_t(k)]) > 1e-9) return false;
      return true;
    };
    doc()->setSelectedBody(doc()->model().bodyIndex("wrist_3_link"));
    QComboBox* kind = editor()->kindBox();
    kind->setCurrentIndex(kind->findData(int(dyn::JointKind::Fixed)));
    emit kind->activated(kind->currentIndex());
    QVERIFY(doc()->model().bodyIndex("wrist_3_link") < 0);
    QCoreApplication::processEvents();
    QVERIFY2(same(), "camera moved by the edit");
    doc()->setSelectedBody(doc()->model().bodyIndex("forearm_link"));
    m_window->undoStack()->undo();
    QCoreApplication::processEvents();
    QVERIFY(doc()->model().bodyIndex("wrist_3_link") > 0);
    QVERIFY2(same(), "camera moved by the undo");
    QCOMPARE(doc()->selectedBody(), doc()->model().bodyIndex("forearm_link"));
    QCOMPARE(scene->selectedBody(), doc()->selectedBody());  // drawn selected on the rebuilt actors
    m_window->undoStack()->redo();
    QCoreApplication::processEvents();
    QCOMPARE(scene->selectedBody(), doc()->selectedBody());
    QVERIFY2(same(), "camera moved by the redo");
    m_window->undoStack()->undo();
    QCOMPARE(scene->selectedBody(), doc()->selectedBody());
    QVERIFY(forearm > 0);
  }

  void editsComeBackWithTheProject() {
    const std::vector<dyn::RobotEdit> edits = doc()->edits();
    QVERIFY(edits.size() >= 2);
    const QString project = m_tmp.filePath("edited.dynscope");
    QVERIFY(m_window->saveProject(project));
    QVERIFY(!m_window->isWindowModified());
    QString error;
    QVERIFY(dyn::testing::openAndWait(*m_window, dyn::testing::robotFile("panda.urdf"), &error));
    QVERIFY(doc()->edits().empty());  // another file: its own values
    QVERIFY(m_window->openProject(project));
    QTRY_VERIFY(doc()->sourceFile().endsWith("ur5.urdf") && !doc()->isLoading());
    QCOMPARE(doc()->edits(), edits);
    QCOMPARE(doc()->model().I[size_t(doc()->model().bodyIndex("forearm_link"))].m, 5.5);
    QVERIFY(!m_window->isWindowModified());
  }
};

QTEST_MAIN(TestRobotEditing)
#include "test_robot_editing.moc"
