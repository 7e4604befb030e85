// The adaptive Dormand-Prince integrator where the right-hand side is not smooth or is stiff:
// a joint-limit entry is stepped onto (its time against a quadrature of the swing), the tolerance
// holds through limit contacts (against RK4 at tiny steps), and the smoothed friction of light
// joints is capped so that it does not hold the step far below dt (the humanoid's grippers).
#include <QtTest>
#include <cmath>
#include <sstream>
#include <string>

#include "dynscope/dynscope.hpp"
#include "test_vectors.hpp"

namespace {

using dyn::testing::midRange;

constexpr double kG = 9.81;

// One link hanging along -z, revolute about y, limited to [-limit, limit]: mass m at l below the
// joint, central inertia ic.
dyn::Model limitedPendulum(double m, double l, double ic, double limit) {
  std::ostringstream s;
  s << "<robot name='pendulum'><link name='base'/><joint name='joint1' type='revolute'><parent link='base'/>"
    << "<child link='link1'/><axis xyz='0 1 0'/><limit lower='" << -limit << "' upper='" << limit
    << "' effort='100' velocity='100'/></joint><link name='link1'><inertial><origin xyz='0 0 " << -l
    << "'/><mass value='" << m << "'/><inertia ixx='" << ic << "' iyy='" << ic << "' izz='" << ic
    << "' ixy='0' ixz='0' iyz='0'/></inertial></link></robot>";
  return dyn::buildModel(dyn::parseUrdfString(s.str()));
}

dyn::SimulationSettings settings(dyn::Integrator integrator, double dt, double tolerance = 1e-8) {
  dyn::SimulationSettings s;
  s.integrator = integrator;
  s.dt = dt;
  s.tolerance = tolerance;
  return s;
}

Eigen::VectorXd vec(double x) { return Eigen::VectorXd::Constant(1, x); }

}  // namespace

class TestSimulationAdaptive : public QObject {
  Q_OBJECT

 private slots:
  // Swinging up from q0 at qd0, the pendulum reaches the limit at t_c = integral dq / v(q) with
  // I v^2 / 2 = I qd0^2 / 2 - m g l (cos q0 - cos q) (Simpson's rule, independent of the
  // simulator). The limit damper acts at once on entry (a jump of c v_c / I in qdd): RK45 locates
  // the entry and steps onto it instead of narrowing the jump down in rejected steps.
  void limitEntryIsSteppedOnto() {
    const double m = 1, l = 0.5, ic = 0.01, I = ic + m * l * l, limit = 0.5, q0 = 0.3, qd0 = 3;
    auto speed = [&](double q) { return std::sqrt(qd0 * qd0 - 2 * m * kG * l * (std::cos(q0) - std::cos(q)) / I); };
    const int n = 20000;  // Simpson on [q0, limit], the integrand 1 / v is smooth (v > 2)
    double tc = 0;
    for (int k = 0; k <= n; ++k) tc += (k == 0 || k == n ? 1 : k % 2 ? 4 : 2) / speed(q0 + (limit - q0) * k / n);
    tc *= (limit - q0) / n / 3;

    dyn::Simulator sim(limitedPendulum(m, l, ic, limit), settings(dyn::Integrator::DormandPrince45, 1e-3));
    QCOMPARE(sim.limitDamping(0), 100.0);  // the settings' damper, not capped on this heavy link
    sim.reset(vec(q0), vec(qd0));
    QCOMPARE(sim.advance(0.5), dyn::SimulationStatus::Ok);
    const dyn::SimulationRecord& r = sim.record();
    QVERIFY(!r.limitEvents.empty());
    const dyn::LimitEvent& e = r.limitEvents[0];
    qInfo("entry at %.12f (quadrature %.12f), position - limit %g; %ld steps, %ld rejected, %ld evaluations", e.t, tc,
          e.position - limit, sim.stats().subSteps, sim.stats().rejected, sim.stats().evaluations);
    QVERIFY(e.upper);
    QVERIFY2(std::abs(e.t - tc) < 1e-8, qPrintable(QString("%1 vs %2").arg(e.t, 0, 'g', 12).arg(tc, 0, 'g', 12)));
    QVERIFY(std::abs(e.position - limit) < 1e-8);
    QVERIFY(sim.q()[0] < limit);  // pushed back out
    // Every entry costs a couple of trial steps, not tens (the jump made ~20 rejections each).
    QVERIFY2(sim.stats().rejected <= 5 * long(r.limitEvents.size()),
             qPrintable(QString("%1 rejected for %2 entries").arg(sim.stats().rejected).arg(r.limitEvents.size())));
  }

  // A pure limit spring (no damper: the force is continuous, with a kink at the limit that costs
  // RK4 at h = 2e-6 ~1e-14): through the contact and back, RK45 at steps up to 10 ms keeps its
  // error within a small multiple of its tolerance, shrinking with it. (The kink inside a step
  // used to slip past the error estimate: 6e-5 at tolerance 1e-6.)
  void toleranceHoldsThroughLimitContacts() {
    const double limit = 0.5;
    const dyn::Model model = limitedPendulum(1, 0.5, 0.01, limit);
    dyn::SimulationSettings s = settings(dyn::Integrator::Rk4, 2e-6);
    s.limitDamping = 0;
    s.limitStiffness = 1e3;  // below the cap at 10 ms (m / h^2 = 2.6e3): the same spring for both
    dyn::Simulator reference(model, s);
    reference.reset(vec(0.3), vec(3));
    reference.advance(0.5);
    QVERIFY(!reference.record().limitEvents.empty());
    double previous = 1;
    for (double tol : {1e-5, 1e-7, 1e-9}) {
      dyn::SimulationSettings a = s;
      a.integrator = dyn::Integrator::DormandPrince45;
      a.dt = 1e-2;
      a.tolerance = tol;
      dyn::Simulator sim(model, a);
      QCOMPARE(sim.limitStiffness(0), s.limitStiffness);
      sim.reset(vec(0.3), vec(3));
      QCOMPARE(sim.advance(0.5), dyn::SimulationStatus::Ok);
      QCOMPARE(sim.record().limitEvents.size(), reference.record().limitEvents.size());
      const double error =
          std::max(std::abs(sim.q()[0] - reference.q()[0]), std::abs(sim.qd()[0] - reference.qd()[0]) / 10);
      qInfo("tol %g: error %g, %ld steps, %ld rejected", tol, error, sim.stats().subSteps, sim.stats().rejected);
      QVERIFY2(error < 10 * tol, qPrintable(QString("tol %1: error %2").arg(tol).arg(error)));
      QVERIFY(error < previous);
      previous = error;
    }
  }

  // The friction f tanh(qd / eps) is a damper of slope f / eps near rest; on a gripper finger
  // (1/(H^-1)_ii ~ 1e-4 kg m^2) eps = 0.01 rad/s made it 1 N m s/rad, a time constant of 0.1 ms
  // that held RK45 to ~0.3 ms sub-steps with a rejection every step. The cap f h / eps <= m (the
  // inertia 1/(H^-1)_ii at the neutral pose) leaves heavy joints alone.
  void frictionOfLightJointsIsCapped() {
    const dyn::Model model = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/humanoid.urdf");
    const dyn::SimulationSettings s = settings(dyn::Integrator::DormandPrince45, 1e-3);
    dyn::Simulator sim(model, s);
    dyn::Data data(model);
    const Eigen::MatrixXd Hinv = Eigen::MatrixXd(dyn::crba(model, data, model.neutral())).inverse();
    int raised = 0, kept = 0;
    for (int i = 0; i < model.nv; ++i) {
      const double eps = sim.frictionVelocity(i), inertia = 1 / Hinv(i, i), f = model.friction[i];
      QVERIFY(eps >= s.frictionVelocity);
      QVERIFY(f * s.dt / eps <= inertia * (1 + 1e-12));  // the friction's slope f / eps <= m / h
      const bool gripper = model.jointNames[model.dofBody[i]].find("gripper") != std::string::npos;
      if (gripper) QVERIFY(eps > 5 * s.frictionVelocity);
      (eps > s.frictionVelocity ? raised : kept)++;
    }
    QVERIFY(raised >= 2 && kept > model.nv / 2);

    // The right-hand side uses it: tau_i = -b qd_i - f tanh(qd_i / eps_i).
    dyn::SimulationSettings noLimits = s;
    noLimits.limits = false;
    dyn::Simulator free(model, noLimits);
    Eigen::VectorXd qd = Eigen::VectorXd::Zero(model.nv), tau, qdd;
    for (int i = 0; i < model.nv; ++i) qd[i] = 0.5 * free.frictionVelocity(i) * (i % 2 ? 1 : -1);
    free.evaluate(0, model.neutral(), qd, tau, qdd);
    for (int i = 0; i < model.nv; ++i)
      QVERIFY(std::abs(tau[i] - (-model.damping[i] * qd[i] -
                                 model.friction[i] * std::tanh(qd[i] / free.frictionVelocity(i)))) < 1e-15);
  }

  // The humanoid swinging from mid-range at the defaults (1 ms, tolerance 1e-8): RK45 keeps
  // sub-steps near dt (6 evaluations each) and rejects few, where the stiff grippers cost
  // ~4 sub-steps and a rejection per step. Counts, not timings: bench_simulation has the speed.
  void humanoidStepsStayNearDt() {
    const dyn::Model model = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/humanoid.urdf");
    dyn::Simulator sim(model, settings(dyn::Integrator::DormandPrince45, 1e-3));
    sim.reset(midRange(model), Eigen::VectorXd::Zero(model.nv));
    QCOMPARE(sim.advance(0.15), dyn::SimulationStatus::Ok);
    const dyn::SimulationStats& st = sim.stats();
    qInfo("%ld steps: %ld sub-steps, %ld rejected, %ld evaluations", st.steps, st.subSteps, st.rejected,
          st.evaluations);
    QCOMPARE(st.steps, 150L);
    QVERIFY(st.subSteps < 2 * st.steps);
    QVERIFY(st.rejected < st.steps / 10);
  }
};

QTEST_GUILESS_MAIN(TestSimulationAdaptive)
#include "test_simulation_adaptive.moc"
