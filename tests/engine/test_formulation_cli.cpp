// dynscope-cli with the classical formulations: id/mass/fd --algorithm (single states and
// trajectories, every formulation of the registry) print what the engine computes directly, equal
// to RNEA / ABA; opcount prints the counting scalar's counts (the configuration-space tables apart)
// and the seed papers' formulas for MODEL or --chain N (1 to 64); mistakes (an unknown name, a
// model the formulation refuses, options it does not take) exit with a message that helps.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include "cli_json.hpp"
#include "csv_rows.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"
#include "random_state.hpp"
#include "run_cli.hpp"

using dyn::testing::CliRun;
using dyn::testing::joined;
using dyn::testing::runCli;
using dyn::testing::runJson;
using dyn::testing::toMatrix;
using dyn::testing::toVector;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

QString robot(const QString& file) { return QString(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

}  // namespace

class TestFormulationCli : public QObject {
  Q_OBJECT

 private slots:
  void singleStates_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("stanford_arm") << "stanford_arm.dh";
    QTest::newRow("ur5") << "ur5.urdf";
    QTest::newRow("humanoid") << "humanoid.urdf";
  }
  void singleStates() {
    QFETCH(QString, file);
    const dyn::Model m = dyn::loadModel(robot(file).toStdString());
    std::mt19937 rng(8);
    std::uniform_real_distribution<double> U(-1, 1);
    const VectorXd q = dyn::randomConfiguration(m, rng);
    const VectorXd qd = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
    const VectorXd qdd = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
    const QStringList state{"--q", joined(q), "--qd", joined(qd)};
    dyn::DenocWorkspace ws(m);
    dyn::NewtonEuler3Workspace ne(m);
    for (const char* a : {"denoc", "newton-euler-3"}) {
      const QJsonObject o = runJson(QStringList{"id", robot(file), "--algorithm", a, "--qdd", joined(qdd)} + state);
      QCOMPARE(o["algorithm"].toString(), QString(a));
      const VectorXd expected = QByteArray(a) == "denoc" ? dyn::denocInverseDynamics(m, ws, q, qd, qdd)
                                                         : dyn::newtonEuler3(m, ne, q, qd, qdd);
      QVERIFY2(dyn::testing::sameNumbers(toVector(o["tau"]), expected), a);
    }
    const QJsonObject mass = runJson({"mass", robot(file), "--algorithm", "denoc", "--q", joined(q)});
    QCOMPARE(mass["algorithm"].toString(), QString("denoc"));
    QVERIFY(dyn::testing::sameNumbers(toMatrix(mass["mass_matrix"]), dyn::denocGeneralizedInertia(m, ws, q)));
    const QJsonObject fd =
        runJson(QStringList{"fd", robot(file), "--algorithm", "denoc", "--tau", joined(qdd)} + state);
    QCOMPARE(fd["algorithm"].toString(), QString("denoc"));
    QVERIFY(dyn::testing::sameNumbers(toVector(fd["qdd"]), dyn::denocForwardDynamics(m, ws, q, qd, qdd)));
    // the defaults are unchanged: rnea, crba, aba
    dyn::Data d(m);
    const QJsonObject id = runJson(QStringList{"id", robot(file), "--qdd", joined(qdd)} + state);
    QCOMPARE(id["algorithm"].toString(), QString("rnea"));
    QVERIFY(dyn::testing::sameNumbers(toVector(id["tau"]), dyn::rnea(m, d, q, qd, qdd)));
    QCOMPARE(runJson({"mass", robot(file)})["algorithm"].toString(), QString("crba"));
  }

  // Every other inverse-dynamics formulation (the Lagrangian family, the configuration-space method):
  // id --algorithm NAME prints what the engine's formulation computes, which equals the engine's
  // RNEA; on a robot with a prismatic joint and on a tree.
  void lagrangianSingleStates_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("algorithm");
    for (const char* file : {"stanford_arm.dh", "ur5.urdf", "humanoid.urdf"})
      for (const char* a : {"uicker-kahn", "waters", "lagrange-4x4", "lagrange-3x3", "configuration-space"})
        QTest::newRow(qPrintable(QString("%1 %2").arg(file, a))) << file << a;
  }
  void lagrangianSingleStates() {
    QFETCH(QString, file);
    QFETCH(QString, algorithm);
    const dyn::Model m = dyn::loadModel(robot(file).toStdString());
    const auto [q, qd, qdd] = dyn::testing::randomState(m, 11);
    const QJsonObject o = runJson(
        {"id", robot(file), "--algorithm", algorithm, "--q", joined(q), "--qd", joined(qd), "--qdd", joined(qdd)});
    QCOMPARE(o["algorithm"].toString(), algorithm);
    const VectorXd printed = toVector(o["tau"]);
    const auto own = dyn::formulation(dyn::Problem::InverseDynamics, algorithm.toStdString()).bind(m);
    QVERIFY(dyn::testing::sameNumbers(printed, own.inverseDynamics(q, qd, qdd)));
    dyn::Data d(m);
    const VectorXd tau = dyn::rnea(m, d, q, qd, qdd);
    QVERIFY2((printed - tau).cwiseAbs().maxCoeff() <= 1e-10 * tau.cwiseAbs().maxCoeff(), qPrintable(algorithm));
  }

  // The same along Saha's Stanford-arm trajectory (id --trajectory): every row equals RNEA.
  void lagrangianTrajectories() {
    const dyn::Model m = dyn::loadModel(robot("stanford_arm.dh").toStdString());
    QTemporaryDir dir;
    const QString csv = dir.filePath("saha.csv");
    const CliRun made =
        runCli({"trajectory", robot("stanford_arm.dh"), "--demo", "saha-stanford", "--rate", "10", "--out", csv});
    QVERIFY2(made.status == 0, made.err.constData());
    const dyn::SampledTrajectory traj = dyn::demoTrajectory(m, dyn::DemoTrajectory::SahaStanford, 10);
    dyn::Data d(m);
    for (const char* a : {"uicker-kahn", "waters", "lagrange-4x4", "lagrange-3x3", "configuration-space"}) {
      const CliRun r = runCli({"id", robot("stanford_arm.dh"), "--trajectory", csv, "--algorithm", a});
      QVERIFY2(r.status == 0, r.err.constData());
      QStringList header;
      const auto rows = dyn::testing::parseCsv(r.out, &header);
      QCOMPARE(int(rows.size()), traj.samples());
      QCOMPARE(header.value(1), QString("tau_j1"));
      for (int k = 0; k < traj.samples(); ++k) {
        const VectorXd printed = Eigen::Map<const VectorXd>(rows[k].data() + 1, m.nv);
        const VectorXd tau = dyn::rnea(m, d, traj.q.col(k), traj.qd.col(k), traj.qdd.col(k));
        QVERIFY2((printed - tau).cwiseAbs().maxCoeff() <= 1e-10 * tau.cwiseAbs().maxCoeff(),
                 qPrintable(QString("%1, row %2").arg(a).arg(k)));
      }
    }
  }

  // id and fd over Saha's Stanford-arm trajectory with --algorithm denoc.
  void trajectories() {
    const dyn::Model m = dyn::loadModel(robot("stanford_arm.dh").toStdString());
    QTemporaryDir dir;
    const QString csv = dir.filePath("saha.csv"), tauCsv = dir.filePath("tau.csv");
    CliRun r =
        runCli({"trajectory", robot("stanford_arm.dh"), "--demo", "saha-stanford", "--rate", "10", "--out", csv});
    QVERIFY2(r.status == 0, r.err.constData());
    r = runCli({"id", robot("stanford_arm.dh"), "--trajectory", csv, "--algorithm", "denoc", "--out", tauCsv});
    QVERIFY2(r.status == 0, r.err.constData());
    const dyn::SampledTrajectory traj = dyn::demoTrajectory(m, dyn::DemoTrajectory::SahaStanford, 10);
    QFile f(tauCsv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QStringList header;
    const auto rows = dyn::testing::parseCsv(f.readAll(), &header);
    QCOMPARE(int(rows.size()), traj.samples());
    QCOMPARE(header[1], QString("tau_j1"));
    dyn::Data d(m);
    MatrixXd tau(m.nv, traj.samples());
    for (int k = 0; k < traj.samples(); ++k) {
      const VectorXd printed = Eigen::Map<const VectorXd>(rows[k].data() + 1, m.nv);
      tau.col(k) = printed;
      QVERIFY2(dyn::testing::sameNumbers(printed, dyn::rnea(m, d, traj.q.col(k), traj.qd.col(k), traj.qdd.col(k))),
               qPrintable(QString("row %1").arg(k)));
    }
    // forward dynamics of those torques gives the trajectory's accelerations back
    QFile tauFile(tauCsv);
    QVERIFY(tauFile.open(QIODevice::ReadOnly));
    QFile in(csv);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QStringList trajHeader;
    const auto trajRows = dyn::testing::parseCsv(in.readAll(), &trajHeader);
    QString combined = trajHeader.join(',');
    for (int j = 0; j < m.nv; ++j) combined += QString(",tau_j%1").arg(j + 1);
    combined += "\n";
    for (int k = 0; k < traj.samples(); ++k) {
      QStringList fields;
      for (double x : trajRows[k]) fields << QString::number(x, 'g', 17);
      for (int j = 0; j < m.nv; ++j) fields << QString::number(tau(j, k), 'g', 17);
      combined += fields.join(',') + "\n";
    }
    const QString fdIn = dir.filePath("fd.csv");
    QFile out(fdIn);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(combined.toUtf8());
    out.close();
    r = runCli({"fd", robot("stanford_arm.dh"), "--trajectory", fdIn, "--algorithm", "denoc"});
    QVERIFY2(r.status == 0, r.err.constData());
    QStringList fdHeader;
    const auto fdRows = dyn::testing::parseCsv(r.out, &fdHeader);
    QCOMPARE(int(fdRows.size()), traj.samples());
    for (int k = 0; k < traj.samples(); ++k) {
      const VectorXd qdd = Eigen::Map<const VectorXd>(fdRows[k].data() + 1, m.nv);
      QVERIFY2((qdd - traj.qdd.col(k)).cwiseAbs().maxCoeff() < 1e-9, qPrintable(QString("row %1").arg(k)));
    }
  }

  void opcountChain() {
    const QJsonObject o = runJson({"opcount", "--chain", "6", "--algorithm", "denoc"});
    QCOMPARE(o["n"].toInt(), 6);
    QCOMPARE(o["serial_revolute_chain"].toBool(), true);
    const QJsonArray results = o["results"].toArray();
    QCOMPARE(results.size(), 3);  // denoc: id, mass, fd
    const dyn::Model chain = dyn::generalChain(6);
    std::mt19937 rng(1);
    const VectorXd q = dyn::randomConfiguration(chain, rng), v = VectorXd::Constant(6, 0.3);
    for (const QJsonValue& value : results) {
      const QJsonObject r = value.toObject();
      const dyn::Problem p = *dyn::problemByName(r["problem"].toString().toStdString());
      const dyn::OpTally t = dyn::countOperations(dyn::formulation(p, "denoc"), chain, q, v, v);
      QCOMPARE(r["muls"].toInteger(), t.algorithm.muls);
      QCOMPARE(r["adds"].toInteger(), t.algorithm.adds);
      QCOMPARE(r["joint_transforms"].toObject()["muls"].toInteger(), t.jointTransforms.muls);
      QCOMPARE(r["joint_transforms"].toObject()["functions"].toObject()["sin"].toInteger(), 6);
      QCOMPARE(r["total"].toObject()["adds"].toInteger(), t.total().adds);
      QCOMPARE(r["functions"].toObject()["cos"].toInteger(), 0);
      if (p == dyn::Problem::InverseDynamics) {
        const QJsonObject paper = r["paper"].toArray()[0].toObject();
        QCOMPARE(paper["muls_formula"].toString(), QString("120n - 44"));
        QCOMPARE(paper["muls"].toDouble(), 676.0);
        QCOMPARE(paper["adds"].toDouble(), 527.0);
        QVERIFY(paper["basis"].toString().contains("Saha"));
        QCOMPARE(r["complexity"].toString(), QString("O(n)"));
      }
      if (p == dyn::Problem::MassMatrix) QCOMPARE(r["paper"].toArray().size(), 0);
    }
    // --problem picks one; Hollerbach's Newton-Euler row at n = 12
    const QJsonObject ne = runJson({"opcount", "--chain", "12", "--algorithm", "newton-euler-3", "--problem", "id"});
    const QJsonArray neResults = ne["results"].toArray();
    QCOMPARE(neResults.size(), 1);
    const QJsonObject hollerbach = neResults[0].toObject()["paper"].toArray()[0].toObject();
    QCOMPARE(hollerbach["muls"].toDouble(), 150.0 * 12 - 48);
    QCOMPARE(hollerbach["adds"].toDouble(), 131.0 * 12 - 48);
    QCOMPARE(hollerbach["tabulated"].toArray()[0].toObject()["muls"].toInteger(), 852);
    QVERIFY(hollerbach["basis"].toString().contains("not included"));
    const QJsonObject fd = runJson({"opcount", "--chain", "12", "--algorithm", "crba", "--problem", "fd"});
    const QJsonObject walkerOrin = fd["results"].toArray()[0].toObject()["paper"].toArray()[0].toObject();
    QVERIFY(walkerOrin["adds"].isNull());  // illegible polynomial: no value invented
    QCOMPARE(walkerOrin["muls"].toDouble(), 2357.0);
  }

  // The ends of --chain's range: 1 and 64 links, counts equal to the counting scalar's on the same chain.
  void opcountChainEnds() {
    for (const auto& [n, algorithm] : {std::pair{1, "denoc"}, std::pair{64, "denoc"}, std::pair{1, "crba"},
                                       std::pair{64, "aba"}, std::pair{64, "lagrange-3x3"}}) {
      const QJsonObject o = runJson({"opcount", "--chain", QString::number(n), "--algorithm", algorithm});
      QCOMPARE(o["n"].toInt(), n);
      QCOMPARE(o["serial_revolute_chain"].toBool(), true);
      const QJsonArray results = o["results"].toArray();
      QVERIFY(!results.isEmpty());
      const dyn::Model chain = dyn::generalChain(n);
      const VectorXd q = VectorXd::Constant(n, 0.2), v = VectorXd::Constant(n, 0.3);
      for (const QJsonValue& value : results) {
        const QJsonObject r = value.toObject();
        const dyn::Problem p = *dyn::problemByName(r["problem"].toString().toStdString());
        const dyn::OpTally t = dyn::countOperations(dyn::formulation(p, algorithm), chain, q, v, v);
        QCOMPARE(r["muls"].toInteger(), t.algorithm.muls);
        QCOMPARE(r["adds"].toInteger(), t.algorithm.adds);
        QVERIFY(t.algorithm.muls > 0 || (n == 1 && p == dyn::Problem::MassMatrix));  // (one link: H = I_zz, no product)
        const long long sines = r["joint_transforms"].toObject()["functions"].toObject()["sin"].toInteger();
        QVERIFY(sines >= n && sines % n == 0);  // one per joint per pass that forms the joint transforms
        QCOMPARE(r["total"].toObject()["muls"].toInteger(), t.total().muls);
        for (const QJsonValue& paper : r["paper"].toArray()) {  // each polynomial evaluated at this n
          const dyn::PaperCount* count = nullptr;
          for (const dyn::PaperCount& c : dyn::formulation(p, algorithm).paperCounts)
            if (c.source == paper.toObject()["source"].toString().toStdString()) count = &c;
          QVERIFY(count);
          if (count->mulsAt(n)) QCOMPARE(paper.toObject()["muls"].toDouble(), *count->mulsAt(n));
        }
      }
    }
  }

  // opcount for the Lagrangian family and the configuration-space method at Hollerbach's n = 6: the
  // counts, the paper's Table II values, the degree; the configuration-space tables apart under
  // `tabulation` (the total is the sum of the three), zero for the others.
  void opcountLagrangian() {
    const dyn::Model chain = dyn::generalChain(6);
    const VectorXd q = VectorXd::Constant(6, -0.4), v = VectorXd::Constant(6, 0.7);
    const std::map<std::string, std::pair<long long, const char*>> table2 = {{"uicker-kahn", {66271, "O(n^4)"}},
                                                                             {"waters", {7051, "O(n^2)"}},
                                                                             {"lagrange-4x4", {4388, "O(n)"}},
                                                                             {"lagrange-3x3", {2195, "O(n)"}},
                                                                             {"configuration-space", {468, "O(n^3)"}}};
    for (const auto& [name, expected] : table2) {
      const QJsonObject o = runJson({"opcount", "--chain", "6", "--algorithm", QString::fromStdString(name)});
      const QJsonArray results = o["results"].toArray();
      QCOMPARE(results.size(), 1);  // inverse dynamics only
      const QJsonObject r = results[0].toObject();
      QCOMPARE(r["problem"].toString(), QString("id"));
      QCOMPARE(r["complexity"].toString(), QString(expected.second));
      const dyn::OpTally t =
          dyn::countOperations(dyn::formulation(dyn::Problem::InverseDynamics, name), chain, q, v, v);
      QCOMPARE(r["muls"].toInteger(), t.algorithm.muls);
      QCOMPARE(r["adds"].toInteger(), t.algorithm.adds);
      const QJsonObject tab = r["tabulation"].toObject(), jt = r["joint_transforms"].toObject(),
                        total = r["total"].toObject();
      QCOMPARE(tab["muls"].toInteger(), t.tabulation.muls);
      QCOMPARE(tab["adds"].toInteger(), t.tabulation.adds);
      QCOMPARE(tab["muls"].toInteger() > 0, name == "configuration-space");
      for (const char* k : {"muls", "adds"})
        QCOMPARE(total[k].toInteger(), r[k].toInteger() + jt[k].toInteger() + tab[k].toInteger());
      bool tabulated = false;
      for (const QJsonValue& paper : r["paper"].toArray())
        for (const QJsonValue& value : paper.toObject()["tabulated"].toArray())
          tabulated |= value.toObject()["n"].toInt() == 6 && value.toObject()["muls"].toInteger() == expected.first;
      QVERIFY2(tabulated, name.c_str());
    }
    // The configuration-space tables are (n² + 3n + 2)/2 = 28 RNEA calls with their joint transforms;
    // the evaluation has no sine: every function call is in the tables.
    const QJsonObject cs = runJson({"opcount", "--chain", "6", "--algorithm", "configuration-space"});
    const QJsonObject r = cs["results"].toArray()[0].toObject();
    QCOMPARE(r["functions"].toObject()["sin"].toInteger(), 0);
    QCOMPARE(r["tabulation"].toObject()["functions"].toObject()["sin"].toInteger(), 28 * 6);
  }

  void opcountModel() {
    const QJsonObject o = runJson({"opcount", robot("humanoid.urdf"), "--algorithm", "aba"});
    QCOMPARE(o["n"].toInt(), 32);
    QCOMPARE(o["serial_revolute_chain"].toBool(), false);  // a tree: the papers' formulas do not describe it
    const QJsonObject r = o["results"].toArray()[0].toObject();
    const dyn::Model m = dyn::loadModel(robot("humanoid.urdf").toStdString());
    const VectorXd z = VectorXd::Zero(m.nv);
    QCOMPARE(r["muls"].toInteger(),
             dyn::countOperations(dyn::formulation(dyn::Problem::ForwardDynamics, "aba"), m, m.neutral(), z, z)
                 .algorithm.muls);
  }

  void usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("fragment");
    const QString ur5 = robot("ur5.urdf");
    QTest::newRow("unknown id algorithm")
        << QStringList{"id", ur5, "--algorithm", "kane"} << 2
        << "valid: rnea, denoc, newton-euler-3, uicker-kahn, waters, lagrange-4x4, lagrange-3x3 or configuration-space";
    QTest::newRow("unknown mass algorithm")
        << QStringList{"mass", ur5, "--algorithm", "aba"} << 2 << "valid: crba or denoc";
    QTest::newRow("unknown fd algorithm")
        << QStringList{"fd", ur5, "--algorithm", "rnea"} << 2 << "valid: aba, crba or denoc";
    QTest::newRow("simulate with denoc") << QStringList{"simulate", ur5, "--duration", "1", "--algorithm", "denoc"} << 2
                                         << "aba or crba";
    QTest::newRow("floating base refused")
        << QStringList{"id", robot("quadruped.urdf"), "--floating-base", "--algorithm", "denoc"} << 1
        << "joint 'root_joint' is floating (the floating base)";
    QTest::newRow("fext with denoc") << QStringList{"id", ur5, "--algorithm", "denoc", "--fext", "tool0:1,2,3,4,5,6"}
                                     << 2 << "--fext is computed with rnea";
    QTest::newRow("fext with fd denoc") << QStringList{"fd", ur5, "--algorithm", "denoc", "--fext", "tool0:1,2,3,4,5,6"}
                                        << 2 << "aba and crba";
    QTest::newRow("decompose with denoc")
        << QStringList{"id", ur5, "--algorithm", "denoc", "--trajectory", "in.csv", "--decompose"} << 2
        << "--decompose is computed with rnea";
    QTest::newRow("opcount without algorithm") << QStringList{"opcount", "--chain", "6"} << 2 << "needs --algorithm";
    QTest::newRow("opcount unknown") << QStringList{"opcount", "--chain", "6", "--algorithm", "x"} << 2
                                     << "valid: rnea, denoc, newton-euler-3, uicker-kahn, waters, lagrange-4x4, "
                                        "lagrange-3x3, configuration-space, crba, aba";
    QTest::newRow("opcount wrong problem")
        << QStringList{"opcount", "--chain", "6", "--algorithm", "aba", "--problem", "id"} << 2
        << "not an algorithm for inverse dynamics";
    QTest::newRow("opcount chain 0") << QStringList{"opcount", "--chain", "0", "--algorithm", "aba"} << 2 << "1 to 64";
    QTest::newRow("opcount chain 65") << QStringList{"opcount", "--chain", "65", "--algorithm", "aba"} << 2
                                      << "1 to 64";
    QTest::newRow("opcount chain 2.5") << QStringList{"opcount", "--chain", "2.5", "--algorithm", "aba"} << 2
                                       << "whole number";
    QTest::newRow("opcount model and chain")
        << QStringList{"opcount", ur5, "--chain", "6", "--algorithm", "aba"} << 2 << "exactly one of MODEL or --chain";
    QTest::newRow("opcount neither") << QStringList{"opcount", "--algorithm", "aba"} << 2
                                     << "exactly one of MODEL or --chain";
    QTest::newRow("opcount bad problem") << QStringList{"opcount", "--chain",   "3", "--algorithm",
                                                        "aba",     "--problem", "ik"}
                                         << 2 << "--problem must be id, mass or fd";
    QTest::newRow("opcount refused model")
        << QStringList{"opcount", robot("quadruped.urdf"), "--floating-base", "--algorithm", "newton-euler-3"} << 1
        << "joint 'root_joint' is floating";
  }
  void usageErrors() {
    QFETCH(QStringList, args);
    QFETCH(int, status);
    QFETCH(QString, fragment);
    const CliRun r = runCli(args);
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, status);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith("dynscope-cli: error: "), r.err.constData());
    QVERIFY2(QString(r.err).contains(fragment), r.err.constData());
  }

  void helpListsAlgorithms() {
    const CliRun r = runCli({"id", "--help"});
    QCOMPARE(r.status, 0);
    for (const char* name : {"rnea", "denoc", "newton-euler-3"}) QVERIFY2(r.out.contains(name), name);
    const CliRun o = runCli({"opcount", "--help"});
    QVERIFY(o.out.contains("--chain N") && o.out.contains("MODEL|--chain N"));
  }
};

QTEST_GUILESS_MAIN(TestFormulationCli)
#include "test_formulation_cli.moc"
