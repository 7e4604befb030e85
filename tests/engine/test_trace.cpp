// The traced algorithms (lecture mode, issue 15): the number of steps per algorithm on chains and
// trees, the traced result equal to the plain algorithm's bit for bit, the recorded state at the
// end equal to the algorithm's outputs, the operation counts against a plain counting run, the
// state reached by stepping back and forth, and the arrows of a swinging pendulum against the
// closed-form motion (tests/support/pendulum.hpp).
#include <QtTest>
#include <cstring>
#include <random>
#include <set>
#include <string>

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/trace/trace_arrows.hpp"
#include "pendulum.hpp"
#include "test_vectors.hpp"
#include "trace_sources.hpp"

using dyn::AlgorithmTrace;
using dyn::Data;
using dyn::Model;
using dyn::StepKind;
using dyn::TraceInput;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

Model modelFor(const QString& source) { return dyn::testing::traceModel(source); }
TraceInput randomInput(const Model& model, unsigned seed) { return dyn::testing::randomTraceInput(model, seed); }
using dyn::testing::bitEqual;

int countKind(const AlgorithmTrace& t, StepKind k) {
  int n = 0;
  for (const auto& s : t.steps) n += s.kind == k;
  return n;
}

// The plain algorithm's result, on its own Data.
MatrixXd plainResult(const Model& model, const std::string& algorithm, const TraceInput& in) {
  Data d(model);
  if (algorithm == "rnea") return dyn::rnea(model, d, in.q, in.qd, in.qdd);
  if (algorithm == "crba") return dyn::crba(model, d, in.q);
  if (algorithm == "aba") return dyn::aba(model, d, in.q, in.qd, in.tau);
  return dyn::forwardDynamicsCrba(model, d, in.q, in.qd, in.tau);
}

// The other formulations: test_trace_formulations.cpp.
const char* const kFeatherstone[] = {"rnea", "crba", "aba", "crba-ltl"};

}  // namespace

class TestTrace : public QObject {
  Q_OBJECT

 private slots:
  void stepCounts_data();
  void stepCounts();
  void resultIsThePlainAlgorithms_data() { stepCounts_data(); }
  void resultIsThePlainAlgorithms();
  void finalStateIsTheResult_data() { stepCounts_data(); }
  void finalStateIsTheResult();
  void operationCountsSoFar();
  void stepsReportTheirBodyAndPass();
  void backwardThenForward();
  void stepsStoreOnlyWhatTheyWrite();
  void substitutedEquationsHoldTheirNumbers();
  void pendulumArrows();
  void pendulumArrowsWorldCoordinatesAgree();
  void errors();
};

void TestTrace::stepCounts_data() {
  QTest::addColumn<QString>("source");
  for (const char* s : {"chain:1", "chain:6", "chain:12", "ur5.urdf", "humanoid.urdf", "quadruped.urdf"})
    QTest::newRow(s) << QString(s);
  for (unsigned seed = 1; seed <= 8; ++seed) {
    const QString src = QString("random:%1:%2").arg(seed).arg(3 + int(seed * 3) % 11);
    QTest::newRow(qPrintable(src)) << src;
  }
}

// RNEA 2 per body, ABA 3 per body, CRBA one column walk per body and one composite-inertia step
// per body with a parent; CRBA + LTL adds the right-hand side and three sweeps over the dofs.
void TestTrace::stepCounts() {
  QFETCH(QString, source);
  const Model model = modelFor(source);
  const TraceInput in = randomInput(model, 7);
  int withParent = 0;
  for (int i = 1; i <= model.N; ++i) withParent += model.parent[i] > 0;

  const AlgorithmTrace rnea = dyn::traceAlgorithm(model, "rnea", in);
  QCOMPARE(int(rnea.steps.size()), 2 * model.N);
  QCOMPARE(countKind(rnea, StepKind::RneaOutward), model.N);
  QCOMPARE(int(rnea.passes.size()), 2);

  const AlgorithmTrace aba = dyn::traceAlgorithm(model, "aba", in);
  QCOMPARE(int(aba.steps.size()), 3 * model.N);
  QCOMPARE(int(aba.passes.size()), 3);

  const AlgorithmTrace crba = dyn::traceAlgorithm(model, "crba", in);
  QCOMPARE(countKind(crba, StepKind::CrbaColumn), model.N);
  QCOMPARE(countKind(crba, StepKind::CrbaComposite), withParent);
  QCOMPARE(int(crba.steps.size()), model.N + withParent);
  QCOMPARE(int(crba.passes.size()), 1);

  const AlgorithmTrace fd = dyn::traceAlgorithm(model, "crba-ltl", in);
  QCOMPARE(int(fd.steps.size()), 2 * model.N + 1 + model.N + withParent + 3 * model.nv);
  QCOMPARE(int(fd.passes.size()), 7);
}

void TestTrace::resultIsThePlainAlgorithms() {
  QFETCH(QString, source);
  const Model model = modelFor(source);
  for (unsigned seed : {1u, 2u}) {
    const TraceInput in = randomInput(model, seed);
    for (const char* name : kFeatherstone) {
      const AlgorithmTrace t = dyn::traceAlgorithm(model, name, in);
      const MatrixXd plain = plainResult(model, name, in);
      QVERIFY2(plain.allFinite(), name);
      QVERIFY2(bitEqual(t.result, plain),
               qPrintable(QString("%1 on %2: traced result differs from the plain one").arg(name, source)));
    }
  }
}

// The quantities the steps wrote, read back from the state after the last step, are the outputs.
void TestTrace::finalStateIsTheResult() {
  QFETCH(QString, source);
  const Model model = modelFor(source);
  const TraceInput in = randomInput(model, 3);
  Data d(model);

  const AlgorithmTrace rnea = dyn::traceAlgorithm(model, "rnea", in);
  dyn::rnea(model, d, in.q, in.qd, in.qdd);
  dyn::TraceState s = dyn::traceState(rnea, int(rnea.steps.size()));
  for (int i = 1; i <= model.N; ++i) {
    const auto& J = model.joints[i];
    const dyn::TraceTerm* tau = s.find("tau", i);
    QVERIFY(tau);
    QVERIFY(bitEqual(tau->value, d.tau.segment(J.idx_v, J.nv)));
    QVERIFY(bitEqual(s.find("f", i)->value, d.f[i].toVector()));  // the joint forces f_J,i
    QVERIFY(bitEqual(s.find("a", i)->value, d.a[i].toVector()));
  }

  const AlgorithmTrace aba = dyn::traceAlgorithm(model, "aba", in);
  dyn::aba(model, d, in.q, in.qd, in.tau);
  s = dyn::traceState(aba, int(aba.steps.size()));
  for (int i = 1; i <= model.N; ++i) {
    const auto& J = model.joints[i];
    QVERIFY(bitEqual(s.find("qdd", i)->value, d.qdd.segment(J.idx_v, J.nv)));
    QVERIFY(bitEqual(s.find("a", i)->value, d.a[i].toVector()));
  }

  const AlgorithmTrace crba = dyn::traceAlgorithm(model, "crba", in);
  dyn::crba(model, d, in.q);
  s = dyn::traceState(crba, int(crba.steps.size()));
  const dyn::TraceTerm* H = s.find("H", -1);
  QVERIFY(H);
  QVERIFY2(H->value.allFinite(), "an entry of H was never written");
  QVERIFY(bitEqual(H->value, d.M));
  // Before the first step nothing but the structural zeros is known.
  const dyn::TraceState start = dyn::traceState(crba, 0);
  const dyn::TraceTerm* H0 = start.find("H", -1);
  QVERIFY(H0);
  for (int r = 0; r < model.nv; ++r)
    for (int c = 0; c < model.nv; ++c) {
      const int a = model.dofBody[r], b = model.dofBody[c];
      QCOMPARE(std::isnan(H0->value(r, c)), model.isAncestor(a, b) || model.isAncestor(b, a));
    }

  const AlgorithmTrace fd = dyn::traceAlgorithm(model, "crba-ltl", in);
  s = dyn::traceState(fd, int(fd.steps.size()));
  QVERIFY(bitEqual(s.find("x", -1)->value, fd.result));
}

// The count after the last step is the whole run's; counts never decrease; every outward RNEA
// step costs the same on a chain of identical joints except for the root.
void TestTrace::operationCountsSoFar() {
  const Model model = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/ur5.urdf");
  const TraceInput in = randomInput(model, 5);
  for (const auto& a : dyn::traceableAlgorithms()) {
    const AlgorithmTrace t = dyn::traceAlgorithm(model, a.name, in);
    QVERIFY(!t.steps.empty());
    QCOMPARE(t.steps.back().counts.total(), t.total.total());
    for (size_t k = 1; k < t.steps.size(); ++k) {
      QVERIFY(t.steps[k].counts.algorithm.muls >= t.steps[k - 1].counts.algorithm.muls);
      QVERIFY(t.steps[k].counts.algorithm.adds >= t.steps[k - 1].counts.algorithm.adds);
    }
  }
  // Against an independent counting run of the plain algorithm.
  using C = dyn::CountingScalar;
  const dyn::ModelTpl<C> cm = model.cast<C>();
  dyn::DataTpl<C> cd(cm);
  C::reset();
  dyn::rnea(cm, cd, in.q.cast<C>().eval(), in.qd.cast<C>().eval(), in.qdd.cast<C>().eval());
  const dyn::OpTally plain = C::tally();
  const AlgorithmTrace t = dyn::traceAlgorithm(model, "rnea", in);
  QCOMPARE(t.total.algorithm, plain.algorithm);
  QCOMPARE(t.total.jointTransforms, plain.jointTransforms);
  QVERIFY(plain.algorithm.muls > 100);
  // The joint transforms are booked step by step in the outward pass: none in the inward pass.
  const auto& steps = t.steps;
  QCOMPARE(steps[model.N].counts.jointTransforms, steps.back().counts.jointTransforms);
  QVERIFY(steps[0].counts.jointTransforms.sin > 0);
  QVERIFY(steps[1].counts.jointTransforms.sin > steps[0].counts.jointTransforms.sin);
}

void TestTrace::stepsReportTheirBodyAndPass() {
  const Model model = dyn::buildModel(dyn::testing::randomTree(11, 9));
  const TraceInput in = randomInput(model, 1);
  const AlgorithmTrace rnea = dyn::traceAlgorithm(model, "rnea", in);
  for (int i = 1; i <= model.N; ++i) {
    QCOMPARE(rnea.steps[i - 1].body, i);                          // outward: 1 .. N
    QCOMPARE(rnea.steps[model.N + i - 1].body, model.N + 1 - i);  // inward: N .. 1
    std::set<std::string> written;
    for (int w : rnea.steps[i - 1].written) {
      QCOMPARE(rnea.steps[i - 1].terms[w].index, rnea.steps[i - 1].terms[w].quantity == "v" ||
                                                         rnea.steps[i - 1].terms[w].quantity == "a" ||
                                                         rnea.steps[i - 1].terms[w].quantity == "f"
                                                     ? i
                                                     : rnea.steps[i - 1].terms[w].index);
      written.insert(rnea.steps[i - 1].terms[w].quantity);
    }
    QVERIFY(written.count("v") && written.count("a") && written.count("f"));
    QCOMPARE(rnea.steps[i - 1].pass, 0);
  }
  QCOMPARE(rnea.passes[0].direction, dyn::TracePass::Direction::Outward);
  QCOMPARE(rnea.passes[1].direction, dyn::TracePass::Direction::Inward);
  QCOMPARE(rnea.passes[1].first, model.N);
  QCOMPARE(rnea.passes[1].last, 2 * model.N - 1);
  // ABA pass 2 passes IA and pA to the parent (none for a root).
  const AlgorithmTrace aba = dyn::traceAlgorithm(model, "aba", in);
  for (const auto& step : aba.steps) {
    if (step.kind != StepKind::AbaInertias) continue;
    bool parentWritten = false;
    for (int w : step.written)
      parentWritten =
          parentWritten || (step.terms[w].quantity == "IA" && step.terms[w].index == model.parent[step.body]);
    QCOMPARE(parentWritten, model.parent[step.body] > 0);
  }
  // Every step has an equation with a reference into a seed.
  for (const char* name : kFeatherstone) {
    const AlgorithmTrace t = dyn::traceAlgorithm(model, name, in);
    for (const auto& s : t.steps) {
      QVERIFY(!s.lines.empty());
      bool seed = false;
      for (const auto& l : s.lines) seed = seed || l.reference.find("Featherstone") != std::string::npos;
      QVERIFY2(seed, name);
    }
  }
}

// The state at a position does not depend on how it was reached: a cursor stepping forward and
// back (undoing each step's writes) and jumping about passes through the states built from the
// start, and each step changes exactly what it wrote.
void TestTrace::backwardThenForward() {
  const Model model = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/quadruped.urdf");
  const auto same = [](const dyn::TraceState& a, const dyn::TraceState& b) {
    if (a.values.size() != b.values.size() || a.changed != b.changed) return false;
    for (const auto& [key, term] : a.values) {
      const dyn::TraceTerm* o = b.find(key.first, key.second);
      if (!o || !bitEqual(o->value, term.value)) return false;
    }
    return true;
  };
  for (const char* name : kFeatherstone) {
    const AlgorithmTrace t = dyn::traceAlgorithm(model, name, randomInput(model, 9));
    const int n = int(t.steps.size());
    std::vector<dyn::TraceState> fresh;
    for (int k = 0; k <= n; ++k) fresh.push_back(dyn::traceState(t, k));
    dyn::TraceCursor cursor(t);
    for (int k = 1; k <= n; ++k) {  // forward, one step at a time
      cursor.seek(k);
      QVERIFY2(same(cursor.state(), fresh[size_t(k)]), qPrintable(QString("%1 forward to %2").arg(name).arg(k)));
      QVERIFY(!same(fresh[size_t(k)], fresh[size_t(k) - 1]));
    }
    for (int k = n - 1; k >= 0; --k) {  // and back: every write undone
      cursor.seek(k);
      QVERIFY2(same(cursor.state(), fresh[size_t(k)]), qPrintable(QString("%1 back to %2").arg(name).arg(k)));
    }
    std::mt19937 rng(3);
    for (int jump = 0; jump < 20; ++jump) {  // jumps in both directions
      const int k = std::uniform_int_distribution<int>(0, n)(rng);
      cursor.seek(k);
      QVERIFY2(same(cursor.state(), fresh[size_t(k)]), qPrintable(QString("%1 jump to %2").arg(name).arg(k)));
    }
    // What changed between k - 1 and k is what step k wrote, and nothing else.
    for (int k = 1; k <= n; ++k) {
      std::set<std::pair<std::string, int>> differ;
      for (const auto& [key, term] : fresh[size_t(k)].values) {
        const dyn::TraceTerm* before = fresh[size_t(k) - 1].find(key.first, key.second);
        if (!before || !bitEqual(before->value, term.value)) differ.insert(key);
      }
      const std::set<std::pair<std::string, int>> written(fresh[size_t(k)].changed.begin(),
                                                          fresh[size_t(k)].changed.end());
      for (const auto& key : differ) QVERIFY2(written.count(key), qPrintable(QString::fromStdString(key.first)));
    }
  }
}

// A step stores what it writes: CRBA's column walk the entries of H it computed (a column and a
// row of a one-dof joint: 2 per ancestor and the diagonal), LᵀL's factor step row k of L, never a
// copy of an nv x nv matrix.
void TestTrace::stepsStoreOnlyWhatTheyWrite() {
  const Model model = dyn::generalChain(40);
  const TraceInput in = randomInput(model, 2);
  const AlgorithmTrace fd = dyn::traceAlgorithm(model, "crba-ltl", in);
  int patches = 0, whole = 0;
  for (const auto& s : fd.steps)
    for (int w : s.written) {
      const dyn::TraceTerm& t = s.terms[size_t(w)];
      whole += t.value.size() >= model.nv * model.nv;
      if (!t.patch) continue;
      ++patches;
      QCOMPARE(t.value.rows(), Eigen::Index(t.entries.size()));
      int depth = 0;
      for (int j = model.parent[s.body]; j > 0; j = model.parent[j]) ++depth;
      if (s.kind == StepKind::CrbaColumn) QCOMPARE(int(t.entries.size()), 2 * depth + 1);
      if (s.kind == StepKind::LtlFactor) QCOMPARE(int(t.entries.size()), 1 + depth);  // row k of L
      if (s.kind == StepKind::LtlSolveTranspose) QCOMPARE(int(t.entries.size()), 1 + depth);
      if (s.kind == StepKind::LtlSolve) QCOMPARE(int(t.entries.size()), 1);
    }
  QCOMPARE(patches, model.N + 3 * model.nv);  // every column walk and every LᵀL step
  QCOMPARE(whole, 2);                         // H before CRBA's first step, L before the factorisation's
}

// The substituted lines show the actual numbers: in RNEA's a-line the displayed terms add up to a_i.
void TestTrace::substitutedEquationsHoldTheirNumbers() {
  const Model model = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/ur5.urdf");
  const AlgorithmTrace t = dyn::traceAlgorithm(model, "rnea", randomInput(model, 4));
  for (int k = 0; k < model.N; ++k) {
    const auto& step = t.steps[k];
    const dyn::TraceLine* aLine = nullptr;
    for (const auto& l : step.lines)
      if (l.reference.find("eq. 10") != std::string::npos) aLine = &l;
    QVERIFY(aLine);
    // a = Xa + S qdd + cJ + v x vJ: tokens [a] = [Xa] + [S] [qdd] + [cJ] + [vxvJ]
    std::vector<const dyn::TraceTerm*> terms;
    for (const auto& tok : aLine->substituted)
      if (tok.term >= 0) terms.push_back(&step.terms[tok.term]);
    QCOMPARE(int(terms.size()), 6);
    const VectorXd sum = terms[1]->value + terms[2]->value * terms[3]->value + terms[4]->value + terms[5]->value;
    CHECK_CLOSE(sum, terms[0]->value, 1e-12, 1 + terms[0]->value.norm(), "a_i = sum of its terms");
    QCOMPARE(dyn::plainMarkup(aLine->equation).substr(0, 6), std::string("a_i = "));
  }
}

// A swinging pendulum: at the COM, v is perpendicular to the rod, a and f = m a - m g and the
// moment about the COM match the closed form, after the outward pass of RNEA.
void TestTrace::pendulumArrows() {
  const dyn::testing::Pendulum P;
  const Model model = dyn::buildModel(dyn::parseUrdfString(P.urdf(), "pendulum.urdf"));
  const double q = 0.7, qd = 1.3, qdd = -0.4;
  TraceInput in;
  in.q = dyn::testing::vec({q});
  in.qd = dyn::testing::vec({qd});
  in.qdd = dyn::testing::vec({qdd});
  const AlgorithmTrace t = dyn::traceAlgorithm(model, "rnea", in);
  Data d(model);
  dyn::forwardKinematics(model, d, in.q);
  QCOMPARE(dyn::traceArrows(model, d, dyn::traceState(t, 0)).size(), size_t(0));  // nothing reached yet
  const auto arrows = dyn::traceArrows(model, d, dyn::traceState(t, 1));
  QCOMPARE(arrows.size(), size_t(6));
  const auto find = [&](dyn::ArrowKind k) {
    for (const auto& a : arrows)
      if (a.kind == k) return a;
    return dyn::TraceArrow{};
  };
  const Vector3d com = P.com(q);
  CHECK_CLOSE(find(dyn::ArrowKind::Velocity).origin, com, 1e-12, 1, "arrows start at the COM");
  const Vector3d v = find(dyn::ArrowKind::Velocity).vector;
  QVERIFY(std::abs(v.dot(com)) < 1e-12);  // perpendicular to the rod (hinge at the origin)
  CHECK_CLOSE(v, P.velocity(q, qd), 1e-12, 1, "v");
  CHECK_CLOSE(find(dyn::ArrowKind::AngularVelocity).vector, P.omega(qd), 1e-12, 1, "w");
  CHECK_CLOSE(find(dyn::ArrowKind::Acceleration).vector, P.acceleration(q, qd, qdd), 1e-12, 1, "a");
  CHECK_CLOSE(find(dyn::ArrowKind::AngularAcceleration).vector, Vector3d(0, qdd, 0), 1e-12, 1, "wd");
  CHECK_CLOSE(find(dyn::ArrowKind::Force).vector, P.force(q, qd, qdd), 1e-12, 10, "f = m a - m g");
  CHECK_CLOSE(find(dyn::ArrowKind::Moment).vector, P.moment(qdd), 1e-12, 1, "n about the COM");
  // At the frame origin (the hinge): no velocity.
  const auto atHinge = dyn::traceArrows(model, d, dyn::traceState(t, 1), dyn::ArrowPoint::FrameOrigin);
  for (const auto& a : atHinge)
    if (a.kind == dyn::ArrowKind::Velocity) QVERIFY(a.vector.norm() < 1e-12 && a.origin.norm() < 1e-12);
}

// ABA (link coordinates) and RNEA: their arrows at the end, carried to world coordinates, agree.
void TestTrace::pendulumArrowsWorldCoordinatesAgree() {
  const Model model = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/ur5.urdf");
  TraceInput in = randomInput(model, 12);
  Data d(model);
  in.tau = dyn::rnea(model, d, in.q, in.qd, in.qdd);
  const AlgorithmTrace id = dyn::traceAlgorithm(model, "rnea", in);
  const AlgorithmTrace fd = dyn::traceAlgorithm(model, "aba", in);
  dyn::forwardKinematics(model, d, in.q);
  const auto a = dyn::traceArrows(model, d, dyn::traceState(id, int(id.steps.size())));
  const auto b = dyn::traceArrows(model, d, dyn::traceState(fd, int(fd.steps.size())));
  int compared = 0;
  for (const auto& x : a)
    for (const auto& y : b)
      if (x.body == y.body && x.kind == y.kind) {
        CHECK_CLOSE(x.vector, y.vector, 1e-9, 1 + x.vector.norm(), std::string("arrow ") + dyn::arrowName(x.kind));
        ++compared;
      }
  QCOMPARE(compared, 4 * model.N);  // w, v, wd, a
}

void TestTrace::errors() {
  const Model model = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/ur5.urdf");
  TraceInput in = randomInput(model, 1);
  try {
    dyn::traceAlgorithm(model, "nope", in);
    QFAIL("no error");
  } catch (const std::invalid_argument& e) {
    QVERIFY(QString(e.what()).contains("'nope'"));
    QVERIFY(QString(e.what()).contains("rnea, crba, aba, crba-ltl"));
  }
  in.qdd.resize(2);
  try {
    dyn::traceAlgorithm(model, "rnea", in);
    QFAIL("no error");
  } catch (const std::invalid_argument& e) {
    QVERIFY2(QString(e.what()).startsWith("qdd has 2 entries"), e.what());
  }
  // Positions only: CRBA does not need the velocities.
  in.qd.resize(0);
  QCOMPARE(int(dyn::traceAlgorithm(model, "crba", in).steps.size()), 2 * model.N - 1);
}

QTEST_APPLESS_MAIN(TestTrace)
#include "test_trace.moc"
