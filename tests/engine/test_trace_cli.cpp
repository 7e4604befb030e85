// dynscope-cli trace end to end: the steps list (count, bodies, passes, equation labels, written
// quantities, operation counts so far), the result under the plain command's key (and CRBA's under M)
// and equal to it digit for digit, also with --gravity; a singular ABA reported like the other
// commands report non-finite results; --out, and the input errors.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "dynscope/dynscope.hpp"
#include "run_cli.hpp"

namespace {

using dyn::testing::runCli;

QString robot(const QString& file) { return QString(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

QJsonObject parse(const QByteArray& out) {
  QJsonParseError e;
  const QJsonDocument doc = QJsonDocument::fromJson(out, &e);
  if (e.error != QJsonParseError::NoError) qWarning() << "JSON:" << e.errorString() << out.left(400);
  return doc.object();
}

const QStringList kState = {"--q", "0.1,-1.2,1.3,0.4,-0.5,0.6", "--qd", "0.3,-0.2,0.1,0.5,-0.4,0.2"};

}  // namespace

class TestTraceCli : public QObject {
  Q_OBJECT

 private slots:
  void rneaSteps();
  void resultMatchesThePlainCommands();
  void otherFormulations();
  void treeStepCounts();
  void gravityOption();
  void singularResultIsReported();
  void outFile();
  void errors();
};

void TestTraceCli::rneaSteps() {
  const auto r = runCli(QStringList{"trace", robot("ur5.urdf"), "--algorithm", "rnea"} + kState +
                        QStringList{"--qdd", "1,0,0,0,0,-1"});
  QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
  const QJsonObject o = parse(r.out);
  QCOMPARE(o["command"].toString(), QString("trace"));
  QCOMPARE(o["algorithm"].toString(), QString("rnea"));
  const QJsonArray steps = o["steps"].toArray();
  QCOMPARE(steps.size(), 12);  // 2 per body, 6 bodies
  const dyn::Model model = dyn::loadModel(robot("ur5.urdf").toStdString());
  int previousMuls = 0;
  for (int k = 0; k < steps.size(); ++k) {
    const QJsonObject s = steps[k].toObject();
    const int body = k < 6 ? k + 1 : 12 - k;  // outward 1..6, inward 6..1
    QCOMPARE(s["index"].toInt(), k);
    QCOMPARE(s["body_index"].toInt(), body);
    QCOMPARE(s["body"].toString(), QString::fromStdString(model.bodyNames[body]));
    QVERIFY(s["pass"].toString().contains(k < 6 ? "outward" : "inward"));
    const QJsonArray eqs = s["equations"].toArray();
    QVERIFY(!eqs.isEmpty());
    QString labels;
    for (const auto& e : eqs) labels += e.toObject()["label"].toString() + ";";
    QVERIFY2(labels.contains(k < 6 ? "eq. 10" : "eq. 13"), qPrintable(labels));
    QStringList written;
    for (const auto& w : s["written"].toArray()) written << w.toObject()["quantity"].toString();
    if (k < 6)
      QCOMPARE(written, (QStringList{"v", "a", "f"}));
    else
      QVERIFY(written.contains("tau"));
    const int muls = s["operations_so_far"].toObject()["muls"].toInt();
    QVERIFY(muls > previousMuls || k >= 6);
    previousMuls = muls;
  }
  QCOMPARE(steps.last().toObject()["operations_so_far"].toObject()["muls"].toInt(),
           o["operations"].toObject()["muls"].toInt());
  // The first outward step writes v_1 in link coordinates.
  const QJsonObject v1 = steps[0].toObject()["written"].toArray()[0].toObject();
  QCOMPARE(v1["symbol"].toString(), QString("v_1"));
  QCOMPARE(v1["coordinates"].toString(), QString("link"));
  QCOMPARE(v1["role"].toString(), QString("velocity"));
  QCOMPARE(v1["value"].toArray().size(), 6);
}

// The result is under the plain command's key and prints the same 17 digits.
void TestTraceCli::resultMatchesThePlainCommands() {
  const QStringList qdd = {"--qdd", "1,0.5,0,0,0,-1"}, tau = {"--tau", "10,-20,5,1,0.5,0.1"};
  auto trace = runCli(QStringList{"trace", robot("ur5.urdf"), "--algorithm", "rnea"} + kState + qdd);
  auto plain = runCli(QStringList{"id", robot("ur5.urdf")} + kState + qdd);
  QCOMPARE(parse(trace.out)["tau"].toArray(), parse(plain.out)["tau"].toArray());

  trace = runCli(QStringList{"trace", robot("ur5.urdf"), "--algorithm", "aba"} + kState + tau);
  plain = runCli(QStringList{"fd", robot("ur5.urdf")} + kState + tau);
  QVERIFY2(trace.status == 0, trace.err.constData());
  QCOMPARE(parse(trace.out)["qdd"].toArray(), parse(plain.out)["qdd"].toArray());
  QCOMPARE(parse(trace.out)["steps"].toArray().size(), 18);

  trace = runCli(QStringList{"trace", robot("ur5.urdf"), "--algorithm", "crba-ltl"} + kState + tau);
  plain = runCli(QStringList{"fd", robot("ur5.urdf"), "--algorithm", "crba"} + kState + tau);
  QCOMPARE(parse(trace.out)["qdd"].toArray(), parse(plain.out)["qdd"].toArray());

  trace = runCli({"trace", robot("ur5.urdf"), "--algorithm", "crba", "--q", "0.1,-1.2,1.3,0.4,-0.5,0.6"});
  plain = runCli({"mass", robot("ur5.urdf"), "--q", "0.1,-1.2,1.3,0.4,-0.5,0.6"});
  QVERIFY2(trace.status == 0, trace.err.constData());
  QVERIFY2(trace.err.isEmpty(), trace.err.constData());  // the nulls of H not yet computed are expected
  const QJsonObject t = parse(trace.out);
  QCOMPARE(t["mass_matrix"].toArray(), parse(plain.out)["mass_matrix"].toArray());
  QCOMPARE(t["M"].toArray(), parse(plain.out)["mass_matrix"].toArray());  // the lecture's name for CRBA's result
  QCOMPARE(t["M"].toArray().size(), 6);
  const QJsonArray steps = t["steps"].toArray();
  QCOMPARE(steps.size(), 11);  // 6 column walks, 5 composite-inertia steps
  // H fills column by column: the first column walk (body 6, after its composite-inertia step)
  // knows only row and column 6.
  QCOMPARE(steps[0].toObject()["kind"].toString(), QString("crba_composite_inertia"));
  QCOMPARE(steps[1].toObject()["kind"].toString(), QString("crba_column"));
  const QJsonArray H = steps[1].toObject()["written"].toArray().last().toObject()["value"].toArray();
  QVERIFY(H[5].toArray()[5].isDouble());
  QVERIFY(H[0].toArray()[0].isNull());
  QVERIFY(H[5].toArray()[0].isDouble());  // the walk to the root
}

// Every formulation of the registry steps: the documented step counts on the Stanford arm (revolute
// and prismatic joints) and the result under the plain command's key, digit for digit.
void TestTraceCli::otherFormulations() {
  const QString arm = robot("stanford_arm.dh");
  const QStringList q = {"--q", "0.1,-1.2,0.3,0.4,-0.5,0.6"}, qd = {"--qd", "0.3,-0.2,0.1,0.5,-0.4,0.2"};
  const QStringList qdd = {"--qdd", "1,0.5,0,0,0,-1"}, tau = {"--tau", "10,-20,5,1,0.5,0.1"};
  const int n = 6;
  const struct {
    const char* name;
    const char* command;  // the plain command
    const char* registry;
    int steps;
  } cases[] = {
      {"denoc-id", "id", "denoc", 2 * n},
      {"newton-euler-3", "id", "newton-euler-3", 2 * n},
      {"lagrange-4x4", "id", "lagrange-4x4", 2 * n},
      {"lagrange-3x3", "id", "lagrange-3x3", 2 * n},
      {"waters", "id", "waters", 2 * n},
      {"uicker-kahn", "id", "uicker-kahn", 5 * n},
      {"configuration-space", "id", "configuration-space", n + 2},
      {"denoc-gim", "mass", "denoc", 2 * n - 1},
      {"denoc-fd", "fd", "denoc", 5 * n + 1},
  };
  for (const auto& c : cases) {
    const QString command(c.command);
    const QStringList inputs = command == "mass" ? q : command == "id" ? q + qd + qdd : q + qd + tau;
    const auto trace = runCli(QStringList{"trace", arm, "--algorithm", c.name} + inputs);
    QVERIFY2(trace.status == 0, trace.err.constData());
    const QJsonObject t = parse(trace.out);
    const QJsonArray steps = t["steps"].toArray();
    QVERIFY2(steps.size() == c.steps, qPrintable(QString("%1: %2 steps").arg(c.name).arg(steps.size())));
    const auto plain = runCli(QStringList{c.command, arm, "--algorithm", c.registry} + inputs);
    QVERIFY2(plain.status == 0, plain.err.constData());
    const char* key = command == "mass" ? "mass_matrix" : command == "id" ? "tau" : "qdd";
    QVERIFY2(t[key].toArray() == parse(plain.out)[key].toArray(), c.name);
    QVERIFY(!steps[0].toObject()["equations"].toArray().isEmpty());
    QCOMPARE(steps.last().toObject()["operations_so_far"].toObject()["muls"].toInt(),
             t["operations"].toObject()["muls"].toInt());
  }
  // DeNOC's first step writes the twist, its rate and the wrench of link 1; the GIM fills I.
  const auto denoc = runCli(QStringList{"trace", arm, "--algorithm", "denoc-id"} + q + qd + qdd);
  const QJsonObject first = parse(denoc.out)["steps"].toArray()[0].toObject();
  QCOMPARE(first["kind"].toString(), QString("denoc_twist"));
  QStringList written;
  for (const auto& w : first["written"].toArray()) written << w.toObject()["quantity"].toString();
  QCOMPARE(written, (QStringList{"t", "ṫ", "w"}));
  // Each says what it is (the role its arrow takes in the window).
  QStringList roles;
  for (const auto& w : first["written"].toArray()) roles << w.toObject()["role"].toString();
  QCOMPARE(roles, (QStringList{"velocity", "twist rate", "force"}));
  QVERIFY(first["equations"].toArray()[1].toObject()["label"].toString().contains("Saha 1999, eq. 12"));
  const auto gim = runCli(QStringList{"trace", arm, "--algorithm", "denoc-gim"} + q);
  const QJsonArray gimSteps = parse(gim.out)["steps"].toArray();
  const QJsonArray I = gimSteps[1].toObject()["written"].toArray().last().toObject()["value"].toArray();
  QVERIFY(I[5].toArray()[5].isDouble() && I[0].toArray()[0].isNull());  // column 6 first, the rest pending
}

void TestTraceCli::treeStepCounts() {
  const dyn::Model model = dyn::loadModel(robot("humanoid.urdf").toStdString());
  int roots = 0;
  for (int i = 1; i <= model.N; ++i) roots += model.parent[i] == 0;
  const auto r = runCli({"trace", robot("humanoid.urdf"), "--algorithm", "crba"});
  QVERIFY2(r.status == 0, r.err.constData());
  QCOMPARE(parse(r.out)["steps"].toArray().size(), 2 * model.N - roots);
  const auto a = runCli({"trace", robot("humanoid.urdf"), "--algorithm", "aba"});
  QCOMPARE(parse(a.out)["steps"].toArray().size(), 3 * model.N);
  QCOMPARE(parse(a.out)["passes"].toArray().size(), 3);
}

// --gravity reaches the traced algorithm: the result equals the plain command's with the same
// gravity, and differs from the one with the model's own gravity.
void TestTraceCli::gravityOption() {
  const QStringList gravity = {"--gravity", "1.5,-2,-3.7"};
  const QStringList qdd = {"--qdd", "1,0.5,0,0,0,-1"}, tau = {"--tau", "10,-20,5,1,0.5,0.1"};
  const QString ur5 = robot("ur5.urdf");
  auto trace = runCli(QStringList{"trace", ur5, "--algorithm", "rnea"} + kState + qdd + gravity);
  auto plain = runCli(QStringList{"id", ur5} + kState + qdd + gravity);
  QVERIFY2(trace.status == 0 && plain.status == 0, trace.err.constData());
  const QJsonArray tauTraced = parse(trace.out)["tau"].toArray();
  QCOMPARE(tauTraced.size(), 6);
  QCOMPARE(tauTraced, parse(plain.out)["tau"].toArray());
  QCOMPARE(parse(trace.out)["gravity"].toArray(), (QJsonArray{1.5, -2, -3.7}));
  const auto standard = runCli(QStringList{"trace", ur5, "--algorithm", "rnea"} + kState + qdd);
  QVERIFY(parse(standard.out)["tau"].toArray() != tauTraced);

  trace = runCli(QStringList{"trace", ur5, "--algorithm", "aba"} + kState + tau + gravity);
  plain = runCli(QStringList{"fd", ur5} + kState + tau + gravity);
  QVERIFY2(trace.status == 0 && plain.status == 0, trace.err.constData());
  QCOMPARE(parse(trace.out)["qdd"].toArray(), parse(plain.out)["qdd"].toArray());
  QVERIFY(parse(runCli(QStringList{"fd", ur5} + kState + tau).out)["qdd"].toArray() !=
          parse(trace.out)["qdd"].toArray());
}

// A non-finite result is reported as the other commands report it. A point mass on a revolute
// joint's axis moves no inertia (D = 0): trace refuses like fd, naming the joint. Torques that
// overflow the accelerations: trace prints the walk-through with the result as null and the
// other commands' warning (fd refuses).
void TestTraceCli::singularResultIsReported() {
  QTemporaryDir dir;
  const QString path = dir.filePath("point_mass.dh");
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(
      "name point_mass\nconvention standard\nangles deg\ngravity 0 -9.81 0\n"
      "joint j1 R a=0 alpha=0 mass=1 com=0,0,0 inertia=0,0,0\n");
  f.close();
  const QStringList state = {"--q", "0.3", "--qd", "0.5", "--tau", "1"};
  const auto singular = runCli(QStringList{"trace", path, "--algorithm", "aba"} + state);
  QVERIFY(!singular.crashed);
  QCOMPARE(singular.status, 1);
  QVERIFY2(singular.err.contains("joint 'j1'"), singular.err.constData());
  QVERIFY(singular.out.isEmpty());
  const auto fd = runCli(QStringList{"fd", path} + state);
  QCOMPARE(fd.status, 1);
  QVERIFY2(fd.err.contains("joint 'j1'"), fd.err.constData());

  const QStringList huge = {"--tau", "1e308,-1e308,1e308,-1e308,1e308,-1e308"};
  const auto r = runCli(QStringList{"trace", robot("ur5.urdf"), "--algorithm", "aba"} + kState + huge);
  QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
  QVERIFY2(QRegularExpression("dynscope-cli: warning: [1-6] result values are NaN or infinite \\(printed as null\\)")
               .match(QString(r.err))
               .hasMatch(),
           r.err.constData());
  const QJsonObject o = parse(r.out);
  QCOMPARE(o["steps"].toArray().size(), 18);
  int nulls = 0;
  for (const QJsonValue& v : o["qdd"].toArray()) nulls += v.isNull();
  QVERIFY(nulls >= 1);
  QCOMPARE(runCli(QStringList{"fd", robot("ur5.urdf")} + kState + huge).status, 1);
  // A regular model warns about nothing, though its steps print nulls (H not computed yet).
  const auto crba = runCli({"trace", robot("ur5.urdf"), "--algorithm", "crba"});
  QVERIFY2(crba.status == 0 && crba.err.isEmpty(), crba.err.constData());
}

void TestTraceCli::outFile() {
  QTemporaryDir dir;
  const QString path = dir.filePath("trace.json");
  const auto r = runCli({"trace", robot("planar3.dh"), "--algorithm", "rnea", "--out", path});
  QVERIFY2(r.status == 0, r.err.constData());
  QVERIFY(r.out.isEmpty());
  QFile f(path);
  QVERIFY(f.open(QIODevice::ReadOnly));
  QCOMPARE(parse(f.readAll())["steps"].toArray().size(), 6);
}

void TestTraceCli::errors() {
  const QString ur5 = robot("ur5.urdf");
  const auto expect = [](const QStringList& args, const char* message) {
    const auto r = runCli(args);
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains(message), r.err.constData());
  };
  expect({"trace", ur5}, "trace needs --algorithm NAME (rnea, crba, aba, crba-ltl, denoc-id, newton-euler-3, ");
  expect({"trace", ur5, "--algorithm", "denavit"}, "--algorithm must be one of rnea, crba, aba, crba-ltl, denoc-id");
  expect({"trace", ur5, "--algorithm", "denavit"}, "denoc-gim, denoc-fd, not 'denavit'");
  expect({"trace", ur5, "--algorithm", "denoc-fd", "--qdd", "1,2,3,4,5,6"}, "--qdd is not an input of denoc-fd");
  expect({"trace", ur5, "--algorithm", "denoc-gim", "--qd", "1,2,3,4,5,6"}, "--qd is not an input of denoc-gim");
  expect({"trace", ur5, "--algorithm", "rnea", "--tau", "1,2,3,4,5,6"}, "--tau is not an input of rnea");
  expect({"trace", ur5, "--algorithm", "aba", "--qdd", "1,2,3,4,5,6"}, "--qdd is not an input of aba");
  expect({"trace", ur5, "--algorithm", "crba", "--qd", "1,2,3,4,5,6"}, "--qd is not an input of crba");
  expect({"trace", ur5, "--algorithm", "rnea", "--qdd", "1,2"}, "--qdd has 2 values, the model has nv = 6");
  expect({"fd", ur5, "--algorithm", "rnea"}, "unknown forward dynamics algorithm 'rnea'");  // the registry's names
}

QTEST_GUILESS_MAIN(TestTraceCli)
#include "test_trace_cli.moc"
