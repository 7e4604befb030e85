// Saha's demonstration trajectories (analytic values of the cycloid), batch inverse dynamics along
// a trajectory against direct engine calls and independent identities (CRBA for M q̈, ½ q̇ᵀ M q̇ for
// the kinetic energy, dE/dt = Σ τ q̇), threads, progress and cancellation, payloads (m g L on a
// pendulum) and the effort-limit check.
#include <QtTest>
#include <atomic>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/trajectory.hpp"

using dyn::Model;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

constexpr double kPi = std::numbers::pi;

Model robot(const char* file, bool floating = false) {
  return dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file, {.floatingBase = floating});
}

// A one-link pendulum: revolute about the URDF y axis (the builder turns it onto the body z axis,
// so the link frame and the body frame differ), a link of mass 2 with its COM at x = 0.3.
Model pendulum() {
  const char* urdf = R"(<robot name="pendulum">
  <link name="base"/>
  <link name="arm"><inertial><mass value="2"/><origin xyz="0.3 0 0"/>
    <inertia ixx="0.01" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tip"/>
  <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/><origin xyz="0 0 1" rpy="0 0 0"/>
    <axis xyz="0 1 0"/></joint>
  <joint name="tip_joint" type="fixed"><parent link="arm"/><child link="tip"/><origin xyz="0.8 0 0"/></joint>
</robot>)";
  return dyn::buildModel(dyn::parseUrdfString(urdf, "pendulum.urdf"));
}

}  // namespace

class TestTrajectoryDynamics : public QObject {
  Q_OBJECT

 private slots:
  // Saha eq. 39 at t = 0, T/2, T: the end values, the midpoint, q̇ = q̈ = 0 at both ends; the peak
  // velocity 2Δ/T at T/2; and the whole sampled q̇ against the closed form Δ/T (1 - cos 2πt/T).
  void sahaCycloid() {
    struct Case {
      const char* file;
      dyn::DemoTrajectory demo;
      std::vector<double> start, end;
    };
    const double deg = kPi / 180;
    const std::vector<Case> cases = {
        {"stanford_arm.dh",
         dyn::DemoTrajectory::SahaStanford,
         {0, 90 * deg, 0, 0, 0, 0},
         {60 * deg, 60 * deg, 0.1, 60 * deg, 60 * deg, 60 * deg}},
        {"planar3.dh", dyn::DemoTrajectory::SahaPlanar3, {0, 0, 0}, {kPi, kPi, kPi}},
    };
    for (const Case& c : cases) {
      const Model m = robot(c.file);
      const dyn::SampledTrajectory s = dyn::demoTrajectory(m, c.demo, 100);
      const double T = 10;
      QCOMPARE(s.samples(), 1001);
      QCOMPARE(s.t[500], 5.0);
      QCOMPARE(s.t[1000], T);
      s.validate(m);
      for (int j = 0; j < m.nv; ++j) {
        const double d = c.end[j] - c.start[j];
        QCOMPARE(s.q(j, 0), c.start[j]);
        QVERIFY(std::abs(s.q(j, 1000) - c.end[j]) < 1e-15);
        QVERIFY(std::abs(s.q(j, 500) - 0.5 * (c.start[j] + c.end[j])) < 1e-15);
        for (int k : {0, 1000}) {
          QVERIFY(std::abs(s.qd(j, k)) < 1e-15);
          QVERIFY(std::abs(s.qdd(j, k)) < 1e-15);
        }
        QVERIFY(std::abs(s.qd(j, 500) - 2 * d / T) < 1e-15);
        QVERIFY(std::abs(s.qdd(j, 500)) < 1e-14);
        for (int k = 0; k <= 1000; k += 37) {
          const double t = s.t[k];
          QVERIFY(std::abs(s.qd(j, k) - d / T * (1 - std::cos(2 * kPi * t / T))) < 1e-14);
          QVERIFY(std::abs(s.qdd(j, k) - d / T * (2 * kPi / T) * std::sin(2 * kPi * t / T)) < 1e-14);
        }
      }
    }
    QCOMPARE(dyn::demoTrajectoryByName("saha-planar3"), std::optional(dyn::DemoTrajectory::SahaPlanar3));
    QVERIFY(!dyn::demoTrajectoryByName("saha"));
  }

  void demoNeedsTheRightArm() {
    for (const auto& [file, demo, fragment] :
         {std::tuple{"ur5.urdf", dyn::DemoTrajectory::SahaStanford, "joint 3"},
          std::tuple{"stanford_arm.dh", dyn::DemoTrajectory::SahaPlanar3, "3-joint"},
          std::tuple{"planar3.dh", dyn::DemoTrajectory::SahaStanford, "6-joint"}}) {
      try {
        dyn::demoTrajectory(robot(file), demo);
        QFAIL("no exception");
      } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find(fragment) != std::string::npos, e.what());
      }
    }
  }

  // τ along the Stanford-arm demo equals a direct rnea call at every sample; the decomposition sums
  // to τ, g is gravityVector, c + g is nonLinearEffects, M q̈ is CRBA's M times q̈; power and energy.
  void stanfordDemoInverseDynamics() {
    const Model m = robot("stanford_arm.dh");
    const dyn::SampledTrajectory s = dyn::demoTrajectory(m, dyn::DemoTrajectory::SahaStanford, 200);
    const dyn::TrajectoryDynamics r =
        dyn::computeTrajectoryDynamics(m, s, {.decompose = true, .energy = true, .threads = 3});
    QVERIFY(!r.cancelled);
    dyn::Data d(m);
    for (int k = 0; k < s.samples(); ++k) {
      const VectorXd q = s.q.col(k), qd = s.qd.col(k), qdd = s.qdd.col(k);
      const VectorXd tau = dyn::rnea(m, d, q, qd, qdd);
      CHECK_CLOSE(r.tau.col(k), tau, 1e-14, 1 + tau.norm(), "tau vs rnea");  // up to FMA contraction
      CHECK_CLOSE(r.inertial.col(k) + r.coriolis.col(k) + r.gravity.col(k), tau, 1e-12, 1 + tau.norm(), "sum");
      CHECK_CLOSE(r.gravity.col(k), dyn::gravityVector(m, d, q), 1e-12, 1.0, "g");
      CHECK_CLOSE(r.coriolis.col(k) + r.gravity.col(k), dyn::nonLinearEffects(m, d, q, qd), 1e-12, 1.0, "c + g");
      const MatrixXd M = dyn::crba(m, d, q);
      CHECK_CLOSE(r.inertial.col(k), M * qdd, 1e-11, 1 + (M * qdd).norm(), "M q̈ vs CRBA");
      CHECK_CLOSE(r.power.col(k), tau.cwiseProduct(qd), 1e-15, 1 + tau.norm(), "power");
      QVERIFY(std::abs(r.kinetic[k] - 0.5 * qd.dot(M * qd)) < 1e-12 * (1 + r.kinetic[k]));
      dyn::computeEnergy(m, d, q, qd);
      QCOMPARE(r.potential[k], d.potential);
      QCOMPARE(r.total[k], r.kinetic[k] + r.potential[k]);
    }
    // Work-energy: with no friction, d(T + V)/dt = Σ τ_i q̇_i (central differences in time).
    for (int k = 1; k + 1 < s.samples(); ++k) {
      const double dEdt = (r.total[k + 1] - r.total[k - 1]) / (s.t[k + 1] - s.t[k - 1]);
      const double P = r.power.col(k).sum();
      QVERIFY2(std::abs(dEdt - P) < 1e-3 * (1 + std::abs(P)),
               qPrintable(QString("sample %1: dE/dt %2, power %3").arg(k).arg(dEdt).arg(P)));
    }
  }

  // One thread or several: the same numbers, on a floating-base humanoid.
  void threadsGiveTheSameResult() {
    const Model m = robot("humanoid.urdf", true);
    std::mt19937 rng(3);
    std::vector<dyn::Waypoint> w;
    for (double t : {0.0, 0.4, 1.0}) w.push_back({t, dyn::randomConfiguration(m, rng)});
    const dyn::SampledTrajectory s = dyn::WaypointTrajectory(m, w, dyn::Interpolation::CubicSpline).sample(500);
    const auto one = dyn::computeTrajectoryDynamics(m, s, {.decompose = true, .threads = 1});
    const auto three = dyn::computeTrajectoryDynamics(m, s, {.decompose = true, .threads = 3});
    QVERIFY(one.tau == three.tau && one.inertial == three.inertial && one.kinetic == three.kinetic);
    const auto plain = dyn::computeTrajectoryDynamics(m, s, {.energy = false});
    QVERIFY(plain.tau == one.tau);
    QCOMPARE(plain.inertial.size(), Eigen::Index(0));
    QCOMPARE(plain.kinetic.size(), Eigen::Index(0));
  }

  // tauGiven: the decomposition added later keeps the τ it is given (a sentinel τ + 1 proves it
  // is not recomputed) and splits it, M q̈ = τ - (c + g); with the real τ it equals a full run.
  void decompositionReusesTau() {
    const Model m = robot("panda.urdf");
    std::mt19937 rng(7);
    std::vector<dyn::Waypoint> w;
    for (double t : {0.0, 0.5, 1.0}) w.push_back({t, dyn::randomConfiguration(m, rng)});
    const dyn::SampledTrajectory s = dyn::WaypointTrajectory(m, w, dyn::Interpolation::CubicSpline).sample(200);
    const auto full = dyn::computeTrajectoryDynamics(m, s, {.decompose = true});
    dyn::TrajectoryDynamics later = dyn::computeTrajectoryDynamics(m, s, {.energy = false});
    dyn::TrajectoryDynamicsOptions details{.decompose = true};
    details.tauGiven = true;
    dyn::computeTrajectoryDynamics(m, s, details, later);
    QVERIFY(later.tau == full.tau && later.gravity == full.gravity && later.coriolis == full.coriolis);
    QVERIFY(later.inertial == full.inertial && later.kinetic == full.kinetic);
    dyn::TrajectoryDynamics sentinel;
    sentinel.tau = full.tau.array() + 1.0;
    dyn::computeTrajectoryDynamics(m, s, details, sentinel);
    QVERIFY(sentinel.tau == Eigen::MatrixXd(full.tau.array() + 1.0));
    QVERIFY(((sentinel.inertial - full.inertial).array() - 1.0).abs().maxCoeff() < 1e-9);  // split of τ + 1
    dyn::TrajectoryDynamics wrong;
    wrong.tau = Eigen::MatrixXd::Zero(m.nv, 3);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::computeTrajectoryDynamics(m, s, details, wrong));
  }

  void progressAndCancellation() {
    const Model m = robot("planar3.dh");
    const dyn::SampledTrajectory s = dyn::demoTrajectory(m, dyn::DemoTrajectory::SahaPlanar3, 1000);  // 10001
    std::vector<double> seen;
    dyn::TrajectoryDynamicsOptions opt;
    opt.progress = [&](double f) { seen.push_back(f); };
    const auto r = dyn::computeTrajectoryDynamics(m, s, opt);
    QVERIFY(!r.cancelled);
    QVERIFY(seen.size() >= 2);
    for (size_t i = 1; i < seen.size(); ++i) QVERIFY(seen[i] >= seen[i - 1]);
    QCOMPARE(seen.back(), 1.0);

    std::atomic<bool> cancel{false};
    opt.cancel = &cancel;
    opt.threads = 1;
    opt.progress = [&](double) { cancel = true; };  // cancel after the first chunk
    QVERIFY(dyn::computeTrajectoryDynamics(m, s, opt).cancelled);

    dyn::SampledTrajectory bad = s;
    bad.qd.conservativeResize(2, Eigen::NoChange);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::computeTrajectoryDynamics(m, bad));
  }

  // A point mass m at the pendulum's tip (0.8 m from the hinge) adds exactly m g L to the static
  // torque with the arm horizontal, and nothing with the arm hanging down.
  void payloadOnAPendulum() {
    const Model m = pendulum();
    const double mass = 1.7, L = 0.8, g = 9.81;
    const Model loaded = dyn::withPayload(m, {.link = "tip", .mass = mass});
    QCOMPARE(loaded.totalMass(), m.totalMass() + mass);
    dyn::Data d0(m), d1(loaded);
    const VectorXd zero = VectorXd::Zero(1);
    auto tau = [&](const Model& model, dyn::Data& d, double q) {
      return dyn::rnea(model, d, VectorXd::Constant(1, q), zero, zero)[0];
    };
    // Horizontal arm (q = 0): holding a weight mg at x = L about +y needs -mgL.
    QVERIFY(std::abs(tau(loaded, d1, 0) - tau(m, d0, 0) - (-mass * g * L)) < 1e-12);
    // Hanging (the tip rotated about +y by pi/2 goes to z = -L): no lever arm.
    QVERIFY(std::abs(tau(loaded, d1, kPi / 2) - tau(m, d0, kPi / 2)) < 1e-12);
    // An offset in the link frame: 0.2 m further along the arm.
    const Model further = dyn::withPayload(m, {.link = "arm", .mass = mass, .com = Eigen::Vector3d(L + 0.2, 0, 0)});
    dyn::Data d2(further);
    QVERIFY(std::abs(tau(further, d2, 0) - tau(m, d0, 0) - (-mass * g * (L + 0.2))) < 1e-12);
    // An offset along the hinge axis (link y) changes no torque about it.
    const Model sideways = dyn::withPayload(m, {.link = "arm", .mass = mass, .com = Eigen::Vector3d(0, 0.5, 0)});
    dyn::Data d3(sideways);
    QVERIFY(std::abs(tau(sideways, d3, 0.3) - tau(m, d0, 0.3)) < 1e-12);

    for (const auto& [p, fragment] : {std::pair{dyn::Payload{.link = "hand", .mass = 1}, "no link 'hand'"},
                                      std::pair{dyn::Payload{.link = "tip", .mass = -1}, "mass"},
                                      std::pair{dyn::Payload{.link = "tip", .mass = std::nan("")}, "mass"},
                                      std::pair{dyn::Payload{.link = "base", .mass = 1}, "fixed to the base"}}) {
      try {
        dyn::withPayload(m, p);
        QFAIL("no exception");
      } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find(fragment) != std::string::npos, e.what());
      }
    }
  }

  void effortLimits() {
    const Model m = robot("stanford_arm.dh");  // efforts 100 100 200 20 20 10
    MatrixXd tau = MatrixXd::Zero(6, 4);
    tau(0, 1) = 100.5;
    tau(0, 2) = -101;
    tau(2, 3) = 199;
    tau(5, 0) = -10.01;
    tau(5, 3) = 10;  // at the limit: allowed
    const dyn::EffortLimitViolations v = dyn::effortLimitViolations(m, tau);
    QCOMPARE(v.samples[0], std::vector<int>({1, 2}));
    QVERIFY(v.samples[2].empty());
    QCOMPARE(v.samples[5], std::vector<int>({0}));
    QCOMPARE(v.count(), 3);
    // planar3 has no effort limits.
    QCOMPARE(dyn::effortLimitViolations(robot("planar3.dh"), MatrixXd::Constant(3, 5, 1e6)).count(), 0);
  }
};

QTEST_GUILESS_MAIN(TestTrajectoryDynamics)
#include "test_trajectory_dynamics.moc"
