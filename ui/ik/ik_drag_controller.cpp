#include "ik/ik_drag_controller.hpp"

#include <vtkCamera.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <QAction>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QStringList>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <exception>
#include <vector>

#include "document/robot_document.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/ik/ik_solver.hpp"
#include "dynscope/ik/manipulability.hpp"
#include "dynscope/model/main_chain.hpp"
#include "dynscope/model/names.hpp"
#include "ik/ik_drag_command.hpp"
#include "viewport/vtk_viewport.hpp"

namespace {

QAction* makeAction(QObject* parent, const QString& text, const QString& tip, bool checkable, bool checked = false) {
  auto* a = new QAction(text, parent);
  a->setToolTip(tip);
  a->setStatusTip(tip);
  a->setCheckable(checkable);
  if (checkable) a->setChecked(checked);
  return a;
}

// The longest chain of link offsets from the base to a frame: a pose-independent bound on how far
// a frame gets from the base, and the length the ellipsoids' default scales follow.
double reachOf(const dyn::Model& m) {
  std::vector<double> chain(m.N + 1, 0.0);
  for (int i = 1; i <= m.N; ++i) chain[i] = chain[m.parent[i]] + m.Xtree[i].translation().norm();
  double reach = 0;
  for (const auto& f : m.frames) reach = std::max(reach, chain[f.body] + f.placement.translation().norm());
  return reach > 1e-6 ? reach : 1.0;
}

QString number(double v) { return QString::number(v, 'g', 3); }

}  // namespace

IkDragController::IkDragController(RobotDocument* doc, VtkViewport* viewport, vtkRenderer* sceneRenderer,
                                   QUndoStack* undo, QObject* parent)
    : QObject(parent), doc_(doc), viewport_(viewport), undo_(undo), gizmo_(sceneRenderer) {
  dragMode_ = makeAction(this, tr("IK &Drag"),
                         tr("Drag the selected link with a handle; the joints follow (inverse kinematics)"), true);
  dragMode_->setShortcut(QKeySequence(Qt::Key_G));
  dragMode_->setObjectName("ikDragModeAction");
  positionOnly_ =
      makeAction(this, tr("IK Position &Only"), tr("Drag targets the link's position; its orientation is free"), true);
  positionOnly_->setObjectName("ikPositionOnlyAction");
  localAxes_ = makeAction(this, tr("IK Handle in &Link Axes"),
                          tr("Arrows and rings along the link's axes instead of the world's"), true);
  pinSelected_ = makeAction(this, tr("&Pin Selected Link"),
                            tr("Hold the selected link at its current pose while dragging others"), false);
  pinSelected_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_P));
  clearPins_ = makeAction(this, tr("&Clear Pins"), tr("Release every pinned link"), false);
  ellipsoid_ = makeAction(this, tr("Manipulability &Ellipsoid"),
                          tr("Velocity manipulability ellipsoid of the dragged link, drawn in metres: semi-axes σ "
                             "(m/s per rad/s) × a fixed time; scale and values in the read-out"),
                          true);
  ellipsoid_->setObjectName("ikEllipsoidAction");
  forceEllipsoid_ = makeAction(this, tr("&Force Ellipsoid"),
                               tr("Show the force ellipsoid (semi-axes 1/σ, N per N·m of joint torque) instead of the "
                                  "velocity one; capped and marked singular where 1/σ grows without bound"),
                               true);
  singularity_ = makeAction(this, tr("Distance to &Singularity"),
                            tr("Smallest singular value of the dragged link's Jacobian (linear part)"), true);

  connect(dragMode_, &QAction::toggled, this, [this] {
    updateActions();
    placeGizmo();
  });
  connect(positionOnly_, &QAction::toggled, this, [this](bool on) {
    gizmo_.setShowRings(!on);
    viewport_->update();
  });
  connect(localAxes_, &QAction::toggled, this, &IkDragController::placeGizmo);
  connect(pinSelected_, &QAction::triggered, this, [this] { togglePin(frameOfBody(doc_->selectedBody())); });
  connect(clearPins_, &QAction::triggered, this, &IkDragController::clearPins);
  for (QAction* a : {ellipsoid_, forceEllipsoid_, singularity_})
    connect(a, &QAction::toggled, this, &IkDragController::updateOverlays);

  connect(doc_, &RobotDocument::modelChanged, this, &IkDragController::onModelChanged);
  connect(doc_, &RobotDocument::poseChanged, this, &IkDragController::onPoseChanged);
  connect(doc_, &RobotDocument::selectedBodyChanged, this, &IkDragController::onSelectedBodyChanged);
  viewport_->installEventFilter(this);
  viewport_->setHiddenInExports(gizmo_.overlay());  // exported figures show the robot only
  // The viewport owns the scene renderer the gizmo draws into: once it is gone, stop drawing.
  connect(viewport_, &QObject::destroyed, this, [this] {
    if (doc_) disconnect(doc_, nullptr, this, nullptr);
    for (QAction* a : actions()) disconnect(a, nullptr, this, nullptr);
  });
  onModelChanged();
}

IkDragController::~IkDragController() {
  if (viewport_) viewport_->removeEventFilter(this);
}

QList<QAction*> IkDragController::actions() const {
  return {dragMode_, positionOnly_, localAxes_, pinSelected_, clearPins_, ellipsoid_, forceEllipsoid_, singularity_};
}

bool IkDragController::isActive() const { return dragMode_->isChecked() && solver_ && frame_ >= 0; }

int IkDragController::frameOfBody(int body) const {
  const dyn::Model& m = doc_->model();
  if (body < 0 || body > m.N) return -1;
  const int named = m.frameIndex(m.bodyNames[body]);
  if (named >= 0) return named;
  for (int f = 0; f < int(m.frames.size()); ++f)
    if (m.frames[f].body == body) return f;
  return -1;
}

void IkDragController::onModelChanged() {
  if (isDragging()) grabbed_ = IkGizmo::None;
  const dyn::Model& m = doc_->model();
  if (doc_->modelKeptTree() && solver_) {  // an edit of numbers: the pins, locks and dragged frame stay
    solver_ = std::make_unique<dyn::IkSolver>(m);
    data_ = std::make_unique<dyn::Data>(m);
    updatePins();
    placeGizmo();
    return;
  }
  solver_.reset();
  data_.reset();
  pins_.clear();
  lockedJoints_.clear();
  readout_ = Readout{};
  frame_ = -1;
  reach_ = doc_->hasModel() ? reachOf(m) : 1.0;
  velocityScale_ = kVelocitySeconds;
  forceScale_ = ikdrag::roundScale(kForceScalePerReach2 * reach_ * reach_);
  if (doc_->hasModel() && m.N > 0 && !m.frames.empty()) {
    solver_ = std::make_unique<dyn::IkSolver>(m);
    data_ = std::make_unique<dyn::Data>(m);
    frame_ = doc_->selectedBody() > 0 ? frameOfBody(doc_->selectedBody()) : m.frameIndex(m.defaultEndEffector);
    if (frame_ < 0) frame_ = int(m.frames.size()) - 1;
    lockFingers();
  }
  gizmo_.setOutOfReach(false);
  emit pinsChanged();
  emit locksChanged();
  emit draggedFrameChanged(frame_);
  updateActions();
  updatePins();
  placeGizmo();
}

void IkDragController::onSelectedBodyChanged(int body) {
  if (!solver_ || isDragging()) return;
  const int f = body > 0 ? frameOfBody(body) : doc_->model().frameIndex(doc_->model().defaultEndEffector);
  if (f >= 0) setDraggedFrame(f);
  updateActions();
}

// The fingers of a hand (the joints below the main chain's end, dyn::mainChainEnd) are locked when a
// robot is loaded: dragging the hand moves the arm, not the gripper. The Locked joints list frees
// them; dragging a finger itself frees the locked joints that move it.
void IkDragController::lockFingers() {
  const dyn::Model& m = doc_->model();
  const int hand = dyn::mainChainEnd(m);
  for (int j = hand + 1; hand >= 1 && j <= m.N; ++j)
    if (m.isAncestor(hand, j) && m.joints[j].nv > 0 && !isJointLocked(j)) {
      solver_->lockJoint(j, true);
      lockedJoints_.push_back(j);
    }
}

void IkDragController::unlockSupportOf(int frame) {
  const dyn::Model& m = doc_->model();
  bool changed = false;
  for (int i = m.frames[size_t(frame)].body; i >= 1; i = m.parent[i])
    if (isJointLocked(i)) {
      solver_->lockJoint(i, false);
      lockedJoints_.erase(std::find(lockedJoints_.begin(), lockedJoints_.end(), i));
      changed = true;
    }
  if (changed) emit locksChanged();
}

void IkDragController::setDraggedFrame(int frame) {
  if (!solver_ || frame < 0 || frame >= int(doc_->model().frames.size()) || frame == frame_ || isDragging()) return;
  // A finger chosen to drag: the fingers' automatic locks on its way go (the user's own locks elsewhere stay).
  const dyn::Model& m = doc_->model();
  const int hand = dyn::mainChainEnd(m);
  if (hand >= 1 && m.frames[size_t(frame)].body != hand && m.isAncestor(hand, m.frames[size_t(frame)].body))
    unlockSupportOf(frame);
  frame_ = frame;
  emit draggedFrameChanged(frame_);
  placeGizmo();
}

void IkDragController::setVelocityEllipsoidScale(double seconds) {
  if (!(seconds > 0) || !std::isfinite(seconds)) return;
  velocityScale_ = seconds;
  updateOverlays();
}

void IkDragController::setForceEllipsoidScale(double metresPerNewton) {
  if (!(metresPerNewton > 0) || !std::isfinite(metresPerNewton)) return;
  forceScale_ = metresPerNewton;
  updateOverlays();
}

void IkDragController::updateActions() {
  const bool model = solver_ != nullptr;
  for (QAction* a : actions()) a->setEnabled(model || a == dragMode_);
  pinSelected_->setEnabled(model && doc_->selectedBody() > 0);
  clearPins_->setEnabled(!pins_.empty());
}

void IkDragController::onPoseChanged() {
  if (!solver_ || data_->oMf.size() != doc_->data().oMf.size()) return;
  if (!isDragging()) placeGizmo();  // during a drag the handle stays on the target
  updatePins();
  updateOverlays();
}

Eigen::Matrix3d IkDragController::handleRotation() const {
  if (!localAxes_->isChecked() || frame_ < 0) return Eigen::Matrix3d::Identity();
  return doc_->data().oMf[frame_].rotation();
}

void IkDragController::placeGizmo() {
  const bool on = isActive();
  if (on) gizmo_.setPose(handleRotation(), doc_->data().oMf[frame_].translation());
  gizmo_.setVisible(on);
  updateOverlays();
  viewport_->update();
}

void IkDragController::updatePins() {
  std::vector<Eigen::Vector3d> origins;
  for (const Pin& p : pins_) origins.push_back(doc_->data().oMf[p.frame].translation());
  gizmo_.setPins(origins);
  viewport_->update();
}

void IkDragController::updateOverlays() {
  const bool ell = ellipsoid_->isChecked(), sing = singularity_->isChecked();
  const bool force = forceEllipsoid_->isChecked();
  const bool hadOverlay = readout_.ellipsoid || !readout_.overlayText.isEmpty();
  readout_.ellipsoid = readout_.singular = false;
  readout_.overlayText.clear();
  if (!isActive() || (!ell && !sing)) {
    gizmo_.setEllipsoid(false, {}, {}, {});
    gizmo_.setText("");
    if (hadOverlay) emit readoutChanged();
    viewport_->update();
    return;
  }
  dyn::Manipulability mp;
  try {
    mp = dyn::manipulability(doc_->model(), *data_, doc_->q(), frame_);
  } catch (const std::exception& e) {
    emit message(QString::fromStdString(e.what()));
    return;
  }
  readout_.minSingularValue = mp.minSingularValue;
  QStringList lines;
  if (ell) {
    // In metres at a fixed scale (see velocityEllipsoidScale()): its size on screen is the
    // manipulability, comparable from pose to pose and between the two kinds.
    const double scale = force ? forceScale_ : velocityScale_;
    const Eigen::Vector3d values = force ? mp.forceRadii : mp.velocityRadii;
    const ikdrag::DrawnEllipsoid e = ikdrag::drawnEllipsoid(values, scale, ellipsoidCap(), 1e-4 * reach_);
    gizmo_.setEllipsoid(true, mp.center, mp.axes, e.radii);
    readout_.ellipsoid = true;
    readout_.forceEllipsoid = force;
    readout_.ellipsoidValues = values;
    readout_.ellipsoidRadii = e.radii;
    readout_.ellipsoidScale = scale;
    QStringList axes;
    for (int k = 0; k < 3; ++k) {
      readout_.singular = readout_.singular || e.capped[k];
      axes << (e.capped[k] ? tr("singular (> %1)").arg(number(ellipsoidCap() / scale)) : number(values[k]));
    }
    lines << (force ? tr("force ellipsoid × %1 m/N: semi-axes %2 N per N·m")
                    : tr("velocity ellipsoid × %1 s: semi-axes %2 m/s per rad/s"))
                 .arg(number(scale), axes.join(", "));
  } else {
    gizmo_.setEllipsoid(false, {}, {}, {});
  }
  // (VTK's default font has no Greek letters: spelled out.)
  if (sing)
    lines << tr("smallest singular value %1 m/rad (0: singular), manipulability %2")
                 .arg(number(mp.minSingularValue), number(mp.measure));
  readout_.overlayText = lines.join('\n');
  gizmo_.setText(readout_.overlayText.toUtf8().constData());
  emit statusText(lines.join(QStringLiteral("  ·  ")));
  emit readoutChanged();
  viewport_->update();
}

void IkDragController::togglePin(int frame) {
  if (!solver_ || frame < 0 || frame >= int(doc_->model().frames.size())) return;
  const auto it = std::find_if(pins_.begin(), pins_.end(), [frame](const Pin& p) { return p.frame == frame; });
  if (it != pins_.end())
    pins_.erase(it);
  else
    pins_.push_back({frame, doc_->data().oMf[frame]});
  updateActions();
  updatePins();
  emit pinsChanged();
}

bool IkDragController::isPinned(int frame) const {
  return std::any_of(pins_.begin(), pins_.end(), [frame](const Pin& p) { return p.frame == frame; });
}

QList<int> IkDragController::pinnedFrames() const {
  QList<int> out;
  for (const Pin& p : pins_) out.append(p.frame);
  return out;
}

void IkDragController::clearPins() {
  if (pins_.empty()) return;
  pins_.clear();
  updateActions();
  updatePins();
  emit pinsChanged();
}

void IkDragController::setJointLocked(int joint, bool locked) {
  if (!solver_ || joint < 1 || joint > doc_->model().N || isJointLocked(joint) == locked) return;
  solver_->lockJoint(joint, locked);
  if (locked)
    lockedJoints_.push_back(joint);
  else
    lockedJoints_.erase(std::find(lockedJoints_.begin(), lockedJoints_.end(), joint));
  emit locksChanged();
}

bool IkDragController::isJointLocked(int joint) const {
  return std::find(lockedJoints_.begin(), lockedJoints_.end(), joint) != lockedJoints_.end();
}

// ---- mouse --------------------------------------------------------------------------------

Eigen::Vector2d IkDragController::displayOf(const QPointF& pos) const {
  // As VtkViewport::setEventInfo: device pixels, y flipped (VTK's origin is bottom-left).
  const double dpr = viewport_->devicePixelRatioF();
  const int H = gizmo_.scene()->GetRenderWindow()->GetSize()[1];
  return {pos.x() * dpr, H - pos.y() * dpr - 1};
}

ikdrag::Ray IkDragController::rayAt(const QPointF& pos) const {
  vtkRenderer* r = gizmo_.scene();
  const Eigen::Vector2d d = displayOf(pos);
  Eigen::Vector3d ends[2];
  for (int k = 0; k < 2; ++k) {  // the near and far clipping planes
    r->SetDisplayPoint(d.x(), d.y(), k);
    r->DisplayToWorld();
    const double* w = r->GetWorldPoint();
    ends[k] = Eigen::Vector3d(w[0], w[1], w[2]) / (w[3] != 0 ? w[3] : 1.0);
  }
  return {ends[0], (ends[1] - ends[0]).normalized()};
}

bool IkDragController::eventFilter(QObject* watched, QEvent* event) {
  if (watched != viewport_) return false;
  switch (event->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick: {
      auto* e = static_cast<QMouseEvent*>(event);
      if (isDragging()) return true;
      if (e->button() != Qt::LeftButton || e->modifiers() != Qt::NoModifier || !isActive()) return false;
      return beginDrag(e->position());  // a miss goes on to the camera / click selection
    }
    case QEvent::MouseMove: {
      auto* e = static_cast<QMouseEvent*>(event);
      if (isDragging()) {
        dragTo(e->position());
        return true;
      }
      if (isActive() && e->buttons() == Qt::NoButton) {  // hover: show what a press would grab
        const Eigen::Vector2d d = displayOf(e->position());
        const IkGizmo::Part part = gizmo_.pick(d.x(), d.y());
        if (part != gizmo_.highlight()) {
          gizmo_.setHighlight(part);
          viewport_->update();
        }
      }
      return false;
    }
    case QEvent::MouseButtonRelease: {
      if (!isDragging()) return false;
      if (static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton) endDrag();
      return true;
    }
    case QEvent::KeyPress:
      if (isDragging() && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {  // cancel the drag
        grabbed_ = IkGizmo::None;
        gizmo_.setHighlight(IkGizmo::None);
        gizmo_.setOutOfReach(false);
        doc_->setQ(qBefore_);
        placeGizmo();
        return true;
      }
      return false;
    default:
      return false;
  }
}

bool IkDragController::beginDrag(const QPointF& pos) {
  const Eigen::Vector2d d = displayOf(pos);
  const IkGizmo::Part part = gizmo_.pick(d.x(), d.y());
  if (part == IkGizmo::None) return false;
  const dyn::Transform<double>& X = doc_->data().oMf[frame_];
  R0_ = X.rotation();
  p0_ = X.translation();
  handleR0_ = gizmo_.rotation();
  qBefore_ = doc_->q();
  const ikdrag::Ray ray = rayAt(pos);
  t0_ = 0;
  start_ = p0_;
  if (part <= IkGizmo::ArrowZ) {
    t0_ = ikdrag::closestOnLine(ray, p0_, handleR0_.col(part - IkGizmo::ArrowX)).value_or(0.0);
  } else {
    vtkCamera* cam = gizmo_.scene()->GetActiveCamera();
    planeNormal_ = part == IkGizmo::Centre ? Eigen::Vector3d(cam->GetDirectionOfProjection())
                                           : Eigen::Vector3d(handleR0_.col(part - IkGizmo::RingX));
    start_ = ikdrag::hitPlane(ray, p0_, planeNormal_).value_or(p0_);
  }

  // The solver for this drag: gentle steps from the current pose, no restarts (they jump); pins
  // first (strict) so that a target out of reach cannot pull them away.
  dyn::IkOptions& o = solver_->options;
  o.maxIterations = 100;
  o.maxStep = 0.1;
  o.restarts = 0;
  o.postureWeight = 0;
  o.pinMode = dyn::IkPinMode::Strict;
  solver_->clearPins();
  for (const Pin& p : pins_)
    if (p.frame != frame_) solver_->addPin(dyn::IkTask{p.frame, p.pose, 1.0, false});
  grabbed_ = part;
  reported_ = false;
  gizmo_.setHighlight(part);
  viewport_->update();
  return true;
}

void IkDragController::dragTo(const QPointF& pos) {
  const ikdrag::Ray ray = rayAt(pos);
  Eigen::Matrix3d R = R0_, handleR = handleR0_;
  Eigen::Vector3d p = p0_;
  if (grabbed_ <= IkGizmo::ArrowZ) {  // along the arrow: the axis point closest to the mouse ray
    const Eigen::Vector3d a = handleR0_.col(grabbed_ - IkGizmo::ArrowX);
    const auto t = ikdrag::closestOnLine(ray, p0_, a);
    if (!t) return;
    p = p0_ + (*t - t0_) * a;
  } else if (grabbed_ == IkGizmo::Centre) {  // in the camera-facing plane through the grab point
    const auto hit = ikdrag::hitPlane(ray, start_, planeNormal_);
    if (!hit) return;
    p = p0_ + (*hit - start_);
  } else {  // about the ring's axis: the angle swept in its plane
    const auto hit = ikdrag::hitPlane(ray, p0_, planeNormal_);
    if (!hit) return;
    const Eigen::AngleAxisd turn(ikdrag::angleAbout(planeNormal_, start_ - p0_, *hit - p0_), planeNormal_);
    R = turn * R0_;
    handleR = turn * handleR0_;
  }
  gizmo_.setPose(handleR, p);
  solveFor(R, p);
  viewport_->update();
}

void IkDragController::solveFor(const Eigen::Matrix3d& R, const Eigen::Vector3d& p) {
  const dyn::Model& m = doc_->model();
  const bool posOnly = positionOnly_->isChecked();
  const Eigen::VectorXd q0 = doc_->q();
  const dyn::IkResult* result = nullptr;
  try {
    solver_->setTarget(dyn::IkTask{frame_, dyn::Transform<double>::fromPose(R, p), 1.0, posOnly});
    result = &solver_->solve(q0);
  } catch (const std::exception& e) {
    emit message(QString::fromStdString(e.what()));
    return;
  }
  dyn::IkResult r = *result;
  // The pose out of reach from here (a joint at a limit, or locked joints, in the way of the
  // orientation; the nearest configurations that keep it may be far off in joint space): let the
  // position follow with the orientation free, rather than the whole arm standing still, and say
  // which joints rest at a limit.
  bool freed = false;
  if (!posOnly && (r.positionError > kReachPosition || r.rotationError > kReachRotation)) {
    QStringList atLimit;
    if (!r.limitedDofs.empty()) {
      const std::vector<std::string> names = dyn::velocityNames(m);  // once, not per dof
      for (int v : r.limitedDofs) atLimit << QString::fromStdString(names[size_t(v)]);
    }
    try {
      solver_->setTarget(dyn::IkTask{frame_, dyn::Transform<double>::fromPose(R, p), 1.0, true});
      const dyn::IkResult& free = solver_->solve(q0);
      if (free.positionError <= kReachPosition && free.q.allFinite()) {
        r = free;
        freed = true;
        // The angle still to go, from the pose the position-only solve reached.
        r.rotationError = std::acos(std::clamp(
            0.5 * ((R.transpose() * solver_->framePose(frame_, free.q).rotation()).trace() - 1.0), -1.0, 1.0));
        if (!freedReported_)
          emit message(
              atLimit.isEmpty()
                  ? tr("the orientation cannot be kept from here: the position follows, the orientation is free")
                  : tr("the orientation cannot be kept from here (%1 at a limit): the position follows, the "
                       "orientation is free")
                        .arg(atLimit.join(", ")));
      }
    } catch (const std::exception&) {  // not expected: the same q0 and frame were accepted just above
    }
  }
  freedReported_ = freed;
  Eigen::VectorXd q = r.q;
  if (!q.allFinite()) return;
  // Bounded step: a mouse move never moves a dof by more than kMaxMoveStep; the rest follows with
  // the next moves. The scaled step stays inside the (convex) limit box.
  Eigen::VectorXd v(m.nv);
  dyn::difference(m, q0, q, v);
  const double biggest = v.lpNorm<Eigen::Infinity>();
  if (biggest > kMaxMoveStep) dyn::integrate(m, q0, v, kMaxMoveStep / biggest, q);
  // Closed loops: the solver moved along the loop constraints, so r.q is assembled; a move cut
  // short above is re-assembled by the document (independent coordinates held, the dependent ones
  // solved; refused when a loop cannot close there), so the mechanism is never torn apart.
  doc_->setQ(q);

  const bool out = r.positionError > kReachPosition || (!posOnly && !freed && r.rotationError > kReachRotation);
  gizmo_.setOutOfReach(out);
  if (out && !reported_) {
    emit message(posOnly || r.positionError > kReachPosition
                     ? tr("target out of reach: %1 m away").arg(r.positionError, 0, 'f', 3)
                     : tr("target out of reach: %1° away in orientation").arg(r.rotationError * 180 / M_PI, 0, 'f', 1));
  }
  reported_ = out;
  readout_.valid = true;
  readout_.positionError = r.positionError;
  if (m.hasLoops())  // where the frame is after the assembly, not where the tree's IK put it
    readout_.positionError = (doc_->data().oMf[frame_].translation() - p).norm();
  readout_.rotationError = r.rotationError;
  readout_.pinError = r.pinError;
  readout_.iterations = r.iterations;
  readout_.converged = r.converged;
  readout_.reachable = !out;
  readout_.orientationFreed = freed;
  emit readoutChanged();
}

void IkDragController::endDrag() {
  grabbed_ = IkGizmo::None;
  gizmo_.setHighlight(IkGizmo::None);
  gizmo_.setOutOfReach(false);  // the handle snaps back onto the link, which is where it is
  placeGizmo();
  if (doc_->q() != qBefore_ && undo_) {
    const QString link = QString::fromStdString(doc_->model().frames[frame_].name);
    undo_->push(new IkDragCommand(doc_, qBefore_, doc_->q(), link));
  }
  emit dragFinished();
}
