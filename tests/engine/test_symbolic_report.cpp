// The equations report (issue 40; docs/symbolic.md): what dynscope-cli equations and the window's
// view are made of.
//  - Christoffel symbols of the first kind: the report's c_i (from the Gamma of M) and its printed
//    Gamma_{i,jk}, read back with GiNaC's parser, give sum_jk Gamma_{i,jk} qd_j qd_k = C(q, qd) qd of
//    RNEA (equationsOfMotion) exactly: the difference simplifies to zero (arm, Saha's planar arm, the
//    Stanford arm, symbolic parameters), and one wrong symbol makes it non-zero;
//  - the entries' terms name the joints they contain; progress and cancel; refusals; the estimate;
//  - the cost of the generated tau code: the 1-link pendulum's equals a count by hand, the
//    elimination never increases it, and it grows with n on the general chains of the op-count chart.
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <fstream>

#include "dynscope/dynscope.hpp"
#include "dynscope/symbolic/equations_of_motion.hpp"
#include "dynscope/symbolic/equations_report.hpp"

using GiNaC::ex;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream file(path);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}
std::string robot(const char* name) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + name; }

const char* pendulum =
    "name pendulum\nconvention standard\ngravity 0 -9.81 0\n"
    "joint j1 R a=0.5 alpha=0 mass=1.5 com=-0.2,0,0 inertia=0,0.02,0.03\n";

}  // namespace

class TestSymbolicReport : public QObject {
  Q_OBJECT

 private slots:
  void christoffelSymbolsGiveRneaCoriolisTerms_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("arm2") << QString(DYNSCOPE_TEST_DATA_DIR) + "/arm2.dh";
    QTest::newRow("planar3") << QString::fromStdString(robot("planar3.dh"));
    QTest::newRow("stanford") << QString::fromStdString(robot("stanford_arm.dh"));
  }
  void christoffelSymbolsGiveRneaCoriolisTerms() {
    QFETCH(QString, file);
    const std::string path = file.toStdString();
    const dyn::DhTable table = dyn::parseDhTable(readFile(path), path);
    const dyn::Model model = dyn::loadModel(path);
    dyn::EquationsRequest request;
    request.parameters = dyn::EquationParameters::Symbolic;
    request.table = &table;
    const dyn::EquationsReport r = dyn::equationsReport(model, request);
    const int n = r.n;
    QCOMPARE(n, model.nv);
    QVERIFY(!r.christoffel.empty());

    // C qd by RNEA on the same symbols, and the report's strings read back onto them.
    const dyn::SymbolicModel sm = dyn::symbolicDhModel(table);
    const dyn::SymbolicState s = dyn::symbolicState(n);
    const dyn::EquationsOfMotion eom = dyn::equationsOfMotion(sm.model, s);
    GiNaC::symtab names;
    for (int k = 0; k < n; ++k) names[s.q[k].get_name()] = s.q[k], names[s.qd[k].get_name()] = s.qd[k];
    for (const auto& p : sm.parameters) names[p.get_name()] = p;
    GiNaC::parser read(names, true);
    std::vector<ex> sum(n, 0);
    for (const dyn::EquationEntry& e : r.christoffel) {
      // Gamma<i>_<j><k> (fewer than ten joints here).
      const int i = e.name[5] - '1', j = e.name[7] - '1', k = e.name[8] - '1';
      QVERIFY(j <= k);
      QVERIFY(!e.zero);
      sum[i] += (j == k ? 1 : 2) * read(e.text) * s.qd[j] * s.qd[k];
    }
    for (int i = 0; i < n; ++i) {
      QVERIFY2(dyn::simplifyTrig(sum[i] - eom.c[i].e, s.q).is_zero(), qPrintable(QString("c%1").arg(i + 1)));
      QVERIFY(dyn::simplifyTrig(read(r.c[i].text) - eom.c[i].e, s.q).is_zero());
    }
    // The identity can fail: one Gamma off by a factor breaks it.
    const dyn::EquationEntry& first = r.christoffel.front();
    const int i = first.name[5] - '1', j = first.name[7] - '1', k = first.name[8] - '1';
    QVERIFY(!dyn::simplifyTrig(sum[i] + read(first.text) * s.qd[j] * s.qd[k] - eom.c[i].e, s.q).is_zero());
  }

  void termsNameTheirJoints() {
    const std::string path = std::string(DYNSCOPE_TEST_DATA_DIR) + "/arm2.dh";
    const dyn::DhTable table = dyn::parseDhTable(readFile(path), path);
    dyn::EquationsRequest request;
    request.parameters = dyn::EquationParameters::Symbolic;
    request.table = &table;
    std::vector<std::string> stages;
    int total = 0;
    request.progress = [&](int done, int all, const std::string& stage) {
      QCOMPARE(done, int(stages.size()));
      stages.push_back(stage);
      total = all;
    };
    const dyn::EquationsReport r = dyn::equationsReport(dyn::loadModel(path), request);
    QCOMPARE(int(stages.size()), total);
    QVERIFY(std::find(stages.begin(), stages.end(), "M_{12}") != stages.end());
    QCOMPARE(r.M.size(), std::size_t(4));
    QCOMPARE(r.M[1].text, r.M[2].text);  // symmetric
    // M11 = I1zz + I2zz + m1 (...) + m2 (... cos(q2) ...): only the last term has joint 2.
    const dyn::EquationEntry& M11 = r.M[0];
    QCOMPARE(M11.terms.size(), std::size_t(4));
    QCOMPARE(M11.terms[0].text, std::string("I1zz"));
    QVERIFY(M11.terms[0].dofs.empty());
    QCOMPARE(M11.terms[3].dofs, std::vector<int>{1});
    QCOMPARE(M11.dofs, std::vector<int>{1});
    std::string joined;
    for (const auto& t : M11.terms) joined += (joined.empty() || t.text[0] == '-' ? "" : "+") + t.text;
    QCOMPARE(joined, M11.text);
    QCOMPARE(r.g[1].dofs, (std::vector<int>{0, 1}));  // cos(q1 + q2)
    QCOMPARE(r.tau[0].dofs, (std::vector<int>{0, 1}));
    QCOMPARE(r.christoffel.front().texName, std::string("\\Gamma_{1,12}"));

    // Cancel: thrown between steps.
    std::atomic<bool> cancel = true;
    request.progress = nullptr;
    request.cancel = &cancel;
    QVERIFY_THROWS_EXCEPTION(dyn::EquationsCancelled, dyn::equationsReport(dyn::loadModel(path), request));
    // Symbolic parameters without a table: the model's own (symbolicModel); a floating base: refused in words.
    dyn::EquationsRequest noTable;
    noTable.parameters = dyn::EquationParameters::Symbolic;
    const dyn::EquationsReport own = dyn::equationsReport(dyn::loadModel(path), noTable);
    QVERIFY(std::any_of(own.symbols.begin(), own.symbols.end(), [](const dyn::EquationSymbol& s) {
      return s.name == "m1" && s.meaning.find("mass of link 1") != std::string::npos;
    }));
    dyn::BuildOptions floating;
    floating.floatingBase = true;
    try {
      dyn::equationsReport(dyn::loadModel(path, floating), {});
      QFAIL("a floating base was accepted");
    } catch (const dyn::EquationsUnsupported& e) {
      QVERIFY2(std::string(e.what()).find("revolute and prismatic joints only") != std::string::npos, e.what());
    }
  }

  void pendulumCostByHand() {
    // Numeric parameters: M11 is a number, g1 = a cos(q1), c1 = 0, so tau1 = M11*qdd1 + a*cos(q1):
    // two multiplications, one addition, one cosine.
    const dyn::Model numeric = dyn::buildModel(dyn::dhTableToDescription(dyn::parseDhTable(pendulum)));
    const dyn::ClosedFormCost n = dyn::equationsReport(numeric, {}).cost;
    QCOMPARE(n.multiplications, 2L);
    QCOMPARE(n.additions, 1L);
    QCOMPARE(n.functions, 1L);
    // Symbolic parameters, in the textbook form M11 = I1zz + m1 (c1x + l1)^2, g1 = g m1 cos(q1) (c1x + l1):
    // t1 = c1x + l1 (1 addition, shared), M11 = t1 t1 m1 + I1zz (2 and 1), t2 = cos(q1), g1 = t1 t2 g m1
    // (3), tau1 = M11 qdd1 + g1 (1 and 1): 6 multiplications, 3 additions, a cosine, 2 temporaries.
    const dyn::DhTable table = dyn::parseDhTable(pendulum);
    dyn::EquationsRequest request;
    request.parameters = dyn::EquationParameters::Symbolic;
    request.table = &table;
    const dyn::EquationsReport r = dyn::equationsReport(numeric, request);
    QCOMPARE(r.M[0].text, std::string("I1zz+m1*(c1x+l1)^2"));
    QCOMPARE(r.g[0].text, std::string("g*m1*cos(q1)*(c1x+l1)"));
    QCOMPARE(r.cost.multiplications, 6L);
    QCOMPARE(r.cost.additions, 3L);
    QCOMPARE(r.cost.functions, 1L);
    QCOMPARE(r.cost.temporaries, 2L);  // c1x + l1, cos(q1)
  }

  void eliminationNeverCostsMore_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("symbolic");
    QTest::newRow("arm2 symbolic") << QString(DYNSCOPE_TEST_DATA_DIR) + "/arm2.dh" << true;
    QTest::newRow("planar3 numeric") << QString::fromStdString(robot("planar3.dh")) << false;
    QTest::newRow("stanford symbolic") << QString::fromStdString(robot("stanford_arm.dh")) << true;
    QTest::newRow("puma560 numeric") << QString::fromStdString(robot("puma560.dh")) << false;
  }
  void eliminationNeverCostsMore() {
    QFETCH(QString, file);
    QFETCH(bool, symbolic);
    const std::string path = file.toStdString();
    const dyn::DhTable table = dyn::parseDhTable(readFile(path), path);
    dyn::EquationsRequest request;
    request.parameters = symbolic ? dyn::EquationParameters::Symbolic : dyn::EquationParameters::Numeric;
    request.table = &table;
    request.christoffel = false;
    const dyn::ClosedFormCost c = dyn::equationsReport(dyn::loadModel(path), request).cost;
    QVERIFY(c.multiplications > 0 && c.additions > 0 && c.functions > 0 && c.temporaries > 0);
    QVERIFY(c.multiplications <= c.multiplicationsWithoutCse);
    QVERIFY(c.additions <= c.additionsWithoutCse);
    QVERIFY(c.functions < c.functionsWithoutCse);  // every sine and cosine once
    qDebug() << file.section('/', -1) << "tau:" << c.multiplications << "M," << c.additions << "A," << c.functions
             << "sin/cos after CSE;" << c.multiplicationsWithoutCse << "M," << c.additionsWithoutCse << "A,"
             << c.functionsWithoutCse << "without";
  }

  void estimateRefusesWhatCannotFinish() {
    const dyn::EquationsEstimate small = dyn::estimateEquations(dyn::generalChain(2), dyn::EquationParameters::Numeric);
    QVERIFY(small.feasible);
    QVERIFY(small.seconds < 1);
    const dyn::EquationsEstimate six = dyn::estimateEquations(dyn::generalChain(6), dyn::EquationParameters::Numeric);
    QVERIFY(six.feasible);  // measured: 346 s
    QVERIFY(six.seconds >= 100);
    const dyn::EquationsEstimate nine = dyn::estimateEquations(dyn::generalChain(9), dyn::EquationParameters::Numeric);
    QVERIFY(!nine.feasible);
    QVERIFY2(nine.explanation.find("too large") != std::string::npos &&
                 nine.explanation.find("9 joints") != std::string::npos,
             nine.explanation.c_str());
    QVERIFY(dyn::estimateEquations(dyn::generalChain(6), dyn::EquationParameters::Symbolic).seconds > six.seconds);
    // The lecture's robots stay feasible with symbolic parameters (measured 1.3 s and 2.9 s).
    for (const char* name : {"stanford_arm.dh", "puma560.dh"}) {
      const dyn::EquationsEstimate e =
          dyn::estimateEquations(dyn::loadModel(robot(name)), dyn::EquationParameters::Symbolic);
      QVERIFY2(e.feasible && e.seconds < 60, e.explanation.c_str());
    }
  }

  void costGrowsWithTheChain() {
    dyn::ClosedFormCost last;
    for (int n = 1; n <= 4; ++n) {
      const dyn::ClosedFormCost c = dyn::closedFormCost(n);
      qDebug() << "general chain n =" << n << ":" << c.multiplications << "M," << c.additions << "A," << c.functions
               << "sin/cos," << c.temporaries << "temporaries";
      QVERIFY(c.multiplications > last.multiplications);
      QVERIFY(c.additions > last.additions);
      QVERIFY(c.functions >= last.functions);
      last = c;
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::closedFormCost(0));
  }
};

QTEST_GUILESS_MAIN(TestSymbolicReport)
#include "test_symbolic_report.moc"
