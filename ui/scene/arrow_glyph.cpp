#include "scene/arrow_glyph.hpp"
#include "viewport/render_scale.hpp"

#include <vtkActor.h>
#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkCamera.h>
#include <vtkConeSource.h>
#include <vtkMath.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

vtkSmartPointer<vtkPolyDataMapper> unitArrowMapper(bool twoHeads, int shaftResolution, int tipResolution) {
  vtkNew<vtkArrowSource> arrow;  // unit length along +x
  arrow->SetShaftRadius(kArrowShaft);
  arrow->SetTipRadius(0.09);
  arrow->SetTipLength(0.22);
  arrow->SetShaftResolution(shaftResolution);
  arrow->SetTipResolution(tipResolution);
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  if (!twoHeads) {
    mapper->SetInputConnection(arrow->GetOutputPort());
    return mapper;
  }
  vtkNew<vtkConeSource> cone;  // the second head of an angular quantity
  cone->SetHeight(0.22);
  cone->SetRadius(0.09);
  cone->SetResolution(tipResolution);
  cone->SetCenter(0.67, 0, 0);
  cone->SetDirection(1, 0, 0);
  vtkNew<vtkAppendPolyData> both;
  both->AddInputConnection(arrow->GetOutputPort());
  both->AddInputConnection(cone->GetOutputPort());
  mapper->SetInputConnection(both->GetOutputPort());
  return mapper;
}

void placeArrow(vtkActor* actor, const Eigen::Vector3d& origin, const Eigen::Vector3d& direction, double length,
                double width) {
  const Eigen::Vector3d d = direction.normalized();
  const Eigen::Vector3d helper = std::abs(d.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d e1 = d.cross(helper).normalized(), e2 = d.cross(e1);
  vtkNew<vtkMatrix4x4> m;
  for (int r = 0; r < 3; ++r) {
    m->SetElement(r, 0, d[r] * length);
    m->SetElement(r, 1, e1[r] * width);
    m->SetElement(r, 2, e2[r] * width);
    m->SetElement(r, 3, origin[r]);
  }
  actor->SetUserMatrix(m);
}

double pixelsPerMetreAt(vtkRenderer* renderer, const Eigen::Vector3d& p) {
  const int* size = renderer ? renderer->GetSize() : nullptr;
  if (!size || size[1] <= 0 || !renderer->GetRenderWindow()) return 0;
  const double height = size[1] / viewport::renderScale();  // on screen, also in a moving frame
  vtkCamera* cam = renderer->GetActiveCamera();
  if (cam->GetParallelProjection()) return height / (2 * cam->GetParallelScale());
  Eigen::Vector3d eye, dop;
  cam->GetPosition(eye.data());
  cam->GetDirectionOfProjection(dop.data());
  const double depth = std::max((p - eye).dot(dop), 1e-6);
  return height / (2 * depth * std::tan(vtkMath::RadiansFromDegrees(cam->GetViewAngle() / 2)));
}
