// Dragging the IK handle as a user does, for the GUI suites: the world -> widget mapping of the 3D
// view and a press-move-release along one of the handle's arrows.
#pragma once
#include <Eigen/Core>
#include <QPointF>
#include <QTest>
#include <cmath>

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include "ik/ik_drag_controller.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

namespace dyn::testing {

// World point -> widget pixel of the 3D view (the inverse of the IK controller's mapping).
inline QPointF viewportPoint(MainWindow& window, const Eigen::Vector3d& p) {
  vtkRenderer* r = window.viewport()->renderer();
  r->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
  r->WorldToDisplay();
  const double* d = r->GetDisplayPoint();
  const double dpr = window.viewport()->devicePixelRatioF();
  const int H = window.viewport()->renderWindow()->GetSize()[1];
  return {d[0] / dpr, (H - 1 - d[1]) / dpr};
}

// Renders until the handle's size (it follows the camera at each render) settles.
inline void settleGizmo(MainWindow& window, IkDragController* ik) {
  double scale = -1;
  for (int k = 0; k < 20 && ik->gizmo().scale() != scale; ++k) {
    scale = ik->gizmo().scale();
    window.viewport()->grabFramebuffer();
    settle(30);
  }
}

// Grabs the handle at `p0` (the dragged frame's origin) on the shaft of the arrow along `axis`
// (a unit world axis) and drags it `pixels` back along the arrow's screen direction in six moves;
// returns the part the press grabbed. The mouse is released at the end.
inline IkGizmo::Part dragGizmoArrow(MainWindow& window, IkDragController* ik, const Eigen::Vector3d& p0,
                                    const Eigen::Vector3d& axis, double pixels, QPointF* releasedAt = nullptr,
                                    Eigen::Vector3d* grabbed = nullptr) {
  ik->gizmo().syncCamera();  // the handle's size as a press will see it
  const double s = ik->gizmo().scale();
  const Eigen::Vector3d grab = p0 + 0.6 * s * axis;  // on the arrow's shaft
  const QPointF from = viewportPoint(window, grab);
  QPointF dir = viewportPoint(window, p0 + s * axis) - viewportPoint(window, p0);
  dir /= std::hypot(dir.x(), dir.y());
  const QPointF to = from - pixels * dir;
  QTest::mousePress(window.viewport(), Qt::LeftButton, Qt::NoModifier, from.toPoint());
  const IkGizmo::Part part = ik->grabbedPart();
  for (int k = 1; k <= 6; ++k) QTest::mouseMove(window.viewport(), (from + (to - from) * (k / 6.0)).toPoint());
  QTest::mouseRelease(window.viewport(), Qt::LeftButton, Qt::NoModifier, to.toPoint());
  if (releasedAt) *releasedAt = to;
  if (grabbed) *grabbed = grab;
  return part;
}

}  // namespace dyn::testing
