// The shipped robots as a student sees them, measured on the scene's own actors (their polydata
// and world matrices, i.e. what the viewport draws), at the zero pose and at random poses within
// the limits:
//  - no two visual surfaces lie on top of each other facing the same way: such surfaces z-fight
//    (the two colours flicker through each other as the robot moves);
//  - the links on either side of every joint touch: no gaps at knees, elbows or wrists.
// Surfaces are sampled (points spread over every triangle by area); distances are exact distances
// to the other geometry's triangles (vtkCellLocator), signed (inside < 0) for the gap check.
#include <QtTest>

#include <vtkActor.h>
#include <vtkCellLocator.h>
#include <vtkIdList.h>
#include <vtkImplicitPolyDataDistance.h>
#include <vtkMapper.h>
#include <vtkMatrix4x4.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkTriangleFilter.h>
#include <map>
#include <random>

#include "dynscope/dynscope.hpp"
#include "scene/robot_scene.hpp"
#include "viewport/vtk_viewport.hpp"

namespace {

QString robot(const char* file) { return QStringLiteral(DYNSCOPE_ROBOTS_DIR "/") + file; }

using V3 = Eigen::Vector3d;

// One visual geometry in world coordinates, its triangles and surface samples.
struct Surface {
  int geometry = 0, body = 0;
  QString link, shape;
  vtkSmartPointer<vtkPolyData> poly;
  vtkSmartPointer<vtkCellLocator> locator;
  vtkSmartPointer<vtkImplicitPolyDataDistance> distance;
  std::vector<V3> samples, sampleNormals;
  double sampleArea = 0;  // surface area each sample stands for
  double bounds[6];
};

V3 point(vtkPoints* pts, vtkIdType id) {
  V3 p;
  pts->GetPoint(id, p.data());
  return p;
}

// Outward normal of triangle `cell` (VTK's sources and the mesh readers give outward windings).
V3 triangleNormal(vtkPolyData* poly, vtkIdType cell, double* area = nullptr) {
  vtkNew<vtkIdList> ids;
  poly->GetCellPoints(cell, ids);
  if (ids->GetNumberOfIds() < 3) return V3::Zero();
  const V3 a = point(poly->GetPoints(), ids->GetId(0)), b = point(poly->GetPoints(), ids->GetId(1)),
           c = point(poly->GetPoints(), ids->GetId(2));
  const V3 n = (b - a).cross(c - a);
  if (area) *area = 0.5 * n.norm();
  return n.norm() > 0 ? V3(n.normalized()) : V3::Zero();
}

// Samples spread uniformly over the surface, about `spacing` apart.
void sample(Surface& s, double spacing, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  vtkPolyData* poly = s.poly;
  double total = 0;
  for (vtkIdType c = 0; c < poly->GetNumberOfCells(); ++c) {
    double area = 0;
    triangleNormal(poly, c, &area);
    total += area;
  }
  s.sampleArea = spacing * spacing;
  double carry = 0;
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < poly->GetNumberOfCells(); ++c) {
    double area = 0;
    const V3 n = triangleNormal(poly, c, &area);
    carry += area / s.sampleArea;
    poly->GetCellPoints(c, ids);
    const V3 a = point(poly->GetPoints(), ids->GetId(0)), b = point(poly->GetPoints(), ids->GetId(1)),
             d = point(poly->GetPoints(), ids->GetId(2));
    for (; carry >= 1.0; carry -= 1.0) {
      const double r1 = std::sqrt(U(rng)), r2 = U(rng);  // uniform in the triangle
      s.samples.push_back((1 - r1) * a + r1 * (1 - r2) * b + r1 * r2 * d);
      s.sampleNormals.push_back(n);
    }
  }
  if (s.samples.empty() && total > 0) {  // a tiny part: one sample at a vertex
    s.samples.push_back(point(poly->GetPoints(), 0));
    s.sampleNormals.push_back(triangleNormal(poly, 0));
    s.sampleArea = total;
  }
}

std::vector<Surface> visualSurfaces(const RobotScene& scene, const dyn::Model& m, double spacing) {
  std::vector<Surface> out;
  std::mt19937 rng(11);
  const QList<vtkActor*> actors = scene.geometryActors();
  for (int g = 0; g < actors.size(); ++g) {
    if (m.geometries[g].collision) continue;
    vtkActor* a = actors[g];
    vtkNew<vtkTransform> t;
    t->SetMatrix(a->GetMatrix());
    vtkNew<vtkTransformPolyDataFilter> tf;
    tf->SetInputData(vtkPolyData::SafeDownCast(a->GetMapper()->GetInput()));
    tf->SetTransform(t);
    vtkNew<vtkTriangleFilter> tri;
    tri->SetInputConnection(tf->GetOutputPort());
    tri->Update();
    Surface s;
    s.geometry = g;
    s.body = m.geometries[g].body;
    s.link = QString::fromStdString(m.geometries[g].link);
    const dyn::Shape& sh = m.geometries[g].shape;
    switch (sh.kind) {
      case dyn::Shape::Kind::Box:
        s.shape = QStringLiteral("box %1 %2 %3").arg(sh.size.x()).arg(sh.size.y()).arg(sh.size.z());
        break;
      case dyn::Shape::Kind::Cylinder:
        s.shape = QStringLiteral("cylinder r %1 l %2").arg(sh.radius).arg(sh.length);
        break;
      case dyn::Shape::Kind::Sphere:
        s.shape = QStringLiteral("sphere r %1").arg(sh.radius);
        break;
      case dyn::Shape::Kind::Mesh:
        s.shape = QString::fromStdString(sh.meshUri);
        break;
    }
    s.poly = vtkSmartPointer<vtkPolyData>::New();
    s.poly->ShallowCopy(tri->GetOutput());
    s.poly->GetBounds(s.bounds);
    s.locator = vtkSmartPointer<vtkCellLocator>::New();
    s.locator->SetDataSet(s.poly);
    s.locator->BuildLocator();
    s.distance = vtkSmartPointer<vtkImplicitPolyDataDistance>::New();
    s.distance->SetInput(s.poly);
    sample(s, spacing, rng);
    out.push_back(std::move(s));
  }
  return out;
}

bool boundsOverlap(const double a[6], const double b[6], double margin) {
  for (int k = 0; k < 3; ++k)
    if (a[2 * k] > b[2 * k + 1] + margin || b[2 * k] > a[2 * k + 1] + margin) return false;
  return true;
}

// Area of A's surface that lies on B's surface (within tol) facing the same way; `where` gets the
// mean position of that part.
double coincidentArea(const Surface& A, const Surface& B, double tol, V3* where = nullptr) {
  if (!boundsOverlap(A.bounds, B.bounds, tol)) return 0;
  double area = 0;
  V3 sum = V3::Zero();
  double closest[3], d2;
  vtkIdType cell;
  int sub;
  for (size_t k = 0; k < A.samples.size(); ++k) {
    V3 p = A.samples[k];
    if (p.x() < B.bounds[0] - tol || p.x() > B.bounds[1] + tol || p.y() < B.bounds[2] - tol ||
        p.y() > B.bounds[3] + tol || p.z() < B.bounds[4] - tol || p.z() > B.bounds[5] + tol)
      continue;
    B.locator->FindClosestPoint(p.data(), closest, cell, sub, d2);
    if (d2 > tol * tol) continue;
    if (A.sampleNormals[k].dot(triangleNormal(B.poly, cell)) > 0.98) {
      area += A.sampleArea;
      sum += p;
      if (qEnvironmentVariableIsSet("DEBUG_VIS"))
        qDebug("%s/%s p %.4f %.4f %.4f n %.3f %.3f %.3f", qPrintable(A.link), qPrintable(B.link), p.x(), p.y(), p.z(),
               A.sampleNormals[k].x(), A.sampleNormals[k].y(), A.sampleNormals[k].z());
    }
  }
  if (where && area > 0) *where = sum * (A.sampleArea / area);
  return area;
}

// Signed distance from the surfaces of `from` (samples) to those of `to`: below 0 when they overlap.
// (Stops once it is at most `enough`: a caller asking only whether two links touch needs no more.)
double minSignedDistance(const std::vector<const Surface*>& from, const std::vector<const Surface*>& to,
                         double enough = -INFINITY) {
  double best = INFINITY;
  for (const Surface* a : from)
    for (const Surface* b : to) {
      if (!boundsOverlap(a->bounds, b->bounds, 0.1)) continue;
      for (V3 p : a->samples) {
        best = std::min(best, b->distance->EvaluateFunction(p.data()));
        if (best <= enough) return best;
      }
    }
  return best;
}

// Every problem on its own line (a QVERIFY2 message would be cut short), then the verdict.
void report(QStringList problems) {
  problems.removeDuplicates();
  for (const QString& p : problems) qWarning("%s", qPrintable(p));
  QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problem(s), listed above").arg(problems.size())));
}

QString poseName(int trial) {
  return trial == 0 ? QStringLiteral("zero pose") : QStringLiteral("random pose %1").arg(trial);
}

}  // namespace

class TestRobotVisuals : public QObject {
  Q_OBJECT
  VtkViewport* view_ = nullptr;

  // The scene of `file` at pose `trial` (0: zero configuration clamped into the limits).
  std::vector<Surface> surfacesAt(const QString& file, int trial, double spacing, dyn::Model* modelOut) {
    const dyn::Model m = dyn::loadModel(file.toStdString());
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    scene.setModel(m, file);
    Eigen::VectorXd q = m.neutral();
    if (trial > 0) {
      std::mt19937 rng(100 + trial);
      q = dyn::randomConfiguration(m, rng);
    }
    for (int k = 0; k < m.nq; ++k)
      if (std::isfinite(m.lowerLimit[k]) && std::isfinite(m.upperLimit[k]))
        q[k] = std::clamp(q[k], m.lowerLimit[k], m.upperLimit[k]);
    dyn::forwardKinematics(m, d, q);
    scene.updatePose(m, d);
    *modelOut = m;
    return visualSurfaces(scene, m, spacing);
  }

 private slots:
  void initTestCase() {
    view_ = new VtkViewport;
    view_->resize(320, 240);
  }
  void cleanupTestCase() { delete view_; }

  void noCoincidentSurfaces_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"ur5.urdf", "panda.urdf", "humanoid.urdf", "quadruped.urdf"}) QTest::newRow(f) << robot(f);
  }
  // Z-fighting: more than 0.5 cm² of one visual's surface lying on another's, facing the same way,
  // at the zero pose or in at least two poses. Two links that rotate relative to each other can
  // pass through a tangency at one angle (a flicker for an instant, unavoidable in general); a
  // coincidence that persists as the joints move is what a student keeps seeing.
  void noCoincidentSurfaces() {
    QFETCH(QString, file);
    std::map<std::pair<int, int>, QStringList> found;  // geometry pair -> one message per pose
    for (int trial = 0; trial < 3; ++trial) {
      dyn::Model m;
      const std::vector<Surface> S = surfacesAt(file, trial, 0.003, &m);
      QVERIFY(!S.empty());
      for (size_t i = 0; i < S.size(); ++i)
        for (size_t j = i + 1; j < S.size(); ++j) {
          V3 where = V3::Zero();
          const double area = coincidentArea(S[i], S[j], 3e-4, &where) + coincidentArea(S[j], S[i], 3e-4);
          if (area > 1e-4) {  // both directions count: 0.5 cm² on each surface
            found[{S[i].geometry, S[j].geometry}]
                << QStringLiteral("%1: %2 (%3) and %4 (%5) share %6 cm² of surface around (%7, %8, %9)")
                       .arg(poseName(trial), S[i].link, S[i].shape, S[j].link, S[j].shape)
                       .arg(area / 2 * 1e4, 0, 'f', 1)
                       .arg(where.x(), 0, 'f', 3)
                       .arg(where.y(), 0, 'f', 3)
                       .arg(where.z(), 0, 'f', 3);
          }
        }
    }
    QStringList problems;
    for (const auto& [pair, messages] : found) {
      if (messages.size() >= 2 || messages.first().startsWith(poseName(0)))
        problems << messages;
      else
        qInfo("transient tangency (one random pose only): %s", qPrintable(messages.first()));
    }
    report(problems);
  }

  void everyJointsLinksTouch_data() { noCoincidentSurfaces_data(); }
  // The visuals of a body and of its nearest ancestor with visuals overlap or touch (within 2 mm).
  void everyJointsLinksTouch() {
    QFETCH(QString, file);
    QStringList problems;
    for (int trial = 0; trial < 4; ++trial) {
      dyn::Model m;
      const std::vector<Surface> S = surfacesAt(file, trial, 0.004, &m);
      std::vector<std::vector<const Surface*>> ofBody(m.N + 1);
      for (const Surface& s : S) ofBody[s.body].push_back(&s);
      for (int i = 1; i <= m.N; ++i) {
        if (ofBody[i].empty()) continue;
        int p = m.parent[i];
        while (p > 0 && ofBody[p].empty()) p = m.parent[p];
        if (p < 0 || ofBody[p].empty()) continue;
        const double touching = 0.002;
        double gap = minSignedDistance(ofBody[i], ofBody[p], touching);
        if (gap > touching) gap = std::min(gap, minSignedDistance(ofBody[p], ofBody[i], touching));
        if (gap > touching)
          problems << QStringLiteral("%1: joint %2: %3 and %4 are %5 mm apart")
                          .arg(poseName(trial), QString::fromStdString(m.jointNames[i]),
                               QString::fromStdString(m.bodyNames[p]), QString::fromStdString(m.bodyNames[i]))
                          .arg(gap * 1e3, 0, 'f', 1);
      }
    }
    report(problems);
  }

  // The checks themselves can fail: two coaxial cylinders of one radius z-fight, and two boxes
  // 5 cm apart leave a gap.
  void checksDetectProblems() {
    const QString dir = QDir::temp().filePath("dynscope_visuals_check");
    QDir().mkpath(dir);
    const QString path = dir + "/bad.urdf";
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const QByteArray inertial =
        "<inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" "
        "iyz=\"0\"/></inertial>";
    f.write("<robot name=\"bad\">\n<link name=\"a\">" + inertial +
            "<visual><geometry><cylinder radius=\"0.05\" length=\"0.2\"/></geometry></visual></link>\n"
            "<link name=\"b\">" +
            inertial +
            "<visual><origin xyz=\"0 0 0.1\"/><geometry><cylinder radius=\"0.05\" "
            "length=\"0.2\"/></geometry></visual></link>\n"
            "<link name=\"c\">" +
            inertial +
            "<visual><origin xyz=\"0 0 0.05\"/><geometry><box size=\"0.1 0.1 0.1\"/></geometry></visual></link>\n"
            "<joint name=\"spin\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 1\"/>"
            "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n"
            "<joint name=\"lift\" type=\"revolute\"><parent link=\"b\"/><child link=\"c\"/><origin xyz=\"0 0 0.25\"/>"
            "<axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n</robot>\n");
    f.close();
    dyn::Model m;
    const std::vector<Surface> S = surfacesAt(path, 0, 0.003, &m);
    QCOMPARE(S.size(), size_t(3));
    // a spans z in [-0.1, 0.1], b in [0, 0.2]: 0.1 m of a 0.05 m cylinder wall coincide.
    const double expected = 2 * M_PI * 0.05 * 0.1;
    const double area = coincidentArea(S[0], S[1], 3e-4);
    QVERIFY2(std::abs(area - expected) < 0.15 * expected, qPrintable(QString::number(area)));
    // b ends at z = 0.2, the box starts at 0.25.
    const double gap = minSignedDistance({&S[2]}, {&S[1]});
    QVERIFY2(std::abs(gap - 0.05) < 0.004, qPrintable(QString::number(gap)));
    QVERIFY(minSignedDistance({&S[0]}, {&S[1]}) < 0);  // overlapping: some samples inside
    QDir(dir).removeRecursively();
  }
};

QTEST_MAIN(TestRobotVisuals)
#include "test_robot_visuals.moc"
