// Mimic joints enforced by the null-space method (model/mimic_coupling.hpp), checked against
// references that do not use G's sparse form:
//  * a parallel gripper whose fingers move the same way equals an equivalent model written without a
//    mimic (one prismatic joint carrying both fingers rigidly): H_y, tau_y and ydd to 1e-12;
//  * on a parallel gripper (multiplier -1, offset) and a four-finger hand (chains of mimics):
//    H_y from the kinetic energy by polarization, T(e_i + e_j) - T(e_i) - T(e_j) = H_y(i, j), where
//    T = sum 1/2 v.Iv over the bodies (energy.hpp; no CRBA); and G^T H G with a dense G;
//  * the constraint forces do no work: d(T + V)/dt = yd^T tau_y along the reduced motion (central
//    differences of the energy); ID(FD(tau_y)) = tau_y;
//  * the expanded q satisfies q_m = a q_master + b for every relation to 1e-12, and a chain resolves
//    to its root master with the product of the multipliers;
//  * a cycle of mimics is dropped at load with mimic.dropped at the <mimic> line; the reduced
//    algorithms do not allocate (Eigen's runtime guard and a counting operator new, as in
//    test_no_allocation.cpp).
#define EIGEN_RUNTIME_NO_MALLOC  // must precede every include: Eigen's malloc guard (set_is_malloc_allowed)
#include <atomic>
namespace {
std::atomic<long> eigenMallocs{0};  // eigen_assert failures while the guard is armed: Eigen mallocs
}
// eigen_assert is compiled out by -DNDEBUG: route it to a counter that works in Release.
#define eigen_assert(x)                        \
  do {                                         \
    if (!static_cast<bool>(x)) ++eigenMallocs; \
  } while (false)
#include <QtTest>
#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "dynscope/dynscope.hpp"
#include "dynscope/model/mimic_coupling.hpp"

namespace {
std::atomic<long> allocations{0};
}
void* operator new(std::size_t n) {
  ++allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

std::string dataFile(const char* name) { return std::string(DYNSCOPE_TEST_DATA_DIR) + "/mimic/" + name; }

double maxAbs(const MatrixXd& a) { return a.size() ? a.cwiseAbs().maxCoeff() : 0.0; }

struct Reduced {
  dyn::Model model;
  dyn::MimicCoupling c;
  explicit Reduced(const char* file) : model(dyn::loadModel(dataFile(file))), c(dyn::mimicCoupling(model)) {}
};

VectorXd randomVector(std::mt19937& rng, int n, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

// Kinetic energy at y with velocity yd, from the body velocities (no CRBA).
double kinetic(const Reduced& r, dyn::Data& data, const VectorXd& y, const VectorXd& yd) {
  VectorXd q(r.c.nq), qd(r.c.nv);
  dyn::expandPositions(r.c, y, q);
  dyn::expandVelocities(r.c, yd, qd);
  dyn::computeEnergy(r.model, data, q, qd);
  return data.kinetic;
}
double totalEnergy(const Reduced& r, dyn::Data& data, const VectorXd& y, const VectorXd& yd) {
  kinetic(r, data, y, yd);
  return data.kinetic + data.potential;
}

}  // namespace

class TestMimicCoupling : public QObject {
  Q_OBJECT
 private slots:
  void couplingStructure() {
    const Reduced g("parallel_gripper.urdf");
    QCOMPARE(g.c.nv, 3);
    QCOMPARE(g.c.ny, 2);
    const int right = g.model.joints[g.model.jointIndex("right_finger_joint")].idx_v;
    const int left = g.model.joints[g.model.jointIndex("left_finger_joint")].idx_v;
    QVERIFY(g.c.isFollower(g.model.jointIndex("right_finger_joint")));
    QCOMPARE(g.c.independentDofs[size_t(g.c.column[size_t(right)])], left);
    QCOMPARE(g.c.multiplier[size_t(right)], -1.0);
    // The hand: 13 dofs, the wrist and four proximal joints independent; distal = 0.5 (a q_p) + 0.05.
    const Reduced h("four_finger_hand.urdf");
    QCOMPARE(h.c.nv, 13);
    QCOMPARE(h.c.ny, 5);
    for (int f = 0; f < 4; ++f) {
      const std::string n = "f" + std::to_string(f);
      const int p = h.model.jointIndex(n + "_proximal_joint"), d = h.model.jointIndex(n + "_distal_joint");
      QCOMPARE(h.c.rootMaster[size_t(d)], p);
      const int dq = h.model.joints[size_t(d)].idx_q;
      QVERIFY(std::abs(h.c.qMultiplier[size_t(dq)] - 0.5 * (0.8 + 0.1 * f)) < 1e-15);
      QCOMPARE(h.c.qOffset[size_t(dq)], 0.05);
    }
  }

  // The expanded configuration satisfies every relation of the file.
  void expandedPositionsSatisfyTheRelations() {
    std::mt19937 rng(7);
    for (const char* file : {"parallel_gripper.urdf", "four_finger_hand.urdf", "gripper_same_direction.urdf"}) {
      const Reduced r(file);
      QVERIFY(!r.model.mimics.empty());
      for (int trial = 0; trial < 5; ++trial) {
        const VectorXd y = randomVector(rng, r.c.nqy, 1.0);
        VectorXd q(r.c.nq), y2(r.c.nqy);
        dyn::expandPositions(r.c, y, q);
        for (const dyn::MimicInfo& mi : r.model.mimics) {
          const double qm = q[r.model.joints[size_t(mi.joint)].idx_q];
          const double qs = q[r.model.joints[size_t(mi.mimicked)].idx_q];
          QVERIFY2(std::abs(qm - (mi.multiplier * qs + mi.offset)) < 1e-12, file);
        }
        dyn::selectPositions(r.c, q, y2);
        QCOMPARE((y2 - y).norm(), 0.0);
      }
    }
  }

  // Fingers moving the same way (multiplier 1, offset 0.01) are one prismatic joint carrying both.
  void equalsTheModelWithoutMimic() {
    const Reduced r("gripper_same_direction.urdf");
    const dyn::Model rigid = dyn::loadModel(dataFile("gripper_same_direction_rigid.urdf"));
    QVERIFY(rigid.mimics.empty());
    QCOMPARE(rigid.nv, r.c.ny);
    dyn::Data data(r.model), dataRigid(rigid);
    dyn::MimicData w(r.c);
    std::mt19937 rng(11);
    for (int trial = 0; trial < 10; ++trial) {
      const VectorXd y = randomVector(rng, r.c.nqy, 0.03), yd = randomVector(rng, r.c.ny, 2.0);
      const VectorXd ydd = randomVector(rng, r.c.ny, 5.0), tau = randomVector(rng, r.c.ny, 3.0);
      // The same order of joints: wrist, then the carriage (left finger).
      const MatrixXd H = dyn::crba(rigid, dataRigid, y);
      QVERIFY(maxAbs(dyn::reducedMassMatrix(r.model, data, r.c, w, y) - H) < 1e-12 * (1 + maxAbs(H)));
      const VectorXd tauRigid = dyn::rnea(rigid, dataRigid, y, yd, ydd);
      QVERIFY(maxAbs(dyn::reducedInverseDynamics(r.model, data, r.c, w, y, yd, ydd) - tauRigid) <
              1e-12 * (1 + maxAbs(tauRigid)));
      const VectorXd fdRigid = dyn::forwardDynamicsCrba(rigid, dataRigid, y, yd, tau);
      QVERIFY(maxAbs(dyn::reducedForwardDynamics(r.model, data, r.c, w, y, yd, tau) - fdRigid) <
              1e-10 * (1 + maxAbs(fdRigid)));
    }
  }

  void massMatrixFromKineticEnergy_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("parallel gripper") << "parallel_gripper.urdf";
    QTest::newRow("four-finger hand") << "four_finger_hand.urdf";
  }
  void massMatrixFromKineticEnergy() {
    QFETCH(QString, file);
    const Reduced r(file.toStdString().c_str());
    dyn::Data data(r.model);
    dyn::MimicData w(r.c);
    std::mt19937 rng(3);
    for (int trial = 0; trial < 5; ++trial) {
      const VectorXd y = randomVector(rng, r.c.nqy, 0.5);
      const MatrixXd Hy = dyn::reducedMassMatrix(r.model, data, r.c, w, y);
      // Dense G^T H G.
      const MatrixXd G = r.c.denseG();
      QVERIFY(maxAbs(G.transpose() * data.M * G - Hy) < 1e-13 * (1 + maxAbs(Hy)));
      // Polarization of T = 1/2 yd^T H_y yd.
      MatrixXd Ht(r.c.ny, r.c.ny);
      for (int i = 0; i < r.c.ny; ++i)
        for (int j = 0; j < r.c.ny; ++j) {
          const VectorXd ei = VectorXd::Unit(r.c.ny, i), ej = VectorXd::Unit(r.c.ny, j);
          Ht(i, j) = i == j ? 2 * kinetic(r, data, y, ei)
                            : kinetic(r, data, y, ei + ej) - kinetic(r, data, y, ei) - kinetic(r, data, y, ej);
        }
      QVERIFY2(maxAbs(Ht - Hy) < 1e-12 * (1 + maxAbs(Hy)), qPrintable(QString::number(maxAbs(Ht - Hy))));
      QVERIFY(Hy.llt().info() == Eigen::Success);
    }
  }

  // FD then ID returns tau_y; the power of tau_y is the rate of change of the energy (the constraint
  // forces of the mimic relation do no work).
  void forwardAndInverseDynamics_data() { massMatrixFromKineticEnergy_data(); }
  void forwardAndInverseDynamics() {
    QFETCH(QString, file);
    const Reduced r(file.toStdString().c_str());
    dyn::Data data(r.model);
    dyn::MimicData w(r.c);
    std::mt19937 rng(5);
    for (int trial = 0; trial < 5; ++trial) {
      const VectorXd y = randomVector(rng, r.c.nqy, 0.5), yd = randomVector(rng, r.c.ny, 1.0);
      const VectorXd tau = randomVector(rng, r.c.ny, 0.5);
      const VectorXd ydd = dyn::reducedForwardDynamics(r.model, data, r.c, w, y, yd, tau);
      QVERIFY(ydd.allFinite());
      const VectorXd back = dyn::reducedInverseDynamics(r.model, data, r.c, w, y, yd, ydd);
      QVERIFY2(maxAbs(back - tau) < 1e-10 * (1 + maxAbs(tau)), qPrintable(QString::number(maxAbs(back - tau))));
      // Also with a full-coordinate tau reduced by G^T.
      const VectorXd tauFull = randomVector(rng, r.c.nv, 0.5);
      VectorXd tauY(r.c.ny);
      dyn::reduceForces(r.c, tauFull, tauY);
      QVERIFY(maxAbs(tauY - r.c.denseG().transpose() * tauFull) < 1e-15);
      // d(T + V)/dt = yd^T tau_y, by central differences along y(t) = y + yd t + ydd t^2 / 2.
      const double h = 1e-5;
      const double Ep = totalEnergy(r, data, y + yd * h + 0.5 * h * h * ydd, yd + ydd * h);
      const double Em = totalEnergy(r, data, y - yd * h + 0.5 * h * h * ydd, yd - ydd * h);
      const double power = yd.dot(tau);
      QVERIFY2(std::abs((Ep - Em) / (2 * h) - power) < 1e-7 * (1 + std::abs(power)),
               qPrintable(QString("%1 vs %2").arg((Ep - Em) / (2 * h)).arg(power)));
    }
  }

  void cycleIsDroppedAtLoad() {
    const dyn::Model m = dyn::loadModel(dataFile("mimic_cycle.urdf"));
    QCOMPARE(int(m.mimics.size()), 1);
    const auto f = std::find_if(m.findings.begin(), m.findings.end(),
                                [](const dyn::Finding& x) { return x.code == "mimic.dropped"; });
    QVERIFY(f != m.findings.end());
    QCOMPARE(f->joint, std::string("k"));
    QCOMPARE(f->line, 19);
    QVERIFY2(f->message.find("cycle") != std::string::npos, f->message.c_str());
    const dyn::MimicCoupling c = dyn::mimicCoupling(m);
    QCOMPARE(c.ny, 1);
    // The kept relation is reported as enforced.
    QVERIFY(std::any_of(m.findings.begin(), m.findings.end(), [](const dyn::Finding& x) {
      return x.code == "mimic.enforced" && x.severity == dyn::Severity::Info && x.joint == "j";
    }));
  }

  void reducedAlgorithmsDoNotAllocate() {
    const Reduced r("four_finger_hand.urdf");
    dyn::Data data(r.model);
    data.reserveMassMatrix();
    dyn::MimicData w(r.c);
    const VectorXd y = VectorXd::Constant(r.c.nqy, 0.2), yd = VectorXd::Constant(r.c.ny, 0.3);
    const VectorXd tau = VectorXd::Constant(r.c.ny, 0.1);
    const long before = allocations.load(), eigenBefore = eigenMallocs.load();
    Eigen::internal::set_is_malloc_allowed(false);
    dyn::reducedForwardDynamics(r.model, data, r.c, w, y, yd, tau);
    dyn::reducedInverseDynamics(r.model, data, r.c, w, y, yd, w.ydd);
    dyn::reducedMassMatrix(r.model, data, r.c, w, y);
    const long eigenDuring = eigenMallocs.load() - eigenBefore;
    // The guard can fail: an Eigen allocation in the region is counted.
    {
      VectorXd grown(r.c.nv + 5);
      grown.setZero();
      QVERIFY(grown.size() > 0);
    }
    Eigen::internal::set_is_malloc_allowed(true);
    QCOMPARE(eigenDuring, 0L);
    QVERIFY(eigenMallocs.load() - eigenBefore > 0);
    QCOMPARE(allocations.load() - before, 0L);
    const long mark = allocations.load();
    std::vector<int> grownVector(5);  // the counting operator new can fail too
    QVERIFY(allocations.load() > mark && !grownVector.empty());
  }
};

QTEST_GUILESS_MAIN(TestMimicCoupling)
#include "test_mimic_coupling.moc"
