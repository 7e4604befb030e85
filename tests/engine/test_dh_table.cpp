// The DH table as a value (dynscope/io/dh_table.hpp): the writer's text parses back to the same
// table (shipped tables and random ones, radians and degrees, loops and actuated lines); the
// per-row validator refuses bad cells naming the field; standard <-> modified keeps every body's
// motion and the dynamics (compared with the model of the original table at random states), and
// the documented planar3 pair of docs/dh-format.md converts into each other; the degenerate pairs
// named are those whose Jacobian columns are parallel.
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <sstream>

#include "dh_table_compare.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/io/dh_table.hpp"
#include "model_compare.hpp"

using dyn::DhConvention;
using dyn::DhRow;
using dyn::DhTable;
using dyn::testing::tableDifference;
using Vec3 = Eigen::Vector3d;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> shippedTables() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(DYNSCOPE_ROBOTS_DIR))
    if (e.path().extension() == ".dh") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// A random table: every key given, both joint types, base and tool, some rows massless.
DhTable randomTable(unsigned seed, DhConvention convention, bool degrees) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  DhTable t;
  t.name = "random" + std::to_string(seed);
  t.convention = convention;
  t.degrees = degrees;
  t.gravity = Vec3(U(rng), U(rng), -9.81);
  t.base = dyn::Pose{Vec3(U(rng), U(rng), U(rng)), Vec3(U(rng), U(rng), U(rng))};
  if (seed % 2) t.tool = dyn::Pose{Vec3(U(rng), U(rng), U(rng)), Vec3(U(rng), U(rng), U(rng))};
  const int n = 3 + int(seed % 4);
  for (int i = 0; i < n; ++i) {
    DhRow r;
    r.name = "j" + std::to_string(i + 1);
    r.prismatic = i == 2;
    r.a = U(rng), r.alpha = 3 * U(rng), r.d = U(rng), r.theta = 3 * U(rng);
    r.hasLimits = i % 2 == 0;
    r.lower = -1 - std::abs(U(rng)), r.upper = 1 + std::abs(U(rng));
    if (!r.hasLimits) r.lower = r.upper = 0;  // not part of an unlimited row
    r.velocity = std::abs(U(rng)), r.effort = 10 * std::abs(U(rng));
    r.damping = std::abs(U(rng)), r.friction = std::abs(U(rng));
    r.hasInertial = i != 1;
    if (r.hasInertial) {
      r.mass = 1 + std::abs(U(rng));
      r.com = Vec3(U(rng), U(rng), U(rng)) * 0.3;
      // A physical inertia: principal moments of a box, turned by a random rotation.
      const Eigen::Vector3d s =
          (Eigen::Vector3d(U(rng), U(rng), U(rng)).cwiseAbs() + Eigen::Vector3d::Constant(0.1)) * 0.3;
      const Eigen::Vector3d p(s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(),
                              s.x() * s.x() + s.y() * s.y());
      const Eigen::Matrix3d R = Eigen::Quaterniond(U(rng), U(rng), U(rng), U(rng)).normalized().toRotationMatrix();
      const Eigen::Matrix3d I = R * (r.mass / 12 * p).asDiagonal() * R.transpose();
      r.inertia = {I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)};
    }
    t.rows.push_back(r);
  }
  t.actuated = {{"j1", 0}, {"j3", 0}};
  return t;
}

dyn::Model modelOf(const DhTable& t) { return dyn::buildModel(dyn::dhTableToDescription(t)); }

}  // namespace

class TestDhTable : public QObject {
  Q_OBJECT
 private slots:
  void writeParsesBack_data();
  void writeParsesBack();
  void checkDhRowRefuses_data();
  void checkDhRowRefuses();
  void conventionKeepsTheRobot_data();
  void conventionKeepsTheRobot();
  void documentedPlanarPair();
  void xScrewEndsMoveIntoRows();
  void degeneratePairsAreDependentJacobianColumns();
};

void TestDhTable::writeParsesBack_data() {
  QTest::addColumn<QString>("source");  // a shipped file, or "random:SEED:CONV:UNIT"
  for (const std::string& f : shippedTables()) QTest::newRow(f.c_str()) << QString::fromStdString(f);
  for (unsigned seed = 1; seed <= 6; ++seed)
    for (const char* conv : {"standard", "modified"})
      for (const char* unit : {"rad", "deg"})
        QTest::newRow(qPrintable(QString("random %1 %2 %3").arg(seed).arg(conv).arg(unit)))
            << QString("random:%1:%2:%3").arg(seed).arg(conv).arg(unit);
}

void TestDhTable::writeParsesBack() {
  QFETCH(QString, source);
  DhTable t;
  if (source.startsWith("random:")) {
    const QStringList p = source.split(':');
    t = randomTable(p[1].toUInt(), p[2] == "modified" ? DhConvention::Modified : DhConvention::Standard, p[3] == "deg");
  } else {
    t = dyn::parseDhTable(readFile(source.toStdString()), source.toStdString());
  }
  const std::string text = dyn::writeDhTable(t);
  const DhTable back = dyn::parseDhTable(text, "written.dh");
  // Radians: every number bitwise. Degrees: d * (pi/180) == v whenever a decimal of <= 17 digits does it,
  // else one rounding.
  const QString why = tableDifference(back, t, t.degrees ? 4e-16 : 0);
  if (!why.isEmpty()) QFAIL(qPrintable(why + "\n" + QString::fromStdString(text)));
  // And it is the same robot.
  COMPARE_MODELS(modelOf(t), modelOf(back));
}

void TestDhTable::checkDhRowRefuses_data() {
  QTest::addColumn<QString>("field");
  QTest::addColumn<QString>("value");
  QTest::newRow("NaN a") << "a"
                         << "nan";
  QTest::newRow("inf alpha") << "alpha"
                             << "inf";
  QTest::newRow("negative mass") << "mass"
                                 << "-1";
  QTest::newRow("NaN mass") << "mass"
                            << "nan";
  QTest::newRow("negative velocity") << "velocity"
                                     << "-2";
  QTest::newRow("negative effort") << "effort"
                                   << "-2";
  QTest::newRow("negative damping") << "damping"
                                    << "-0.1";
  QTest::newRow("negative friction") << "friction"
                                     << "-0.1";
  QTest::newRow("lower above upper") << "lower"
                                     << "3";
  QTest::newRow("inertia not finite") << "inertia"
                                      << "inf";
  QTest::newRow("com not finite") << "com"
                                  << "nan";
  QTest::newRow("empty name") << "name"
                              << "";
  QTest::newRow("name with a space") << "name"
                                     << "j 2";
  QTest::newRow("duplicate name") << "name"
                                  << "j1";
  QTest::newRow("reserved name") << "name"
                                 << "link2_dh_fixed";
  QTest::newRow("valid") << ""
                         << "";
}

void TestDhTable::checkDhRowRefuses() {
  QFETCH(QString, field);
  QFETCH(QString, value);
  DhTable t = randomTable(3, DhConvention::Standard, false);
  QVERIFY2(dyn::checkDhRow(t, 1).empty(), dyn::checkDhRow(t, 1).c_str());
  DhRow& r = t.rows[1];
  r.hasLimits = true;
  const double v = value == "nan" ? std::nan("") : value == "inf" ? INFINITY : value.toDouble();
  const std::map<QString, double*> scalars = {
      {"a", &r.a},           {"alpha", &r.alpha},     {"mass", &r.mass},         {"velocity", &r.velocity},
      {"effort", &r.effort}, {"damping", &r.damping}, {"friction", &r.friction}, {"lower", &r.lower}};
  if (scalars.count(field)) *scalars.at(field) = v;
  if (field == "inertia") r.inertia[4] = v;
  if (field == "com") r.com.y() = v;
  if (field == "name") r.name = value.toStdString();
  const std::string why = dyn::checkDhRow(t, 1);
  if (field.isEmpty()) {
    QVERIFY2(why.empty(), why.c_str());
    return;
  }
  QVERIFY2(!why.empty(), "accepted");
  QVERIFY2(QString::fromStdString(why).contains("'" + field + "'"), why.c_str());
  QVERIFY2(!dyn::checkDhTable(t).empty(), "the table check missed it");
  // The per-value check says the same before anything changes.
  if (scalars.count(field)) {
    const DhTable fresh = randomTable(3, DhConvention::Standard, false);
    const std::string before = dyn::checkDhValue(fresh, 0, field.toStdString(), v);
    QVERIFY2(QString::fromStdString(before).contains("'" + field + "'"), before.c_str());
    QVERIFY2(dyn::checkDhValue(fresh, 0, field.toStdString(), 0.5).empty(), "a valid value refused");
  }
}

void TestDhTable::conventionKeepsTheRobot_data() {
  QTest::addColumn<QString>("source");
  for (const std::string& f : shippedTables()) QTest::newRow(f.c_str()) << QString::fromStdString(f);
  for (unsigned seed = 1; seed <= 8; ++seed)
    for (const char* conv : {"standard", "modified"})
      QTest::newRow(qPrintable(QString("random %1 %2").arg(seed).arg(conv)))
          << QString("random:%1:%2").arg(seed).arg(conv);
}

void TestDhTable::conventionKeepsTheRobot() {
  QFETCH(QString, source);
  DhTable t;
  if (source.startsWith("random:")) {
    const QStringList p = source.split(':');
    t = randomTable(p[1].toUInt(), p[2] == "modified" ? DhConvention::Modified : DhConvention::Standard, false);
  } else {
    t = dyn::parseDhTable(readFile(source.toStdString()), source.toStdString());
  }
  const DhConvention other = t.convention == DhConvention::Standard ? DhConvention::Modified : DhConvention::Standard;
  const DhTable u = dyn::toConvention(t, other);
  QCOMPARE(u.convention, other);
  QVERIFY2(dyn::checkDhTable(u).empty(), dyn::checkDhTable(u).c_str());
  const dyn::Model a = modelOf(t), b = modelOf(u);
  // Every body's world inertia (so every body's motion, where it has mass), the tool, tau, H, qdd.
  COMPARE_MODELS(a, b, {"tool", "tool"});
  // Each DH frame i is fixed to link i: standard S_i = M_i Tx(a_i) Rx(alpha_i) with the standard row's a, alpha.
  const DhTable& s = t.convention == DhConvention::Standard ? t : u;
  const dyn::Model& ms = t.convention == DhConvention::Standard ? a : b;
  const dyn::Model& mm = t.convention == DhConvention::Standard ? b : a;
  dyn::Data ds(ms), dm(mm);
  const auto st = dyn::testing::randomState(ms, 7);
  dyn::forwardKinematics(ms, ds, st.q);
  dyn::forwardKinematics(mm, dm, st.q);
  dyn::updateFrames(ms, ds);
  dyn::updateFrames(mm, dm);
  for (size_t i = 1; i <= s.rows.size(); ++i) {
    const std::string f = "frame" + std::to_string(i);
    const Eigen::Matrix4d S = dyn::testing::worldPose(ds.oMf[size_t(ms.frameIndex(f))]);
    const Eigen::Matrix4d M = dyn::testing::worldPose(dm.oMf[size_t(mm.frameIndex(f))]);
    const double ca = std::cos(s.rows[i - 1].alpha), sa = std::sin(s.rows[i - 1].alpha);
    Eigen::Matrix4d screw;
    screw << 1, 0, 0, s.rows[i - 1].a, 0, ca, -sa, 0, 0, sa, ca, 0, 0, 0, 0, 1;
    const std::string d = dyn::testing::differs(S, M * screw, 1e-12, f);
    QVERIFY2(d.empty(), d.c_str());
  }
  // Closed loops close at the same configuration.
  QCOMPARE(a.hasLoops(), b.hasLoops());
  if (a.hasLoops()) {
    const std::string d = dyn::testing::differs(b.loopReference, a.loopReference, 1e-9, "assembled reference");
    QVERIFY2(d.empty(), d.c_str());
  }
  // Back again: the same robot; and the table itself when its ends are in the documented form.
  const DhTable back = dyn::toConvention(u, t.convention);
  COMPARE_MODELS(a, modelOf(back), {"tool", "tool"});
}

// docs/dh-format.md writes planar3 in both conventions: the one converts into the other.
void TestDhTable::documentedPlanarPair() {
  const DhTable s = dyn::parseDhTable(readFile(std::string(DYNSCOPE_ROBOTS_DIR) + "/planar3.dh"), "planar3.dh");
  const DhTable m = dyn::parseDhTable(
      "name planar3\nconvention modified\nangles deg\ngravity 0 -9.81 0\ntool 0.1 0 0 0 0 0\n"
      "joint j1 R        mass=0.5 com=0.15,0,0  inertia=0,0.00375,0.00375\n"
      "joint j2 R a=0.3  mass=0.4 com=0.125,0,0 inertia=0,0.0020833333333,0.0020833333333\n"
      "joint j3 R a=0.25 mass=0.2 com=0.05,0,0  inertia=0,0.00016666666667,0.00016666666667\n",
      "doc.dh");
  QVERIFY(s.tool == std::nullopt);
  const QString to = tableDifference(dyn::toConvention(s, DhConvention::Modified), m, 1e-15);
  QVERIFY2(to.isEmpty(), qPrintable("to modified: " + to));
  const QString from = tableDifference(dyn::toConvention(m, DhConvention::Standard), s, 1e-15);
  QVERIFY2(from.isEmpty(), qPrintable("to standard: " + from));
}

// A base that is a pure x-screw becomes modified row 1's a, alpha, and comes back as the base.
void TestDhTable::xScrewEndsMoveIntoRows() {
  const DhTable s = dyn::parseDhTable(
      "base 0.2 0 0 0.5 0 0\njoint j1 R a=0.3 alpha=0.4 d=0.1 mass=1 com=0.1,0.2,0.3 inertia=0.1,0.2,0.25,0.01,0,0\n"
      "joint j2 P a=0.2 alpha=-1 theta=0.3 mass=2 com=0,0.1,0 inertia=0.1,0.1,0.1\n",
      "x.dh");
  const DhTable m = dyn::toConvention(s, DhConvention::Modified);
  QVERIFY(!m.base);
  QCOMPARE(m.rows[0].a, 0.2);
  QCOMPARE(m.rows[0].alpha, 0.5);
  QCOMPARE(m.rows[1].a, 0.3);
  QCOMPARE(m.rows[1].alpha, 0.4);
  QVERIFY(m.tool);  // the last a, alpha: Tx(0.2) Rx(-1)
  QCOMPARE(m.tool->xyz, Vec3(0.2, 0, 0));
  QCOMPARE(m.tool->rpy, Vec3(-1, 0, 0));
  COMPARE_MODELS(modelOf(s), modelOf(m), {"tool", "tool"});
  const DhTable back = dyn::toConvention(m, DhConvention::Standard);
  const QString why = tableDifference(back, s, 1e-14);
  QVERIFY2(why.isEmpty(), qPrintable(why));
}

// dhDegeneracies names exactly the successive joints whose world Jacobian columns (their twists
// 0_S_i, eq. 17 of Featherstone's Part 2) are parallel at every pose: checked against the columns at
// random poses of random tables whose a and alpha are often 0 or pi, in both conventions. The
// shipped tables have none.
void TestDhTable::degeneratePairsAreDependentJacobianColumns() {
  for (const std::string& f : shippedTables()) {
    const std::vector<dyn::DhDegeneracy> named = dyn::dhDegeneracies(dyn::parseDhTable(readFile(f), f));
    QVERIFY2(named.empty(), named.empty() ? "" : named[0].why.c_str());
  }
  int found = 0;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> U(-1, 1);
    std::uniform_int_distribution<int> pick(0, 2);
    DhTable t = randomTable(seed, seed % 2 ? DhConvention::Modified : DhConvention::Standard, false);
    for (DhRow& r : t.rows) {
      r.prismatic = pick(rng) == 0;
      r.a = pick(rng) == 0 ? U(rng) : 0.0;
      const int a = pick(rng);
      r.alpha = a == 0 ? 0.0 : a == 1 ? std::numbers::pi : 3 * U(rng);
    }
    const std::vector<dyn::DhDegeneracy> named = dyn::dhDegeneracies(t);
    const dyn::Model m = modelOf(t);
    dyn::Data d(m);
    std::vector<bool> dependent(t.rows.size(), true);  // pair (k, k+1) parallel at every pose tried
    for (int s = 0; s < 4; ++s) {
      const Eigen::MatrixXd J = dyn::frameJacobian(m, d, dyn::testing::randomState(m, seed * 10 + s).q,
                                                   int(m.frames.size()) - 1, dyn::ReferenceFrame::World);
      for (size_t k = 0; k + 1 < t.rows.size(); ++k) {
        const Eigen::VectorXd c1 = J.col(int(k)), c2 = J.col(int(k) + 1);
        dependent[k] = dependent[k] && c1.norm() * c2.norm() - std::abs(c1.dot(c2)) < 1e-10;
      }
    }
    for (size_t k = 0; k + 1 < t.rows.size(); ++k) {
      const auto it = std::find_if(named.begin(), named.end(), [&](const auto& n) { return n.first == int(k); });
      QVERIFY2(dependent[k] == (it != named.end()),
               qPrintable(QString("seed %1, rows %2-%3: columns %4, named %5\n%6")
                              .arg(seed)
                              .arg(k + 1)
                              .arg(k + 2)
                              .arg(dependent[k] ? "parallel" : "independent")
                              .arg(it != named.end() ? QString::fromStdString(it->why) : "no")
                              .arg(QString::fromStdString(dyn::writeDhTable(t)))));
      found += dependent[k];
    }
  }
  QVERIFY(found > 5);  // the random tables did make some
}

QTEST_APPLESS_MAIN(TestDhTable)
#include "test_dh_table.moc"
