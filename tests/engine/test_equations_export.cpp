// dynscope-cli equations --format c|python|matlab (issue 40; docs/symbolic.md, "Code"): the generated
// code is usable as is.
//  - C: the export of the arm (tests/data/arm2.dh), Saha's planar arm and the Stanford arm (symbolic
//    parameters) and of the PUMA 560 (numeric) is compiled here with the system's C compiler and a
//    small driver, and its M, c, g and tau at two states equal `dynscope-cli mass` and `id` (RNEA) to
//    1e-12 relative;
//  - Python: the same with /usr/bin/python3 and a driver that imports the module from its file;
//    the module imports only math and returns plain lists (nested for M);
//  - MATLAB: the file's layout (one function file, local functions, 1-based indexing), and with
//    Octave when it is installed, the numbers;
//  - every export begins with a comment naming the model, the parameters and the convention, and
//    states the cost of tau; the code is the same every run.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

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

struct State {
  QString q, qd, qdd;
};
// Two states per robot: one general, one with the velocities zero (c = 0).
std::vector<State> states(int n) {
  const double a[] = {0.3, -0.7, 0.2, 0.9, -0.4, 1.1}, b[] = {1, 2, -0.5, 0.3, -1, 0.7},
               c[] = {0.5, -1, 0.2, 1.5, -0.3, 0.8};
  QStringList q, qd, qdd, q2, zero;
  for (int k = 0; k < n; ++k) {
    q << QString::number(a[k]);
    qd << QString::number(b[k]);
    qdd << QString::number(c[k]);
    q2 << QString::number(-2 * a[k] + 0.1);
    zero << "0";
  }
  return {{q.join(','), qd.join(','), qdd.join(',')}, {q2.join(','), zero.join(','), qd.join(',')}};
}

// What the engine gives at a state: M (row-major) by `mass`, g, c and tau by RNEA through `id`.
std::map<QString, Eigen::VectorXd> reference(const QString& file, const State& s, int n) {
  QStringList zero;
  for (int k = 0; k < n; ++k) zero << "0";
  const QString z = zero.join(',');
  std::map<QString, Eigen::VectorXd> r;
  r["tau"] = toVector(runJson({"id", file, "--q", s.q, "--qd", s.qd, "--qdd", s.qdd})["tau"]);
  r["g"] = toVector(runJson({"id", file, "--q", s.q, "--qd", z, "--qdd", z})["tau"]);
  r["c"] = toVector(runJson({"id", file, "--q", s.q, "--qd", s.qd, "--qdd", z})["tau"]) - r["g"];
  const Eigen::MatrixXd M = toMatrix(runJson({"mass", file, "--q", s.q})["mass_matrix"]);
  Eigen::VectorXd m(n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m[i * n + j] = M(i, j);
  r["M"] = m;
  return r;
}

// "name v1 v2 ..." lines of a driver's output.
std::map<QString, Eigen::VectorXd> parseLines(const QByteArray& out) {
  std::map<QString, Eigen::VectorXd> r;
  for (const QString& line : QString::fromUtf8(out).split('\n', Qt::SkipEmptyParts)) {
    const QStringList w = line.simplified().split(' ');
    Eigen::VectorXd v(w.size() - 1);
    for (int k = 1; k < w.size(); ++k) v[k - 1] = w[k].toDouble();
    r[w[0]] = v;
  }
  return r;
}

// Largest difference relative to the reference's largest magnitude (at least 1).
QString compare(const std::map<QString, Eigen::VectorXd>& got, const std::map<QString, Eigen::VectorXd>& want) {
  for (const auto& [name, w] : want) {
    const auto it = got.find(name);
    if (it == got.end() || it->second.size() != w.size()) return name + " missing or of the wrong size";
    const double scale = std::max(1.0, w.cwiseAbs().maxCoeff());
    const double err = (it->second - w).cwiseAbs().maxCoeff() / scale;
    if (!(err <= 1e-12)) return QString("%1 differs by %2 (relative)").arg(name).arg(err);
  }
  return {};
}

QString exportTo(const QString& file, const QString& params, const QString& format, const QString& out) {
  const CliRun r = runCli({"equations", file, "--parameters", params, "--format", format, "--out", out});
  if (r.status != 0) return QString::fromUtf8(r.err);
  return {};
}

QByteArray run(const QString& program, const QStringList& args, int* status) {
  QProcess p;
  p.start(program, args);
  if (!p.waitForFinished(120000)) {
    *status = -1;
    return p.readAllStandardError();
  }
  *status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  return *status == 0 ? p.readAllStandardOutput() : p.readAllStandardError() + p.readAllStandardOutput();
}

QString cCompiler() {
  for (const char* name : {"cc", "gcc", "clang"}) {
    const QString path = QStandardPaths::findExecutable(name);
    if (!path.isEmpty()) return path;
  }
  return {};
}

QString python() {
  if (QFile::exists("/usr/bin/python3")) return "/usr/bin/python3";
  return QStandardPaths::findExecutable("python3");
}

}  // namespace

class TestEquationsExport : public QObject {
  Q_OBJECT

  bool symbolic_ = true;

  void models() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("parameters");
    QTest::addColumn<int>("n");
    QTest::newRow("arm2 symbolic") << arm2() << "symbolic" << 2;
    QTest::newRow("planar3 symbolic") << robot("planar3.dh") << "symbolic" << 3;
    QTest::newRow("stanford symbolic") << robot("stanford_arm.dh") << "symbolic" << 6;
    QTest::newRow("puma560 numeric") << robot("puma560.dh") << "numeric" << 6;
  }

 private slots:
  void initTestCase() {
    const CliRun r = runCli({"equations", arm2(), "--format", "c"});
    QVERIFY(!r.crashed);
    if (r.status != 0 && r.err.contains("no computer algebra")) symbolic_ = false;
  }

  void cExport_data() { models(); }
  void cExport() {
    if (!symbolic_) QSKIP("this build has no GiNaC");
    const QString cc = cCompiler();
    if (cc.isEmpty()) QSKIP("no C compiler (cc, gcc, clang) on the PATH");
    QFETCH(QString, file);
    QFETCH(QString, parameters);
    QFETCH(int, n);
    QTemporaryDir dir;
    const QString code = dir.filePath("equations.c");
    QCOMPARE(exportTo(file, parameters, "c", code), QString());
    QFile f(code);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY(text.startsWith("/*\n * Equations of motion of "));
    QVERIFY(text.contains("tau = M(q) qdd + C(q, qd) qd + g(q)"));
    QVERIFY(text.contains(parameters == "symbolic" ? "Parameters: the constants below" : "are numbers"));
    // Only math.h.
    QCOMPARE(text.count("#include"), 1);
    QVERIFY(text.contains("#include <math.h>"));

    // A driver: the state from argv, the four functions' results on stdout.
    QFile driver(dir.filePath("driver.c"));
    QVERIFY(driver.open(QIODevice::WriteOnly));
    driver.write(
        QString("#define N %1\n#include <stdio.h>\n#include <stdlib.h>\n#include \"equations.c\"\n"
                "static void row(const char* name, const double* v, int k) {\n"
                "  printf(\"%s\", name);\n  for (int i = 0; i < k; ++i) printf(\" %.17g\", v[i]);\n"
                "  printf(\"\\n\");\n}\n"
                "int main(int argc, char** argv) {\n"
                "  double q[N], qd[N], qdd[N], M[N * N], c[N], g[N], tau[N];\n"
                "  if (argc != 3 * N + 1) return 2;\n"
                "  for (int k = 0; k < N; ++k) {\n"
                "    q[k] = atof(argv[1 + k]); qd[k] = atof(argv[1 + N + k]); qdd[k] = atof(argv[1 + 2 * N + k]);\n"
                "  }\n"
                "  dynscope_M(q, M); dynscope_c(q, qd, c); dynscope_g(q, g); dynscope_tau(q, qd, qdd, tau);\n"
                "  row(\"M\", M, N * N); row(\"c\", c, N); row(\"g\", g, N); row(\"tau\", tau, N);\n"
                "  return 0;\n}\n")
            .arg(n)
            .toUtf8());
    driver.close();
    int status = 0;
    const QString program = dir.filePath("driver");
    const QByteArray log = run(cc, {"-O0", "-std=c99", "-o", program, driver.fileName(), "-lm"}, &status);
    QVERIFY2(status == 0, log.constData());
    for (const State& s : states(n)) {
      QStringList args;
      for (const QString& v : {s.q, s.qd, s.qdd}) args += v.split(',');
      const QByteArray out = run(program, args, &status);
      QVERIFY2(status == 0, out.constData());
      const QString why = compare(parseLines(out), reference(file, s, n));
      QVERIFY2(why.isEmpty(), qPrintable(why));
    }
  }

  void pythonExport_data() { models(); }
  void pythonExport() {
    if (!symbolic_) QSKIP("this build has no GiNaC");
    const QString py = python();
    if (py.isEmpty()) QSKIP("python3 is not installed");
    QFETCH(QString, file);
    QFETCH(QString, parameters);
    QFETCH(int, n);
    QTemporaryDir dir;
    const QString module = dir.filePath("equations.py");
    QCOMPARE(exportTo(file, parameters, "python", module), QString());
    QFile f(module);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY(text.startsWith("# Equations of motion of "));
    // Nothing beyond math.
    const QRegularExpression imports("^(import|from) .*$", QRegularExpression::MultilineOption);
    QStringList found;
    for (auto it = imports.globalMatch(text); it.hasNext();) found << it.next().captured(0);
    QCOMPARE(found, QStringList{"import math"});

    QFile driver(dir.filePath("driver.py"));
    QVERIFY(driver.open(QIODevice::WriteOnly));
    driver.write(
        "import importlib.util, sys\n"
        "spec = importlib.util.spec_from_file_location('equations', sys.argv[1])\n"
        "eq = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(eq)\n"
        "q, qd, qdd = ([float(x) for x in a.split(',')] for a in sys.argv[2:5])\n"
        "M = eq.M(tuple(q))\n"
        "assert isinstance(M, list) and all(isinstance(r, list) and len(r) == len(q) for r in M)\n"
        "for name, v in (('M', [x for r in M for x in r]), ('c', eq.c(q, qd)), ('g', eq.g(q)),\n"
        "                ('tau', eq.tau(q, qd, qdd))):\n"
        "    assert isinstance(v, list) and all(isinstance(x, float) for x in v), name\n"
        "    print(name, ' '.join(repr(x) for x in v))\n");
    driver.close();
    for (const State& s : states(n)) {
      int status = 0;
      const QByteArray out = run(py, {driver.fileName(), module, s.q, s.qd, s.qdd}, &status);
      QVERIFY2(status == 0, out.constData());
      const QString why = compare(parseLines(out), reference(file, s, n));
      QVERIFY2(why.isEmpty(), qPrintable(why));
    }
  }

  void matlabExport() {
    if (!symbolic_) QSKIP("this build has no GiNaC");
    QTemporaryDir dir;
    const QString file = dir.filePath("dynscope_equations.m");
    QCOMPARE(exportTo(arm2(), "symbolic", "matlab", file), QString());
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY(text.startsWith("% Equations of motion of arm2"));
    // One function file: the public function first, then the local ones, each closed by `end`.
    const QRegularExpression function("^function (\\w+) = (\\w+)\\(", QRegularExpression::MultilineOption);
    QStringList names;
    for (auto it = function.globalMatch(text); it.hasNext();) names << it.next().captured(2);
    QCOMPARE(names, (QStringList{"dynscope_equations", "dynscope_parameters", "dynscope_M", "dynscope_c", "dynscope_g",
                                 "dynscope_tau"}));
    QCOMPARE(text.count(QRegularExpression("^end$", QRegularExpression::MultilineOption)), 6);
    QVERIFY(text.contains("p.m1 = 2;"));
    QVERIFY(text.contains("cos(q(2))"));  // 1-based
    QVERIFY(!text.contains("q[") && !text.contains("math.") && !text.contains("**"));
    QVERIFY(text.contains("out(1, 2) = "));

    const QString octave = QStandardPaths::findExecutable("octave");
    if (octave.isEmpty()) QSKIP("octave is not installed: the MATLAB export was checked for its layout only");
    const State s = states(2)[0];
    const QString script = QString(
                               "eq = dynscope_equations(); q = [%1]'; qd = [%2]'; qdd = [%3]';\n"
                               "M = eq.M(q)'; printf('M'); printf(' %.17g', M(:)); printf('\\n');\n"
                               "printf('c'); printf(' %.17g', eq.c(q, qd)); printf('\\n');\n"
                               "printf('g'); printf(' %.17g', eq.g(q)); printf('\\n');\n"
                               "printf('tau'); printf(' %.17g', eq.tau(q, qd, qdd)); printf('\\n');\n")
                               .arg(s.q, s.qd, s.qdd);
    QProcess p;
    p.setWorkingDirectory(dir.path());
    p.start(octave, {"--no-gui", "--quiet", "--eval", script});
    QVERIFY(p.waitForFinished(120000));
    const QString why = compare(parseLines(p.readAllStandardOutput()), reference(arm2(), s, 2));
    QVERIFY2(why.isEmpty(), qPrintable(why));
  }

  void costInEveryFormat() {
    if (!symbolic_) QSKIP("this build has no GiNaC");
    const QJsonObject o = runJson({"equations", arm2(), "--format", "json"});
    const QJsonObject cost = o["cost"].toObject();
    QVERIFY(cost["multiplications"].toInt() > 0);
    QVERIFY(cost["multiplications"].toInt() <= cost["without_cse"].toObject()["multiplications"].toInt());
    QVERIFY(o["christoffel"].toArray().size() == 3);
    QCOMPARE(o["christoffel"].toArray()[0].toObject()["name"].toString(), QString("Gamma1_12"));
    const CliRun text = runCli({"equations", arm2()});
    QVERIFY(text.out.contains(QString("# tau as code: %1 multiplications, %2 additions")
                                  .arg(cost["multiplications"].toInt())
                                  .arg(cost["additions"].toInt())
                                  .toUtf8()));
    QVERIFY(text.out.contains("\nGamma1_12 = -l1*m2*sin(q2)*(c2x+l2)\n"));
    const CliRun c = runCli({"equations", arm2(), "--format", "c"});
    QVERIFY(c.out.contains(QString("tau costs %1 multiplications").arg(cost["multiplications"].toInt()).toUtf8()));
  }

  void sameCodeEveryRun() {
    if (!symbolic_) QSKIP("this build has no GiNaC");
    // GiNaC orders terms and moves signs and content by memory addresses; the code must not follow.
    const QStringList args{"equations", robot("stanford_arm.dh"), "--parameters", "numeric", "--format", "python"};
    const CliRun first = runCli(args);
    QCOMPARE(first.status, 0);
    for (int run = 0; run < 3; ++run) QCOMPARE(runCli(args).out, first.out);
  }
};

QTEST_GUILESS_MAIN(TestEquationsExport)
#include "test_equations_export.moc"
