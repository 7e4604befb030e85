// Forward-dynamics simulation against physics: energy conservation (symplectic Euler bounded over
// 100 s, RK4 drift), the pendulum's small-angle period (closed form), ABA and CRBA + Cholesky giving
// the same run, the adaptive Dormand-Prince step against RK4 at tiny steps, and dissipation by
// damping and friction against the integrated power.
#include <QtTest>
#include <cmath>
#include <numbers>
#include <random>
#include <sstream>
#include <string>

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/io/mjcf_parser.hpp"
#include "test_vectors.hpp"

namespace {

using dyn::testing::vec;

constexpr double kG = 9.81;

// A chain of `links` equal links hanging along -z, revolute about y: mass m at distance l below
// each joint, central inertia ic about every axis. Limits and dynamics optional.
std::string pendulumUrdf(int links, double m, double l, double ic, double damping = 0, double friction = 0) {
  std::ostringstream s;
  s << "<robot name='pendulum'><link name='base'/>";
  for (int k = 1; k <= links; ++k) {
    s << "<joint name='joint" << k << "' type='continuous'><parent link='"
      << (k == 1 ? "base" : "link" + std::to_string(k - 1)) << "'/><child link='link" << k << "'/><origin xyz='0 0 "
      << (k == 1 ? 0.0 : -l) << "'/><axis xyz='0 1 0'/>"
      << "<dynamics damping='" << damping << "' friction='" << friction << "'/></joint>"
      << "<link name='link" << k << "'><inertial><origin xyz='0 0 " << -l << "'/><mass value='" << m
      << "'/><inertia ixx='" << ic << "' iyy='" << ic << "' izz='" << ic
      << "' ixy='0' ixz='0' iyz='0'/></inertial></link>";
  }
  s << "</robot>";
  return s.str();
}

dyn::Model pendulum(int links, double m = 1, double l = 0.5, double ic = 0.01, double damping = 0,
                    double friction = 0) {
  return dyn::buildModel(dyn::parseUrdfString(pendulumUrdf(links, m, l, ic, damping, friction)));
}

dyn::Model robot(const char* file) { return dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file); }

dyn::SimulationSettings settings(dyn::Integrator integrator, double dt) {
  dyn::SimulationSettings s;
  s.integrator = integrator;
  s.dt = dt;
  return s;
}

Eigen::VectorXd energies(const dyn::SimulationRecord& r) {
  return Eigen::Map<const Eigen::VectorXd>(r.energy.data(), r.energy.size());
}

}  // namespace

class TestSimulation : public QObject {
  Q_OBJECT

 private slots:
  // Symplectic Euler: the energy error oscillates with an O(h) amplitude but does not grow.
  void symplecticEulerKeepsEnergyBounded() {
    const dyn::Model model = pendulum(2);
    double previous = 0;
    for (double h : {1e-3, 5e-4}) {
      dyn::SimulationSettings s = settings(dyn::Integrator::SemiImplicitEuler, h);
      s.recordEvery = int(std::lround(0.01 / h));
      dyn::Simulator sim(model, s);
      sim.reset(vec({1.0, 0.5}), vec({0, 0}));
      QCOMPARE(sim.advance(100.0), dyn::SimulationStatus::Ok);
      const dyn::SimulationRecord& r = sim.record();
      QCOMPARE(r.samples(), 10001);
      QVERIFY(std::abs(r.t.back() - 100.0) < 1e-9);
      // Bounded: a first-order method's energy error is O(h omega) with omega ~ 5 rad/s; allow 1e-2.
      const double all = r.maxRelativeEnergyDrift();
      QVERIFY2(all < 1e-2, qPrintable(QString("h %1: %2").arg(h).arg(all)));
      // No secular drift: the second 50 s do not exceed the first (a drift linear in t doubles).
      double firstHalf = 0, secondHalf = 0;
      for (int k = 0; k < r.samples(); ++k)
        (k < r.samples() / 2 ? firstHalf : secondHalf) =
            std::max(k < r.samples() / 2 ? firstHalf : secondHalf, std::abs(r.relativeEnergyDrift(k)));
      QVERIFY2(secondHalf < 1.5 * firstHalf,
               qPrintable(QString("h %1: %2 then %3").arg(h).arg(firstHalf).arg(secondHalf)));
      // The oscillation is the method's O(h) error: halving h about halves it.
      if (previous > 0) QVERIFY2(all < 0.7 * previous, qPrintable(QString("%1 after %2").arg(all).arg(previous)));
      previous = all;
    }
  }

  // Armature (rotor inertia) is kinetic energy: T = 1/2 qd^T H qd with H from CRBA (armature on its
  // diagonal), and a pendulum with armature conserves T + V in simulation as one without does.
  void armatureIsKineticEnergy() {
    const dyn::Model model = dyn::loadModel(std::string(DYNSCOPE_TEST_DATA_DIR) + "/mjcf/armature.xml");
    QVERIFY(model.armature.size() == model.nv && model.armature.maxCoeff() > 0);
    dyn::Data data(model);
    std::mt19937 rng(5);
    std::normal_distribution<double> N(0, 1);
    for (int s = 0; s < 10; ++s) {
      Eigen::VectorXd q(model.nq), qd(model.nv);
      for (int k = 0; k < model.nq; ++k) q[k] = N(rng);
      for (int k = 0; k < model.nv; ++k) qd[k] = N(rng);
      const Eigen::MatrixXd H = dyn::crba(model, data, q);
      const double T = 0.5 * qd.dot(H * qd);
      dyn::computeEnergy(model, data, q, qd);
      QVERIFY2(std::abs(data.kinetic - T) < 1e-12 * (1 + T), qPrintable(QString("%1 vs %2").arg(data.kinetic).arg(T)));
    }
    // A one-link pendulum with armature 0.5 (the MJCF of the issue): RK4 drift below 1e-6 over 10 s.
    const dyn::Model p = dyn::buildModel(dyn::parseMjcfString(R"(<mujoco><worldbody><body pos="0 0 1">
<joint axis="0 1 0" armature="0.5"/><inertial pos="0 0 -0.5" mass="1" diaginertia="0.01 0.01 0.01"/>
</body></worldbody></mujoco>)",
                                                              "armature_pendulum.xml"));
    dyn::Simulator sim(p, settings(dyn::Integrator::Rk4, 1e-3));
    sim.reset(vec({1.2}), vec({0.0}));
    QCOMPARE(sim.advance(10.0), dyn::SimulationStatus::Ok);
    QVERIFY2(sim.record().maxRelativeEnergyDrift() < 1e-6,
             qPrintable(QString::number(sim.record().maxRelativeEnergyDrift())));
    // Symplectic Euler too: bounded to its O(h) oscillation.
    dyn::SimulationSettings se = settings(dyn::Integrator::SemiImplicitEuler, 1e-3);
    dyn::Simulator euler(p, se);
    euler.reset(vec({1.2}), vec({0.0}));
    QCOMPARE(euler.advance(10.0), dyn::SimulationStatus::Ok);
    QVERIFY2(euler.record().maxRelativeEnergyDrift() < 1e-2,
             qPrintable(QString::number(euler.record().maxRelativeEnergyDrift())));
  }

  // Joint springs (MJCF stiffness, springref): a mass on a slide spring and a body on a hinge spring,
  // without gravity, oscillate about springref as x(t) = ref + (x0 - ref) cos(w t), w = sqrt(k / m)
  // (m with the armature; the body's inertia about the hinge axis), and keep T + V (the spring's
  // 1/2 k (q - ref)^2 counted) constant.
  void springOscillatesAboutSpringref() {
    const dyn::Model model = dyn::buildModel(dyn::parseMjcfString(R"(<mujoco>
<option gravity="0 0 -9.81"><flag gravity="disable"/></option>
<worldbody>
  <body name="cart"><joint name="slide" type="slide" axis="1 0 0" stiffness="40" springref="0.3" armature="0.5"/>
    <inertial pos="0 0 0" mass="2" diaginertia="0.1 0.1 0.1"/></body>
  <body name="wheel" pos="0 1 0"><joint name="hinge" axis="0 0 1" stiffness="3" springref="-20" ref="10"/>
    <inertial pos="0 0 0" mass="1" diaginertia="0.2 0.2 0.12"/></body>
</worldbody></mujoco>)",
                                                                  "springs.xml"));
    QCOMPARE(model.stiffness.size(), Eigen::Index(model.nv));
    const double ws = std::sqrt(40 / 2.5), wh = std::sqrt(3 / 0.12), refh = -20 * std::numbers::pi / 180;
    const int is = model.joints[size_t(model.jointIndex("slide"))].idx_q;
    const int ih = model.joints[size_t(model.jointIndex("hinge"))].idx_q;
    Eigen::VectorXd q0(2);
    q0[is] = 0.5;
    q0[ih] = 0.4;
    // The potential energy of the springs at rest: 1/2 k (q - ref)^2 each.
    dyn::Data data(model);
    dyn::computeEnergy(model, data, q0, Eigen::VectorXd::Zero(2));
    const double V0 = 0.5 * 40 * 0.2 * 0.2 + 0.5 * 3 * (0.4 - refh) * (0.4 - refh);
    QVERIFY2(std::abs(data.potential - V0) < 1e-12, qPrintable(QString("%1 vs %2").arg(data.potential).arg(V0)));
    dyn::SimulationSettings st = settings(dyn::Integrator::Rk4, 1e-3);
    dyn::Simulator sim(model, st);
    sim.reset(q0, Eigen::VectorXd::Zero(2));
    QCOMPARE(sim.advance(3.0), dyn::SimulationStatus::Ok);
    const dyn::SimulationRecord& r = sim.record();
    double worst = 0;
    for (int k = 0; k < r.samples(); ++k) {
      const double t = r.t[size_t(k)];
      worst = std::max(worst, std::abs(r.q[size_t(2 * k + is)] - (0.3 + 0.2 * std::cos(ws * t))));
      worst = std::max(worst, std::abs(r.q[size_t(2 * k + ih)] - (refh + (0.4 - refh) * std::cos(wh * t))));
    }
    QVERIFY2(worst < 1e-7, qPrintable(QString::number(worst)));
    QVERIFY2(r.maxRelativeEnergyDrift() < 1e-7, qPrintable(QString::number(r.maxRelativeEnergyDrift())));
  }

  void rk4DriftIsBelow1e6Over10s() {
    dyn::Simulator sim(pendulum(2), settings(dyn::Integrator::Rk4, 1e-3));
    sim.reset(vec({1.0, 0.5}), vec({0, 0}));
    QCOMPARE(sim.advance(10.0), dyn::SimulationStatus::Ok);
    QVERIFY2(sim.record().maxRelativeEnergyDrift() < 1e-6,
             qPrintable(QString::number(sim.record().maxRelativeEnergyDrift())));
    QCOMPARE(sim.stats().evaluations, 1 + 4 * 10000L);  // the initial state, then 4 per step
  }

  // T = 2 pi sqrt(I / (m g l)), I about the pivot; the amplitude correction at 0.01 rad is 6e-6.
  void smallAnglePeriodMatchesClosedForm() {
    const double m = 2, l = 0.7, ic = 0.05;
    const double period = 2 * M_PI * std::sqrt((ic + m * l * l) / (m * kG * l));
    dyn::Simulator sim(pendulum(1, m, l, ic), settings(dyn::Integrator::Rk4, 1e-3));
    sim.reset(vec({0.01}), vec({0}));
    sim.advance(10.0);
    const dyn::SimulationRecord& r = sim.record();
    std::vector<double> crossings;  // upward zero crossings, linearly interpolated
    for (int k = 1; k < r.samples(); ++k)
      if (r.q[k - 1] < 0 && r.q[k] >= 0)
        crossings.push_back(r.t[k - 1] + (r.t[k] - r.t[k - 1]) * (-r.q[k - 1]) / (r.q[k] - r.q[k - 1]));
    QVERIFY(crossings.size() >= 5);
    const double measured = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
    QVERIFY2(std::abs(measured - period) < 1e-4 * period, qPrintable(QString("%1 vs %2").arg(measured).arg(period)));
  }

  // The two forward-dynamics algorithms give the same run; compare records their difference.
  void abaAndCrbaGiveTheSameRun() {
    const dyn::Model model = robot("panda.urdf");
    std::mt19937 rng(7);
    const Eigen::VectorXd q0 = dyn::randomConfiguration(model, rng);
    const Eigen::VectorXd qd0 = 0.5 * Eigen::VectorXd::Random(model.nv);
    dyn::SimulationSettings s = settings(dyn::Integrator::Rk4, 1e-3);
    dyn::Simulator aba(model, s);
    s.algorithm = dyn::ForwardAlgorithm::Crba;
    s.compare = true;
    dyn::Simulator crba(model, s);
    aba.reset(q0, qd0);
    crba.reset(q0, qd0);
    QCOMPARE(aba.advance(1.0), dyn::SimulationStatus::Ok);
    QCOMPARE(crba.advance(1.0), dyn::SimulationStatus::Ok);
    const dyn::SampledTrajectory a = aba.record().trajectory(), c = crba.record().trajectory();
    CHECK_CLOSE(a.q, c.q, 1e-9, 1.0, "q");
    CHECK_CLOSE(a.qd, c.qd, 1e-9, 1.0, "qd");
    CHECK_CLOSE(a.qdd, c.qdd, 1e-9, 1.0 + a.qdd.cwiseAbs().maxCoeff(), "qdd");
    QCOMPARE(int(crba.record().fdDifference.size()), crba.record().samples());
    QVERIFY(crba.record().maxFdDifference() < 1e-9 * (1.0 + a.qdd.cwiseAbs().maxCoeff()));
    QVERIFY(aba.record().fdDifference.empty());
  }

  // Dormand-Prince's global error against RK4 at h = 1e-4 (error ~1e-14) stays within a small
  // multiple of the per-step tolerance, and shrinks with it.
  void dormandPrinceMeetsItsTolerance() {
    const dyn::Model model = pendulum(2);
    dyn::Simulator reference(model, settings(dyn::Integrator::Rk4, 1e-4));
    reference.reset(vec({1.0, 0.5}), vec({0, 0}));
    reference.advance(1.0);
    double previousError = 1;
    for (double tol : {1e-5, 1e-7, 1e-9}) {
      dyn::SimulationSettings s = settings(dyn::Integrator::DormandPrince45, 0.1);
      s.tolerance = tol;
      dyn::Simulator sim(model, s);
      sim.reset(vec({1.0, 0.5}), vec({0, 0}));
      QCOMPARE(sim.advance(1.0), dyn::SimulationStatus::Ok);
      QCOMPARE(sim.record().samples(), 11);  // one sample per interval dt
      QVERIFY(std::abs(sim.time() - reference.time()) < 1e-12);
      const double error = std::max((sim.q() - reference.q()).cwiseAbs().maxCoeff(),
                                    (sim.qd() - reference.qd()).cwiseAbs().maxCoeff() / 10);
      QVERIFY2(error < 10 * tol, qPrintable(QString("tol %1: error %2").arg(tol).arg(error)));
      QVERIFY2(error < previousError, qPrintable(QString("tol %1: error %2").arg(tol).arg(error)));
      previousError = error;
      QVERIFY(sim.stats().subSteps >= 10);
      qInfo("tol %g: error %g, %ld steps, %ld rejected", tol, error, sim.stats().subSteps, sim.stats().rejected);
    }
  }

  // Viscous damping: E never increases, and E_0 - E_T is the integrated power b qd^2.
  // recordLimit: the record never reaches the limit, covers the whole run on a grid of
  // dt * 2^k, and every kept sample equals the unthinned run's sample at the same step (the
  // dynamics are not touched). No allocation: test_simulation_allocation.cpp.
  void recordLimitThinsTheRecord() {
    const dyn::Model model = pendulum(2);
    dyn::SimulationSettings s = settings(dyn::Integrator::Rk4, 1e-3);
    dyn::Simulator full(model, s);
    s.recordLimit = 64;
    dyn::Simulator thin(model, s);
    const Eigen::VectorXd q0 = vec({1.0, -0.5}), qd0 = vec({0.0, 0.0});
    full.reset(q0, qd0);
    thin.reset(q0, qd0);
    const int steps = 1000;
    for (int k = 0; k < steps; ++k) {
      full.step();
      thin.step();
    }
    const dyn::SimulationRecord &a = full.record(), &b = thin.record();
    QCOMPARE(a.samples(), steps + 1);
    QVERIFY(b.samples() < s.recordLimit);
    QVERIFY(b.samples() >= s.recordLimit / 2);
    // The smallest power of two that fits 1000 steps into < 64 samples: 1000 / 16 + 1 = 63.
    const long interval = 16;
    QCOMPARE(thin.recordInterval(), interval);
    QCOMPARE(b.t.front(), 0.0);
    QVERIFY(b.t.back() >= 1.0 - interval * 1e-3 - 1e-12);  // the end of the run is there (to one interval)
    for (int k = 0; k < b.samples(); ++k) {
      const int j = int(std::lround(b.t[size_t(k)] / 1e-3));  // the unthinned sample at that step
      QCOMPARE(j, k * int(interval));
      QCOMPARE(a.t[size_t(j)], b.t[size_t(k)]);
      for (int i = 0; i < 2; ++i) {
        QCOMPARE(a.q[size_t(2 * j + i)], b.q[size_t(2 * k + i)]);
        QCOMPARE(a.qd[size_t(2 * j + i)], b.qd[size_t(2 * k + i)]);
        QCOMPARE(a.tau[size_t(2 * j + i)], b.tau[size_t(2 * k + i)]);
      }
      QCOMPARE(a.energy[size_t(j)], b.energy[size_t(k)]);
    }
    s.recordLimit = 1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::Simulator(model, s));
  }

  void dampingDissipatesEnergyMonotonically() {
    const double b = 0.3;
    dyn::Simulator sim(pendulum(1, 1, 0.5, 0.01, b), settings(dyn::Integrator::Rk4, 1e-3));
    sim.reset(vec({1.0}), vec({0}));
    sim.advance(5.0);
    const dyn::SimulationRecord& r = sim.record();
    const Eigen::VectorXd e = energies(r);
    for (int k = 1; k < e.size(); ++k)
      QVERIFY2(e[k] <= e[k - 1] + 1e-12 * std::abs(e[0]), qPrintable(QString("sample %1").arg(k)));
    double dissipated = 0;  // trapezoid rule of b qd^2
    for (int k = 1; k < r.samples(); ++k)
      dissipated += 0.5 * (r.t[k] - r.t[k - 1]) * b * (r.qd[k] * r.qd[k] + r.qd[k - 1] * r.qd[k - 1]);
    QVERIFY(dissipated > 0.1);
    QVERIFY2(std::abs((e[0] - e[e.size() - 1]) - dissipated) < 1e-5 * dissipated,
             qPrintable(QString("%1 vs %2").arg(e[0] - e[e.size() - 1]).arg(dissipated)));
    // The recorded torque is the damping torque itself.
    for (int k = 0; k < r.samples(); ++k) QVERIFY(std::abs(r.tau[k] + b * r.qd[k]) < 1e-12);
  }

  // Smoothed Coulomb friction: tau = -f tanh(qd / eps), dissipating f tanh(qd / eps) qd.
  void frictionDissipatesEnergy() {
    const double f = 0.2;
    dyn::SimulationSettings s = settings(dyn::Integrator::Rk4, 1e-3);
    s.frictionVelocity = 0.05;
    dyn::Simulator sim(pendulum(1, 1, 0.5, 0.01, 0, f), s);
    sim.reset(vec({1.0}), vec({0}));
    sim.advance(3.0);
    const dyn::SimulationRecord& r = sim.record();
    const Eigen::VectorXd e = energies(r);
    double dissipated = 0;
    for (int k = 0; k < r.samples(); ++k) {
      QCOMPARE(r.tau[k], -f * std::tanh(r.qd[k] / 0.05));
      if (k > 0) {
        QVERIFY(e[k] <= e[k - 1] + 1e-12 * std::abs(e[0]));
        dissipated += 0.5 * (r.t[k] - r.t[k - 1]) * (-r.tau[k] * r.qd[k] - r.tau[k - 1] * r.qd[k - 1]);
      }
    }
    QVERIFY(std::abs((e[0] - e[e.size() - 1]) - dissipated) < 1e-4 * dissipated);
  }

  // Switching damping off in the settings restores conservation (the option is honoured).
  void dampingCanBeSwitchedOff() {
    dyn::SimulationSettings s = settings(dyn::Integrator::Rk4, 1e-3);
    s.damping = false;
    dyn::Simulator sim(pendulum(1, 1, 0.5, 0.01, 0.3), s);
    sim.reset(vec({1.0}), vec({0}));
    sim.advance(2.0);
    QVERIFY(sim.record().maxRelativeEnergyDrift() < 1e-8);
  }
};

QTEST_GUILESS_MAIN(TestSimulation)
#include "test_simulation.moc"
