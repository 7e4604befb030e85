#include "scene/geometry_layer.hpp"

#include <vtkDataArray.h>
#include <vtkMapper.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkTransform.h>

#include <QSet>
#include <algorithm>
#include <cmath>

#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"
#include "scene/inertia_geometry.hpp"
#include "scene/mesh_resolver.hpp"

using namespace scene;

namespace {

// The mean of a mesh's own point colours (what the eye takes for its colour), grey without any.
Rgb meanPointColour(vtkPolyData* poly) {
  vtkDataArray* c = poly->GetPointData() ? poly->GetPointData()->GetScalars() : nullptr;
  if (!c || c->GetNumberOfTuples() == 0 || c->GetNumberOfComponents() < 3) return {0.7, 0.7, 0.7};
  const double scale = c->GetDataType() == VTK_UNSIGNED_CHAR ? 1.0 / 255 : 1.0;
  Rgb sum{0, 0, 0};
  const vtkIdType n = c->GetNumberOfTuples(), step = std::max<vtkIdType>(1, n / 2000);
  vtkIdType used = 0;
  for (vtkIdType i = 0; i < n; i += step, ++used)
    for (int k = 0; k < 3; ++k) sum[size_t(k)] += c->GetComponent(i, k) * scale;
  for (double& v : sum) v = std::clamp(v / double(used), 0.0, 1.0);
  return sum;
}

// What a geometry's actor is made from, to tell whether an edited model draws the same.
QString shapeKey(const dyn::GeometryObject& go) {
  const dyn::Shape& s = go.shape;
  return QString::asprintf("%d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %.17g %.17g %.17g %.17g ",
                           int(s.kind), s.size.x(), s.size.y(), s.size.z(), s.radius, s.length, s.scale.x(),
                           s.scale.y(), s.scale.z(), int(go.material.hasColor), go.material.rgba[0],
                           go.material.rgba[1], go.material.rgba[2], go.material.rgba[3]) +
         QString::fromStdString(s.meshUri);
}

}  // namespace

void GeometryLayer::setSource(const QString& sourceFile, const MeshLibrary* meshes,
                              std::function<void(const QString&)> report) {
  sourceFile_ = sourceFile;
  meshes_ = meshes;
  report_ = std::move(report);
}

void GeometryLayer::build(const dyn::Model& model, SceneStage& stage) {
  scenery_.clear();
  QSet<QString> reported;
  for (size_t gi = 0; gi < model.geometries.size(); ++gi) {
    const dyn::GeometryObject& go = model.geometries[gi];
    Geom g;
    g.placement = go.placement;
    g.body = go.body;
    g.collision = go.collision;
    g.link = QString::fromStdString(go.link);
    g.shapeKey = shapeKey(go);
    if (go.material.hasColor) g.rgba = go.material.rgba;
    g.shown = {g.rgba[0], g.rgba[1], g.rgba[2]};
    vtkSmartPointer<vtkPolyData> poly;
    const dyn::Shape& s = go.shape;
    switch (s.kind) {
      case dyn::Shape::Kind::Box:
        poly = stage.shape(0, s.size.x(), s.size.y(), s.size.z(),
                           [&] { return boxPoly(s.size.x(), s.size.y(), s.size.z()); });
        break;
      case dyn::Shape::Kind::Cylinder:
        poly = stage.shape(1, s.radius, s.length, 0, [&] { return cylinderPoly(s.radius, s.length); });
        break;
      case dyn::Shape::Kind::Sphere:
        poly = stage.shape(2, s.radius, 0, 0, [&] { return spherePoly(s.radius); });
        break;
      case dyn::Shape::Kind::Mesh: {
        const QString uri = QString::fromStdString(s.meshUri);
        const LoadedMesh* mesh = meshes_ ? meshes_->find(uri) : nullptr;
        LoadedMesh loaded;
        if (!mesh) {  // not in the library given: read it now
          QString error;
          const QString path = resolveMeshPath(uri, sourceFile_, &error);
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
          if (g.meshColors) g.shown = meanPointColour(poly);
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
            if (report_)
              report_(QStringLiteral("Link '%1': mesh '%2': %3. Drawn as a translucent placeholder box.")
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
    stage.addProp(g.actor);
    geomOfActor_.insert(g.actor.Get(), int(gi));
    geoms_.push_back(std::move(g));
  }
  // One highlight for the whole robot, as far from every colour its links show as the palette
  // allows: it stands out against the selected body's links and is told apart from the others'.
  std::vector<Rgb> colours;
  for (const Geom& g : geoms_)
    if (!g.collision) colours.push_back(g.shown);
  highlight_ = colours.empty() ? kHighlightOrange : highlightFor(colours);
}

void GeometryLayer::pose(const dyn::Model&, const dyn::Data& data, const ScenePose&) {
  double m[16];
  for (auto& g : geoms_) {
    transformToMatrix(g.placement * data.X0[g.body], m);  // geometry_X_0
    g.matrix->DeepCopy(m);
  }
  if (scenery_.size() != geoms_.size()) findScenery();  // once per model, at its first pose
}

void GeometryLayer::show(bool visual, bool collision) {
  for (auto& g : geoms_) g.actor->SetVisibility(g.collision ? collision : visual);
}

void GeometryLayer::collectProps(std::vector<vtkProp*>& out) const {
  for (const auto& g : geoms_) out.push_back(g.actor);
}

// The same geometries on the same bodies at the same placements: the actors stay (the pose moves
// them). A placeholder sized from its body's inertia is made again.
bool GeometryLayer::refresh(const dyn::Model& model, SceneStage&) {
  if (model.geometries.size() != geoms_.size()) return false;
  for (size_t gi = 0; gi < geoms_.size(); ++gi) {
    const Geom& g = geoms_[gi];
    const dyn::GeometryObject& go = model.geometries[gi];
    if (g.placeholder || go.body != g.body || go.collision != g.collision || go.placement.E != g.placement.E ||
        go.placement.r != g.placement.r || shapeKey(go) != g.shapeKey || g.link != QString::fromStdString(go.link))
      return false;
  }
  return true;
}

void GeometryLayer::clear() {
  geoms_.clear();
  scenery_.clear();
  geomOfActor_.clear();
}

void GeometryLayer::applyMaterials(const Look& look) {
  for (auto& g : geoms_) {
    vtkProperty* p = g.actor->GetProperty();
    std::array<double, 4> c = g.rgba;
    double alpha = c[3] * look.opacity;
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
    const bool selected = g.body == look.selected;
    const bool warning =
        !selected && look.warnings && std::binary_search(look.warnings->begin(), look.warnings->end(), g.body);
    // A mesh's own colours would override the highlight: uniform colour while highlighted.
    if (g.meshColors) g.actor->GetMapper()->SetScalarVisibility(!selected && !warning);
    if (selected) {  // the whole body in one colour that stands out against its links' own
      const Rgb h = highlightOf(g.body);
      p->SetColor(h[0], h[1], h[2]);
      p->SetSpecularColor(1, 1, 1);
      p->SetAmbient(0.45);
      p->SetDiffuse(0.7);
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

QList<vtkActor*> GeometryLayer::actorsOfLink(const QString& link) const {
  QList<vtkActor*> out;
  for (const auto& g : geoms_)
    if (g.link == link) out << g.actor.Get();
  return out;
}

QList<vtkActor*> GeometryLayer::actors() const {
  QList<vtkActor*> out;
  for (const auto& g : geoms_) out << g.actor.Get();
  return out;
}

int GeometryLayer::bodyOfActor(vtkActor* actor) const {
  const auto it = geomOfActor_.constFind(actor);
  return it == geomOfActor_.constEnd() ? -1 : geoms_[it.value()].body;
}

bool GeometryLayer::isPlaceholder(vtkActor* actor) const {
  const auto it = geomOfActor_.constFind(actor);
  return it != geomOfActor_.constEnd() && geoms_[it.value()].placeholder;
}

bool GeometryLayer::isScenery(int geom) const { return size_t(geom) < scenery_.size() && scenery_[size_t(geom)]; }

void GeometryLayer::findScenery() {
  double moving[6] = {VTK_DOUBLE_MAX, VTK_DOUBLE_MIN, VTK_DOUBLE_MAX, VTK_DOUBLE_MIN, VTK_DOUBLE_MAX, VTK_DOUBLE_MIN};
  bool anyMoving = false;
  for (const auto& g : geoms_) {
    const double* gb = g.actor->GetBounds();
    if (g.body == 0 || !gb || gb[0] > gb[1]) continue;
    for (int k = 0; k < 3; ++k) {
      moving[2 * k] = std::min(moving[2 * k], gb[2 * k]);
      moving[2 * k + 1] = std::max(moving[2 * k + 1], gb[2 * k + 1]);
    }
    anyMoving = true;
  }
  scenery_.assign(geoms_.size(), 0);
  if (!anyMoving) return;
  const double robot = std::max(boundsDiagonal(moving), 0.05);
  for (size_t i = 0; i < geoms_.size(); ++i) {
    const double* gb = geoms_[i].actor->GetBounds();
    scenery_[i] = geoms_[i].body == 0 && gb && gb[0] <= gb[1] && boundsDiagonal(gb) > 3 * robot;
  }
}

bool GeometryLayer::bounds(double b[6], bool visibleOnly) const {
  b[0] = b[2] = b[4] = VTK_DOUBLE_MAX;
  b[1] = b[3] = b[5] = VTK_DOUBLE_MIN;
  bool any = false;
  for (size_t i = 0; i < geoms_.size(); ++i) {
    const Geom& g = geoms_[i];
    if ((visibleOnly && !g.actor->GetVisibility()) || isScenery(int(i))) continue;
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

std::vector<Vec3> GeometryLayer::corners() const {
  std::vector<Vec3> pts;
  corners(pts);
  return pts;
}

void GeometryLayer::corners(std::vector<Vec3>& pts) const {
  pts.clear();
  for (int pass = 0; pass < 2 && pts.empty(); ++pass) {
    for (size_t i = 0; i < geoms_.size(); ++i) {
      const Geom& g = geoms_[i];
      if ((pass == 0 && !g.actor->GetVisibility()) || isScenery(int(i))) continue;
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
}

std::vector<GeometryLayer::Box> GeometryLayer::boxes(bool visibleOnly) const {
  std::vector<Box> out;
  for (size_t i = 0; i < geoms_.size(); ++i) {
    const Geom& g = geoms_[i];
    if ((visibleOnly && !g.actor->GetVisibility()) || isScenery(int(i))) continue;
    const double* lb = g.actor->GetMapper()->GetBounds();
    if (!lb || lb[0] > lb[1]) continue;
    Box b;
    b.body = g.body;
    b.placement = g.placement;
    std::copy(lb, lb + 6, b.local.begin());
    out.push_back(b);
  }
  return out;
}

Rgb GeometryLayer::highlightOf(int) const { return highlight_; }
