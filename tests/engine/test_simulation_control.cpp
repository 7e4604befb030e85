// Torque sources and run control of the simulator: gravity compensation holds a pose, computed
// torque follows its closed-form error dynamics, PD converges, torque replay interpolates, joint
// limits push back (penetration against the spring's energy bound) and are reported, divergence
// stops cleanly at the last good state, and bad input is a clear exception.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "test_vectors.hpp"

namespace {

using dyn::testing::vec;

constexpr double kG = 9.81;

// Links hanging along -z, revolute about y: mass m at l below each joint, central inertia ic.
// Every joint limited to [lower, upper] when those are finite.
dyn::Model pendulum(int links, double m = 1, double l = 0.5, double ic = 0.01, double lower = -INFINITY,
                    double upper = INFINITY) {
  std::ostringstream s;
  s << "<robot name='pendulum'><link name='base'/>";
  const bool limited = std::isfinite(lower);
  for (int k = 1; k <= links; ++k) {
    s << "<joint name='joint" << k << "' type='" << (limited ? "revolute" : "continuous") << "'><parent link='"
      << (k == 1 ? "base" : "link" + std::to_string(k - 1)) << "'/><child link='link" << k << "'/><origin xyz='0 0 "
      << (k == 1 ? 0.0 : -l) << "'/><axis xyz='0 1 0'/>";
    if (limited) s << "<limit lower='" << lower << "' upper='" << upper << "' effort='100' velocity='100'/>";
    s << "</joint><link name='link" << k << "'><inertial><origin xyz='0 0 " << -l << "'/><mass value='" << m
      << "'/><inertia ixx='" << ic << "' iyy='" << ic << "' izz='" << ic
      << "' ixy='0' ixz='0' iyz='0'/></inertial></link>";
  }
  s << "</robot>";
  return dyn::buildModel(dyn::parseUrdfString(s.str()));
}

dyn::Model robot(const char* file) { return dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file); }

dyn::SimulationSettings rk4(double dt = 1e-3) {
  dyn::SimulationSettings s;
  s.integrator = dyn::Integrator::Rk4;
  s.dt = dt;
  return s;
}

// A trajectory holding q at rest (one sample: held before and after).
dyn::SampledTrajectory setpoint(const Eigen::VectorXd& q) {
  dyn::SampledTrajectory t;
  t.t = vec({0.0});
  t.q = q;
  t.qd = Eigen::VectorXd::Zero(q.size());
  t.qdd = Eigen::VectorXd::Zero(q.size());
  return t;
}

Eigen::VectorXd column(const std::vector<double>& flat, int rows, int k) {
  return Eigen::Map<const Eigen::VectorXd>(flat.data() + size_t(k) * rows, rows);
}

}  // namespace

class TestSimulationControl : public QObject {
  Q_OBJECT

 private slots:
  // g(q) cancels gravity exactly (the model's damping and friction vanish at rest); without it the
  // arm falls, so the check can fail. The applied torque is g(q) (the integrators' stages cancel
  // gravity inside the forward dynamics instead: the same motion, one RNEA per state).
  void gravityCompensationHoldsAPose_data() {
    QTest::addColumn<int>("integrator");
    for (auto integrator : {dyn::Integrator::SemiImplicitEuler, dyn::Integrator::Rk4, dyn::Integrator::DormandPrince45})
      QTest::newRow(dyn::integratorName(integrator)) << int(integrator);
  }
  void gravityCompensationHoldsAPose() {
    QFETCH(int, integrator);
    const dyn::Model model = robot("panda.urdf");
    std::mt19937 rng(3);
    const Eigen::VectorXd q0 = dyn::randomConfiguration(model, rng);
    dyn::SimulationSettings s = rk4();
    s.integrator = dyn::Integrator(integrator);
    dyn::Simulator held(model, s, dyn::GravityCompensation{});
    held.reset(q0, Eigen::VectorXd::Zero(model.nv));
    QCOMPARE(held.advance(2.0), dyn::SimulationStatus::Ok);
    QVERIFY2((held.q() - q0).cwiseAbs().maxCoeff() < 1e-10, qPrintable(QString::number((held.q() - q0).norm())));
    QVERIFY(held.qd().cwiseAbs().maxCoeff() < 1e-10);
    dyn::Data data(model);
    const Eigen::VectorXd g =
        dyn::rnea(model, data, held.q(), Eigen::VectorXd::Zero(model.nv), Eigen::VectorXd::Zero(model.nv));
    QVERIFY((held.tau() - g).cwiseAbs().maxCoeff() < 1e-6);  // plus the damping and friction of qd ~ 0
    Eigen::VectorXd tau, qdd;
    held.evaluate(held.time(), held.q(), held.qd(), tau, qdd);
    QVERIFY((held.tau() - tau).cwiseAbs().maxCoeff() < 1e-9);
    QVERIFY((held.qdd() - qdd).cwiseAbs().maxCoeff() < 1e-9);
    dyn::Simulator falling(model, rk4());
    falling.reset(q0, Eigen::VectorXd::Zero(model.nv));
    falling.advance(0.5);
    QVERIFY((falling.q() - q0).cwiseAbs().maxCoeff() > 1e-2);
  }

  // Computed torque to a setpoint: e'' + kd e' + kp e = 0, critically damped with kp = w^2,
  // kd = 2w: e(t) = e0 (1 + w t) exp(-w t), with gravity and coupling cancelled.
  void computedTorqueFollowsItsErrorDynamics() {
    const dyn::Model model = pendulum(2);
    const double w = 5;
    const Eigen::VectorXd target = vec({0.3, -0.2});
    dyn::PdTracking pd{setpoint(target), Eigen::VectorXd::Constant(2, w * w), Eigen::VectorXd::Constant(2, 2 * w),
                       dyn::PdTracking::Mode::ComputedTorque};
    dyn::Simulator sim(model, rk4(), pd);
    sim.reset(vec({0, 0}), vec({0, 0}));
    QCOMPARE(sim.advance(2.0), dyn::SimulationStatus::Ok);
    const dyn::SimulationRecord& r = sim.record();
    for (int k = 0; k < r.samples(); ++k) {
      const double t = r.t[k];
      const Eigen::VectorXd expected = target * (1 + w * t) * std::exp(-w * t);
      const Eigen::VectorXd e = target - column(r.q, 2, k);
      CHECK_CLOSE(e, expected, 1e-8, 1.0, "tracking error at t = " + std::to_string(t));
    }
  }

  // Computed torque along a moving trajectory (sampled sinusoids): the error decays to the level
  // of the reference's interpolation error.
  void computedTorqueConvergesToAMovingTrajectory() {
    const dyn::Model model = robot("panda.urdf");
    const int n = 3001, nv = model.nv;
    dyn::SampledTrajectory ref;
    ref.t = Eigen::VectorXd::LinSpaced(n, 0, 3);
    ref.q.resize(nv, n), ref.qd.resize(nv, n), ref.qdd.resize(nv, n);
    const Eigen::VectorXd centre = 0.5 * (model.lowerLimit + model.upperLimit);
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < nv; ++i) {
        const double a = 0.3, f = 1 + 0.2 * i, t = ref.t[k];
        ref.q(i, k) = centre[i] + a * std::sin(f * t);
        ref.qd(i, k) = a * f * std::cos(f * t);
        ref.qdd(i, k) = -a * f * f * std::sin(f * t);
      }
    dyn::SimulationSettings s = rk4();
    s.damping = s.friction = false;
    dyn::Simulator sim(model, s,
                       dyn::PdTracking{ref, Eigen::VectorXd::Constant(nv, 100), Eigen::VectorXd::Constant(nv, 20),
                                       dyn::PdTracking::Mode::ComputedTorque});
    sim.reset(centre + Eigen::VectorXd::Constant(nv, 0.1), Eigen::VectorXd::Zero(nv));
    QCOMPARE(sim.advance(3.0), dyn::SimulationStatus::Ok);
    Eigen::VectorXd q(model.nq), qd(nv), qdd(nv);
    ref.interpolate(model, sim.time(), q, qd, qdd);
    QVERIFY2((q - sim.q()).cwiseAbs().maxCoeff() < 1e-5, qPrintable(QString::number((q - sim.q()).norm())));
  }

  // Plain PD without gravity: a setpoint is reached (a stable linear-like system).
  void pdReachesASetpoint() {
    dyn::Model model = pendulum(2);
    model.gravity = dyn::Motion<double>(Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
    const Eigen::VectorXd target = vec({0.8, -0.5});
    dyn::Simulator sim(model, rk4(),
                       dyn::PdTracking{setpoint(target), Eigen::VectorXd::Constant(2, 20),
                                       Eigen::VectorXd::Constant(2, 5), dyn::PdTracking::Mode::Pd});
    sim.reset(vec({0, 0}), vec({0, 0}));
    QCOMPARE(sim.advance(10.0), dyn::SimulationStatus::Ok);
    QVERIFY2((sim.q() - target).cwiseAbs().maxCoeff() < 1e-6, qPrintable(QString::number((sim.q() - target).norm())));
    QCOMPARE(QString(dyn::controllerName(sim.controller())), QString("pd"));
  }

  // Replayed torques are linear between the samples and held outside; a constant replay is the
  // constant-torque controller.
  void torqueReplayInterpolates() {
    const dyn::Model model = pendulum(2);
    dyn::SimulationSettings s = rk4();
    dyn::TorqueReplay replay{vec({0.0, 1.0}), Eigen::MatrixXd(2, 2)};
    replay.tau << 0.0, 2.0, 1.0, -1.0;
    dyn::Simulator sim(model, s, replay);
    sim.reset(vec({0.1, 0.2}), vec({0, 0}));
    sim.advance(1.5);
    const dyn::SimulationRecord& r = sim.record();
    for (int k = 0; k < r.samples(); ++k) {
      const double a = std::min(r.t[k], 1.0);
      QVERIFY(std::abs(r.tau[2 * k] - 2 * a) < 1e-12);
      QVERIFY(std::abs(r.tau[2 * k + 1] - (1 - 2 * a)) < 1e-12);
    }
    dyn::TorqueReplay flat{vec({0.0, 1.0}), Eigen::MatrixXd::Constant(2, 2, 0.7)};
    dyn::Simulator a(model, s, flat), b(model, s, dyn::ConstantTorque{Eigen::VectorXd::Constant(2, 0.7)});
    a.reset(vec({0.1, 0.2}), vec({0, 0}));
    b.reset(vec({0.1, 0.2}), vec({0, 0}));
    a.advance(1.0);
    b.advance(1.0);
    QCOMPARE(a.record().q, b.record().q);
  }

  void torqueCsvIsRead() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("tau.csv").toStdString();
    std::ofstream(path) << "# torques\nt,tau_joint2,tau_joint1,extra\n0,1,2,9\n0.5,3,4,9\n";
    const dyn::TorqueReplay r = dyn::readTorqueCsv(pendulum(2), path);
    QCOMPARE(r.t, vec({0.0, 0.5}));
    QCOMPARE(r.tau(0, 1), 4.0);  // joint1
    QCOMPARE(r.tau(1, 0), 1.0);  // joint2
    std::ofstream(path) << "t,tau_joint1\n0,1\n";
    try {
      dyn::readTorqueCsv(pendulum(2), path);
      QFAIL("a missing torque column was accepted");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("tau_joint2"), e.what());
    }
  }

  // The limit spring stores the kinetic energy at contact: penetration <= v_c sqrt(I / k) (plus the
  // static sag under gravity); the joint comes back and the hit is reported once.
  void limitsPushBackAndAreReported() {
    const double m = 1, l = 0.5, ic = 0.01, I = ic + m * l * l, upper = 0.5, q0 = 0.3, qd0 = 3;
    const dyn::Model model = pendulum(1, m, l, ic, -upper, upper);
    dyn::SimulationSettings s = rk4(1e-4);
    s.limitStiffness = 1e4;
    s.limitDamping = 0;  // a pure spring: the bound is nearly reached
    dyn::Simulator sim(model, s);
    sim.reset(vec({q0}), vec({qd0}));
    QCOMPARE(sim.advance(0.5), dyn::SimulationStatus::Ok);
    const dyn::SimulationRecord& r = sim.record();
    // Contact speed from energy conservation: I (qd0^2 - vc^2) / 2 = m g l (cos q0 - cos upper).
    const double vc = std::sqrt(qd0 * qd0 - 2 * m * kG * l * (std::cos(q0) - std::cos(upper)) / I);
    const double bound = vc * std::sqrt(I / s.limitStiffness) + 2 * m * kG * l / s.limitStiffness;
    double qmax = -1;
    for (double q : r.q) qmax = std::max(qmax, q);
    qInfo("penetration %g, energy bound %g", qmax - upper, bound);
    QVERIFY2(qmax - upper > 0.9 * vc * std::sqrt(I / s.limitStiffness) && qmax - upper < bound,
             qPrintable(QString("%1 > %2").arg(qmax - upper).arg(bound)));
    QVERIFY(sim.q()[0] < upper);      // pushed back
    QVERIFY(!r.limitEvents.empty());  // each entry into a limit once: bouncing between the two alternates
    for (size_t k = 1; k < r.limitEvents.size(); ++k)
      QVERIFY(r.limitEvents[k].upper != r.limitEvents[k - 1].upper && r.limitEvents[k].t > r.limitEvents[k - 1].t);
    const dyn::LimitEvent& e = r.limitEvents[0];
    QCOMPARE(QString::fromStdString(model.jointNames[e.joint]), QString("joint1"));
    QVERIFY(e.upper);
    QCOMPARE(e.limit, upper);
    // The contact time: the swing from q0 to the limit at ~ the mean speed.
    QVERIFY(e.t > (upper - q0) / qd0 && e.t < (upper - q0) / vc);

    s.limitDamping = 100;  // the damper absorbs part of the impact
    dyn::Simulator damped(model, s);
    damped.reset(vec({q0}), vec({qd0}));
    damped.advance(0.5);
    double qmaxDamped = -1;
    for (double q : damped.record().q) qmaxDamped = std::max(qmaxDamped, q);
    QVERIFY(qmaxDamped < upper + 0.5 * (qmax - upper));
    QVERIFY(std::abs(damped.qd()[0]) < std::abs(sim.qd()[0]));

    s.limits = false;  // without the springs the joint passes through (still reported)
    dyn::Simulator free(model, s);
    free.reset(vec({q0}), vec({qd0}));
    free.advance(0.2);
    QVERIFY(free.q()[0] > upper + 0.1);
    QCOMPARE(int(free.record().limitEvents.size()), 1);
  }

  // An absurd time step: the run stops with a message, at a finite state that ends the record.
  // The humanoid falling passively into its joint limits, with every integrator at 1 ms: the
  // light gripper joints would make the default limit springs unstable for the explicit steps
  // (RK4 diverged at 0.7 s); the per-joint cap keeps the run going, and the limits still hold.
  void stiffLimitsOnLightJointsStayStable_data() {
    QTest::addColumn<int>("integrator");
    QTest::newRow("euler") << int(dyn::Integrator::SemiImplicitEuler);
    QTest::newRow("rk4") << int(dyn::Integrator::Rk4);
    QTest::newRow("rk45") << int(dyn::Integrator::DormandPrince45);
  }
  void stiffLimitsOnLightJointsStayStable() {
    QFETCH(int, integrator);
    const dyn::Model m = robot("humanoid.urdf");
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator(integrator);
    s.dt = 1e-3;
    dyn::Simulator sim(m, s);
    Eigen::VectorXd q0 = m.neutral();
    for (int k = 0; k < m.nq; ++k)  // start 0.2 rad inside every upper limit, falling towards it
      if (std::isfinite(m.upperLimit[k]) && std::isfinite(m.lowerLimit[k]))
        q0[k] = m.upperLimit[k] - 0.2 * (m.upperLimit[k] - m.lowerLimit[k]);
    sim.reset(q0, Eigen::VectorXd::Constant(m.nv, 2.0));
    QCOMPARE(sim.advance(2.0), dyn::SimulationStatus::Ok);
    QVERIFY2(sim.lastError().empty(), sim.lastError().c_str());
    QVERIFY(!sim.record().limitEvents.empty());  // it did hit limits
    bool capped = false;
    for (int j = 0; j < int(sim.limitDofs().size()); ++j) {
      QVERIFY(sim.limitStiffness(j) <= s.limitStiffness);
      capped = capped || sim.limitStiffness(j) < s.limitStiffness;
      const int iq = m.joints[m.dofBody[sim.limitDofs()[j]]].idx_q;
      const double range = m.upperLimit[iq] - m.lowerLimit[iq];
      // Pushed back: not more than 10 % of the range beyond either limit.
      QVERIFY(sim.q()[iq] < m.upperLimit[iq] + 0.1 * range && sim.q()[iq] > m.lowerLimit[iq] - 0.1 * range);
    }
    QVERIFY(capped);  // the gripper fingers are light enough to need the cap
  }

  void divergentStepStopsAtTheLastGoodState() {
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::SemiImplicitEuler;
    s.dt = 0.5;
    s.velocityBound = 50;
    dyn::Simulator sim(pendulum(2), s);
    sim.reset(vec({2.5, -2.0}), vec({0, 0}));
    QCOMPARE(sim.advance(100.0), dyn::SimulationStatus::Diverged);
    QVERIFY2(QString::fromStdString(sim.lastError()).contains("diverged at t = "), sim.lastError().c_str());
    // Numbers for people: no binary noise such as "1187.2850183066416" (at most six significant digits).
    QVERIFY2(!QString::fromStdString(sim.lastError()).contains(QRegularExpression("\\d{7}")), sim.lastError().c_str());
    QVERIFY(sim.q().allFinite() && sim.qd().allFinite());
    QVERIFY(sim.qd().cwiseAbs().maxCoeff() <= 50);
    const dyn::SimulationRecord& r = sim.record();
    QCOMPARE(r.t.back(), sim.time());
    QCOMPARE(column(r.q, 2, r.samples() - 1), sim.q());
    const double t = sim.time();
    QCOMPARE(sim.step(), dyn::SimulationStatus::Diverged);  // stays stopped until reset
    QCOMPARE(sim.time(), t);
    sim.reset(vec({0.1, 0}), vec({0, 0}));
    QCOMPARE(sim.status(), dyn::SimulationStatus::Ok);
  }

  // A torque CSV with a huge torque: the first step already explodes; the initial state remains.
  void hugeReplayedTorqueStopsCleanly() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("tau.csv").toStdString();
    std::ofstream(path) << "t,tau_joint1,tau_joint2\n0,1e200,0\n1,1e200,0\n";
    const dyn::Model model = pendulum(2);
    for (auto integrator :
         {dyn::Integrator::SemiImplicitEuler, dyn::Integrator::Rk4, dyn::Integrator::DormandPrince45}) {
      dyn::SimulationSettings s;
      s.integrator = integrator;
      dyn::Simulator sim(model, s, dyn::readTorqueCsv(model, path));
      sim.reset(vec({0.1, 0.2}), vec({0, 0}));
      QCOMPARE(sim.advance(1.0), dyn::SimulationStatus::Diverged);
      QCOMPARE(sim.time(), 0.0);
      QCOMPARE(sim.q(), vec({0.1, 0.2}));
      QCOMPARE(sim.record().samples(), 1);
      QVERIFY(!sim.lastError().empty());
    }
  }

  void badInputIsAClearError() {
    const dyn::Model model = pendulum(2);
    auto message = [](auto&& f) -> QString {
      try {
        f();
      } catch (const std::invalid_argument& e) {
        return e.what();
      }
      return "no exception";
    };
    dyn::SimulationSettings s;
    s.dt = 0;
    QVERIFY(message([&] { dyn::Simulator(model, s); }).contains("dt"));
    s.dt = 1e-3;
    s.tolerance = NAN;
    QVERIFY(message([&] { dyn::Simulator(model, s); }).contains("tolerance"));
    QVERIFY(message([&] { dyn::Simulator(model, {}, dyn::ConstantTorque{vec({1})}); }).contains("constant torque"));
    QVERIFY(message([&] {
              dyn::Simulator(model, {}, dyn::PdTracking{setpoint(vec({0, 0})), vec({1, 1}), vec({1}), {}});
            }).contains("kd"));
    dyn::Simulator sim(model);
    QVERIFY(message([&] { sim.reset(vec({0}), vec({0, 0})); }).contains("q0"));
    QVERIFY(message([&] { sim.reset(vec({0, NAN}), vec({0, 0})); }).contains("q0"));
    QVERIFY(message([&] { sim.advance(-1); }).contains("duration"));
    QCOMPARE(dyn::integratorByName("rk45"), std::optional(dyn::Integrator::DormandPrince45));
    QVERIFY(!dyn::integratorByName("rk5"));
  }

  // Floating base: quaternions are normalised on reset and stay unit; the RK4 free fall of the
  // whole robot matches the closed form z = z0 - g t^2 / 2 (no contact).
  void floatingBaseFallsFreely() {
    const dyn::Model model =
        dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/quadruped.urdf", {.floatingBase = true});
    dyn::SimulationSettings s = rk4();
    s.limits = false;
    s.damping = s.friction = false;
    dyn::Simulator sim(model, s);
    Eigen::VectorXd q0 = model.neutral();
    q0.segment<4>(3) *= 2;  // not unit: normalised
    sim.reset(q0, Eigen::VectorXd::Zero(model.nv));
    QCOMPARE(sim.q().segment<4>(3).norm(), 1.0);
    sim.advance(0.5);
    dyn::Data data(model);
    Eigen::VectorXd qn = q0;
    qn.segment<4>(3).normalize();
    dyn::computeEnergy(model, data, qn, Eigen::VectorXd::Zero(model.nv));
    const Eigen::Vector3d start = data.com;
    dyn::computeEnergy(model, data, sim.q(), sim.qd());
    QVERIFY(std::abs(data.com.z() - (start.z() - 0.5 * kG * 0.25)) < 1e-9);
    QVERIFY((data.com.head<2>() - start.head<2>()).norm() < 1e-9);
    QVERIFY(std::abs(sim.q().segment<4>(3).norm() - 1) < 1e-12);
  }
};

QTEST_GUILESS_MAIN(TestSimulationControl)
#include "test_simulation_control.moc"
