#include "scene/robot_scene.hpp"

#include <vtkActor.h>
#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkCaptionActor2D.h>
#include <vtkCellArray.h>
#include <vtkCellPicker.h>
#include <vtkCoordinate.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkIdList.h>
#include <vtkLight.h>
#include <vtkMapper.h>
#include <vtkMath.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPropCollection.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderWindowInteractor.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkUnsignedCharArray.h>

#include <Eigen/Eigenvalues>
#include <QHash>
#include <QSet>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_set>
#include <vector>

#include "dynscope/algorithms/energy.hpp"
#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"
#include "scene/mesh_resolver.hpp"
#include "scene/scene_overlay.hpp"
#include "viewport/vtk_viewport.hpp"

namespace {

using Tf = dyn::Transform<double>;
using Vec3 = dyn::Vec3<double>;
using Mat3 = dyn::Mat3<double>;

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

vtkSmartPointer<vtkPolyData> spherePoly(double r, int theta = 40, int phi = 24) {
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

vtkSmartPointer<vtkActor> makeActor(vtkPolyData* poly, bool pointColors = false) {
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

// Principal frame of an inertia about its COM (columns of R, right-handed) and, per principal
// axis k, s_k = (I_j + I_l - I_k) / m: the mean square extent along k, the same for every solid
// of uniform density. A uniform box with edges a, b, c has I_x = m (b^2 + c^2) / 12, so s_x = a^2 / 6
// and the edge is sqrt(6 s); a uniform ellipsoid with semi-axes a, b, c has I_x = m (b^2 + c^2) / 5,
// so s_x = 2 a^2 / 5 and the diameter 2a is sqrt(10 s).
bool principalSquares(const dyn::Inertia<double>& I, Vec3& center, Mat3& R, Vec3& squares) {
  if (!(I.m > 1e-9)) return false;
  center = I.com();
  Eigen::SelfAdjointEigenSolver<Mat3> es(I.inertiaAboutCom());
  if (es.info() != Eigen::Success) return false;
  const Vec3 e = es.eigenvalues();
  R = es.eigenvectors();
  if (R.determinant() < 0) R.col(2) = -R.col(2);
  for (int k = 0; k < 3; ++k) squares[k] = std::max((e[(k + 1) % 3] + e[(k + 2) % 3] - e[k]) / I.m, 0.0);
  return true;
}

// Full lengths along the principal axes of the equivalent uniform solid: sqrt(factor * s_k), the
// box's edges (factor 6) or the ellipsoid's diameters (factor 10).
bool equivalentSolid(const dyn::Inertia<double>& I, double factor, Vec3& center, Mat3& R, Vec3& dims) {
  Vec3 squares;
  if (!principalSquares(I, center, R, squares)) return false;
  for (int k = 0; k < 3; ++k) dims[k] = std::sqrt(factor * squares[k]);
  const double biggest = dims.maxCoeff();
  if (!(biggest > 1e-6) || !std::isfinite(biggest)) return false;
  for (int k = 0; k < 3; ++k) dims[k] = std::max(dims[k], 0.01 * biggest);  // thin rods stay visible
  return true;
}
constexpr double kBoxFactor = 6.0, kEllipsoidFactor = 10.0;

bool inertiaBox(const dyn::Inertia<double>& I, Vec3& center, Mat3& R, Vec3& dims) {
  return equivalentSolid(I, kBoxFactor, center, R, dims);
}

double comRadius(double mass) { return std::clamp(0.018 * std::cbrt(mass), 0.006, 0.05); }

// Loop-closure joints: per joint, four dashed segments (predecessor origin to F1, successor origin
// to F2, the joint axis through F1, the gap F1-F2) of kDashes dashes each.
constexpr int kLoopSegments = 4, kDashes = 9;
constexpr std::array<double, 3> kLoopColor{0.85, 0.1, 0.75}, kGapColor{0.95, 0.1, 0.1};

// Dashes of the segment a-b into points [first, first + 2 kDashes): dash j covers [j, j + 0.55] / kDashes.
void setDashes(vtkPoints* pts, vtkIdType first, const Vec3& a, const Vec3& b) {
  for (int j = 0; j < kDashes; ++j) {
    const Vec3 p0 = a + (b - a) * (j / double(kDashes)), p1 = a + (b - a) * ((j + 0.55) / kDashes);
    pts->SetPoint(first + 2 * j, p0.x(), p0.y(), p0.z());
    pts->SetPoint(first + 2 * j + 1, p1.x(), p1.y(), p1.z());
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------

struct RobotScene::Impl {
  vtkSmartPointer<vtkRenderer> renderer;

  struct Geom {
    vtkSmartPointer<vtkActor> actor;
    vtkSmartPointer<vtkMatrix4x4> matrix;
    Tf placement;  // geometry_X_body
    int body = 0;
    bool collision = false, placeholder = false, meshColors = false;
    QString link;
    std::array<double, 4> rgba{0.7, 0.7, 0.7, 1.0};
  };
  struct Posed {  // a decoration fixed to a body or frame
    vtkSmartPointer<vtkActor> actor;
    vtkSmartPointer<vtkMatrix4x4> matrix;
    int index = 0;  // body or frame
    Mat3 R = Mat3::Identity();
    Vec3 p = Vec3::Zero();  // in body coordinates
    double scale = 1;
  };
  struct Label {  // 2D text anchored at a world point: always readable, never hidden by links
    vtkSmartPointer<vtkTextActor> actor;
    int body = 0;
    int frame = -1;
  };

  std::vector<Geom> geoms;
  QHash<vtkActor*, int> geomOfActor;
  std::vector<Posed> frames, jointAxes, coms, inertiaBoxes, inertiaEllipsoids;
  std::vector<Label> labels;
  struct LoopMark {  // a loop-closure joint: F1 on body p, F2 on body s
    int p = 0, s = 0;
    Tf Xp, Xs;  // F1_X_p, F2_X_s
    vtkSmartPointer<vtkActor> ring, ball;
    vtkSmartPointer<vtkMatrix4x4> ringMatrix, ballMatrix;
  };
  std::vector<LoopMark> loops;
  std::unique_ptr<SceneOverlay> loopOverlay;  // the loop marks, drawn over the robot (made on first use)
  vtkSmartPointer<vtkPolyData> loopLines;     // kLoopSegments dashed segments per loop joint
  vtkSmartPointer<vtkActor> loopLinesActor;
  double loopSize = 0.02;  // marker radius (m), from the robot's size
  vtkSmartPointer<vtkActor> robotCom, robotComLine;
  vtkSmartPointer<vtkMatrix4x4> robotComMatrix, robotComLineMatrix;
  vtkSmartPointer<vtkActor> grid;
  vtkSmartPointer<vtkAxesActor> worldAxes;
  vtkSmartPointer<vtkCellPicker> picker;
  vtkSmartPointer<vtkPolyData> triad, axisArrow, comMarker, robotComMarker;

  // Primitive shapes by kind and size, shared by every actor of that shape: a generated chain of
  // 1,000 equal links builds one cylinder, not 1,000 (geometry generation was a third of loading).
  std::map<std::array<double, 4>, vtkSmartPointer<vtkPolyData>> shapes;
  template <class Make>
  vtkPolyData* shape(double kind, double a, double b, double c, Make make) {
    auto& slot = shapes[{kind, a, b, c}];
    if (!slot) slot = make();
    return slot;
  }

  int nBodies = 0;
  bool built = false, posed = false;
  QStringList problems;
  double gridHalfExtent = 0;

  // vtkRenderer::AddActor and RemoveActor search the renderer's whole prop list each time
  // (vtkCollection::IsItemPresent, RemoveItem): quadratic over the thousands of props of a 1,000-body
  // robot, 25 s of its loading. Every prop added here is new, so it is appended directly; the robot's
  // props are removed in one pass that keeps everything else (grid, world axes).
  void addProp(vtkProp* prop) {
    renderer->GetViewProps()->AddItem(prop);
    prop->AddConsumer(renderer);
  }
  // Loop marks go over the robot: a pin inside a piston or a parallelogram's bar would hide them.
  void addLoopProp(vtkProp* prop) {
    if (!loopOverlay) loopOverlay = std::make_unique<SceneOverlay>(renderer);
    loopOverlay->renderer()->AddViewProp(prop);
  }
  void removeAll() {
    if (loopOverlay) loopOverlay->renderer()->RemoveAllViewProps();
    std::unordered_set<vtkProp*> ours;
    for (auto& g : geoms) ours.insert(g.actor);
    for (auto* list : {&frames, &jointAxes, &coms, &inertiaBoxes, &inertiaEllipsoids})
      for (auto& p : *list) ours.insert(p.actor);
    for (auto& l : labels) ours.insert(l.actor);
    if (robotCom) ours.insert(robotCom);
    if (robotComLine) ours.insert(robotComLine);
    if (!ours.empty()) {
      std::vector<vtkSmartPointer<vtkProp>> keep;
      vtkPropCollection* props = renderer->GetViewProps();
      props->InitTraversal();
      for (vtkProp* p = props->GetNextProp(); p; p = props->GetNextProp())
        if (!ours.count(p)) keep.emplace_back(p);
      renderer->RemoveAllViewProps();
      for (auto& p : keep) addProp(p);
    }
    shapes.clear();
    geoms.clear();
    geomOfActor.clear();
    frames.clear();
    jointAxes.clear();
    coms.clear();
    inertiaBoxes.clear();
    inertiaEllipsoids.clear();
    labels.clear();
    loops.clear();
    loopLines = nullptr;
    loopLinesActor = nullptr;
    robotCom = robotComLine = nullptr;
    built = posed = false;
    nBodies = 0;
    problems.clear();
  }

  Posed addPosed(vtkPolyData* poly, int index, bool pointColors) {
    Posed p;
    p.actor = makeActor(poly, pointColors);
    p.matrix = vtkSmartPointer<vtkMatrix4x4>::New();
    p.actor->SetUserMatrix(p.matrix);
    p.actor->PickableOff();
    p.actor->VisibilityOff();
    p.index = index;
    addProp(p.actor);
    return p;
  }

  // Bounds of the robot's geometry actors (visible ones when any, else all).
  bool robotBounds(double b[6], bool visibleOnly) const {
    b[0] = b[2] = b[4] = VTK_DOUBLE_MAX;
    b[1] = b[3] = b[5] = VTK_DOUBLE_MIN;
    bool any = false;
    for (const auto& g : geoms) {
      if (visibleOnly && !g.actor->GetVisibility()) continue;
      const double* gb = g.actor->GetBounds();
      if (!gb || gb[0] > gb[1]) continue;
      for (int k = 0; k < 3; ++k) {
        b[2 * k] = std::min(b[2 * k], gb[2 * k]);
        b[2 * k + 1] = std::max(b[2 * k + 1], gb[2 * k + 1]);
      }
      any = true;
    }
    return any;
  }
};

RobotScene::RobotScene(vtkRenderer* renderer, QObject* parent) : QObject(parent), d_(new Impl) {
  d_->renderer = renderer;
  d_->picker = vtkSmartPointer<vtkCellPicker>::New();
  d_->picker->SetTolerance(0.0005);
  d_->picker->PickFromListOn();
  d_->triad = triadPoly();
  d_->axisArrow = jointAxisPoly();
  d_->comMarker = comMarkerPoly({0.95, 0.95, 0.95}, {0.05, 0.05, 0.05});
  d_->robotComMarker = comMarkerPoly({1.0, 0.85, 0.1}, {0.75, 0.05, 0.05});

  // One light that follows the camera, above and to the left of it (a single light: every
  // extra light costs a full lighting pass in software OpenGL). Anti-aliasing and depth peeling
  // are the viewport's choice per frame (VtkViewport: adaptive quality).
  renderer->RemoveAllLights();
  renderer->AutomaticLightCreationOff();
  vtkNew<vtkLight> light;
  light->SetLightTypeToCameraLight();
  light->SetPosition(-0.2, 0.35, 1.0);
  light->SetFocalPoint(0, 0, 0);
  light->SetIntensity(1.0);
  renderer->AddLight(light);
  renderer->SetMaximumNumberOfPeels(8);
  renderer->SetOcclusionRatio(0.02);
  renderer->GetActiveCamera()->SetViewUp(0, 0, 1);
  renderer->GetActiveCamera()->SetPosition(2.5, 2.0, 1.6);
  renderer->GetActiveCamera()->SetFocalPoint(0, 0, 0.3);

  d_->worldAxes = vtkSmartPointer<vtkAxesActor>::New();
  d_->worldAxes->SetTotalLength(0.25, 0.25, 0.25);
  d_->worldAxes->SetShaftTypeToCylinder();
  d_->worldAxes->SetCylinderRadius(0.02);
  d_->worldAxes->SetConeRadius(0.5);
  d_->worldAxes->PickableOff();
  for (vtkCaptionActor2D* cap : {d_->worldAxes->GetXAxisCaptionActor2D(), d_->worldAxes->GetYAxisCaptionActor2D(),
                                 d_->worldAxes->GetZAxisCaptionActor2D()}) {
    cap->GetTextActor()->SetTextScaleModeToNone();
    cap->GetCaptionTextProperty()->SetFontSize(14);
    cap->GetCaptionTextProperty()->SetColor(0.1, 0.1, 0.1);
    cap->GetCaptionTextProperty()->ShadowOff();
    cap->GetCaptionTextProperty()->ItalicOff();
  }
  renderer->AddActor(d_->worldAxes);
  rebuildGrid(2.0);
  applyVisibility();
}

RobotScene::~RobotScene() {
  d_->removeAll();
  if (d_->grid) d_->renderer->RemoveActor(d_->grid);
  if (d_->worldAxes) d_->renderer->RemoveActor(d_->worldAxes);
}

vtkRenderer* RobotScene::renderer() const { return d_->renderer; }
bool RobotScene::hasModel() const { return d_->built; }
QStringList RobotScene::problems() const { return d_->problems; }

void RobotScene::requestRender() {
  emit changed();
  if (auto* rw = d_->renderer->GetRenderWindow())
    if (auto* iren = rw->GetInteractor()) iren->Render();  // VtkViewport: schedules a repaint
}

void RobotScene::report(const QString& text) {
  d_->problems << text;
  emit message(text);
}

void RobotScene::clear() {
  d_->removeAll();
  requestRender();
}

void RobotScene::setModel(const dyn::Model& model, const QString& sourceFile) {
  setModel(model, sourceFile, MeshLibrary::load(model, sourceFile));
}

void RobotScene::setModel(const dyn::Model& model, const QString& sourceFile, const MeshLibrary& meshes) {
  d_->removeAll();
  d_->nBodies = model.N + 1;
  selectedBody_ = -1;
  QSet<QString> reported;

  // Geometry.
  for (size_t gi = 0; gi < model.geometries.size(); ++gi) {
    const dyn::GeometryObject& go = model.geometries[gi];
    Impl::Geom g;
    g.placement = go.placement;
    g.body = go.body;
    g.collision = go.collision;
    g.link = QString::fromStdString(go.link);
    if (go.material.hasColor) g.rgba = go.material.rgba;
    vtkSmartPointer<vtkPolyData> poly;
    const dyn::Shape& s = go.shape;
    switch (s.kind) {
      case dyn::Shape::Kind::Box:
        poly = d_->shape(0, s.size.x(), s.size.y(), s.size.z(),
                         [&] { return boxPoly(s.size.x(), s.size.y(), s.size.z()); });
        break;
      case dyn::Shape::Kind::Cylinder:
        poly = d_->shape(1, s.radius, s.length, 0, [&] { return cylinderPoly(s.radius, s.length); });
        break;
      case dyn::Shape::Kind::Sphere:
        poly = d_->shape(2, s.radius, 0, 0, [&] { return spherePoly(s.radius); });
        break;
      case dyn::Shape::Kind::Mesh: {
        const QString uri = QString::fromStdString(s.meshUri);
        const LoadedMesh* mesh = meshes.find(uri);
        LoadedMesh loaded;
        if (!mesh) {  // not in the library given: read it now
          QString error;
          const QString path = resolveMeshPath(uri, sourceFile, &error);
          loaded = path.isEmpty() ? LoadedMesh{} : loadMeshFile(path);
          if (path.isEmpty())
            loaded.error = error;
          else if (!loaded.ok())
            loaded.error = QStringLiteral("cannot read '%1': %2").arg(path, loaded.error);
          mesh = &loaded;
        }
        if (mesh->ok()) {
          poly = mesh->polyData;
          if (s.scale != Vec3::Ones()) {
            vtkNew<vtkTransform> t;
            t->Scale(s.scale.x(), s.scale.y(), s.scale.z());
            poly = transformed(poly, t);
          }
          g.meshColors = mesh->hasColors && !go.material.hasColor;
        } else {
          // Placeholder: the body's equivalent inertia box when this link is the body's own,
          // else a 5 cm cube at the mesh origin; translucent.
          g.placeholder = true;
          Vec3 c, dims;
          Mat3 R;
          const bool ownLink = model.bodyNames[go.body] == go.link;
          if (ownLink && inertiaBox(model.I[go.body], c, R, dims) && dims.maxCoeff() < 3.0) {
            // box pose in geometry coordinates: geometry_X_body applied to (R, c)
            const Mat3 Rg = go.placement.E * R;
            const Vec3 pg = go.placement.pointToB(c);
            vtkNew<vtkTransform> t;
            double m[16];
            poseToMatrix(Rg, pg, 1.0, m);
            t->SetMatrix(m);
            poly = transformed(boxPoly(dims.x(), dims.y(), dims.z()), t);
          } else {
            poly = boxPoly(0.05, 0.05, 0.05);
          }
          if (!reported.contains(uri)) {
            reported.insert(uri);
            report(QStringLiteral("Link '%1': mesh '%2': %3. Drawn as a translucent placeholder box.")
                       .arg(g.link, uri, mesh->error));
          }
        }
        break;
      }
    }
    if (!poly) poly = boxPoly(0.05, 0.05, 0.05);
    g.actor = makeActor(poly);
    if (g.meshColors) {
      auto* mapper = static_cast<vtkPolyDataMapper*>(g.actor->GetMapper());
      mapper->ScalarVisibilityOn();
      mapper->SetScalarModeToUsePointData();
      mapper->SetColorModeToDirectScalars();
    }
    g.matrix = vtkSmartPointer<vtkMatrix4x4>::New();
    g.actor->SetUserMatrix(g.matrix);
    g.actor->VisibilityOff();
    d_->addProp(g.actor);
    d_->geomOfActor.insert(g.actor.Get(), int(gi));
    d_->geoms.push_back(std::move(g));
  }

  // Link frames: every model frame.
  for (size_t k = 0; k < model.frames.size(); ++k) d_->frames.push_back(d_->addPosed(d_->triad, int(k), true));

  // Joint axes: z of the body frame (canonical joint frames) for 1-DOF joints.
  for (int i = 1; i <= model.N; ++i) {
    const dyn::JointType t = model.joints[i].type;
    if (t != dyn::JointType::Revolute && t != dyn::JointType::Prismatic && t != dyn::JointType::Helical) continue;
    Impl::Posed p = d_->addPosed(d_->axisArrow, i, false);
    vtkProperty* prop = p.actor->GetProperty();
    if (t == dyn::JointType::Prismatic)
      prop->SetColor(0.85, 0.2, 0.85);
    else
      prop->SetColor(1.0, 0.72, 0.0);
    prop->SetAmbient(0.3);
    d_->jointAxes.push_back(p);
  }

  // Centres of mass and inertia boxes.
  double maxComRadius = 0;
  for (int i = 0; i <= model.N; ++i) {
    const auto& I = model.I[i];
    if (!(I.m > 1e-9)) continue;
    Impl::Posed c = d_->addPosed(d_->comMarker, i, true);
    c.p = I.com();
    c.scale = comRadius(I.m);
    maxComRadius = std::max(maxComRadius, c.scale);
    d_->coms.push_back(c);
    Vec3 center, dims;
    Mat3 R;
    if (equivalentSolid(I, kBoxFactor, center, R, dims)) {
      Impl::Posed b = d_->addPosed(
          d_->shape(0, dims.x(), dims.y(), dims.z(), [&] { return boxPoly(dims.x(), dims.y(), dims.z()); }), i, false);
      b.R = R;
      b.p = center;
      vtkProperty* prop = b.actor->GetProperty();
      prop->SetColor(0.85, 0.35, 0.25);
      prop->SetOpacity(0.35);
      prop->EdgeVisibilityOn();
      prop->SetEdgeColor(0.6, 0.15, 0.1);
      prop->SetLineWidth(1.5);
      d_->inertiaBoxes.push_back(b);
    }
    if (equivalentSolid(I, kEllipsoidFactor, center, R, dims)) {
      Impl::Posed e = d_->addPosed(d_->shape(3, dims.x(), dims.y(), dims.z(),
                                             [&] {
                                               vtkNew<vtkTransform> t;  // unit sphere stretched to the semi-axes
                                               t->Scale(dims.x() / 2, dims.y() / 2, dims.z() / 2);
                                               return transformed(spherePoly(1.0, 32, 19), t);
                                             }),
                                   i, false);
      e.R = R;
      e.p = center;
      vtkProperty* prop = e.actor->GetProperty();
      prop->SetColor(0.25, 0.45, 0.85);
      prop->SetOpacity(0.4);
      d_->inertiaEllipsoids.push_back(e);
    }
  }
  if (model.totalMass() > 0) {
    d_->robotComMatrix = vtkSmartPointer<vtkMatrix4x4>::New();
    d_->robotCom = makeActor(d_->robotComMarker, true);
    d_->robotCom->SetUserMatrix(d_->robotComMatrix);
    d_->robotCom->PickableOff();
    d_->robotCom->SetScale(std::clamp(1.3 * maxComRadius, 0.02, 0.06));
    d_->renderer->AddActor(d_->robotCom);
    // Vertical line from the robot's COM down to the ground (its projection).
    vtkNew<vtkPolyData> line;
    vtkNew<vtkPoints> pts;
    pts->InsertNextPoint(0, 0, 0);
    pts->InsertNextPoint(0, 0, -1);
    vtkNew<vtkCellArray> cells;
    const vtkIdType ids[2] = {0, 1};
    cells->InsertNextCell(2, ids);
    line->SetPoints(pts);
    line->SetLines(cells);
    d_->robotComLineMatrix = vtkSmartPointer<vtkMatrix4x4>::New();
    d_->robotComLine = makeActor(line);
    d_->robotComLine->SetUserMatrix(d_->robotComLineMatrix);
    d_->robotComLine->PickableOff();
    d_->robotComLine->GetProperty()->SetColor(0.75, 0.05, 0.05);
    d_->robotComLine->GetProperty()->SetLineWidth(2.0);
    d_->robotComLine->GetProperty()->LightingOff();
    d_->renderer->AddActor(d_->robotComLine);
  }

  // Loop-closure joints (markers at their two frames, dashed lines; see the header).
  if (!model.loops.empty()) {
    double reach = 0.05;  // marker size from the robot's size: its largest joint offset
    for (int i = 1; i <= model.N; ++i) reach = std::max(reach, model.Xtree[i].r.norm());
    d_->loopSize = std::clamp(0.035 * reach, 0.006, 0.03);
    auto ring = cylinderPoly(1.0, 0.7), ball = spherePoly(0.6, 24, 16);
    for (const auto& J : model.loops) {
      Impl::LoopMark l;
      l.p = J.predecessor;
      l.s = J.successor;
      l.Xp = J.Xp;
      l.Xs = J.Xs;
      for (auto* which : {&l.ring, &l.ball}) {
        *which = makeActor(which == &l.ring ? ring.Get() : ball.Get());
        auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
        (*which)->SetUserMatrix(matrix);
        (which == &l.ring ? l.ringMatrix : l.ballMatrix) = matrix;
        (*which)->PickableOff();
        (*which)->VisibilityOff();
        vtkProperty* prop = (*which)->GetProperty();
        prop->SetColor(kLoopColor[0], kLoopColor[1], kLoopColor[2]);
        prop->SetAmbient(0.35);
        prop->SetOpacity(which == &l.ring ? 0.55 : 0.9);
        d_->addLoopProp(*which);
      }
      d_->loops.push_back(l);
    }
    const vtkIdType n = vtkIdType(model.loops.size()) * kLoopSegments * kDashes * 2;
    vtkNew<vtkPoints> pts;
    pts->SetDataTypeToDouble();  // the drawn points are the engine's, to the digit (tests read them back)
    pts->SetNumberOfPoints(n);
    for (vtkIdType k = 0; k < n; ++k) pts->SetPoint(k, 0, 0, 0);
    vtkNew<vtkCellArray> cells;
    for (vtkIdType k = 0; k < n; k += 2) {
      const vtkIdType ids[2] = {k, k + 1};
      cells->InsertNextCell(2, ids);
    }
    d_->loopLines = vtkSmartPointer<vtkPolyData>::New();
    d_->loopLines->SetPoints(pts);
    d_->loopLines->SetLines(cells);
    setPointColor(d_->loopLines, kLoopColor);
    auto* colors = d_->loopLines->GetPointData()->GetScalars();
    const unsigned char red[3] = {static_cast<unsigned char>(kGapColor[0] * 255),
                                  static_cast<unsigned char>(kGapColor[1] * 255),
                                  static_cast<unsigned char>(kGapColor[2] * 255)};
    for (size_t k = 0; k < model.loops.size(); ++k)  // the gap segment (the last of each joint) in red
      for (int j = 0; j < 2 * kDashes; ++j)
        static_cast<vtkUnsignedCharArray*>(colors)->SetTypedTuple(
            vtkIdType(k) * kLoopSegments * kDashes * 2 + (kLoopSegments - 1) * kDashes * 2 + j, red);
    d_->loopLinesActor = makeActor(d_->loopLines, true);
    d_->loopLinesActor->PickableOff();
    d_->loopLinesActor->VisibilityOff();
    vtkProperty* prop = d_->loopLinesActor->GetProperty();
    prop->SetLineWidth(3.0);
    prop->LightingOff();
    d_->addLoopProp(d_->loopLinesActor);
  }

  // Link names at the link frames of the bodies.
  for (int i = model.floatingBase ? 1 : 0; i <= model.N; ++i) {
    Impl::Label l;
    l.body = i;
    l.frame = model.frameIndex(model.bodyNames[i]);
    l.actor = vtkSmartPointer<vtkTextActor>::New();
    l.actor->SetInput(model.bodyNames[i].c_str());
    l.actor->GetPositionCoordinate()->SetCoordinateSystemToWorld();
    l.actor->PickableOff();
    l.actor->VisibilityOff();
    vtkTextProperty* tp = l.actor->GetTextProperty();
    tp->SetFontSize(13);
    tp->SetColor(0.08, 0.08, 0.1);
    tp->SetBackgroundColor(1.0, 1.0, 0.92);
    tp->SetBackgroundOpacity(0.8);
    tp->SetFrame(1);
    tp->SetFrameColor(0.5, 0.5, 0.5);
    tp->SetJustificationToLeft();
    tp->SetVerticalJustificationToBottom();
    d_->addProp(l.actor);
    d_->labels.push_back(l);
  }

  d_->built = true;
  if (!groundFixed_) groundZ_ = 0.0;
  applyMaterials();
  applyVisibility();
  requestRender();
}

void RobotScene::updatePose(const dyn::Model& model, const dyn::Data& data) {
  if (!d_->built || int(data.X0.size()) != d_->nBodies || model.geometries.size() != d_->geoms.size() ||
      model.frames.size() != d_->frames.size())
    return;
  double m[16];
  for (auto& g : d_->geoms) {
    transformToMatrix(g.placement * data.X0[g.body], m);  // geometry_X_0
    g.matrix->DeepCopy(m);
  }
  for (auto& f : d_->frames) {
    const dyn::Frame<double>& fr = model.frames[f.index];
    const Tf X = fr.placement * data.X0[fr.body];
    poseToMatrix(X.E.transpose(), X.r, frameScale_, m);
    f.matrix->DeepCopy(m);
  }
  for (auto& a : d_->jointAxes) {
    const Tf& X = data.X0[a.index];
    poseToMatrix(X.E.transpose(), X.r, 1.5 * frameScale_, m);
    a.matrix->DeepCopy(m);
  }
  for (auto& c : d_->coms) {
    const Tf& X = data.X0[c.index];
    poseToMatrix(X.E.transpose(), X.pointToA(c.p), c.scale, m);
    c.matrix->DeepCopy(m);
  }
  for (auto* list : {&d_->inertiaBoxes, &d_->inertiaEllipsoids})
    for (auto& b : *list) {
      const Tf& X = data.X0[b.index];
      poseToMatrix(X.E.transpose() * b.R, X.pointToA(b.p), 1.0, m);
      b.matrix->DeepCopy(m);
    }
  for (auto& l : d_->labels) {
    const Vec3 p =
        l.frame >= 0 ? (model.frames[l.frame].placement * data.X0[model.frames[l.frame].body]).r : data.X0[l.body].r;
    l.actor->GetPositionCoordinate()->SetValue(p.x(), p.y(), p.z());
  }
  if (!d_->loops.empty() && d_->loops.size() == model.loops.size()) {
    vtkPoints* pts = d_->loopLines->GetPoints();
    vtkIdType first = 0;
    for (auto& l : d_->loops) {
      const Tf X1 = l.Xp * data.X0[l.p], X2 = l.Xs * data.X0[l.s];  // F1_X_0, F2_X_0
      poseToMatrix(X1.E.transpose(), X1.r, d_->loopSize, m);
      l.ringMatrix->DeepCopy(m);
      poseToMatrix(X2.E.transpose(), X2.r, d_->loopSize, m);
      l.ballMatrix->DeepCopy(m);
      const Vec3 axis = X1.E.row(2).transpose() * (3.0 * d_->loopSize);  // F1's z in world coordinates
      setDashes(pts, first, data.X0[l.p].r, X1.r);
      setDashes(pts, first + 2 * kDashes, data.X0[l.s].r, X2.r);
      setDashes(pts, first + 4 * kDashes, X1.r - axis, X1.r + axis);
      setDashes(pts, first + 6 * kDashes, X1.r, X2.r);
      first += kLoopSegments * kDashes * 2;
    }
    pts->Modified();
    d_->loopLines->Modified();
  }
  if (d_->robotCom) {
    const Vec3 c = dyn::centerOfMass(model, data);
    poseToMatrix(Mat3::Identity(), c, 1.0, m);
    d_->robotComMatrix->DeepCopy(m);
    const double h = std::max(c.z() - groundZ_, 1e-6);
    poseToMatrix(Mat3::Identity(), c, 1.0, m);
    m[10] = h;  // the unit line (0,0,0)-(0,0,-1) stretched down to the ground
    d_->robotComLineMatrix->DeepCopy(m);
  }

  if (!d_->posed) {  // first pose of this model: ground, grid, camera
    d_->posed = true;
    double b[6];
    if (d_->robotBounds(b, false)) {
      if (!groundFixed_) groundZ_ = std::min(0.0, b[4]) - 0.001;
      const double reach = std::max({std::abs(b[0]), std::abs(b[1]), std::abs(b[2]), std::abs(b[3]), b[5] - b[4]});
      rebuildGrid(std::max(1.0, std::ceil(reach * 1.5 + 0.25)));
      const double axes = std::clamp(0.15 * std::max(b[5] - b[4], reach), 0.1, 0.5);
      d_->worldAxes->SetTotalLength(axes, axes, axes);
    }
    applyVisibility();
    if (d_->robotCom) {  // the line depends on the ground found above
      const Vec3 c = dyn::centerOfMass(model, data);
      poseToMatrix(Mat3::Identity(), c, 1.0, m);
      m[10] = std::max(c.z() - groundZ_, 1e-6);
      d_->robotComLineMatrix->DeepCopy(m);
    }
    if (autoFit_) setViewPreset(Iso);
  }
  requestRender();
}

// ---- lookup -----------------------------------------------------------------------------------

QList<vtkActor*> RobotScene::actorsOfLink(const QString& link) const {
  QList<vtkActor*> out;
  for (const auto& g : d_->geoms)
    if (g.link == link) out << g.actor.Get();
  return out;
}

int RobotScene::loopJointCount() const { return int(d_->loops.size()); }

std::array<double, 6> RobotScene::loopJointEnds(int k) const {
  std::array<double, 6> out{};
  if (k < 0 || k >= int(d_->loops.size())) return out;
  for (int e = 0; e < 2; ++e) {
    vtkMatrix4x4* m = e == 0 ? d_->loops[size_t(k)].ringMatrix : d_->loops[size_t(k)].ballMatrix;
    for (int r = 0; r < 3; ++r) out[size_t(3 * e + r)] = m->GetElement(r, 3);
  }
  return out;
}

QList<vtkActor*> RobotScene::loopActors() const {
  QList<vtkActor*> out;
  for (const auto& l : d_->loops) out << l.ring.Get() << l.ball.Get();
  if (d_->loopLinesActor) out << d_->loopLinesActor.Get();
  return out;
}

vtkPolyData* RobotScene::loopLines() const { return d_->loopLines.Get(); }

QList<vtkActor*> RobotScene::geometryActors() const {
  QList<vtkActor*> out;
  for (const auto& g : d_->geoms) out << g.actor.Get();
  return out;
}

int RobotScene::bodyOfActor(vtkActor* actor) const {
  const auto it = d_->geomOfActor.constFind(actor);
  return it == d_->geomOfActor.constEnd() ? -1 : d_->geoms[it.value()].body;
}

bool RobotScene::isPlaceholder(vtkActor* actor) const {
  const auto it = d_->geomOfActor.constFind(actor);
  return it != d_->geomOfActor.constEnd() && d_->geoms[it.value()].placeholder;
}

// ---- appearance -------------------------------------------------------------------------------

void RobotScene::applyVisibility() {
  const bool posed = d_->posed;
  for (auto& g : d_->geoms) g.actor->SetVisibility(posed && (g.collision ? showCollision_ : showVisual_));
  for (auto& f : d_->frames) f.actor->SetVisibility(posed && showFrames_);
  for (auto& a : d_->jointAxes) a.actor->SetVisibility(posed && showJointAxes_);
  for (auto& c : d_->coms) c.actor->SetVisibility(posed && showCom_);
  for (auto& b : d_->inertiaBoxes) b.actor->SetVisibility(posed && showInertia_ && inertiaShape_ == InertiaShape::Box);
  for (auto& e : d_->inertiaEllipsoids)
    e.actor->SetVisibility(posed && showInertia_ && inertiaShape_ == InertiaShape::Ellipsoid);
  for (auto& l : d_->labels) l.actor->SetVisibility(posed && showNames_);
  for (auto& l : d_->loops) {
    l.ring->SetVisibility(posed && showLoops_);
    l.ball->SetVisibility(posed && showLoops_);
  }
  if (d_->loopLinesActor) d_->loopLinesActor->SetVisibility(posed && showLoops_);
  if (d_->robotCom) d_->robotCom->SetVisibility(posed && showCom_);
  if (d_->robotComLine) d_->robotComLine->SetVisibility(posed && showCom_);
  if (d_->grid) d_->grid->SetVisibility(showGrid_);
  d_->worldAxes->SetVisibility(showWorldAxes_);
}

void RobotScene::applyMaterials() {
  for (auto& g : d_->geoms) {
    vtkProperty* p = g.actor->GetProperty();
    std::array<double, 4> c = g.rgba;
    double alpha = c[3] * opacity_;
    if (g.collision) {
      c = {0.25, 0.72, 0.35, 1.0};
      alpha = 0.5;
    }
    if (g.placeholder) alpha = std::min(alpha, 0.35);
    p->SetColor(c[0], c[1], c[2]);
    p->SetSpecularColor(1, 1, 1);
    p->SetOpacity(alpha);
    p->SetDiffuse(0.8);
    p->SetSpecular(0.25);
    p->SetSpecularPower(30);
    const bool selected = g.body == selectedBody_;
    const bool warning = !selected && std::binary_search(warningBodies_.begin(), warningBodies_.end(), g.body);
    // A mesh's own colours would override the highlight: uniform colour while highlighted.
    if (g.meshColors) g.actor->GetMapper()->SetScalarVisibility(!selected && !warning);
    if (selected) {
      p->SetAmbientColor(1.0, 0.62, 0.05);
      p->SetAmbient(0.75);
      p->SetDiffuse(0.55);
    } else if (warning && !g.collision) {  // over a limit: red, fully opaque so it reads at a glance
      p->SetColor(0.9, 0.1, 0.08);
      p->SetAmbientColor(0.95, 0.1, 0.05);
      p->SetAmbient(0.6);
      p->SetOpacity(std::max(alpha, 0.85));
    } else {
      p->SetAmbient(0.22);  // one light: keep the faces turned away from it readable
    }
    p->SetEdgeVisibility(g.placeholder ? 1 : 0);
    p->SetEdgeColor(0.3, 0.3, 0.3);
  }
}

void RobotScene::rebuildGrid(double half) {
  if (d_->grid && half == d_->gridHalfExtent) {
    d_->grid->SetPosition(0, 0, groundZ_);
    return;
  }
  if (d_->grid) d_->renderer->RemoveActor(d_->grid);
  d_->gridHalfExtent = half;
  const double step = half <= 2.5 ? 0.1 : (half <= 6 ? 0.25 : 1.0);
  const int n = int(std::lround(half / step));
  vtkNew<vtkPoints> pts;
  vtkNew<vtkCellArray> lines;
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetName("Colors");
  colors->SetNumberOfComponents(3);
  const unsigned char minor[3] = {172, 177, 186}, major[3] = {110, 115, 125};
  for (int dir = 0; dir < 2; ++dir) {
    for (int k = -n; k <= n; ++k) {
      const double t = k * step;
      const double a[3] = {dir == 0 ? t : -half, dir == 0 ? -half : t, 0};
      const double b[3] = {dir == 0 ? t : half, dir == 0 ? half : t, 0};
      const vtkIdType ids[2] = {pts->InsertNextPoint(a), pts->InsertNextPoint(b)};
      lines->InsertNextCell(2, ids);
      const bool isMajor = std::abs(t - std::round(t)) < 1e-9;
      colors->InsertNextTypedTuple(isMajor ? major : minor);
      colors->InsertNextTypedTuple(isMajor ? major : minor);
    }
  }
  vtkNew<vtkPolyData> poly;
  poly->SetPoints(pts);
  poly->SetLines(lines);
  poly->GetPointData()->SetScalars(colors);
  d_->grid = makeActor(poly, true);
  d_->grid->GetProperty()->LightingOff();
  d_->grid->GetProperty()->SetLineWidth(1.0);
  d_->grid->PickableOff();
  d_->grid->SetPosition(0, 0, groundZ_);
  d_->grid->SetVisibility(showGrid_);
  d_->renderer->AddActor(d_->grid);
}

void RobotScene::setShowVisual(bool on) {
  showVisual_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowCollision(bool on) {
  showCollision_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowFrames(bool on) {
  showFrames_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowJointAxes(bool on) {
  showJointAxes_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowCom(bool on) {
  showCom_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowInertiaBoxes(bool on) {
  showInertia_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setInertiaShape(InertiaShape shape) {
  inertiaShape_ = shape;
  applyVisibility();
  requestRender();
}
QList<vtkActor*> RobotScene::inertiaActors() const {
  QList<vtkActor*> out;
  for (const auto& p : inertiaShape_ == InertiaShape::Box ? d_->inertiaBoxes : d_->inertiaEllipsoids)
    out << p.actor.Get();
  return out;
}
void RobotScene::setShowLinkNames(bool on) {
  showNames_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowGrid(bool on) {
  showGrid_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowWorldAxes(bool on) {
  showWorldAxes_ = on;
  applyVisibility();
  requestRender();
}

void RobotScene::setShowLoopJoints(bool on) {
  showLoops_ = on;
  applyVisibility();
  requestRender();
}

void RobotScene::setFrameScale(double metres) {
  if (!(metres > 0) || !std::isfinite(metres)) return;
  // Rescale the current matrices in place (no new pose needed).
  const double f = metres / frameScale_;
  frameScale_ = metres;
  for (auto* list : {&d_->frames, &d_->jointAxes})
    for (auto& p : *list)
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) p.matrix->SetElement(r, c, p.matrix->GetElement(r, c) * f);
  requestRender();
}

void RobotScene::setOpacity(double opacity) {
  opacity_ = std::clamp(opacity, 0.0, 1.0);
  applyMaterials();
  requestRender();
}

void RobotScene::setSelectedBody(int body) {
  selectedBody_ = body;
  applyMaterials();
  requestRender();
}

void RobotScene::setWarningBodies(const std::vector<int>& bodies) {
  std::vector<int> sorted = bodies;
  std::sort(sorted.begin(), sorted.end());
  if (sorted == warningBodies_) return;
  warningBodies_ = std::move(sorted);
  applyMaterials();
  requestRender();
}

void RobotScene::setGroundHeight(double z) {
  groundFixed_ = true;
  groundZ_ = z;
  if (d_->grid) d_->grid->SetPosition(0, 0, z);
  requestRender();
}

// ---- picking and camera -----------------------------------------------------------------------

int RobotScene::pickBody(const QPoint& pos, VtkViewport* viewport) const {
  vtkRenderWindow* rw = d_->renderer->GetRenderWindow();
  if (!rw || !d_->posed) return -1;
  const double dpr = viewport ? viewport->devicePixelRatioF() : 1.0;
  const int height = rw->GetSize()[1];
  d_->picker->InitializePickList();
  for (const auto& g : d_->geoms)
    if (g.actor->GetVisibility()) d_->picker->AddPickList(g.actor);
  if (!d_->picker->Pick(pos.x() * dpr, height - 1 - pos.y() * dpr, 0.0, d_->renderer)) return -1;
  return bodyOfActor(d_->picker->GetActor());
}

void RobotScene::handleClick(const QPoint& pos, VtkViewport* viewport) { emit picked(pickBody(pos, viewport)); }

double RobotScene::robotExtent() const {
  double b[6];
  if (!d_->robotBounds(b, true)) return 0;
  return std::sqrt((b[1] - b[0]) * (b[1] - b[0]) + (b[3] - b[2]) * (b[3] - b[2]) + (b[5] - b[4]) * (b[5] - b[4]));
}

void RobotScene::fitToRobot() {
  vtkCamera* cam = d_->renderer->GetActiveCamera();
  // The corners of every geometry's own (oriented) bounding box: much tighter than the robot's
  // axis-aligned box for a diagonal arm.
  std::vector<Vec3> pts;
  for (int pass = 0; pass < 2 && pts.empty(); ++pass) {
    for (const auto& g : d_->geoms) {
      if (pass == 0 && !g.actor->GetVisibility()) continue;
      const double* lb = g.actor->GetMapper()->GetBounds();
      if (!lb || lb[0] > lb[1]) continue;
      vtkMatrix4x4* M = g.actor->GetMatrix();
      for (int k = 0; k < 8; ++k) {
        const double local[4] = {lb[k & 1 ? 1 : 0], lb[k & 2 ? 3 : 2], lb[k & 4 ? 5 : 4], 1.0};
        double world[4];
        M->MultiplyPoint(local, world);
        pts.emplace_back(world[0], world[1], world[2]);
      }
    }
  }
  if (pts.empty() || !d_->posed) {
    d_->renderer->ResetCamera();
    requestRender();
    return;
  }
  // Keep the viewing direction; centre the robot's projection and choose the distance so that it
  // fills about 85 % of the limiting image dimension.
  Vec3 dop, up;
  cam->GetDirectionOfProjection(dop.data());
  cam->GetViewUp(up.data());
  up = (up - up.dot(dop) * dop).normalized();
  const Vec3 right = dop.cross(up);
  Vec3 c = Vec3::Zero();
  for (const Vec3& p : pts) c += p;
  c /= double(pts.size());
  double minX = 1e300, maxX = -1e300, minY = 1e300, maxY = -1e300;
  for (const Vec3& p : pts) {
    minX = std::min(minX, (p - c).dot(right));
    maxX = std::max(maxX, (p - c).dot(right));
    minY = std::min(minY, (p - c).dot(up));
    maxY = std::max(maxY, (p - c).dot(up));
  }
  c += 0.5 * (minX + maxX) * right + 0.5 * (minY + maxY) * up;
  const int* size = d_->renderer->GetSize();
  const double aspect = size && size[0] > 0 && size[1] > 0 ? double(size[0]) / size[1] : 1.0;
  const double margin = 0.85;
  const double tanV = std::tan(vtkMath::RadiansFromDegrees(cam->GetViewAngle() / 2)), tanH = aspect * tanV;
  double dist = 0, halfX = 0, halfY = 0, radius = 0;
  for (const Vec3& p : pts) {
    const Vec3 v = p - c;
    const double x = std::abs(v.dot(right)), y = std::abs(v.dot(up)), z = -v.dot(dop);  // z: towards the camera
    dist = std::max({dist, z + x / (tanH * margin), z + y / (tanV * margin)});
    halfX = std::max(halfX, x);
    halfY = std::max(halfY, y);
    radius = std::max(radius, v.norm());
  }
  if (cam->GetParallelProjection()) {
    cam->SetParallelScale(std::max({halfY, halfX / aspect, 1e-3}) / margin);
    dist = std::max(dist, 3 * radius);
  }
  dist = std::max(dist, 1e-3);
  cam->SetFocalPoint(c.data());
  cam->SetPosition((c - dist * dop).eval().data());
  cam->SetViewUp(up.data());
  d_->renderer->ResetCameraClippingRange();
  requestRender();
}

void RobotScene::setViewPreset(ViewPreset preset) {
  vtkCamera* cam = d_->renderer->GetActiveCamera();
  double dir[3] = {1.0, -1.0, 0.75}, up[3] = {0, 0, 1};
  switch (preset) {
    case Front:
      dir[0] = 1;
      dir[1] = 0;
      dir[2] = 0;
      break;  // from +x, looking back at the robot
    case Side:
      dir[0] = 0;
      dir[1] = -1;
      dir[2] = 0;
      break;  // from -y: x to the right
    case Top:
      dir[0] = 0;
      dir[1] = 0;
      dir[2] = 1;
      up[0] = 0;
      up[1] = 1;
      up[2] = 0;
      break;  // x right, y up
    case Iso:
      break;
  }
  double fp[3];
  cam->GetFocalPoint(fp);
  cam->SetPosition(fp[0] + dir[0], fp[1] + dir[1], fp[2] + dir[2]);
  cam->SetViewUp(up);
  fitToRobot();
}

void RobotScene::setParallelProjection(bool on) {
  vtkCamera* cam = d_->renderer->GetActiveCamera();
  if (on && !cam->GetParallelProjection())  // keep the apparent size at the focal point
    cam->SetParallelScale(cam->GetDistance() * std::tan(vtkMath::RadiansFromDegrees(cam->GetViewAngle() / 2)));
  cam->SetParallelProjection(on);
  d_->renderer->ResetCameraClippingRange();
  requestRender();
}
