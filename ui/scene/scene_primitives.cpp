#include "scene/scene_primitives.hpp"

#include <vtkActor.h>
#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataAlgorithm.h>
#include <vtkPolyDataMapper.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkUnsignedCharArray.h>

#include <array>

namespace scene {

// Pose (rotation R, scaled by s, and origin p) as a row-major 4x4.
void poseToMatrix(const Mat3& R, const Vec3& p, double s, double m[16]) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) m[4 * r + c] = R(r, c) * s;
    m[4 * r + 3] = p[r];
  }
  m[12] = m[13] = m[14] = 0;
  m[15] = 1;
}
// The world pose of a frame from its Plücker transform frame_X_0 (R = E^T, origin r).
void transformToMatrix(const Tf& X, double m[16]) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) m[4 * r + c] = X.E(c, r);
    m[4 * r + 3] = X.r[r];
  }
  m[12] = m[13] = m[14] = 0;
  m[15] = 1;
}

vtkSmartPointer<vtkPolyData> output(vtkPolyDataAlgorithm* alg) {
  alg->Update();
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->ShallowCopy(alg->GetOutput());
  return poly;
}

vtkSmartPointer<vtkPolyData> transformed(vtkPolyData* in, vtkTransform* t) {
  vtkNew<vtkTransformPolyDataFilter> f;
  f->SetInputData(in);
  f->SetTransform(t);
  return output(f);
}

vtkSmartPointer<vtkPolyData> boxPoly(double x, double y, double z) {
  vtkNew<vtkCubeSource> s;
  s->SetXLength(x);
  s->SetYLength(y);
  s->SetZLength(z);
  return output(s);
}

vtkSmartPointer<vtkPolyData> spherePoly(double r, int theta, int phi) {
  vtkNew<vtkSphereSource> s;
  s->SetRadius(r);
  s->SetThetaResolution(theta);
  s->SetPhiResolution(phi);
  return output(s);
}

// URDF cylinders run along z, VTK's along y.
vtkSmartPointer<vtkPolyData> cylinderPoly(double r, double length) {
  vtkNew<vtkCylinderSource> s;
  s->SetRadius(r);
  s->SetHeight(length);
  s->SetResolution(48);
  s->CappingOn();
  vtkNew<vtkTransform> t;
  t->RotateX(90.0);  // y -> z
  return transformed(output(s), t);
}

// Point colours (cheaper to draw than cell colours, which OpenGL2 looks up in a texture).
void setPointColor(vtkPolyData* poly, const std::array<double, 3>& rgb) {
  vtkNew<vtkUnsignedCharArray> c;
  c->SetName("Colors");
  c->SetNumberOfComponents(3);
  c->SetNumberOfTuples(poly->GetNumberOfPoints());
  const unsigned char v[3] = {static_cast<unsigned char>(rgb[0] * 255), static_cast<unsigned char>(rgb[1] * 255),
                              static_cast<unsigned char>(rgb[2] * 255)};
  for (vtkIdType i = 0; i < poly->GetNumberOfPoints(); ++i) c->SetTypedTuple(i, v);
  poly->GetPointData()->SetScalars(c);
}

// An arrow of unit length from the origin along +x (VTK's arrow), thicker when asked.
vtkSmartPointer<vtkPolyData> arrowPoly(double shaft, double tip, double tipLength) {
  vtkNew<vtkArrowSource> a;
  a->SetShaftRadius(shaft);
  a->SetTipRadius(tip);
  a->SetTipLength(tipLength);
  a->SetShaftResolution(16);
  a->SetTipResolution(20);
  return output(a);
}

// Frame triad: x red, y green, z blue arrows of length 1.
vtkSmartPointer<vtkPolyData> triadPoly() {
  vtkNew<vtkAppendPolyData> app;
  const std::array<std::array<double, 3>, 3> colors{{{0.90, 0.15, 0.15}, {0.15, 0.72, 0.15}, {0.15, 0.30, 0.95}}};
  for (int axis = 0; axis < 3; ++axis) {
    vtkNew<vtkTransform> t;
    if (axis == 1) t->RotateZ(90.0);   // x -> y
    if (axis == 2) t->RotateY(-90.0);  // x -> z
    auto arrow = transformed(arrowPoly(0.035, 0.09, 0.25), t);
    setPointColor(arrow, colors[axis]);
    app->AddInputData(arrow);
  }
  return output(app);
}

// Joint axis: a thick arrow along +z of unit length, starting a little behind the origin.
vtkSmartPointer<vtkPolyData> jointAxisPoly() {
  vtkNew<vtkTransform> t;
  t->Translate(0, 0, -0.25);
  t->RotateY(-90.0);  // x -> z
  t->Scale(1.25, 1.25, 1.25);
  return transformed(arrowPoly(0.04, 0.1, 0.2), t);
}

// The classic centre-of-mass marker: a unit sphere of eight octants, alternately light and dark.
vtkSmartPointer<vtkPolyData> comMarkerPoly(const std::array<double, 3>& light, const std::array<double, 3>& dark) {
  vtkNew<vtkAppendPolyData> app;
  for (int o = 0; o < 8; ++o) {
    const int quadrant = o & 3;
    const bool upper = o < 4;
    vtkNew<vtkSphereSource> s;
    s->SetRadius(1.0);
    s->SetThetaResolution(8);
    s->SetPhiResolution(7);
    s->SetStartTheta(90.0 * quadrant);
    s->SetEndTheta(90.0 * (quadrant + 1));
    s->SetStartPhi(upper ? 0.0 : 90.0);
    s->SetEndPhi(upper ? 90.0 : 180.0);
    auto piece = output(s);
    setPointColor(piece, (quadrant + (upper ? 1 : 0)) % 2 ? dark : light);
    app->AddInputData(piece);
  }
  return output(app);
}

vtkSmartPointer<vtkActor> makeActor(vtkPolyData* poly, bool pointColors) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(poly);
  if (pointColors) {
    mapper->ScalarVisibilityOn();
    mapper->SetScalarModeToUsePointData();
    mapper->SetColorModeToDirectScalars();
  } else {
    mapper->ScalarVisibilityOff();
  }
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  return actor;
}

}  // namespace scene
