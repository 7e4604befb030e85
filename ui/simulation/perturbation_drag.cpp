#include "simulation/perturbation_drag.hpp"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellPicker.h>
#include <vtkLineSource.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <numbers>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <memory>

#include "document/robot_document.hpp"
#include "scene/force_arrow_layer.hpp"
#include "scene/robot_scene.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "viewport/vtk_viewport.hpp"

namespace {

std::vector<ForceArrow> arrowsOf(const std::vector<SimulationRunner::Snapshot::Wrench>& wrenches) {
  std::vector<ForceArrow> out;
  for (const auto& w : wrenches) {
    if (w.force.norm() > 0) out.push_back({w.point, w.force, ForceArrow::Kind::Force});
    if (w.moment.norm() > 0) out.push_back({w.point, w.moment, ForceArrow::Kind::Torque});
  }
  return out;
}

// The ground's push on each body that touches it, when the run's state is the pose shown.
std::vector<ForceArrow> contactArrows(const SimulationRunner* runner, const SimulationRunner::Snapshot& s,
                                      const Eigen::VectorXd& shown) {
  std::vector<ForceArrow> out;
  if (!runner->isConfigured() || s.q.size() != shown.size() || (s.q - shown).cwiseAbs().maxCoeff() > 1e-9) return out;
  for (const auto& c : s.contacts)
    if (c.force.norm() > 0) out.push_back({c.point, c.force, ForceArrow::Kind::Contact});
  return out;
}

}  // namespace

PerturbationDrag::PerturbationDrag(RobotDocument* robot, VtkViewport* viewport, RobotScene* scene, SimulationDock* dock,
                                   QObject* parent)
    : QObject(parent), robot_(robot), viewport_(viewport), scene_(scene), dock_(dock), timer_(new QTimer(this)) {
  timer_->setInterval(16);
  connect(timer_, &QTimer::timeout, this, &PerturbationDrag::showArrows);
  viewport_->installEventFilter(this);
  // Another robot (or an edit) mid-drag: the grabbed body may be gone; let go.
  connect(robot_, &RobotDocument::modelChanged, this, [this] {
    if (dragging_) end();
  });
  // The contact arrows belong to the run's state: gone when the pose is moved away from it.
  connect(robot_, &RobotDocument::poseChanged, this, [this] {
    if (!dragging_) showForces();
  });
}

void PerturbationDrag::showForces() {
  if (dragging_) return showArrows();  // the push, and the contacts with it
  if (!robot_ || !robot_->hasModel()) return;
  SimulationRunner* runner = dock_->runner();
  const std::vector<ForceArrow> contacts = contactArrows(runner, runner->snapshot(), robot_->q());
  if (contacts.empty() && scene_->forceArrows().arrows().empty()) return;  // nothing shown, nothing to show
  scene_->setForceArrows(contacts);
}

PerturbationDrag::~PerturbationDrag() {
  if (viewport_) viewport_->removeEventFilter(this);
}

bool PerturbationDrag::eventFilter(QObject* watched, QEvent* event) {
  if (watched != viewport_) return false;
  switch (event->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick: {
      if (dragging_) return true;
      auto* e = static_cast<QMouseEvent*>(event);
      if (e->modifiers() != Qt::ControlModifier || (enabled_ && !enabled_())) return false;
      if (e->button() == Qt::RightButton) return begin(e->position(), perturb::Perturbation::Kind::Force);
      if (e->button() == Qt::LeftButton) return begin(e->position(), perturb::Perturbation::Kind::Torque);
      return false;  // a miss goes on to the camera
    }
    case QEvent::MouseMove:
      if (!dragging_) return false;
      moveTo(static_cast<QMouseEvent*>(event)->position());
      return true;
    case QEvent::MouseButtonRelease: {
      if (!dragging_) return false;
      const Qt::MouseButton b = static_cast<QMouseEvent*>(event)->button();
      if ((b == Qt::RightButton) == (p_.kind == perturb::Perturbation::Kind::Force)) end();
      return true;
    }
    case QEvent::KeyPress:
      if (dragging_ && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        end();
        return true;
      }
      return false;
    default:
      return false;
  }
}

PerturbationDrag::Ray PerturbationDrag::rayAt(const QPointF& pos) const {
  vtkRenderer* r = viewport_->renderer();
  const double dpr = viewport_->devicePixelRatioF();
  const int H = r->GetRenderWindow()->GetSize()[1];
  Eigen::Vector3d ends[2];
  for (int k = 0; k < 2; ++k) {  // the near and far clipping planes
    r->SetDisplayPoint(pos.x() * dpr, H - pos.y() * dpr - 1, k);
    r->DisplayToWorld();
    const double* w = r->GetWorldPoint();
    ends[k] = Eigen::Vector3d(w[0], w[1], w[2]) / (w[3] != 0 ? w[3] : 1.0);
  }
  return {ends[0], (ends[1] - ends[0]).normalized()};
}

bool PerturbationDrag::begin(const QPointF& pos, perturb::Perturbation::Kind kind) {
  if (!robot_ || !robot_->hasModel() || !viewport_) return false;
  vtkRenderer* r = viewport_->renderer();
  if (!r->GetRenderWindow()) return false;
  // The link under the cursor and the point hit on it (visible geometry only, as selection picks).
  vtkNew<vtkCellPicker> picker;
  picker->SetTolerance(0.0005);
  picker->PickFromListOn();
  for (vtkActor* a : scene_->geometryActors())
    if (a && a->GetVisibility()) picker->AddPickList(a);
  const double dpr = viewport_->devicePixelRatioF();
  const int H = r->GetRenderWindow()->GetSize()[1];
  if (!picker->Pick(pos.x() * dpr, H - 1 - pos.y() * dpr, 0.0, r)) return false;
  const int body = scene_->bodyOfActor(picker->GetActor());
  const dyn::Data& data = robot_->data();
  if (body < 1 || body >= int(data.X0.size())) return false;  // the fixed base takes no push
  grab_ = Eigen::Vector3d(picker->GetPickPosition());
  normal_ = Eigen::Vector3d(r->GetActiveCamera()->GetDirectionOfProjection()).normalized();
  R0_ = data.X0[body].E.transpose();
  p_ = {};
  p_.kind = kind;
  p_.body = body;
  p_.point = data.X0[body].pointToB(grab_);
  p_.target = grab_;
  p_.rotation = R0_;
  pressPos_ = pos;
  dragging_ = true;
  SimulationRunner* runner = dock_->runner();
  runner->setPerturbation(p_);
  started_ = false;
  if (!runner->isRunning() && dock_->torqueSource() == SimulationDock::Source::Gravity) {
    dock_->start();  // paused: the pose follows the push while the drag lasts
    started_ = runner->isRunning();
  }
  timer_->start();
  showArrows();
  return true;
}

void PerturbationDrag::moveTo(const QPointF& pos) {
  if (p_.kind == perturb::Perturbation::Kind::Force) {
    // Where the mouse ray meets the plane through the grab point facing the camera.
    const Ray ray = rayAt(pos);
    const double dn = ray.dir.dot(normal_);
    if (std::abs(dn) < 1e-6) return;
    const Eigen::Vector3d hit = ray.origin + (normal_.dot(grab_ - ray.origin) / dn) * ray.dir;
    if (!hit.allFinite()) return;
    p_.target = hit;
  } else {
    // The drag on screen as a direction in the world; the rotation that carries the front of the
    // link (towards the viewer) along it, as a trackball does.
    vtkCamera* cam = viewport_->renderer()->GetActiveCamera();
    const Eigen::Vector3d up0(cam->GetViewUp());
    const Eigen::Vector3d right = normal_.cross(up0).normalized(), up = right.cross(normal_);
    const QPointF d = pos - pressPos_;
    const Eigen::Vector3d drag = d.x() * right - d.y() * up;  // widget y points down
    const double pixels = std::hypot(d.x(), d.y());
    p_.rotation = R0_;
    if (pixels > 0.5) {
      const Eigen::Vector3d axis = (-normal_).cross(drag).normalized();
      const double angle = std::min(pixels / kPixelsPerRadian, 0.9 * std::numbers::pi);
      p_.rotation = Eigen::AngleAxisd(angle, axis).toRotationMatrix() * R0_;
    }
  }
  dock_->runner()->setPerturbation(p_);
  showArrows();
}

void PerturbationDrag::end() {
  dragging_ = false;
  timer_->stop();
  if (started_) dock_->pause();  // first: paused, the runner publishes the state without the push at once
  started_ = false;
  dock_->runner()->clearPerturbation();
  showTether(false);
  showForces();  // the contacts stay
  emit statusText(QString());
}

void PerturbationDrag::showArrows() {
  if (!dragging_ || !robot_) return;
  SimulationRunner* runner = dock_->runner();
  const SimulationRunner::Snapshot s = runner->snapshot();
  const dyn::Model& model = robot_->model();
  // The runner's push at its state; paused at another pose (the joints moved since, or no run
  // yet): the push at the pose shown, at rest.
  const bool current = runner->isConfigured() && s.q.size() == robot_->q().size() &&
                       (runner->isRunning() || (s.q - robot_->q()).cwiseAbs().maxCoeff() < 1e-9);
  std::vector<SimulationRunner::Snapshot::Wrench> wrenches;
  Eigen::VectorXd tauE;
  if (current) {
    wrenches = s.wrenches;
    tauE = s.tauExternal;
  } else {
    dyn::Data data(model);
    const dyn::ExternalWrench w =
        perturb::perturbationWrench(model, data, robot_->q(), Eigen::VectorXd::Zero(model.nv), p_);
    wrenches.push_back({w.body, data.X0[w.body].pointToA(w.point), w.force, w.moment});
    dyn::wrenchJointForces(model, data, {w}, tauE);
  }
  std::vector<ForceArrow> arrows = arrowsOf(wrenches);
  for (const ForceArrow& a : contactArrows(runner, s, robot_->q())) arrows.push_back(a);
  scene_->setForceArrows(arrows);
  const bool pull = p_.kind == perturb::Perturbation::Kind::Force && !wrenches.empty();
  showTether(pull, pull ? wrenches.front().point : Eigen::Vector3d::Zero(), p_.target);
  if (wrenches.empty() || p_.body < 1 || p_.body > model.N) return;
  // The push and the joint forces it makes, tau_e = J^T f (its largest entry), for the status bar.
  const auto& w = wrenches.front();
  const bool force = p_.kind == perturb::Perturbation::Kind::Force;
  QString text = force ? tr("Pulling %1 with %2 N")
                             .arg(QString::fromStdString(model.bodyNames[p_.body]))
                             .arg(w.force.norm(), 0, 'f', 1)
                       : tr("Twisting %1 with %2 N·m")
                             .arg(QString::fromStdString(model.bodyNames[p_.body]))
                             .arg(w.moment.norm(), 0, 'f', 2);
  if (tauE.size() == model.nv && model.nv > 0) {
    Eigen::Index k = 0;
    tauE.cwiseAbs().maxCoeff(&k);
    int joint = 1;
    for (int i = 1; i <= model.N; ++i)
      if (model.joints[i].idx_v <= k && k < model.joints[i].idx_v + model.joints[i].nv) joint = i;
    // A revolute joint takes a moment, a prismatic one a force (a free joint: moments, then forces).
    const dyn::JointModel<double>& J = model.joints[joint];
    const bool moment = J.type == dyn::JointType::Revolute || J.type == dyn::JointType::Spherical ||
                        J.type == dyn::JointType::Helical || (J.type == dyn::JointType::Floating && k - J.idx_v < 3);
    const bool linear = J.type == dyn::JointType::Prismatic || (J.type == dyn::JointType::Floating && k - J.idx_v >= 3);
    text += tr(" · Jᵀf largest at %1: %2%3")
                .arg(QString::fromStdString(model.jointNames[joint]))
                .arg(tauE[k], 0, 'f', 2)
                .arg(moment   ? tr(" N·m")
                     : linear ? tr(" N")
                              : QString());
  }
  emit statusText(text);
}

void PerturbationDrag::showTether(bool on, const Eigen::Vector3d& from, const Eigen::Vector3d& to) {
  if (!viewport_) return;
  if (!tether_ && on) {
    const Eigen::Vector3d c = ForceArrowLayer::colour(ForceArrow::Kind::Force);
    line_ = vtkSmartPointer<vtkLineSource>::New();
    dot_ = vtkSmartPointer<vtkSphereSource>::New();
    dot_->SetThetaResolution(20);
    dot_->SetPhiResolution(12);
    for (auto* actor : {&tether_, &target_}) {
      *actor = vtkSmartPointer<vtkActor>::New();
      vtkNew<vtkPolyDataMapper> mapper;
      mapper->SetInputConnection(actor == &tether_ ? line_->GetOutputPort() : dot_->GetOutputPort());
      (*actor)->SetMapper(mapper);
      (*actor)->PickableOff();
      (*actor)->GetProperty()->SetColor(c.x(), c.y(), c.z());
      viewport_->renderer()->AddActor(*actor);
    }
    tether_->GetProperty()->SetLineWidth(2.5);
    tether_->GetProperty()->SetOpacity(0.8);
    tether_->GetProperty()->LightingOff();
  }
  if (!tether_) return;
  tether_->SetVisibility(on);
  target_->SetVisibility(on);
  if (!on) return;
  line_->SetPoint1(from.data());
  line_->SetPoint2(to.data());
  dot_->SetCenter(to.data());
  dot_->SetRadius(0.012 * scene_->forceArrows().robotSize());
}
