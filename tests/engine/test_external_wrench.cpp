// External wrenches (dynscope/algorithms/external_wrench.hpp; issue 25), on every shipped robot (the
// quadruped and the humanoid also floating) and on random trees, at random states with random
// wrenches (one to three, on random bodies, at random points):
// - ID with the wrenches equals ID without them minus J^T f, with J the body's world Jacobian from
//   frameJacobian and f the wrench at the world origin (Featherstone Part 2: tau_e = J_b^T f_e), to 1e-12;
//   wrenchJointForces gives the same J^T f;
// - FD undoes ID with the same wrenches, by ABA and by CRBA + Cholesky: FD(ID(qdd, f), f) = qdd;
// - the virtual power: tau_e . qd equals F . v_p + m . w, the point's velocity and the body's angular
//   velocity taken by central differences of forward kinematics along qd (no Jacobian involved);
// - far from the origin (a robot on a prismatic base 1e5 m out) the wrench acts as it does at home;
// - a simulation with a constant push on a pendulum: the start acceleration, the balance angle and
//   the damped rest there, in closed form.
#include <QDir>
#include <QtTest>
#include <algorithm>
#include <random>

#include "check_close.hpp"
#include "dynscope/algorithms/external_wrench.hpp"
#include "dynscope/dynscope.hpp"
#include "model_rows.hpp"
#include "pendulum.hpp"
#include "ur5_on_a_rail.hpp"

using dyn::Model;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

using dyn::testing::modelFor;
void addModelRows() { dyn::testing::addShippedRobotRows(10); }

struct Case {
  VectorXd q, qd, qdd;
  std::vector<dyn::ExternalWrench> wrenches;
};

Case randomCase(const Model& m, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  const auto vec = [&](int n) {
    VectorXd v(n);
    for (int k = 0; k < n; ++k) v[k] = U(rng);
    return v;
  };
  Case c;
  c.q = dyn::randomConfiguration(m, rng);
  c.qd = vec(m.nv);
  c.qdd = vec(m.nv);
  std::uniform_int_distribution<int> body(1, m.N), count(1, 3);
  for (int k = count(rng); k > 0; --k)
    c.wrenches.push_back({body(rng), Vector3d(U(rng), U(rng), U(rng)) * 0.3, Vector3d(U(rng), U(rng), U(rng)) * 20,
                          Vector3d(U(rng), U(rng), U(rng)) * 3});
  return c;
}

// J^T f by the engine's frame Jacobian: the body's world Jacobian (Plücker coordinates of F_0, the
// same for every frame fixed to the body) against the wrench moved to the world origin.
VectorXd jacobianTransposeForces(const Model& m, dyn::Data& d, const std::vector<dyn::ExternalWrench>& wrenches) {
  VectorXd tau = VectorXd::Zero(m.nv);
  dyn::Mat6X<double> J(6, m.nv);
  for (const dyn::ExternalWrench& w : wrenches) {
    int frame = -1;
    for (int f = 0; f < int(m.frames.size()) && frame < 0; ++f)
      if (m.frames[size_t(f)].body == w.body) frame = f;
    if (frame < 0) QTest::qFail("a body without a frame", __FILE__, __LINE__);
    dyn::frameJacobian(m, d, frame, dyn::ReferenceFrame::World, J);
    const Vector3d p = d.X0[size_t(w.body)].pointToA(w.point);
    dyn::Vec6<double> f;
    f << w.moment + p.cross(w.force), w.force;  // [n; f] at the world origin
    tau += J.transpose() * f;
  }
  return tau;
}

}  // namespace

class TestExternalWrench : public QObject {
  Q_OBJECT
 private slots:
  void idWithWrenchesIsIdMinusJacobianTranspose_data() { addModelRows(); }
  void idWithWrenchesIsIdMinusJacobianTranspose() {
    QFETCH(QString, source);
    QFETCH(bool, floating);
    const Model m = modelFor(source, floating);
    dyn::Data d(m);
    std::vector<dyn::Force<double>> fext;
    for (unsigned s = 1; s <= 5; ++s) {
      const Case c = randomCase(m, s);
      dyn::forwardKinematics(m, d, c.q);
      dyn::bodyForces(m, d, c.wrenches, fext);
      const VectorXd JtF = jacobianTransposeForces(m, d, c.wrenches);
      VectorXd tauE;
      dyn::wrenchJointForces(m, d, c.wrenches, tauE);
      CHECK_CLOSE(tauE, JtF, 1e-12, 1 + JtF.cwiseAbs().maxCoeff(), "wrenchJointForces vs J^T f");
      const VectorXd free = dyn::rnea(m, d, c.q, c.qd, c.qdd);
      const VectorXd pushed = dyn::rnea(m, d, c.q, c.qd, c.qdd, &fext);
      CHECK_CLOSE(pushed, VectorXd(free - JtF), 1e-12, 1 + free.cwiseAbs().maxCoeff(), "ID(f) vs ID - J^T f");
    }
  }

  void forwardDynamicsUndoesInverse_data() { addModelRows(); }
  void forwardDynamicsUndoesInverse() {
    QFETCH(QString, source);
    QFETCH(bool, floating);
    const Model m = modelFor(source, floating);
    if (!dyn::forwardDynamicsRefusal(m).empty()) QSKIP("a massless chain end: H is singular");
    dyn::Data d(m);
    std::vector<dyn::Force<double>> fext;
    for (unsigned s = 11; s <= 15; ++s) {
      const Case c = randomCase(m, s);
      dyn::forwardKinematics(m, d, c.q);
      dyn::bodyForces(m, d, c.wrenches, fext);
      const VectorXd tau = dyn::rnea(m, d, c.q, c.qd, c.qdd, &fext);
      const VectorXd byAba = dyn::aba(m, d, c.q, c.qd, tau, &fext);
      CHECK_CLOSE(byAba, c.qdd, 1e-8, 1.0, "ABA(ID(qdd, f), f)");
      const VectorXd byCrba = dyn::forwardDynamicsCrba(m, d, c.q, c.qd, tau, &fext);
      CHECK_CLOSE(byCrba, c.qdd, 1e-8, 1.0, "CRBA+Cholesky(ID(qdd, f), f)");
    }
  }

  // The power a wrench delivers, F . v_p + m . w, equals tau_e . qd: the velocities by central
  // differences of forward kinematics along qd (an oracle that shares no Jacobian code).
  void virtualPower_data() { addModelRows(); }
  void virtualPower() {
    QFETCH(QString, source);
    QFETCH(bool, floating);
    const Model m = modelFor(source, floating);
    dyn::Data d(m), dp(m), dm(m);
    const double h = 1e-6;
    for (unsigned s = 21; s <= 24; ++s) {
      const Case c = randomCase(m, s);
      VectorXd qp(m.nq), qm(m.nq);
      dyn::integrate(m, c.q, c.qd, h, qp);
      dyn::integrate(m, c.q, c.qd, -h, qm);
      dyn::forwardKinematics(m, d, c.q);
      dyn::forwardKinematics(m, dp, qp);
      dyn::forwardKinematics(m, dm, qm);
      double power = 0;
      for (const dyn::ExternalWrench& w : c.wrenches) {
        const size_t b = size_t(w.body);
        const Vector3d v = (dp.X0[b].pointToA(w.point) - dm.X0[b].pointToA(w.point)) / (2 * h);
        // R = 0_R_b; dR R^T = [w]x
        const Eigen::Matrix3d dR = (dp.X0[b].E.transpose() - dm.X0[b].E.transpose()) / (2 * h);
        const Eigen::Matrix3d W = dR * d.X0[b].E;
        const Vector3d omega(W(2, 1), W(0, 2), W(1, 0));
        power += w.force.dot(v) + w.moment.dot(omega);
      }
      VectorXd tauE;
      dyn::wrenchJointForces(m, d, c.wrenches, tauE);
      QVERIFY2(std::abs(tauE.dot(c.qd) - power) < 1e-6 * (1 + std::abs(power)),
               qPrintable(
                   QString("tau_e . qd = %1, wrench power %2").arg(tauE.dot(c.qd), 0, 'g', 12).arg(power, 0, 'g', 12)));
    }
  }

  // A robot on a prismatic base 1e5 m from the origin: the wrench on a link (given at a point of the
  // link, in world axes) gives the same joint forces as the same robot at home, to the rounding of
  // the joint values (bodyForces works in the body's frame, not about the distant world origin).
  void farFromTheOrigin() {
    const Model m = dyn::testing::ur5OnARail();
    dyn::Data d0(m), d1(m);
    std::vector<dyn::Force<double>> f0, f1;
    for (unsigned s = 31; s <= 34; ++s) {
      Case c = randomCase(m, s);
      c.qd.setZero();
      c.qdd.setZero();
      VectorXd home = c.q, far = c.q;
      home[0] = 0;
      far[0] = 1e5;
      dyn::forwardKinematics(m, d0, home);
      dyn::forwardKinematics(m, d1, far);
      dyn::bodyForces(m, d0, c.wrenches, f0);
      dyn::bodyForces(m, d1, c.wrenches, f1);
      for (size_t i = 0; i < f0.size(); ++i)
        CHECK_CLOSE(f1[i].toVector(), f0[i].toVector(), 1e-13, 1 + f0[i].toVector().cwiseAbs().maxCoeff(),
                    "body force " + std::to_string(i));
      // The joint forces (gravity off: only the wrenches), but for the rail's own, which feels the same force.
      Model g = m;
      g.gravity.setZero();
      dyn::Data dg(g);
      const VectorXd a = dyn::rnea(g, dg, home, c.qd, c.qdd, &f0), b = dyn::rnea(g, dg, far, c.qd, c.qdd, &f1);
      CHECK_CLOSE(b, a, 1e-9, 1 + a.cwiseAbs().maxCoeff(), "tau at 1e5 m vs at home");
    }
  }

  // A simulation with a constant push (Simulator::setWrenches) against the pendulum in closed form
  // (tests/support/pendulum.hpp: hinge about y, COM a distance c below it). A force F along +x at the
  // COM gives the torque -c F cos q about y and gravity -m g c sin q: at q = 0 the rod starts with
  // qdd = -c F / (Ic + m c^2); at tan q* = -F / (m g) the two balance (qdd = 0). With damping the
  // pendulum comes to rest at q*. The same wrench by every integrator.
  void simulationWithAPush() {
    const dyn::testing::Pendulum p;
    const Model m = dyn::buildModel(dyn::parseUrdfString(p.urdf()));
    const int frame = m.frameIndex("rod");
    const double F = 7.0;
    // The COM in the rod's link frame is (0, 0, -c); the body frame has the hinge along z.
    const dyn::ExternalWrench push{m.frames[size_t(frame)].body,
                                   m.frames[size_t(frame)].placement.pointToA(Vector3d(0, 0, -p.c)), Vector3d(F, 0, 0),
                                   Vector3d::Zero()};
    dyn::SimulationSettings settings;
    settings.damping = false;
    dyn::Simulator sim(m, settings);
    sim.setWrenches({push});
    VectorXd q0 = VectorXd::Zero(1), qd0 = VectorXd::Zero(1);
    sim.reset(q0, qd0);
    const double qddStart = -p.c * F / (p.Ic + p.m * p.c * p.c);
    QVERIFY2(std::abs(sim.qdd()[0] - qddStart) < 1e-12, qPrintable(QString::number(sim.qdd()[0] - qddStart)));
    const double qStar = -std::atan(F / (p.m * p.g));
    sim.reset(VectorXd::Constant(1, qStar), qd0);
    QVERIFY2(std::abs(sim.qdd()[0]) < 1e-12, qPrintable(QString::number(sim.qdd()[0])));
    // Damped (the model's damping given here), it settles at q*.
    Model damped = m;
    damped.damping[0] = 2.0;
    for (const dyn::Integrator integrator :
         {dyn::Integrator::SemiImplicitEuler, dyn::Integrator::Rk4, dyn::Integrator::DormandPrince45}) {
      dyn::SimulationSettings s;
      s.integrator = integrator;
      dyn::Simulator settle(damped, s);
      settle.setWrenches({push});
      settle.reset(q0, qd0);
      QCOMPARE(settle.advance(20.0), dyn::SimulationStatus::Ok);
      QVERIFY2(
          std::abs(settle.q()[0] - qStar) < 1e-6 && std::abs(settle.qd()[0]) < 1e-6,
          qPrintable(QString("%1: q %2, q* %3").arg(dyn::integratorName(integrator)).arg(settle.q()[0]).arg(qStar)));
    }
    // A wrench that cannot be applied is refused, naming it.
    dyn::ExternalWrench bad = push;
    bad.body = 5;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sim.setWrenches({bad}));
  }

  void refusesWhatCannotBeApplied() {
    const Model m = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/ur5.urdf");
    // On a link frame: the point in the link's coordinates lands where the link frame puts it.
    const int tool = m.frameIndex("tool0");
    const dyn::ExternalWrench w = dyn::wrenchOnFrame(m, tool, Vector3d(0.1, 0.2, 0.3), Vector3d(1, 0, 0));
    QCOMPARE(w.body, m.frames[size_t(tool)].body);
    dyn::Data d(m);
    dyn::forwardKinematics(m, d, m.neutral());
    dyn::updateFrames(m, d);
    const Vector3d viaFrame = d.oMf[size_t(tool)].pointToA(Vector3d(0.1, 0.2, 0.3));  // frame to world
    QVERIFY((d.X0[size_t(w.body)].pointToA(w.point) - viaFrame).norm() < 1e-12);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::wrenchOnFrame(m, -1, Vector3d(0, 0, 0), Vector3d(0, 0, 0)));
    QVERIFY(dyn::wrenchProblem(m, dyn::ExternalWrench{1}).empty());
    QVERIFY(dyn::wrenchProblem(m, dyn::ExternalWrench{m.N + 1}).find("bodies 0..") != std::string::npos);
    dyn::ExternalWrench nan{1};
    nan.force.x() = std::nan("");
    QVERIFY(dyn::wrenchProblem(m, nan).find("not a finite number") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestExternalWrench)
#include "test_external_wrench.moc"
