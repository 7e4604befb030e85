// dynscope-cli equations (issue 40; docs/symbolic.md): the equations of motion in closed form.
//  - the 2-link planar arm (tests/data/arm2.dh) with symbolic parameters prints M11 as the textbook's
//    m1 c1^2 + m2 (l1^2 + c2^2 + 2 l1 c2 cos q2) + I1 + I2 (c_i = l_i + c_ix, Spong, Hutchinson and
//    Vidyasagar 2006, chapter 7), grouped by mass, and the symbols' meanings and values;
//  - the printed expressions, evaluated by the command at a state (--q, --qd, --qdd), equal the
//    closed form in double and `dynscope-cli id` / `mass` to 1e-12, with symbolic and numeric
//    parameters, on the arm, the Stanford arm (a prismatic joint) and the UR5 URDF (numeric);
//  - LaTeX (pmatrix, one entry a line) and JSON (text and LaTeX strings, the symbols);
//  - what is not supported is refused naming it: a URDF with --parameters symbolic, a modified-DH
//    table, a floating base; a build without GiNaC says how to get it.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "cli_json.hpp"
#include "run_cli.hpp"

using dyn::testing::CliRun;
using dyn::testing::runCli;
using dyn::testing::runJson;
using dyn::testing::toMatrix;
using dyn::testing::toVector;

namespace {

QString arm2() { return QString(DYNSCOPE_TEST_DATA_DIR) + "/arm2.dh"; }
QString robot(const QString& file) { return QString(DYNSCOPE_ROBOTS_DIR) + "/" + file; }
const QStringList kState{"--q", "0.3,-0.7", "--qd", "1,2", "--qdd", "0.5,-1"};

}  // namespace

class TestEquationsCli : public QObject {
  Q_OBJECT

  bool symbolic_ = true;

 private slots:
  void initTestCase() {
    const CliRun r = runCli({"equations", arm2()});
    QVERIFY(!r.crashed);
    if (r.status != 0 && r.err.contains("no computer algebra")) {
      QVERIFY(r.err.contains("apt-get install libginac-dev"));
      QCOMPARE(r.status, 1);
      symbolic_ = false;
    }
  }

  void textOfTheTwoLinkArm() {
    if (!symbolic_) QSKIP("this build has no GiNaC: the refusal was checked");
    const CliRun r = runCli({"equations", arm2()});
    QCOMPARE(r.status, 0);
    const QStringList lines = QString::fromUtf8(r.out).split('\n');
    // m1 (l1 + c1x)^2 + m2 (l1^2 + (l2 + c2x)^2 + 2 l1 (l2 + c2x) cos q2) + I1zz + I2zz, by mass.
    QVERIFY2(lines.contains("M11 = I1zz+I2zz+m1*(c1x+l1)^2+m2*((c2x+l2)^2+2*l1*cos(q2)*(c2x+l2)+l1^2)"),
             r.out.constData());
    QVERIFY(lines.contains("M22 = I2zz+m2*(c2x+l2)^2"));
    QVERIFY(lines.contains("c2 = l1*m2*qd1^2*sin(q2)*(c2x+l2)"));
    QVERIFY(lines.contains("g2 = g*m2*cos(q1+q2)*(c2x+l2)"));
    for (const char* name : {"M12 = ", "c1 = ", "g1 = ", "tau1 = ", "tau2 = "})
      QVERIFY2(std::any_of(lines.begin(), lines.end(), [&](const QString& l) { return l.startsWith(name); }), name);
    QVERIFY(!std::any_of(lines.begin(), lines.end(), [](const QString& l) { return l.startsWith("M21"); }));
    QVERIFY(lines.contains("# m1    mass of link 1 [kg] = 2"));
    QVERIFY(lines.contains("# c2x   centre of mass of link 2, x in DH frame 2 [m] = -0.1"));
    QVERIFY(lines.contains("# g     magnitude of gravity [m/s^2] = 9.81"));
    QVERIFY(lines.contains("# q2    joint 2 (j2) angle [rad]"));
    // The same text every run: the printer sorts what GiNaC orders by memory addresses.
    QCOMPARE(runCli({"equations", arm2()}).out, r.out);
  }

  void valuesAtAState_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("parameters");
    QTest::addColumn<QStringList>("state");
    QTest::newRow("arm2 symbolic") << arm2() << "symbolic" << kState;
    QTest::newRow("arm2 numeric") << arm2() << "numeric" << kState;
    const QStringList six{"--q",   "0.3,-0.7,0.2,0.9,-0.4,1.1", "--qd", "1,2,-0.5,0.3,-1,0.7",
                          "--qdd", "0.5,-1,0.2,1.5,-0.3,0.8"};
    QTest::newRow("stanford symbolic") << robot("stanford_arm.dh") << "symbolic" << six;
    QTest::newRow("ur5 numeric") << robot("ur5.urdf") << "numeric" << six;
  }
  void valuesAtAState() {
    if (!symbolic_) QSKIP("this build has no GiNaC");
    QFETCH(QString, file);
    QFETCH(QString, parameters);
    QFETCH(QStringList, state);
    const QJsonObject o =
        runJson(QStringList{"equations", file, "--format", "json", "--parameters", parameters} + state);
    QVERIFY(!o.isEmpty());
    QCOMPARE(o["parameters"].toString(), parameters);
    const QJsonObject v = o["values"].toObject();
    const QJsonObject id = runJson(QStringList{"id", file} + state);
    const QJsonObject mass = runJson({"mass", file, "--q", state[1]});
    const Eigen::VectorXd tau = toVector(v["tau"]), tauId = toVector(id["tau"]);
    QCOMPARE(tau.size(), tauId.size());
    QVERIFY2((tau - tauId).cwiseAbs().maxCoeff() <= 1e-12, qPrintable(QString::number((tau - tauId).norm())));
    const Eigen::MatrixXd M = toMatrix(v["M"]), Mid = toMatrix(mass["mass_matrix"]);
    QCOMPARE(M.rows(), Mid.rows());
    QVERIFY((M - Mid).cwiseAbs().maxCoeff() <= 1e-12);
    if (file == arm2()) {  // the closed form in double: M11 = m1 c1^2 + m2 (l1^2 + c2^2 + 2 l1 c2 cos q2) + I1 + I2
      const double m1 = 2, m2 = 1, l1 = 0.4, c1 = 0.4 - 0.25, c2 = 0.3 - 0.1, I1 = 0.03, I2 = 0.015, q2 = -0.7;
      QVERIFY(std::abs(M(0, 0) - (m1 * c1 * c1 + m2 * (l1 * l1 + c2 * c2 + 2 * l1 * c2 * std::cos(q2)) + I1 + I2)) <
              1e-14);
      const QJsonArray text = o["text_M"].toArray()[0].toArray();
      QVERIFY(text[0].toString().contains("cos(q2)"));
      QVERIFY(o["latex_M"].toArray()[0].toArray()[0].toString().contains("\\cos\\left(q_{2}\\right)"));
      QCOMPARE(o["text_tau"].toArray().size(), 2);
      QVERIFY(o["symbols"].toArray().size() >= 6);
    }
  }

  // A URDF's own masses, centres of mass, inertias and joint origins as symbols (symbolicModel): the
  // arm written as URDF; τ and M at a state against id and mass. (The UR5's 35 symbols are checked
  // against CRBA and RNEA in test_symbolic_dynamics.)
  void urdfSymbolicParameters() {
    if (!symbolic_) QSKIP("this build has no GiNaC");
    QTemporaryDir dir;
    const QString urdf = dir.filePath("arm2.urdf");
    QCOMPARE(runCli({"convert", arm2(), "--to", "urdf", "--out", urdf}).status, 0);
    const QJsonObject o =
        runJson(QStringList{"equations", urdf, "--format", "json", "--parameters", "symbolic"} + kState);
    QVERIFY(!o.isEmpty());
    QCOMPARE(o["parameters"].toString(), QString("symbolic"));
    QStringList names;
    for (const QJsonValue& x : o["symbols"].toArray()) names << x.toObject()["name"].toString();
    for (const char* name : {"m1", "m2", "c2x", "I2zz", "p2x", "g"}) QVERIFY2(names.contains(name), name);
    QVERIFY(o["text_M"].toArray()[0].toArray()[0].toString().contains("m2"));
    const QJsonObject id = runJson(QStringList{"id", urdf} + kState);
    const Eigen::VectorXd tau = toVector(o["values"].toObject()["tau"]), tauId = toVector(id["tau"]);
    QCOMPARE(tau.size(), tauId.size());
    QVERIFY2((tau - tauId).cwiseAbs().maxCoeff() <= 1e-12, qPrintable(QString::number((tau - tauId).norm())));
  }

  void latex() {
    if (!symbolic_) QSKIP("this build has no GiNaC");
    QTemporaryDir dir;
    const QString out = dir.filePath("arm2.tex");
    const CliRun r = runCli({"equations", arm2(), "--format", "latex", "--out", out});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.isEmpty());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString tex = QString::fromUtf8(f.readAll());
    QVERIFY(tex.contains("\\[ M(q) = \\begin{pmatrix}"));
    QVERIFY(tex.contains("\\[ M_{11} = I_{1zz} + I_{2zz} + m_{1} \\left(c_{1x} + l_{1}\\right)^{2}"));
    QVERIFY(tex.contains("\\[ \\tau_{2} = "));
    QVERIFY(tex.contains("% $m_{1}$: mass of link 1 [kg] = 2"));
  }

  void unsupportedModels() {
    if (!symbolic_) QSKIP("this build has no GiNaC");
    CliRun r;
    QTemporaryDir dir;
    const QString modified = dir.filePath("modified.dh");
    QVERIFY(runCli({"convert", arm2(), "--to", "dh", "--convention", "modified", "--out", modified}).status == 0);
    r = runCli({"equations", modified});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("modified DH convention"), r.err.constData());
    r = runCli({"equations", arm2(), "--floating-base", "--parameters", "numeric"});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("joint 'root_joint' is floating") && r.err.contains("revolute and prismatic joints only"),
             r.err.constData());
  }

  void usage() {
    CliRun r = runCli({"equations", arm2(), "--format", "pdf"});
    QCOMPARE(r.status, 2);
    QVERIFY(r.err.contains("--format must be text, latex, json, c, python or matlab"));
    r = runCli({"equations", arm2(), "--parameters", "exact"});
    QCOMPARE(r.status, 2);
    QVERIFY(r.err.contains("--parameters must be numeric or symbolic"));
    QVERIFY(runCli({"equations", "--help"}).out.contains("--parameters numeric|symbolic"));
  }
};

QTEST_GUILESS_MAIN(TestEquationsCli)
#include "test_equations_cli.moc"
