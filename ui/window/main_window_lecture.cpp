// MainWindow's lecture mode (issue 15): the Algorithm inspector dock, the Lecture menu, the 3D
// arrows of the step shown, the highlighted body, and the handout export. The LectureDocument
// holds the state; this file only wires it to the views.
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QProgressDialog>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>

#include "document/robot_document.hpp"
#include "dynscope/trace/trace_arrows.hpp"
#include "ik/ik_dock.hpp"
#include "lecture/algorithm_inspector_dock.hpp"
#include "lecture/equations_dock.hpp"
#include "lecture/equations_document.hpp"
#include "lecture/handout.hpp"
#include "lecture/lecture_document.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "scene/robot_scene.hpp"
#include "scene/trace_arrow_overlay.hpp"
#include "session/workbench_session.hpp"
#include "trajectory/plots_dock.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/icons.hpp"
#include "window/joints_dock.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"

namespace {

// The robot's size: twice the largest distance of a body origin or COM from their centre, or the
// extent of its geometry if larger (the Stanford arm's boom reaches far beyond its frames), >= 0.2 m.
double robotSize(const dyn::Model& model, const dyn::Data& data, double geometryExtent) {
  std::vector<Eigen::Vector3d> points{Eigen::Vector3d::Zero()};
  for (int i = 1; i <= model.N; ++i) {
    points.push_back(dyn::arrowPoint(model, data, i, dyn::ArrowPoint::FrameOrigin));
    points.push_back(dyn::arrowPoint(model, data, i, dyn::ArrowPoint::CenterOfMass));
  }
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (const auto& p : points) c += p;
  c /= double(points.size());
  double r = 0;
  for (const auto& p : points) r = std::max(r, (p - c).norm());
  return std::max({0.2, 2 * r, geometryExtent});
}

}  // namespace

void MainWindow::createLectureUi() {
  // Placed by the workspaces (the Lecture workspace: beside the 3D view, above the mass matrix, which
  // stays in view while CRBA fills it); hidden in the others until the Lecture menu opens it.
  m_inspectorDock->hide();
  m_equationsDock->hide();
  m_arrows = std::make_unique<TraceArrowOverlay>(m_scene->renderer());
  m_arrows->setVisible(false);
  m_massDock->setLectureDocument(m_lecture);
  // The keys act in the inspector and in the 3D view (WidgetWithChildrenShortcut on both).
  for (QAction* a : m_inspectorDock->navigationActions()) m_viewport->addAction(a);

  QMenu* lecture = new QMenu(tr("&Lecture"), this);
  lecture->setObjectName("lectureMenu");
  menuBar()->insertMenu(menuBar()->actions().value(menuBar()->actions().size() - 1), lecture);  // before Help
  QAction* inspector = m_inspectorDock->toggleViewAction();
  inspector->setText(tr("Algorithm &inspector"));
  inspector->setObjectName("lectureInspectorAction");
  inspector->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
  setToolTipWithShortcut(inspector, tr("Step through RNEA, CRBA, ABA or another formulation on the robot"));
  // Opening the inspector is teaching: the Lecture workspace, designed for it.
  connect(inspector, &QAction::triggered, this, [this](bool on) {
    if (!on) return;
    setWorkspace("lecture");
    m_inspectorDock->show();
    m_inspectorDock->raise();
  });
  lecture->addAction(inspector);
  QAction* equations = m_equationsDock->toggleViewAction();
  equations->setText(tr("&Equations of motion"));
  equations->setObjectName("lectureEquationsAction");
  equations->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  setToolTipWithShortcut(equations, tr("The robot's M(q), C(q, q̇)q̇ and g(q) in closed form, typeset"));
  connect(equations, &QAction::triggered, this, [this](bool on) {
    if (!on) return;
    setWorkspace("lecture");
    m_equationsDock->show();
    m_equationsDock->raise();
  });
  lecture->addAction(equations);
  QMenu* algorithms = lecture->addMenu(tr("&Algorithm"));
  auto* group = new QActionGroup(this);
  for (const dyn::TraceableAlgorithm& a : dyn::traceableAlgorithms()) {
    const QString name = QString::fromUtf8(a.name);
    if (name == "denoc-id") algorithms->addSection(tr("The engine's other formulations"));
    QAction* act = algorithms->addAction(QString::fromUtf8(a.title));
    act->setObjectName("lectureAlgorithm_" + name);
    act->setCheckable(true);
    act->setChecked(name == m_lecture->algorithm());
    group->addAction(act);
    connect(act, &QAction::triggered, this, [this, name] { m_lecture->setAlgorithm(name); });
  }
  connect(m_lecture, &LectureDocument::algorithmChanged, this, [this](const QString& name) {
    if (QAction* a = findChild<QAction*>("lectureAlgorithm_" + name)) a->setChecked(true);
    if (m_lecture->fillsMassMatrix()) m_massDock->raise();  // watch H fill column by column
  });
  // The user's own selection, given back when lecture mode ends (and shown at its start).
  m_userSelectedBody = m_doc->selectedBody();
  connect(m_doc, &RobotDocument::selectedBodyChanged, this, [this](int body) {
    if (!m_lectureSelecting) m_userSelectedBody = body;
  });
  lecture->addSeparator();
  for (QAction* a : m_inspectorDock->navigationActions()) lecture->addAction(a);
  QMenu* pace = lecture->addMenu(tr("Pa&ce"));
  for (int ms : {300, 600, 1200, 2500, 5000})
    pace->addAction(tr("%1 s per step").arg(ms / 1000.0), this, [this, ms] { m_lecture->setPaceMs(ms); });
  lecture->addSeparator();
  QAction* arrows = lecture->addAction(tr("Show a&rrows"));
  arrows->setObjectName("lectureArrowsAction");
  arrows->setCheckable(true);
  arrows->setChecked(m_lecture->arrowSettings().show);
  connect(arrows, &QAction::toggled, this, [this](bool on) {
    LectureDocument::ArrowSettings s = m_lecture->arrowSettings();
    s.show = on;
    m_lecture->setArrowSettings(s);
  });
  QAction* handoutAction = lecture->addAction(tr("Export &handout…"), this, &MainWindow::exportHandoutWithDialog);
  handoutAction->setObjectName("lectureHandoutAction");

  connect(m_inspectorDock, &AlgorithmInspectorDock::handoutRequested, this, &MainWindow::exportHandoutWithDialog);
  connect(m_lecture, &LectureDocument::traceChanged, this, [this] {
    // New numbers (or a new pose): the scales follow the whole run, so they stay put while stepping.
    if (m_lecture->hasTrace()) {
      const dyn::AlgorithmTrace& t = m_lecture->trace();
      const double size = robotSize(m_lecture->model(), m_doc->data(), m_scene->robotExtent());
      const auto all = dyn::traceArrows(m_lecture->model(), m_doc->data(), dyn::traceState(t, int(t.steps.size())),
                                        m_lecture->arrowSettings().point);
      m_arrows->autoScale(all, size / 3);
      m_arrows->setThickness(size * 0.004);
    }
    updateLectureView();
  });
  connect(m_lecture, &LectureDocument::positionChanged, this, &MainWindow::updateLectureView);
  connect(m_lecture, &LectureDocument::activeChanged, this, &MainWindow::updateLectureView);
  connect(m_lecture, &LectureDocument::arrowSettingsChanged, this, [this, arrows] {
    const QSignalBlocker block(arrows);
    arrows->setChecked(m_lecture->arrowSettings().show);
    updateLectureView();
  });
  connect(m_lecture, &LectureDocument::activeChanged, this, [this](bool on) {
    if (!on) return;
    statusBar()->showMessage(tr("Lecture mode: → step, ← back, Shift+→ end of pass, Home start, P play"), 6000);
    // The lecture is about this pose: its arrows get the room of a view fitted to it.
    m_scene->fitToRobot();
    m_viewport->update();
  });
}

void MainWindow::updateLectureView() {
  const bool on = m_lecture->isActive() && m_lecture->hasTrace();
  if (!on) {
    m_arrows->clear();
    m_arrows->setVisible(false);
    showLectureBody(-1);
    m_viewport->update();
    return;
  }
  const LectureDocument::ArrowSettings& settings = m_lecture->arrowSettings();
  const dyn::Model& model = m_lecture->model();
  const dyn::Data& data = m_doc->data();  // the pose traced (forward kinematics of the robot's q)
  const dyn::TraceState& state = m_lecture->state();
  std::vector<TraceArrowOverlay::Arrow> arrows;
  for (const dyn::TraceArrow& a : dyn::traceArrows(model, data, state, settings.point))
    arrows.push_back({a, state.wasChanged(a.quantity, a.body)});
  m_arrows->setVisible(settings.show);
  for (int k = 0; k < TraceArrowOverlay::kKinds; ++k) m_arrows->setKindVisible(dyn::ArrowKind(k), settings.kinds[k]);
  m_arrows->setSizeFactor(settings.size);
  m_arrows->setPointLabel(settings.point == dyn::ArrowPoint::CenterOfMass ? "COM" : "frame origin");
  m_arrows->setArrows(arrows);
  // The pass direction: from the parent to the body (outward), or back (inward).
  const dyn::TraceStepRecord* step = m_lecture->currentStep();
  const dyn::TracePass* pass = m_lecture->currentPass();
  if (step && pass && pass->direction != dyn::TracePass::Direction::None && step->body > 0) {
    const Eigen::Vector3d child = dyn::arrowPoint(model, data, step->body, settings.point);
    const int parent = model.parent[step->body];
    const Eigen::Vector3d up = parent > 0 ? dyn::arrowPoint(model, data, parent, settings.point) : data.X0[0].r;
    const bool outward = pass->direction == dyn::TracePass::Direction::Outward;
    m_arrows->setPassArrow(settings.passArrow, outward ? up : child, outward ? child : up);
  } else {
    m_arrows->setPassArrow(false);
  }
  const int body = m_lecture->currentBody();  // 0 for a step over all bodies (e.g. τ − C)
  showLectureBody(body > 0 ? body : -1);      // highlighted in the 3D view and the model tree
  m_viewport->update();
}

void MainWindow::showLectureBody(int body) {
  const int target = body >= 0 ? body : m_userSelectedBody;
  if (m_doc->selectedBody() == target) return;
  m_lectureSelecting = true;
  m_doc->setSelectedBody(target);
  m_lectureSelecting = false;
}

bool MainWindow::exportHandout(const QString& path, const QSize& pictureSize) {
  if (!m_lecture->isActive() || !m_lecture->hasTrace()) {
    showError(tr("Export handout"), m_lecture->isActive() && !m_lecture->error().isEmpty()
                                        ? m_lecture->error()
                                        : tr("Open the Algorithm inspector (Lecture menu) on a robot first."));
    return false;
  }
  const int before = m_lecture->position();
  const int n = m_lecture->stepCount();
  QProgressDialog progress(tr("Rendering the handout's pictures…"), tr("Cancel"), 0, n + 1, this);
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(500);
  // Copies: the pictures move the position, and nothing may replace the trace meanwhile.
  const dyn::AlgorithmTrace trace = m_lecture->trace();
  const dyn::Model model = m_lecture->model();
  handout::Content c;
  c.robotName = m_doc->robotName();
  c.model = &model;
  c.trace = &trace;
  c.arrowLegend = QString::fromStdString(m_arrows->legendText());
  // The equations of motion when they have been derived (the Equations of motion view).
  if (m_session->equations()->state() == EquationsDocument::State::Ready)
    c.equations = m_session->equations()->sharedReport();
  c.picture = [this, pictureSize](int p) {
    m_lecture->setPosition(p);
    return m_viewport->grabImage(pictureSize.width(), pictureSize.height());
  };
  c.progress = [&progress](int done, int) {
    progress.setValue(done);
    return !progress.wasCanceled();
  };
  QString error;
  const bool ok = handout::write(path, c, &error);
  m_lecture->setPosition(before);
  if (!ok) {
    if (error != tr("Cancelled")) showError(tr("Export handout"), error);
    return false;
  }
  m_logDock->append(tr("Saved the handout %1 (%2 steps)").arg(path).arg(n));
  return true;
}

QString MainWindow::showEquations(const QString& part) {
  const std::optional<equations_html::Section> section = equations_html::sectionNamed(part);
  if (!section) return tr("--equations: unknown part '%1' (all, M, c, g, tau, christoffel, symbols)").arg(part);
  setWorkspace("lecture");
  m_equationsDock->setSection(*section);
  m_equationsDock->show();
  m_equationsDock->raise();
  return {};
}

void MainWindow::exportHandoutWithDialog() {
  const QString base = (m_doc->hasModel() ? m_doc->robotName() : QStringLiteral("dynscope")) + "_" +
                       m_lecture->algorithm() + "_handout.html";
  QString path = QFileDialog::getSaveFileName(this, tr("Export handout"), QDir::home().filePath(base),
                                              tr("Web page (*.html);;PDF (*.pdf)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(".html", Qt::CaseInsensitive) && !path.endsWith(".htm", Qt::CaseInsensitive) &&
      !path.endsWith(".pdf", Qt::CaseInsensitive))
    path += ".html";
  exportHandout(path);
}
