// The rendering half of the workbench: VtkViewport (QOpenGLWidget + vtkGenericOpenGLRenderWindow)
// and RobotScene (actors for a dyn::Model). Run under Xvfb.
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <random>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkMapper.h>
#include <vtkMatrix4x4.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include "dynscope/dynscope.hpp"
#include "scene/mesh_resolver.hpp"
#include "scene/robot_scene.hpp"
#include "viewport/vtk_viewport.hpp"

namespace {

QString robot(const char* file) { return QStringLiteral(DYNSCOPE_ROBOTS_DIR "/") + file; }

bool writeFile(const QString& path, const QByteArray& text) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  return f.write(text) == text.size();
}

// The 8 corners and 12 outward triangles of the cube [lo, hi]^3.
struct Cube {
  std::array<std::array<double, 3>, 8> v;
  static constexpr int tri[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                     {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  Cube(double lo, double hi) {
    v = {{{lo, lo, lo},
          {hi, lo, lo},
          {hi, hi, lo},
          {lo, hi, lo},
          {lo, lo, hi},
          {hi, lo, hi},
          {hi, hi, hi},
          {lo, hi, hi}}};
  }
};

QByteArray asciiStl(double lo, double hi) {
  const Cube c(lo, hi);
  QByteArray s = "solid cube\n";
  for (const auto& t : Cube::tri) {
    const auto &a = c.v[t[0]], &b = c.v[t[1]], &d = c.v[t[2]];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    s += QStringLiteral("  facet normal %1 %2 %3\n    outer loop\n")
             .arg(n[0] / len)
             .arg(n[1] / len)
             .arg(n[2] / len)
             .toUtf8();
    for (const auto* p : {&a, &b, &d})
      s += QStringLiteral("      vertex %1 %2 %3\n").arg((*p)[0]).arg((*p)[1]).arg((*p)[2]).toUtf8();
    s += "    endloop\n  endfacet\n";
  }
  return s + "endsolid cube\n";
}

QByteArray obj(double lo, double hi) {
  const Cube c(lo, hi);
  QByteArray s = "# cube\n";
  for (const auto& p : c.v) s += QStringLiteral("v %1 %2 %3\n").arg(p[0]).arg(p[1]).arg(p[2]).toUtf8();
  for (const auto& t : Cube::tri)
    s += QStringLiteral("f %1 %2 %3\n").arg(t[0] + 1).arg(t[1] + 1).arg(t[2] + 1).toUtf8();
  return s;
}

// (No raw string literals in this file: moc mis-parses them.)
// COLLADA 1.4.1 cube in centimetres (<unit meter="0.01">), placed by a node <translate>.
QByteArray collada(double lo, double hi, double dz) {
  const Cube c(lo, hi);
  QString pos, idx;
  for (const auto& p : c.v) pos += QStringLiteral("%1 %2 %3 ").arg(p[0]).arg(p[1]).arg(p[2]);
  for (const auto& t : Cube::tri) idx += QStringLiteral("%1 %2 %3 ").arg(t[0]).arg(t[1]).arg(t[2]);
  return QStringLiteral(
             "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
             "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
             "  <asset><unit name=\"centimeter\" meter=\"0.01\"/><up_axis>Z_UP</up_axis></asset>\n"
             "  <library_effects>\n"
             "    <effect id=\"red-fx\"><profile_COMMON><technique sid=\"common\"><phong>\n"
             "      <diffuse><color>0.8 0.1 0.1 1</color></diffuse>\n"
             "    </phong></technique></profile_COMMON></effect>\n"
             "  </library_effects>\n"
             "  <library_materials><material id=\"red\" name=\"red\"><instance_effect "
             "url=\"#red-fx\"/></material></library_materials>\n"
             "  <library_geometries>\n"
             "    <geometry id=\"cube\" name=\"cube\"><mesh>\n"
             "      <source id=\"cube-pos\">\n"
             "        <float_array id=\"cube-pos-array\" count=\"24\">%1</float_array>\n"
             "        <technique_common><accessor source=\"#cube-pos-array\" count=\"8\" stride=\"3\">\n"
             "          <param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" "
             "type=\"float\"/>\n"
             "        </accessor></technique_common>\n"
             "      </source>\n"
             "      <vertices id=\"cube-vtx\"><input semantic=\"POSITION\" source=\"#cube-pos\"/></vertices>\n"
             "      <triangles material=\"mat\" count=\"12\">\n"
             "        <input semantic=\"VERTEX\" source=\"#cube-vtx\" offset=\"0\"/>\n"
             "        <p>%2</p>\n"
             "      </triangles>\n"
             "    </mesh></geometry>\n"
             "  </library_geometries>\n"
             "  <library_visual_scenes>\n"
             "    <visual_scene id=\"scene\" name=\"scene\">\n"
             "      <node id=\"part\" name=\"part\">\n"
             "        <translate>0 0 %3</translate>\n"
             "        <instance_geometry url=\"#cube\">\n"
             "          <bind_material><technique_common>\n"
             "            <instance_material symbol=\"mat\" target=\"#red\"/>\n"
             "          </technique_common></bind_material>\n"
             "        </instance_geometry>\n"
             "      </node>\n"
             "    </visual_scene>\n"
             "  </library_visual_scenes>\n"
             "  <scene><instance_visual_scene url=\"#scene\"/></scene>\n"
             "</COLLADA>\n")
      .arg(pos, idx)
      .arg(dz)
      .toUtf8();
}

// Each link carries one mesh; a revolute joint keeps the model non-trivial.
QByteArray meshUrdf(const QString& stl, const QString& objFile, const QString& dae, const QString& missing) {
  return QStringLiteral(
             "<?xml version=\"1.0\"?>\n"
             "<robot name=\"meshes\">\n"
             "  <link name=\"stl_link\">\n"
             "    <inertial><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" "
             "izz=\"0.01\"/></inertial>\n"
             "    <visual><geometry><mesh filename=\"%1\" scale=\"0.001 0.001 0.001\"/></geometry>\n"
             "      <material name=\"grey\"><color rgba=\"0.6 0.6 0.6 1\"/></material></visual>\n"
             "  </link>\n"
             "  <link name=\"obj_link\">\n"
             "    <inertial><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" "
             "izz=\"0.01\"/></inertial>\n"
             "    <visual><geometry><mesh filename=\"%2\"/></geometry></visual>\n"
             "  </link>\n"
             "  <link name=\"dae_link\">\n"
             "    <inertial><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" "
             "izz=\"0.01\"/></inertial>\n"
             "    <visual><geometry><mesh filename=\"%3\"/></geometry></visual>\n"
             "  </link>\n"
             "  <link name=\"missing_link\">\n"
             "    <inertial><origin xyz=\"0 0 0.1\"/><mass value=\"2\"/>\n"
             "      <inertia ixx=\"0.02\" ixy=\"0\" ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.005\"/></inertial>\n"
             "    <visual><geometry><mesh filename=\"%4\"/></geometry></visual>\n"
             "    <collision><geometry><mesh filename=\"%4\"/></geometry></collision>\n"
             "  </link>\n"
             "  <joint name=\"j_obj\" type=\"revolute\"><parent link=\"stl_link\"/><child link=\"obj_link\"/>\n"
             "    <origin xyz=\"0.3 0 0\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" "
             "velocity=\"1\"/></joint>\n"
             "  <joint name=\"j_dae\" type=\"fixed\"><parent link=\"stl_link\"/><child link=\"dae_link\"/><origin "
             "xyz=\"0 0.3 0\"/></joint>\n"
             "  <joint name=\"j_missing\" type=\"revolute\"><parent link=\"stl_link\"/><child link=\"missing_link\"/>\n"
             "    <origin xyz=\"0 -0.3 0\"/><axis xyz=\"1 0 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" "
             "velocity=\"1\"/></joint>\n"
             "</robot>\n")
      .arg(stl, objFile, dae, missing)
      .toUtf8();
}

// The engine's world pose of a geometry as a row-major 4x4.
std::array<double, 16> enginePose(const dyn::Model& m, const dyn::Data& d, int g) {
  const dyn::Transform<double> X = m.geometries[g].placement * d.X0[m.geometries[g].body];
  std::array<double, 16> out{};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) out[4 * r + c] = X.rotation()(r, c);
    out[4 * r + 3] = X.translation()[r];
  }
  out[15] = 1;
  return out;
}

double extent(vtkActor* a, int axis) {
  const double* b = a->GetBounds();
  return b[2 * axis + 1] - b[2 * axis];
}

// Display position (pixels, origin top-left as in QImage) of a world point.
QPoint project(vtkRenderer* ren, const double p[3]) {
  ren->SetWorldPoint(p[0], p[1], p[2], 1.0);
  ren->WorldToDisplay();
  double dp[3];
  ren->GetDisplayPoint(dp);
  const int h = ren->GetRenderWindow()->GetSize()[1];
  return QPoint(qRound(dp[0]), h - 1 - qRound(dp[1]));
}

int colorDistance(QRgb a, QRgb b) {
  return std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) + std::abs(qBlue(a) - qBlue(b));
}

}  // namespace

class TestScene : public QObject {
  Q_OBJECT
  VtkViewport* view_ = nullptr;

  // DYNSCOPE_SCREENSHOT_DIR=/some/dir keeps the images for a human to look at.
  static void saveForInspection(const QImage& img, const char* name) {
    const QString dir = qEnvironmentVariable("DYNSCOPE_SCREENSHOT_DIR");
    if (!dir.isEmpty()) QVERIFY(img.save(QDir(dir).filePath(name)));
  }

  void poseAndRender(RobotScene& scene, const dyn::Model& m, dyn::Data& d, const Eigen::VectorXd& q) {
    dyn::forwardKinematics(m, d, q);
    scene.updatePose(m, d);
    QCoreApplication::processEvents();
  }

 private slots:
  void initTestCase() {
    view_ = new VtkViewport;
    view_->resize(640, 480);
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_));
    QTRY_VERIFY(view_->isValid());
  }
  void cleanupTestCase() { delete view_; }
  void cleanup() { qunsetenv("ROS_PACKAGE_PATH"); }

  void oneActorPerGeometry_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("floating");
    for (const char* f :
         {"ur5.urdf", "humanoid.urdf", "panda.urdf", "quadruped.urdf", "puma560.dh", "stanford_arm.dh", "planar3.dh"})
      QTest::newRow(f) << robot(f) << false;
    QTest::newRow("humanoid floating") << robot("humanoid.urdf") << true;
  }
  void oneActorPerGeometry() {
    QFETCH(QString, file);
    QFETCH(bool, floating);
    const dyn::Model m = dyn::loadModel(file.toStdString(), dyn::BuildOptions{.floatingBase = floating});
    QVERIFY(!m.geometries.empty());
    RobotScene scene(view_->renderer());
    QSignalSpy messages(&scene, &RobotScene::message);
    scene.setModel(m, file);
    QCOMPARE(scene.geometryActors().size(), qsizetype(m.geometries.size()));
    QCOMPARE(messages.count(), 0);
    QVERIFY(scene.problems().isEmpty());
    for (size_t g = 0; g < m.geometries.size(); ++g) {
      vtkActor* a = scene.geometryActors()[int(g)];
      QCOMPARE(scene.bodyOfActor(a), m.geometries[g].body);
      QVERIFY(scene.actorsOfLink(QString::fromStdString(m.geometries[g].link)).contains(a));
    }
    // Visual actors only are shown by default; nothing before the first pose.
    dyn::Data d(m);
    for (vtkActor* a : scene.geometryActors()) QVERIFY(!a->GetVisibility());
    poseAndRender(scene, m, d, m.neutral());
    for (size_t g = 0; g < m.geometries.size(); ++g)
      QCOMPARE(bool(scene.geometryActors()[int(g)]->GetVisibility()), !m.geometries[g].collision);
  }

  void actorMatricesEqualEngineKinematics_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("floating");
    QTest::newRow("ur5") << robot("ur5.urdf") << false;
    QTest::newRow("humanoid") << robot("humanoid.urdf") << false;
    QTest::newRow("humanoid floating") << robot("humanoid.urdf") << true;
    QTest::newRow("puma560") << robot("puma560.dh") << false;
  }
  void actorMatricesEqualEngineKinematics() {
    QFETCH(QString, file);
    QFETCH(bool, floating);
    const dyn::Model m = dyn::loadModel(file.toStdString(), dyn::BuildOptions{.floatingBase = floating});
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    scene.setModel(m, file);
    std::mt19937 rng(7);
    for (int trial = 0; trial < 5; ++trial) {
      const Eigen::VectorXd q = trial == 0 ? m.neutral() : dyn::randomConfiguration(m, rng);
      poseAndRender(scene, m, d, q);
      for (size_t g = 0; g < m.geometries.size(); ++g) {
        vtkMatrix4x4* M = scene.geometryActors()[int(g)]->GetUserMatrix();
        QVERIFY(M);
        const auto E = enginePose(m, d, int(g));
        for (int k = 0; k < 16; ++k)
          QVERIFY2(std::abs(M->GetElement(k / 4, k % 4) - E[k]) <= 1e-12,
                   qPrintable(QStringLiteral("geometry %1 of link %2, element %3: %4 vs %5")
                                  .arg(g)
                                  .arg(QString::fromStdString(m.geometries[g].link))
                                  .arg(k)
                                  .arg(M->GetElement(k / 4, k % 4))
                                  .arg(E[k])));
      }
    }
  }

  void meshFormatsAndMissingMesh() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QDir dir(tmp.path());
    // STL in millimetres (scaled by the URDF), OBJ in metres, DAE in centimetres moved up 5 cm.
    QVERIFY(writeFile(dir.filePath("meshes/part.stl"), asciiStl(-50, 50)));
    QVERIFY(writeFile(dir.filePath("meshes/part.obj"), obj(-0.04, 0.04)));
    QVERIFY(writeFile(dir.filePath("meshes/part.dae"), collada(-3, 3, 5)));
    const QString urdf = dir.filePath("urdf/meshes.urdf");
    QVERIFY(writeFile(urdf, meshUrdf("../meshes/part.stl", "file://" + dir.filePath("meshes/part.obj"),
                                     "../meshes/part.dae", "../meshes/does_not_exist.stl")));
    const dyn::Model m = dyn::loadModel(urdf.toStdString());
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    QSignalSpy messages(&scene, &RobotScene::message);
    scene.setModel(m, urdf);
    poseAndRender(scene, m, d, m.neutral());

    QCOMPARE(scene.geometryActors().size(), qsizetype(m.geometries.size()));
    const double expected[3] = {0.1, 0.08, 0.06};  // edge lengths in metres
    const char* links[3] = {"stl_link", "obj_link", "dae_link"};
    for (int k = 0; k < 3; ++k) {
      const auto actors = scene.actorsOfLink(links[k]);
      QCOMPARE(actors.size(), 1);
      QVERIFY2(!scene.isPlaceholder(actors[0]), links[k]);
      for (int axis = 0; axis < 3; ++axis) QVERIFY2(std::abs(extent(actors[0], axis) - expected[k]) < 1e-6, links[k]);
    }
    // COLLADA: unit and node transform applied (cube from 2 cm to 8 cm above the link frame).
    const double* b = scene.actorsOfLink("dae_link")[0]->GetBounds();
    QVERIFY(std::abs(b[4] - 0.02) < 1e-6 && std::abs(b[5] - 0.08) < 1e-6);
    // DAE colours come from its material when the URDF gives none (red), so the actor uses scalars.
    QVERIFY(scene.actorsOfLink("dae_link")[0]->GetMapper()->GetScalarVisibility());

    // The missing mesh: visual and collision placeholders, one message, non-degenerate boxes.
    const auto missing = scene.actorsOfLink("missing_link");
    QCOMPARE(missing.size(), 2);
    for (vtkActor* a : missing) {
      QVERIFY(scene.isPlaceholder(a));
      for (int axis = 0; axis < 3; ++axis) QVERIFY(extent(a, axis) > 0.005);
      QVERIFY(a->GetProperty()->GetOpacity() < 1.0);
    }
    QCOMPARE(messages.count(), 1);
    QVERIFY(messages[0][0].toString().contains("does_not_exist.stl"));
    QCOMPARE(scene.problems().size(), 1);

    // The screenshot still works with placeholders (translucent, depth peeling).
    scene.setShowLinkNames(true);
    scene.setViewPreset(RobotScene::Iso);
    const QImage img = view_->grabImage();
    QVERIFY(!img.isNull());
    saveForInspection(img, "meshes.png");
  }

  void unreadableMeshIsAPlaceholder() {
    QTemporaryDir tmp;
    const QDir dir(tmp.path());
    QVERIFY(writeFile(dir.filePath("bad.stl"), "this is not an STL file\n"));
    QVERIFY(writeFile(dir.filePath("bad.dae"), "<COLLADA>broken"));
    QVERIFY(writeFile(dir.filePath("r.urdf"), meshUrdf("bad.stl", "bad.stl", "bad.dae", "bad.dae")));
    const dyn::Model m = dyn::loadModel(dir.filePath("r.urdf").toStdString());
    RobotScene scene(view_->renderer());
    QSignalSpy messages(&scene, &RobotScene::message);
    scene.setModel(m, dir.filePath("r.urdf"));
    QCOMPARE(messages.count(), 2);  // once per file
    for (vtkActor* a : scene.geometryActors()) QVERIFY(scene.isPlaceholder(a));
  }

  void packageUris() {
    QTemporaryDir tmp;
    const QDir root(tmp.path());
    // ws/src/my_robot/{urdf,meshes}: found upward from the URDF without ROS_PACKAGE_PATH.
    QVERIFY(writeFile(root.filePath("ws/src/my_robot/meshes/base.stl"), asciiStl(-1, 1)));
    QVERIFY(writeFile(root.filePath("ws/src/my_robot/urdf/r.urdf"), "<robot/>"));
    // elsewhere/other_pkg: only through ROS_PACKAGE_PATH.
    QVERIFY(writeFile(root.filePath("elsewhere/deep/repo/other_pkg/meshes/arm.stl"), asciiStl(-1, 1)));
    QVERIFY(writeFile(root.filePath("pkgs/third_pkg/arm.stl"), asciiStl(-1, 1)));
    const QString urdf = root.filePath("ws/src/my_robot/urdf/r.urdf");
    const QString base = QFileInfo(root.filePath("ws/src/my_robot/meshes/base.stl")).canonicalFilePath();
    const QString arm = QFileInfo(root.filePath("elsewhere/deep/repo/other_pkg/meshes/arm.stl")).canonicalFilePath();
    const QString third = QFileInfo(root.filePath("pkgs/third_pkg/arm.stl")).canonicalFilePath();
    auto same = [](const QString& a, const QString& b) { return QFileInfo(a).canonicalFilePath() == b; };

    qunsetenv("ROS_PACKAGE_PATH");
    QString error;
    QVERIFY(same(resolveMeshPath("package://my_robot/meshes/base.stl", urdf, &error), base));
    QVERIFY(resolveMeshPath("package://other_pkg/meshes/arm.stl", urdf, &error).isEmpty());
    QVERIFY2(error.contains("other_pkg"), qPrintable(error));
    QVERIFY(resolveMeshPath("package://my_robot/meshes/nope.stl", urdf, &error).isEmpty());

    // A root that contains the package (nested), a root that is the package, a root holding it.
    qputenv("ROS_PACKAGE_PATH", (root.filePath("elsewhere") + ":" + root.filePath("pkgs/third_pkg")).toUtf8());
    QVERIFY(same(resolveMeshPath("package://other_pkg/meshes/arm.stl", urdf, &error), arm));
    QVERIFY(same(resolveMeshPath("package://third_pkg/arm.stl", urdf, &error), third));
    qputenv("ROS_PACKAGE_PATH", root.filePath("pkgs").toUtf8());
    QVERIFY(same(resolveMeshPath("package://third_pkg/arm.stl", urdf, &error), third));
    // ROS_PACKAGE_PATH does not hide the upward search.
    QVERIFY(same(resolveMeshPath("package://my_robot/meshes/base.stl", urdf, &error), base));

    // file:// and relative paths.
    QVERIFY(same(resolveMeshPath("file://" + base, urdf, &error), base));
    QVERIFY(same(resolveMeshPath("../meshes/base.stl", urdf, &error), base));
    QVERIFY(same(resolveMeshPath("file://../meshes/base.stl", urdf, &error), base));
    QVERIFY(resolveMeshPath("http://example.com/a.stl", urdf, &error).isEmpty());
    QVERIFY(resolveMeshPath("package://", urdf, &error).isEmpty());

    // Through the scene: a package:// mesh loads.
    const QByteArray packageUrdf =
        "<robot name=\"p\"><link name=\"base\"><visual><geometry>\n"
        "        <mesh filename=\"package://my_robot/meshes/base.stl\" scale=\"0.05 0.05 "
        "0.05\"/></geometry></visual></link>\n"
        "        <link name=\"arm\"><visual><geometry><mesh "
        "filename=\"package://other_pkg/meshes/arm.stl\"/></geometry></visual></link>\n"
        "        <joint name=\"j\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/><axis xyz=\"0 0 "
        "1\"/>\n"
        "        <limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint></robot>";
    QVERIFY(writeFile(urdf, packageUrdf));
    const dyn::Model m = dyn::loadModel(urdf.toStdString());
    {
      qunsetenv("ROS_PACKAGE_PATH");
      RobotScene scene(view_->renderer());
      QSignalSpy messages(&scene, &RobotScene::message);
      scene.setModel(m, urdf);
      QVERIFY(!scene.isPlaceholder(scene.actorsOfLink("base")[0]));
      QVERIFY(scene.isPlaceholder(scene.actorsOfLink("arm")[0]));
      QCOMPARE(messages.count(), 1);
    }
    {
      qputenv("ROS_PACKAGE_PATH", root.filePath("elsewhere").toUtf8());
      RobotScene scene(view_->renderer());
      QSignalSpy messages(&scene, &RobotScene::message);
      scene.setModel(m, urdf);
      QVERIFY(!scene.isPlaceholder(scene.actorsOfLink("arm")[0]));
      QCOMPARE(messages.count(), 0);
    }
  }

  void screenshotShowsTheLinkWhereItProjects() {
    const QString file = robot("ur5.urdf");
    const dyn::Model m = dyn::loadModel(file.toStdString());
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    scene.setModel(m, file);
    scene.setShowGrid(false);
    scene.setShowWorldAxes(false);
    Eigen::VectorXd q = m.neutral();
    q[1] = -1.2;  // shoulder lift
    q[2] = 1.0;   // elbow
    poseAndRender(scene, m, d, q);
    scene.setViewPreset(RobotScene::Front);
    scene.setViewPreset(RobotScene::Iso);
    const QImage with = view_->grabImage();
    QCOMPARE(with.size(), QSize(640, 480) * view_->devicePixelRatioF());
    scene.setShowVisual(false);
    const QImage without = view_->grabImage();
    scene.setShowVisual(true);
    saveForInspection(with, "ur5_projection_with.png");
    saveForInspection(without, "ur5_projection_without.png");

    // The centre of every visual cylinder of the upper arm and forearm: robot pixels there, and
    // with only that actor shown, the link's own colour (blue or grey, shaded).
    int checked = 0;
    const QList<vtkActor*> actors = scene.geometryActors();
    for (size_t g = 0; g < m.geometries.size(); ++g) {
      const auto& go = m.geometries[g];
      if (go.collision || (go.link != "upper_arm_link" && go.link != "forearm_link")) continue;
      const auto E = enginePose(m, d, int(g));
      const double centre[3] = {E[3], E[7], E[11]};
      const QPoint px = project(view_->renderer(), centre);
      const QString where =
          QStringLiteral("%1 #%2 at (%3,%4)").arg(QString::fromStdString(go.link)).arg(g).arg(px.x()).arg(px.y());
      QVERIFY2(with.rect().contains(px), qPrintable(where));
      QVERIFY2(colorDistance(with.pixel(px), without.pixel(px)) > 60, qPrintable(where));
      for (vtkActor* a : actors) a->SetVisibility(a == actors[int(g)]);
      const QImage alone = view_->grabImage();
      scene.setShowVisual(true);
      const QRgb p = alone.pixel(px);
      QVERIFY2(colorDistance(p, without.pixel(px)) > 60, qPrintable(where));
      const auto& c = go.material.rgba;
      if (c[2] > c[0] + 0.2)
        QVERIFY2(qBlue(p) > qRed(p) + 30, qPrintable(where));  // ur_blue
      else
        QVERIFY2(std::abs(qRed(p) - qGreen(p)) < 20 && std::abs(qGreen(p) - qBlue(p)) < 25, qPrintable(where));  // grey
      ++checked;
    }
    QVERIFY(checked >= 2);
    // Background elsewhere: the four corners are untouched by the robot.
    for (QPoint corner : {QPoint(2, 2), QPoint(with.width() - 3, 2), QPoint(2, with.height() - 3),
                          QPoint(with.width() - 3, with.height() - 3)})
      QVERIFY(colorDistance(with.pixel(corner), without.pixel(corner)) < 8);

    // Another resolution: the robot is drawn too.
    const QImage big = view_->grabImage(1280, 720);
    QCOMPARE(big.size(), QSize(1280, 720));
    int nonBackground = 0;
    for (int y = 0; y < big.height(); y += 4)
      for (int x = 0; x < big.width(); x += 4)
        if (qBlue(big.pixel(x, y)) > qRed(big.pixel(x, y)) + 60) ++nonBackground;
    QVERIFY(nonBackground > 100);
  }

  void clickPicksTheBody() {
    const QString file = robot("ur5.urdf");
    const dyn::Model m = dyn::loadModel(file.toStdString());
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    scene.setModel(m, file);
    Eigen::VectorXd q = m.neutral();
    q[1] = -1.2;
    q[2] = 1.0;
    poseAndRender(scene, m, d, q);
    scene.setViewPreset(RobotScene::Iso);
    view_->grabImage();  // the renderer's size is the widget's again
    const int forearm = m.bodyIndex("forearm_link");
    int g = 0;
    while (m.geometries[g].link != "forearm_link" || m.geometries[g].collision) ++g;
    const auto E = enginePose(m, d, g);
    const double centre[3] = {E[3], E[7], E[11]};
    const QPoint px = project(view_->renderer(), centre);
    QCOMPARE(scene.pickBody(px, view_), forearm);
    QCOMPARE(scene.pickBody(QPoint(3, 3), view_), -1);

    QSignalSpy clicked(view_, &VtkViewport::clicked);
    QSignalSpy picked(&scene, &RobotScene::picked);
    connect(view_, &VtkViewport::clicked, &scene, [&](QPoint p) { scene.handleClick(p, view_); });
    QTest::mouseClick(view_, Qt::LeftButton, {}, px);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(picked.count(), 1);
    QCOMPARE(picked[0][0].toInt(), forearm);
    scene.setSelectedBody(forearm);
    QCOMPARE(scene.selectedBody(), forearm);

    // A drag orbits the camera and is not a click.
    vtkCamera* cam = view_->renderer()->GetActiveCamera();
    double before[3];
    cam->GetPosition(before);
    QTest::mousePress(view_, Qt::LeftButton, {}, QPoint(300, 200));
    for (int k = 1; k <= 10; ++k) {
      QMouseEvent move(QEvent::MouseMove, QPointF(300 + 8 * k, 200), view_->mapToGlobal(QPointF(300 + 8 * k, 200)),
                       Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
      QCoreApplication::sendEvent(view_, &move);
    }
    QTest::mouseRelease(view_, Qt::LeftButton, {}, QPoint(380, 200));
    QCOMPARE(clicked.count(), 1);
    double after[3];
    cam->GetPosition(after);
    QVERIFY(std::abs(after[0] - before[0]) + std::abs(after[1] - before[1]) > 1e-3);
    // The wheel zooms.
    const double dist = cam->GetDistance();
    QWheelEvent wheel(QPointF(320, 240), view_->mapToGlobal(QPointF(320, 240)), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(view_, &wheel);
    QVERIFY(cam->GetDistance() < dist);
  }

  void inertiaBoxesAndEllipsoidsHaveTheLinksInertia() {
    // Solids chosen first, their inertias computed from the textbook formulas and written to the
    // URDF: the scene must recover the solids. Box edges a, b, c: I_x = m (b^2 + c^2) / 12;
    // ellipsoid semi-axes a, b, c: I_x = m (b^2 + c^2) / 5. COMs offset from the link frames.
    const double box[3] = {0.4, 0.2, 0.1}, boxMass = 3.0;
    const double semi[3] = {0.3, 0.15, 0.05}, ellMass = 2.0;
    const auto inertial = [](double m, const double* e, double k, const char* xyz) {
      const double ix = m * (e[1] * e[1] + e[2] * e[2]) / k, iy = m * (e[0] * e[0] + e[2] * e[2]) / k,
                   iz = m * (e[0] * e[0] + e[1] * e[1]) / k;
      return QStringLiteral(
                 "<inertial><origin xyz=\"%1\"/><mass value=\"%2\"/><inertia ixx=\"%3\" iyy=\"%4\" "
                 "izz=\"%5\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>")
          .arg(xyz)
          .arg(m, 0, 'g', 17)
          .arg(ix, 0, 'g', 17)
          .arg(iy, 0, 'g', 17)
          .arg(iz, 0, 'g', 17)
          .toUtf8();
    };
    QTemporaryDir tmp;
    const QString urdf = tmp.filePath("inertia.urdf");
    QVERIFY(writeFile(urdf,
                      "<robot name=\"inertia\"><link name=\"base\"/>\n<link name=\"boxy\">" +
                          inertial(boxMass, box, 12, "0.1 0 0") + "</link>\n<link name=\"egg\">" +
                          inertial(ellMass, semi, 5, "0 0 0.2") +
                          "</link>\n"
                          "<joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"boxy\"/>"
                          "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n"
                          "<joint name=\"j2\" type=\"revolute\"><parent link=\"base\"/><child link=\"egg\"/>"
                          "<origin xyz=\"1 0 0\"/><axis xyz=\"0 0 1\"/>"
                          "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n</robot>\n"));
    const dyn::Model m = dyn::loadModel(urdf.toStdString());
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    scene.setModel(m, urdf);
    poseAndRender(scene, m, d, m.neutral());
    scene.setShowInertiaBoxes(true);
    const auto check = [](vtkActor* a, const double* full, const double* centre) {
      QVERIFY(a->GetVisibility());
      const double* b = a->GetBounds();
      for (int k = 0; k < 3; ++k) {
        QVERIFY2(std::abs(b[2 * k + 1] - b[2 * k] - full[k]) < 1e-6,  // float points
                 qPrintable(QStringLiteral("axis %1: %2 vs %3").arg(k).arg(b[2 * k + 1] - b[2 * k]).arg(full[k])));
        QVERIFY(std::abs((b[2 * k] + b[2 * k + 1]) / 2 - centre[k]) < 1e-6);
      }
    };
    const double boxCentre[3] = {0.1, 0, 0}, eggCentre[3] = {1, 0, 0.2};
    QCOMPARE(scene.inertiaShape(), RobotScene::InertiaShape::Box);
    QList<vtkActor*> actors = scene.inertiaActors();
    QCOMPARE(actors.size(), 2);  // base has no mass
    check(actors[0], box, boxCentre);
    scene.setInertiaShape(RobotScene::InertiaShape::Ellipsoid);
    for (vtkActor* a : actors) QVERIFY(!a->GetVisibility());
    actors = scene.inertiaActors();
    const double diameters[3] = {2 * semi[0], 2 * semi[1], 2 * semi[2]};
    check(actors[1], diameters, eggCentre);
    scene.setShowInertiaBoxes(false);
    for (vtkActor* a : actors) QVERIFY(!a->GetVisibility());
  }

  void togglesAndCamera() {
    const QString file = robot("humanoid.urdf");
    const dyn::Model m = dyn::loadModel(file.toStdString(), dyn::BuildOptions{.floatingBase = true});
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    scene.setModel(m, file);
    Eigen::VectorXd q = m.neutral();
    poseAndRender(scene, m, d, q);
    // The ground goes under the feet of a floating robot.
    QVERIFY(scene.groundHeight() < -0.5);
    scene.setShowCollision(true);
    scene.setShowFrames(true);
    scene.setFrameScale(0.05);
    scene.setShowJointAxes(true);
    scene.setShowCom(true);
    scene.setShowInertiaBoxes(true);
    scene.setShowLinkNames(true);
    scene.setOpacity(0.4);
    scene.setSelectedBody(3);
    for (auto p : {RobotScene::Front, RobotScene::Side, RobotScene::Top, RobotScene::Iso}) {
      scene.setViewPreset(p);
      QVERIFY(!view_->grabImage(320, 240).isNull());
    }
    scene.setParallelProjection(true);
    QVERIFY(view_->renderer()->GetActiveCamera()->GetParallelProjection());
    QVERIFY(!view_->grabImage().isNull());
    scene.setParallelProjection(false);
    for (vtkActor* a : scene.geometryActors()) QVERIFY(a->GetVisibility());
    scene.setShowVisual(false);
    scene.setShowCollision(false);
    for (vtkActor* a : scene.geometryActors()) QVERIFY(!a->GetVisibility());
    QCOMPARE(scene.pickBody(QPoint(320, 240), view_), -1);
  }

  void hiddenAndReparentedViewports() {
    const QString file = robot("ur5.urdf");
    const dyn::Model m = dyn::loadModel(file.toStdString());
    dyn::Data d(m);
    dyn::forwardKinematics(m, d, m.neutral());
    auto robotPixels = [](const QImage& img) {
      int n = 0;
      for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2)
          if (qBlue(img.pixel(x, y)) > qRed(img.pixel(x, y)) + 60) ++n;  // ur_blue
      return n;
    };
    {  // Never shown (a headless --screenshot): grabImage creates the context itself.
      VtkViewport hidden;
      hidden.resize(320, 240);
      RobotScene scene(hidden.renderer());
      scene.setModel(m, file);
      scene.updatePose(m, d);
      const QImage img = hidden.grabImage(400, 300);
      QCOMPARE(img.size(), QSize(400, 300));
      QVERIFY(robotPixels(img) > 50);
    }
    {  // Reparented (a dock made floating): Qt replaces the OpenGL context.
      QWidget first, second;
      first.resize(400, 300);
      second.resize(400, 300);
      auto* vp = new VtkViewport(&first);
      vp->resize(400, 300);
      first.show();
      QVERIFY(QTest::qWaitForWindowExposed(&first));
      RobotScene scene(vp->renderer());
      scene.setModel(m, file);
      scene.updatePose(m, d);
      QVERIFY(robotPixels(vp->grabImage()) > 50);
      vp->setParent(&second);
      vp->show();
      second.show();
      QVERIFY(QTest::qWaitForWindowExposed(&second));
      QCoreApplication::processEvents();
      QVERIFY(robotPixels(vp->grabImage()) > 50);
      QVERIFY(robotPixels(vp->grabFramebuffer()) > 50);  // the widget's own paintGL path too
    }
  }

  void screenshotGallery() {
    if (qEnvironmentVariableIsEmpty("DYNSCOPE_SCREENSHOT_DIR"))
      QSKIP("set DYNSCOPE_SCREENSHOT_DIR to write the gallery");
    struct Shot {
      const char* file;
      bool floating;
      const char* name;
      bool decorations;
    };
    for (const Shot& s :
         {Shot{"ur5.urdf", false, "ur5.png", false}, Shot{"ur5.urdf", false, "ur5_aids.png", true},
          Shot{"humanoid.urdf", true, "humanoid.png", false}, Shot{"humanoid.urdf", true, "humanoid_aids.png", true},
          Shot{"panda.urdf", false, "panda.png", false}, Shot{"quadruped.urdf", true, "quadruped.png", false},
          Shot{"puma560.dh", false, "puma560.png", false}}) {
      const QString file = robot(s.file);
      const dyn::Model m = dyn::loadModel(file.toStdString(), dyn::BuildOptions{.floatingBase = s.floating});
      dyn::Data d(m);
      RobotScene scene(view_->renderer());
      scene.setModel(m, file);
      Eigen::VectorXd q = m.neutral();
      if (QByteArray(s.file) == "ur5.urdf") {
        q[1] = -1.2;
        q[2] = 1.0;
      }
      poseAndRender(scene, m, d, q);
      if (s.decorations) {
        scene.setShowFrames(true);
        scene.setShowJointAxes(true);
        scene.setShowCom(true);
        scene.setShowLinkNames(true);
        scene.setShowInertiaBoxes(QByteArray(s.file) == "ur5.urdf");
        scene.setOpacity(0.45);
        scene.setSelectedBody(m.N / 2);
      }
      saveForInspection(view_->grabImage(1280, 960), s.name);
      if (QByteArray(s.file) == "humanoid.urdf" && !s.decorations) {
        const std::pair<RobotScene::ViewPreset, const char*> presets[] = {{RobotScene::Front, "humanoid_front.png"},
                                                                          {RobotScene::Side, "humanoid_side.png"},
                                                                          {RobotScene::Top, "humanoid_top.png"}};
        for (const auto& [preset, name] : presets) {
          scene.setViewPreset(preset);
          saveForInspection(view_->grabImage(640, 480), name);
        }
        scene.setParallelProjection(true);
        saveForInspection(view_->grabImage(640, 480), "humanoid_top_parallel.png");
        scene.setParallelProjection(false);
      }
    }
  }
};

QTEST_MAIN(TestScene)
#include "test_scene.moc"
