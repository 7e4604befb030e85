// The traced formulations beyond RNEA, CRBA and ABA (lecture mode, issue 15): DeNOC inverse and
// forward dynamics and its GIM (Saha 1999), Newton-Euler with 3-vectors, the recursive Lagrangian
// 4x4 and 3x3, Waters, Uicker/Kahn and the configuration-space method (Hollerbach 1980). For each:
// the documented number of steps on chains and trees, the traced result equal to the plain
// function's bit for bit (the formulation registry's own binding, another workspace), the state
// after the last step equal to the plain run's workspace, the operation count of the last step equal
// to the registry's count of a plain run, a seed reference on every step, and the arrows at the end
// equal to RNEA's (the roles and frames of the values are right).
#include <QtTest>
#include <cstring>
#include <random>

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/formulations/denoc_forward_dynamics.hpp"
#include "dynscope/formulations/newton_euler_3vector.hpp"
#include "dynscope/formulations/recursive_lagrangian_4x4.hpp"
#include "dynscope/trace/trace_arrows.hpp"
#include "trace_sources.hpp"

using dyn::AlgorithmTrace;
using dyn::Model;
using dyn::StepKind;
using dyn::TraceInput;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

const char* const kFormulations[] = {"denoc-id",    "newton-euler-3",      "lagrange-4x4", "lagrange-3x3", "waters",
                                     "uicker-kahn", "configuration-space", "denoc-gim",    "denoc-fd"};

Model modelFor(const QString& source) {
  using K = dyn::JointKind;
  return dyn::testing::traceModel(source, {K::Revolute, K::Continuous, K::Prismatic, K::Fixed});
}
TraceInput randomInput(const Model& model, unsigned seed) { return dyn::testing::randomTraceInput(model, seed); }
using dyn::testing::bitEqual;

const dyn::Formulation& registered(const std::string& name) {
  const dyn::TraceableAlgorithm* a = dyn::findTraceableAlgorithm(name);
  return dyn::formulation(a->problem, a->formulation);
}

// The plain function through the registry: a binding with its own copy of the model and workspace.
MatrixXd plainResult(const Model& model, const std::string& name, const TraceInput& in) {
  const dyn::Formulation& f = registered(name);
  const Eigen::VectorXd& x = f.problem == dyn::Problem::ForwardDynamics ? in.tau : in.qdd;
  return f.bind(model).evaluate(in.q, in.qd, x);
}

int withParent(const Model& m) {
  int n = 0;
  for (int i = 1; i <= m.N; ++i) n += m.parent[i] > 0;
  return n;
}

}  // namespace

class TestTraceFormulations : public QObject {
  Q_OBJECT

 private slots:
  void sources_data();
  void stepCounts_data() { sources_data(); }
  void stepCounts();
  void resultIsThePlainFunctions_data() { sources_data(); }
  void resultIsThePlainFunctions();
  void finalStateIsTheWorkspace();
  void operationCountsAreThePlainRuns();
  void everyStepNamesItsSeed();
  void arrowsAgreeWithRnea();
  void everyStepCanBeUndone();
  void refusedJointsNameTheJoint();
};

void TestTraceFormulations::sources_data() {
  QTest::addColumn<QString>("source");
  for (const char* s : {"chain:1", "chain:6", "chain:12", "stanford_arm.dh", "ur5.urdf", "humanoid.urdf"})
    QTest::newRow(s) << QString(s);
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const QString src = QString("random:%1:%2").arg(seed).arg(3 + int(seed * 3) % 9);
    QTest::newRow(qPrintable(src)) << src;
  }
}

// The granularity of docs/lecture-mode.md: one step per body per pass for the recursive ones, per
// body of each loop for Waters and Uicker/Kahn, per row for the configuration-space evaluation.
void TestTraceFormulations::stepCounts() {
  QFETCH(QString, source);
  const Model m = modelFor(source);
  const TraceInput in = randomInput(m, 3);
  const int N = m.N;
  const struct {
    const char* name;
    int steps, passes;
  } expected[] = {
      {"denoc-id", 2 * N, 2},
      {"newton-euler-3", 2 * N, 2},
      {"lagrange-4x4", 2 * N, 2},
      {"lagrange-3x3", 2 * N, 2},
      {"waters", 2 * N, 2},
      {"uicker-kahn", 5 * N, 5},
      {"configuration-space", m.nv + 2, 3},
      {"denoc-gim", N + withParent(m), 1},
      {"denoc-fd", 2 * N + 1 + 3 * N, 6},  // DeNOC ID for phi, phi, steps 1-3 of section 5.2
  };
  for (const auto& e : expected) {
    const AlgorithmTrace t = dyn::traceAlgorithm(m, e.name, in);
    QVERIFY2(
        int(t.steps.size()) == e.steps,
        qPrintable(QString("%1 on %2: %3 steps, expected %4").arg(e.name, source).arg(t.steps.size()).arg(e.steps)));
    QVERIFY2(int(t.passes.size()) == e.passes, e.name);
    // Every body of a per-body pass once, outward passes parents first, inward passes children first.
    for (const dyn::TracePass& p : t.passes) {
      if (p.direction == dyn::TracePass::Direction::None) continue;
      std::vector<int> seen(size_t(N) + 1, 0);
      for (int k = p.first; k <= p.last; ++k) {
        const int b = t.steps[size_t(k)].body;
        if (t.steps[size_t(k)].kind == StepKind::DenocComposite) continue;  // with the column of the same body
        ++seen[size_t(b)];
        const int parent = m.parent[b];
        if (parent > 0)
          QVERIFY2(
              p.direction == dyn::TracePass::Direction::Outward ? seen[size_t(parent)] == 1 : seen[size_t(parent)] == 0,
              e.name);
      }
      for (int b = 1; b <= N; ++b) QVERIFY2(seen[size_t(b)] == 1, qPrintable(QString(e.name) + " " + p.name.c_str()));
    }
  }
}

void TestTraceFormulations::resultIsThePlainFunctions() {
  QFETCH(QString, source);
  const Model m = modelFor(source);
  for (unsigned seed : {1u, 2u}) {
    const TraceInput in = randomInput(m, seed);
    for (const char* name : kFormulations) {
      const AlgorithmTrace t = dyn::traceAlgorithm(m, name, in);
      const MatrixXd plain = plainResult(m, name, in);
      QVERIFY2(plain.allFinite(), name);
      QVERIFY2(bitEqual(t.result, plain), qPrintable(QString("%1 on %2: traced result differs").arg(name, source)));
      // The state after the last step holds the result too.
      const dyn::TraceState s = dyn::traceState(t, int(t.steps.size()));
      const dyn::TraceableAlgorithm* a = dyn::findTraceableAlgorithm(name);
      if (a->problem == dyn::Problem::MassMatrix) {
        QVERIFY(bitEqual(s.find("H", -1)->value, plain));
      } else if (const dyn::TraceTerm* whole =
                     s.find(a->problem == dyn::Problem::ForwardDynamics ? "qdd" : "tau", -1)) {
        QVERIFY2(bitEqual(whole->value, plain), name);
      } else {
        const char* key = a->problem == dyn::Problem::ForwardDynamics ? "qdd" : "tau";
        for (int i = 1; i <= m.N; ++i) {
          const dyn::TraceTerm* v = s.find(key, i);
          QVERIFY2(v, qPrintable(QString("%1: no %2 of body %3").arg(name, key).arg(i)));
          QVERIFY2(bitEqual(v->value, plain.block(m.joints[i].idx_v, 0, 1, 1)), name);
        }
      }
    }
  }
}

// The per-body quantities after the last step are the plain run's workspace, bit for bit.
void TestTraceFormulations::finalStateIsTheWorkspace() {
  const Model m = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/stanford_arm.dh");  // revolute and prismatic
  const TraceInput in = randomInput(m, 8);
  const auto at = [](const AlgorithmTrace& t, const char* q, int i) {
    const dyn::TraceState end = dyn::traceState(t, int(t.steps.size()));
    const dyn::TraceTerm* v = end.find(q, i);
    return v ? v->value : MatrixXd();
  };
  {
    dyn::DenocWorkspace ws(m);
    dyn::denocInverseDynamics(m, ws, in.q, in.qd, in.qdd);
    const AlgorithmTrace t = dyn::traceAlgorithm(m, "denoc-id", in);
    for (int i = 1; i <= m.N; ++i) {
      QVERIFY(bitEqual(at(t, "t", i), ws.t[i].toVector()));
      QVERIFY(bitEqual(at(t, "ṫ", i), ws.tdot[i].toVector()));
      QVERIFY(bitEqual(at(t, "w", i), ws.w[i].toVector()));  // the composite wrench w~_i
    }
  }
  {
    dyn::DenocWorkspace ws(m);
    dyn::denocForwardDynamics(m, ws, in.q, in.qd, in.tau);
    const AlgorithmTrace t = dyn::traceAlgorithm(m, "denoc-fd", in);
    for (int i = 1; i <= m.N; ++i) {
      const int k = m.joints[i].idx_v;
      QVERIFY2(bitEqual(at(t, "M̂", i), ws.Mhat[i]), qPrintable(QString::number(i)));
      QVERIFY(bitEqual(at(t, "m̂", i), ws.mhat.segment(k, 1)));
      QVERIFY(bitEqual(at(t, "τ̂", i), ws.tauHat.segment(k, 1)));
      QVERIFY(bitEqual(at(t, "τ̄", i), ws.tauBar.segment(k, 1)));
      QVERIFY(bitEqual(at(t, "μ", i), ws.mu[i].toVector()));
      QVERIFY(bitEqual(at(t, "φ", i), ws.phi.segment(k, 1)));
    }
  }
  {
    dyn::NewtonEuler3Workspace ws(m);
    dyn::newtonEuler3(m, ws, in.q, in.qd, in.qdd);
    const AlgorithmTrace t = dyn::traceAlgorithm(m, "newton-euler-3", in);
    for (int i = 1; i <= m.N; ++i) {
      QVERIFY(bitEqual(at(t, "ω", i), ws.w[i]));
      QVERIFY(bitEqual(at(t, "p̈", i), ws.pdd[i]));
      QVERIFY(bitEqual(at(t, "f", i), ws.f[i]));
      QVERIFY(bitEqual(at(t, "n", i), ws.n[i]));
    }
  }
  {
    dyn::RecursiveLagrangian4x4Workspace<double> ws(m);
    dyn::recursiveLagrangian4x4InverseDynamics(m, ws, in.q, in.qd, in.qdd);
    const AlgorithmTrace t = dyn::traceAlgorithm(m, "lagrange-4x4", in);
    for (int i = 1; i <= m.N; ++i) {
      QVERIFY(bitEqual(at(t, "Ẅ", i), ws.Wdd[i]));
      QVERIFY(bitEqual(at(t, "D", i), ws.D[i]));
      QVERIFY(bitEqual(at(t, "c", i), ws.c[i]));
    }
  }
}

// The running count ends at the count of a plain run (the registry's countOperations, its own
// binding on the counting scalar) and never decreases.
void TestTraceFormulations::operationCountsAreThePlainRuns() {
  const Model m = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/stanford_arm.dh");
  const TraceInput in = randomInput(m, 5);
  for (const char* name : kFormulations) {
    const AlgorithmTrace t = dyn::traceAlgorithm(m, name, in);
    const dyn::Formulation& f = registered(name);
    const dyn::OpTally plain =
        dyn::countOperations(f, m, in.q, in.qd, f.problem == dyn::Problem::ForwardDynamics ? in.tau : in.qdd);
    QVERIFY2(plain.algorithm.muls > 0, name);
    QCOMPARE(t.total.algorithm, plain.algorithm);
    QCOMPARE(t.steps.back().counts.algorithm, plain.algorithm);
    QCOMPARE(t.steps.back().counts.jointTransforms, plain.jointTransforms);
    for (size_t k = 1; k < t.steps.size(); ++k)
      QVERIFY2(t.steps[k].counts.algorithm.muls >= t.steps[k - 1].counts.algorithm.muls, name);
  }
  // The joint transforms computed ahead in a loop of their own are booked to each body's first step.
  const AlgorithmTrace lagrange = dyn::traceAlgorithm(m, "lagrange-4x4", in);
  QVERIFY(lagrange.steps[0].counts.jointTransforms.sin > 0);
  QVERIFY(lagrange.steps[1].counts.jointTransforms.muls > lagrange.steps[0].counts.jointTransforms.muls);
  // The configuration-space tables are off-line work, counted apart.
  const AlgorithmTrace cs = dyn::traceAlgorithm(m, "configuration-space", in);
  QVERIFY(cs.steps[0].counts.tabulation.muls > 0);
  QCOMPARE(cs.steps[0].counts.algorithm.muls, 0);
}

void TestTraceFormulations::everyStepNamesItsSeed() {
  const Model m =
      dyn::buildModel(dyn::testing::randomTree(4, 9, {dyn::JointKind::Revolute, dyn::JointKind::Prismatic}));
  const TraceInput in = randomInput(m, 2);
  for (const char* name : kFormulations) {
    const AlgorithmTrace t = dyn::traceAlgorithm(m, name, in);
    const std::string seed = QString(name).startsWith("denoc") ? "Saha 1999" : "Hollerbach 1980";
    for (const auto& s : t.steps) {
      QVERIFY2(!s.lines.empty(), name);
      bool named = false;
      for (const auto& l : s.lines) named = named || l.reference.find(seed) != std::string::npos;
      QVERIFY2(named, qPrintable(QString("%1, step %2").arg(name, dyn::stepKindName(s.kind))));
      for (const auto& l : s.lines)
        for (const auto& tok : l.substituted) QVERIFY(tok.term < int(s.terms.size()));
    }
  }
  // The equations carry the seed's equation numbers.
  const AlgorithmTrace denoc = dyn::traceAlgorithm(m, "denoc-id", in);
  QCOMPARE(QString::fromStdString(denoc.steps[0].lines[1].reference), QString("Saha 1999, eq. 12"));
  const AlgorithmTrace lagrange = dyn::traceAlgorithm(m, "lagrange-4x4", in);
  QVERIFY(QString::fromStdString(lagrange.steps[size_t(m.N)].lines[0].reference).contains("eq. 14"));
}

// At the end, each formulation's arrows (from its own quantities: twists, 3-vectors, W', W'')
// equal RNEA's for the same motion: the roles and frames of the values are right.
void TestTraceFormulations::arrowsAgreeWithRnea() {
  const Model m = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/stanford_arm.dh");
  const TraceInput in = randomInput(m, 11);
  dyn::Data d(m);
  dyn::forwardKinematics(m, d, in.q);
  const AlgorithmTrace rnea = dyn::traceAlgorithm(m, "rnea", in);
  const auto reference = dyn::traceArrows(m, d, dyn::traceState(rnea, int(rnea.steps.size())));
  // Arrows compared: (formulation, how many kinds per body). Velocity-less formulations draw fewer.
  const struct {
    const char* name;
    int kinds;
  } expected[] = {{"denoc-id", 6}, {"newton-euler-3", 5}, {"lagrange-4x4", 4}, {"lagrange-3x3", 3}, {"waters", 4}};
  for (const auto& e : expected) {
    for (dyn::ArrowPoint point : {dyn::ArrowPoint::CenterOfMass, dyn::ArrowPoint::FrameOrigin}) {
      const AlgorithmTrace t = dyn::traceAlgorithm(m, e.name, in);
      const auto mine = dyn::traceArrows(m, d, dyn::traceState(t, int(t.steps.size())), point);
      const auto theirs = dyn::traceArrows(m, d, dyn::traceState(rnea, int(rnea.steps.size())), point);
      int compared = 0;
      for (const auto& x : mine)
        for (const auto& y : theirs)
          if (x.body == y.body && x.kind == y.kind) {
            QVERIFY((x.origin - y.origin).norm() < 1e-12);
            CHECK_CLOSE(x.vector, y.vector, 1e-9, 1 + y.vector.norm(),
                        std::string(e.name) + " arrow " + dyn::arrowName(x.kind));
            ++compared;
          }
      QVERIFY2(compared == e.kinds * m.N, qPrintable(QString("%1: %2 arrows compared").arg(e.name).arg(compared)));
    }
  }
  QVERIFY(!reference.empty());
}

// A cursor walking to the end and back to the start passes through the states built from scratch.
void TestTraceFormulations::everyStepCanBeUndone() {
  const Model m = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/stanford_arm.dh");
  const TraceInput in = randomInput(m, 6);
  for (const char* name : kFormulations) {
    const AlgorithmTrace t = dyn::traceAlgorithm(m, name, in);
    dyn::TraceCursor cursor(t);
    const int n = int(t.steps.size());
    const auto matches = [&](int k) {
      const dyn::TraceState fresh = dyn::traceState(t, k);
      if (fresh.values.size() != cursor.state().values.size() || fresh.changed != cursor.state().changed) return false;
      for (const auto& [key, term] : fresh.values) {
        const dyn::TraceTerm* o = cursor.state().find(key.first, key.second);
        if (!o || !bitEqual(o->value, term.value)) return false;
      }
      return true;
    };
    for (int k = 1; k <= n; ++k) {
      cursor.seek(k);
      QVERIFY2(matches(k), qPrintable(QString("%1 forward to %2").arg(name).arg(k)));
    }
    for (int k = n - 1; k >= 0; --k) {
      cursor.seek(k);
      QVERIFY2(matches(k), qPrintable(QString("%1 back to %2").arg(name).arg(k)));
    }
  }
}

void TestTraceFormulations::refusedJointsNameTheJoint() {
  using K = dyn::JointKind;
  const Model m = dyn::buildModel(dyn::testing::randomTree(5, 6, {K::Revolute, K::Spherical}, true));
  const TraceInput in = randomInput(m, 1);
  for (const char* name : {"denoc-id", "lagrange-4x4", "denoc-fd"}) {
    try {
      dyn::traceAlgorithm(m, name, in);
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("joint"), e.what());
    }
  }
  // The configuration-space method needs only RNEA: it steps through any model.
  QCOMPARE(int(dyn::traceAlgorithm(m, "configuration-space", in).steps.size()), m.nv + 2);
}

QTEST_APPLESS_MAIN(TestTraceFormulations)
#include "test_trace_formulations.moc"
