// Ground contact in the simulation (dynscope/simulation/ground_contact.hpp; issue 25), against
// closed forms that use no spatial algebra:
// - contact points from the collision geometry: a box's 8 corners, a cylinder's rims, a sphere's
//   centre and radius, a mesh's hull vertices (a tetrahedron written to an STL file here), an MJCF
//   capsule's caps;
// - a sphere mesh rests on its lowest vertex; a spring and damper of one's own (stiffness, damping);
// - a ball dropped on the ground: while it touches, its lowest point x follows the critically damped
//   oscillator x'' + 2 w x' + w^2 x = -g (w = 1 / time constant), so it comes to rest at x = -g tau^2
//   without bouncing, at the time the closed form gives;
// - a block on an incline (gravity tilted by theta, the ground level): below the friction angle
//   (tan theta < mu) it stays put; above it slides with a = g (sin theta - mu cos theta);
// - the quadruped and the humanoid dropped from 0.3 m land, settle and do not sink beyond 3 cm (4 cm
//   with the explicit integrators' capped springs); the energy (kinetic + potential + the contact
//   springs') never increases at contact;
// - robots as real files bring them, at the default settings (symplectic Euler, 1 ms, limits on):
//   a 12-DOF quadruped whose collision geometry is nearly a thousand mesh hull points and an MJCF
//   "ant" dropped 0.2 m settle within 3 s, carry their weight, and gain no energy beyond 1 % of what
//   the drop dissipates, also from poses beyond their joint limits (the limit springs' energy counts);
// - a drum given as a mesh of 64 segments rests as deep as the cylinder primitive (12 points a rim):
//   a shape's points share its spring, so stiffness does not grow with the number of vertices;
// - settings out of range are refused, naming the setting.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>

#include "dynscope/dynscope.hpp"
#include "dynscope/io/mjcf_parser.hpp"
#include "dynscope/simulation/simulator.hpp"

using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

constexpr double g = 9.81;

// A free body (floating joint from the world) with one collision shape and a diagonal inertia.
dyn::Model freeBody(const std::string& shape, double mass, const Vector3d& inertia) {
  std::ostringstream u;
  u << "<robot name=\"free\"><link name=\"world\"/>"
    << "<link name=\"body\"><inertial><mass value=\"" << mass << "\"/><inertia ixx=\"" << inertia.x() << "\" iyy=\""
    << inertia.y() << "\" izz=\"" << inertia.z() << "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
    << "<collision><geometry>" << shape << "</geometry></collision></link>"
    << "<joint name=\"free\" type=\"floating\"><parent link=\"world\"/><child link=\"body\"/></joint></robot>";
  return dyn::buildModel(dyn::parseUrdfString(u.str()));
}

dyn::Model ball(double r, double m) {
  return freeBody("<sphere radius=\"" + std::to_string(r) + "\"/>", m, Vector3d::Constant(0.4 * m * r * r));
}

// A box a x b x c of mass m.
dyn::Model block(double a, double b, double c, double m) {
  return freeBody("<box size=\"" + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(c) + "\"/>", m,
                  Vector3d(m * (b * b + c * c), m * (a * a + c * c), m * (a * a + b * b)) / 12);
}

VectorXd freePose(const dyn::Model& m, double z) {
  VectorXd q = m.neutral();
  q[2] = z;
  return q;
}

// The lowest point of the ball, x(t) from touchdown with speed v0: y = x - x_e, x_e = -g tau^2, is
// (y0 + (y0' + w y0) t) e^{-w t} with y0 = g tau^2, y0' = -v0.
struct DampedDrop {
  double w, v0;
  double x(double t) const {
    const double y0 = g / (w * w), dy0 = -v0;
    return (y0 + (dy0 + w * y0) * t) * std::exp(-w * t) - g / (w * w);
  }
  double accelerationPlusG(double t) const {  // x'' + g: the contact force per unit mass
    const double h = 1e-6;
    return (x(t + h) - 2 * x(t) + x(t - h)) / (h * h) + g;
  }
};

dyn::Model floatingRobot(const std::string& file) {
  return dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file, {.floatingBase = true});
}

// The neutral pose lifted so that the lowest contact point is `height` above the ground.
VectorXd dropPose(const dyn::Simulator& sim, double height) {
  const dyn::Model& model = sim.model();
  dyn::Data d(model);
  dyn::forwardKinematics(model, d, model.neutral());
  double lowest = 1e9;
  for (const dyn::ContactPoint& c : sim.contactPoints().points)
    lowest = std::min(lowest, d.X0[c.body].pointToA(c.point).z() - c.radius);
  return freePose(model, height - lowest);
}

// The sanitizer build (-O1, ASan's fake stacks for Eigen's temporaries) runs the contact simulations
// 100-400x slower: the humanoid under RK4 and RK45 (1.5 s here, over 10 min there) only repeats the
// code paths of its Euler row and of the quadruped's rows, so it is left out there.
bool slowUnderSanitizers(const QString& file, int integrator) {
#ifdef DYNSCOPE_SANITIZER_BUILD
  return file.startsWith("humanoid") && integrator != int(dyn::Integrator::SemiImplicitEuler);
#else
  Q_UNUSED(file);
  Q_UNUSED(integrator);
  return false;
#endif
}

}  // namespace

class TestGroundContact : public QObject {
  Q_OBJECT

 private slots:
  void pointsFromTheCollisionGeometry() {
    QCOMPARE(dyn::contactPoints(block(0.4, 0.3, 0.2, 1)).points.size(), size_t(8));
    const dyn::ContactPointSet cyl =
        dyn::contactPoints(freeBody("<cylinder radius=\"0.1\" length=\"0.5\"/>", 1, Vector3d::Ones()));
    QCOMPARE(cyl.points.size(), size_t(24));
    for (const dyn::ContactPoint& p : cyl.points) {  // on the rims
      QVERIFY(std::abs(p.point.head<2>().norm() - 0.1) < 1e-12);
      QVERIFY(std::abs(std::abs(p.point.z()) - 0.25) < 1e-12);
    }
    const dyn::ContactPointSet sphere = dyn::contactPoints(ball(0.1, 1));
    QCOMPARE(sphere.points.size(), size_t(1));
    QCOMPARE(sphere.points[0].radius, 0.1);
    // A mesh: a tetrahedron in an ASCII STL with a fifth vertex inside it; the hull's 4 corners come back.
    QTemporaryDir dir;
    const std::string stl = dir.filePath("tet.stl").toStdString();
    {
      const Vector3d v[5] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.1, 0.1, 0.1}};
      const int faces[6][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}, {4, 0, 1}, {4, 1, 2}};
      std::ofstream out(stl);
      out << "solid t\n";
      for (const auto& f : faces) {
        out << "facet normal 0 0 0\nouter loop\n";
        for (int k : f) out << "vertex " << v[k].x() << " " << v[k].y() << " " << v[k].z() << "\n";
        out << "endloop\nendfacet\n";
      }
      out << "endsolid t\n";
    }
    const dyn::ContactPointSet mesh =
        dyn::contactPoints(freeBody("<mesh filename=\"" + stl + "\" scale=\"2 2 2\"/>", 1, Vector3d::Ones()));
    QCOMPARE(mesh.points.size(), size_t(4));
    for (const dyn::ContactPoint& p : mesh.points) {  // a corner: the origin or 2 along an axis (scaled)
      const double sum = p.point.sum();
      QVERIFY(p.point.minCoeff() >= 0 && (std::abs(sum) < 1e-12 || std::abs(sum - 2) < 1e-12));
    }
    // A mesh that cannot be read gives a note naming it, not silence.
    const dyn::ContactPointSet missing =
        dyn::contactPoints(freeBody("<mesh filename=\"/nonexistent/part.stl\"/>", 1, Vector3d::Ones()));
    QVERIFY(missing.points.empty());
    QVERIFY(missing.notes.size() >= 1);
    QVERIFY(QString::fromStdString(missing.notes[0]).contains("part.stl"));
  }

  void ballComesToRestWithoutBouncing() {
    const double r = 0.1, m = 2, h0 = 0.05, tau = 0.01;
    const dyn::Model model = ball(r, m);
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    s.dt = 1e-4;
    s.ground.enabled = true;
    s.ground.timeConstant = tau;
    dyn::Simulator sim(model, s);
    sim.reset(freePose(model, r + h0), VectorXd::Zero(model.nv));
    const double w = 1 / tau, tc = std::sqrt(2 * h0 / g);
    const DampedDrop drop{w, g * tc};
    for (double t = 0; t < 0.3; t += 1e-4)
      QVERIFY(drop.x(t) < 1e-12 && drop.accelerationPlusG(t) > 0);  // never lets go
    // The time to rest: the last time |x - x_e| >= 1e-5 m, by the closed form and by the simulation.
    double restClosed = 0, lowestClosed = 0;
    for (double t = 0; t < 0.5; t += 1e-5) {
      if (std::abs(drop.x(t) + g * tau * tau) >= 1e-5) restClosed = tc + t;
      lowestClosed = std::min(lowestClosed, drop.x(t));
    }
    double restSim = 0, lowest = 1;
    while (sim.time() < 0.6) {
      QCOMPARE(sim.step(), dyn::SimulationStatus::Ok);
      const double x = sim.q()[2] - r;
      lowest = std::min(lowest, x);
      if (std::abs(x + g * tau * tau) >= 1e-5) restSim = sim.time();
      if (sim.time() > tc + 0.005 && sim.time() < tc + 0.1)  // the closed form, after the touchdown's step
        QVERIFY2(
            std::abs(x - drop.x(sim.time() - tc)) < 2e-5,
            qPrintable(QString("t = %1: x = %2, closed form %3").arg(sim.time()).arg(x).arg(drop.x(sim.time() - tc))));
    }
    QVERIFY2(std::abs(restSim - restClosed) < 2e-3,
             qPrintable(QString("at rest at %1 s, closed form %2 s").arg(restSim).arg(restClosed)));
    QVERIFY(std::abs(sim.q()[2] - r + g * tau * tau) < 1e-7);            // the static deflection m g / K = g tau^2
    QVERIFY(std::abs(sim.contactForces()[0].force.z() - m * g) < 1e-6);  // carries its weight
    QVERIFY2(std::abs(lowest - lowestClosed) < 2e-5,
             qPrintable(QString("sank to %1 m, closed form %2 m").arg(lowest).arg(lowestClosed)));
  }

  void blockOnAnIncline_data() {
    QTest::addColumn<double>("degrees");
    QTest::newRow("20 deg, below the friction angle (26.6 deg)") << 20.0;
    QTest::newRow("35 deg, above it") << 35.0;
  }
  void blockOnAnIncline() {
    QFETCH(double, degrees);
    const double mu = 0.5, theta = degrees * M_PI / 180;
    dyn::Model model = block(0.4, 0.4, 0.1, 1.5);
    model.gravity.v = Vector3d(g * std::sin(theta), 0, -g * std::cos(theta));  // the incline, tilted back level
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    s.dt = 2e-4;
    s.ground.enabled = true;
    s.ground.friction = mu;
    dyn::Simulator sim(model, s);
    sim.reset(freePose(model, 0.05), VectorXd::Zero(model.nv));
    double x[3];  // q[0..2] is the position of the free joint: x at 0.5, 0.75 and 1 s
    for (double& xk : x) {
      QVERIFY(sim.advance(sim.time() < 0.1 ? 0.5 : 0.25) == dyn::SimulationStatus::Ok);  // first: settled in
      xk = sim.q()[0];
    }
    const double x1 = x[0], x2 = x[2];
    if (std::tan(theta) < mu) {
      QVERIFY2(std::abs(x2 - x1) < 1e-6, qPrintable(QString("crept %1 m in 0.5 s").arg(x2 - x1)));
      for (const dyn::ContactForce& c : sim.contactForces()) QVERIFY(!c.sliding);
    } else {
      const double a = g * (std::sin(theta) - mu * std::cos(theta));
      const double measured = (x[2] - 2 * x[1] + x[0]) / (0.25 * 0.25);
      QVERIFY2(std::abs(measured - a) < 0.01 * a, qPrintable(QString("a = %1, Coulomb %2").arg(measured).arg(a)));
      QVERIFY(std::abs(sim.q()[2] - 0.05) < 0.01);  // slides flat, does not tip
    }
  }

  void robotLandsAndSettles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("integrator");
    for (const char* file : {"quadruped.urdf", "humanoid.urdf"})
      for (auto i : {dyn::Integrator::SemiImplicitEuler, dyn::Integrator::Rk4, dyn::Integrator::DormandPrince45})
        QTest::newRow((std::string(file) + "/" + dyn::integratorName(i)).c_str()) << file << int(i);
  }
  // Passive (no controller, the joints' damping and limits): dropped from 0.3 m the robot lands,
  // folds onto its limits and comes to rest on the ground, which carries its weight.
  void robotLandsAndSettles() {
    QFETCH(QString, file);
    QFETCH(int, integrator);
    if (slowUnderSanitizers(file, integrator))
      QSKIP("sanitizer build: the quadruped's and the Euler rows run these paths");
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator(integrator);
    s.ground.enabled = true;
    const dyn::Model model = floatingRobot(file.toStdString());
    dyn::Simulator sim(model, s);
    sim.reset(dropPose(sim, 0.3), VectorXd::Zero(model.nv));
    double deepest = 0;
    bool landed = false;
    while (sim.time() < 4.0) {
      QCOMPARE(sim.step(), dyn::SimulationStatus::Ok);
      landed = landed || !sim.contactForces().empty();
      for (const dyn::ContactForce& c : sim.contactForces()) deepest = std::max(deepest, c.penetration);
    }
    QVERIFY(landed);
    // A fall from standing height (the humanoid's torso lands at ~5 m/s) into springs of a 10 ms time
    // constant: up to 3 cm at the impact; the explicit integrators' springs are capped for the step
    // (w h <= 1/sqrt(2) for a light point), and a little softer.
    const double allowed = integrator == int(dyn::Integrator::SemiImplicitEuler) ? 0.03 : 0.04;
    QVERIFY2(deepest < allowed, qPrintable(QString("sank %1 m into the ground").arg(deepest)));
    // At rest: the kinetic energy a trace of the fall's (a free wrist may keep turning).
    dyn::Data d(model);
    dyn::computeEnergy(model, d, sim.q(), sim.qd());
    QVERIFY2(d.kinetic < 1e-4 * model.totalMass() * g * 0.3,
             qPrintable(QString("still moving: kinetic energy %1 J").arg(d.kinetic)));
    double normal = 0;
    for (const dyn::ContactForce& c : sim.contactForces()) normal += c.force.z();
    QVERIFY2(std::abs(normal - model.totalMass() * g) < 0.01 * model.totalMass() * g,
             qPrintable(QString("the ground carries %1 N of %2 N").arg(normal).arg(model.totalMass() * g)));
  }

  // Contact takes energy out and never puts it in: passive, joint limits off (their springs' energy is
  // not counted), the energy (kinetic + potential + the contact springs') never rises by more than the
  // integrator's error from one step to the next, through landing, folding and coming to rest.
  void energyNeverRisesAtContact_data() { robotLandsAndSettles_data(); }
  void energyNeverRisesAtContact() {
    QFETCH(QString, file);
    QFETCH(int, integrator);
    if (slowUnderSanitizers(file, integrator))
      QSKIP("sanitizer build: the quadruped's and the Euler rows run these paths");
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator(integrator);
    s.limits = false;
    s.ground.enabled = true;
    const dyn::Model model = floatingRobot(file.toStdString());
    dyn::Simulator sim(model, s);
    sim.reset(dropPose(sim, 0.3), VectorXd::Zero(model.nv));
    const double E = model.totalMass() * g * 0.3;  // the energy of the fall
    const double E0 = sim.energy();
    double previous = E0, worstRise = 0, worstGain = 0;
    while (sim.time() < 2.0) {
      QCOMPARE(sim.step(), dyn::SimulationStatus::Ok);
      worstRise = std::max(worstRise, sim.energy() - previous);
      worstGain = std::max(worstGain, sim.energy() - E0);
      previous = sim.energy();
    }
    QVERIFY2(worstGain < 1e-3 * E, qPrintable(QString("the energy rose %1 J above the start").arg(worstGain)));
    // Step to step: RK4 and RK45 follow the dissipation, up to what a shape's points trade among them
    // (their shares of its spring follow their depths, which is no potential: a rocking foot hands a
    // little energy between the springs and the motion); symplectic Euler takes the contacts implicitly
    // and its energy error oscillates with the joints' stiff motion, so only the net gain is checked.
    if (integrator != int(dyn::Integrator::SemiImplicitEuler))
      QVERIFY2(worstRise < 5e-3 * E, qPrintable(QString("the energy rose by %1 J in one step").arg(worstRise)));
    QVERIFY(sim.energy() < sim.record().energy.front() - 0.5 * E);  // the fall's energy went
  }

  // The joint forces from outside: externalTau() is J^T f of the contact forces the simulator reports
  // (each at its point), part of tau() (the applied total: H qdd + C = tau), and in the record.
  void externalTauIsTheContactsJacobianTranspose() {
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    s.ground.enabled = true;
    const dyn::Model model = floatingRobot("quadruped.urdf");
    dyn::Simulator sim(model, s);
    sim.reset(dropPose(sim, 0.05), VectorXd::Zero(model.nv));
    sim.record().reserve(2000);
    dyn::Data d(model);
    int checked = 0;
    while (sim.time() < 0.5) {
      QCOMPARE(sim.step(), dyn::SimulationStatus::Ok);
      if (sim.contactForces().empty()) continue;
      dyn::forwardKinematics(model, d, sim.q());
      std::vector<dyn::ExternalWrench> w;
      for (const dyn::ContactForce& c : sim.contactForces())
        w.push_back({c.body, d.X0[c.body].pointToB(c.position), c.force, Vector3d::Zero()});
      VectorXd tauE;
      dyn::wrenchJointForces(model, d, w, tauE);
      const double scale = 1 + tauE.cwiseAbs().maxCoeff();
      QVERIFY2((tauE - sim.externalTau()).cwiseAbs().maxCoeff() < 1e-9 * scale,
               qPrintable(QString("t = %1").arg(sim.time())));
      const VectorXd qdd = dyn::aba(model, d, sim.q(), sim.qd(), sim.tau());
      QVERIFY((qdd - sim.qdd()).cwiseAbs().maxCoeff() < 1e-9 * (1 + sim.qdd().cwiseAbs().maxCoeff()));
      ++checked;
    }
    QVERIFY(checked > 100);
    const Eigen::MatrixXd recorded = sim.record().externalTorques();
    QCOMPARE(recorded.cols(), Eigen::Index(sim.record().samples()));
    QVERIFY((recorded.col(recorded.cols() - 1) - sim.externalTau()).cwiseAbs().maxCoeff() == 0);
  }

  // A spring and damper of one's own (GroundSettings::stiffness, damping; the Ground box's and
  // simulate --contact-stiffness/--contact-damping): the ball rests m g / K into the ground, carrying
  // its weight, whatever the time constant says.
  void stiffnessAndDampingOfOnesOwn() {
    const double r = 0.1, m = 2, K = 2e4, C = 2 * std::sqrt(K * m);  // critically damped
    const dyn::Model model = ball(r, m);
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    s.dt = 1e-4;
    s.ground = {.enabled = true, .timeConstant = 0.05, .stiffness = K, .damping = C};
    dyn::Simulator sim(model, s);
    sim.reset(freePose(model, r + 0.02), VectorXd::Zero(model.nv));
    double lowest = 1;
    while (sim.time() < 0.8) {
      QCOMPARE(sim.step(), dyn::SimulationStatus::Ok);
      lowest = std::min(lowest, sim.q()[2] - r);
    }
    QVERIFY2(std::abs(sim.q()[2] - (r - m * g / K)) < 1e-7, qPrintable(QString::number(sim.q()[2] - r)));
    QVERIFY(std::abs(sim.contactForces()[0].force.z() - m * g) < 1e-6);
    // Critically damped from touchdown at v0 = sqrt(2 g h0): the deepest point of x'' + 2w x' + w^2 x = -g.
    const DampedDrop drop{std::sqrt(K / m), std::sqrt(2 * g * 0.02)};
    double deepest = 0;
    for (double t = 0; t < 0.3; t += 1e-5) deepest = std::min(deepest, drop.x(t));
    QVERIFY2(std::abs(lowest - deepest) < 2e-5,
             qPrintable(QString("sank to %1 m, closed form %2 m").arg(lowest).arg(deepest)));
  }

  // A rounded mesh (a sphere of 162 vertices in an STL) gives more than the cube's 26 directions'
  // points, all on its hull, and rests on its lowest vertex as the ball rests on its lowest point.
  void meshSphereRestsOnItsLowestVertex() {
    const double r = 0.1, m = 2, tau = 0.01;
    QTemporaryDir dir;
    const std::string stl = dir.filePath("sphere.stl").toStdString();
    {
      const int rings = 10, segments = 16;     // poles and 9 rings of 16: 146 vertices
      const auto vertex = [&](int i, int j) {  // i = 0: the south pole, i = rings: the north pole
        const double th = M_PI * i / rings, ph = 2 * M_PI * j / segments;
        return Vector3d(r * std::sin(th) * std::cos(ph), r * std::sin(th) * std::sin(ph), -r * std::cos(th));
      };
      std::ofstream out(stl);
      out << "solid s\n";
      const auto facet = [&](const Vector3d& a, const Vector3d& b, const Vector3d& c) {
        out << "facet normal 0 0 0\nouter loop\n";
        for (const Vector3d& v : {a, b, c}) out << "vertex " << v.x() << " " << v.y() << " " << v.z() << "\n";
        out << "endloop\nendfacet\n";
      };
      for (int i = 0; i < rings; ++i)
        for (int j = 0; j < segments; ++j) {
          facet(vertex(i, j), vertex(i + 1, j), vertex(i + 1, j + 1));
          facet(vertex(i, j), vertex(i + 1, j + 1), vertex(i, j + 1));
        }
      out << "endsolid s\n";
    }
    const dyn::Model model = freeBody("<mesh filename=\"" + stl + "\"/>", m, Vector3d::Constant(0.4 * m * r * r));
    const dyn::ContactPointSet set = dyn::contactPoints(model);
    QVERIFY2(set.points.size() > 40, qPrintable(QString("%1 points").arg(set.points.size())));
    for (const dyn::ContactPoint& p : set.points)
      QVERIFY(std::abs(p.point.norm() - r) < 1e-6);  // vertices, on the hull
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    s.dt = 1e-4;
    s.ground = {.enabled = true, .timeConstant = tau};
    dyn::Simulator sim(model, s);
    sim.reset(freePose(model, r + 0.02), VectorXd::Zero(model.nv));
    sim.advance(0.6);
    QCOMPARE(sim.status(), dyn::SimulationStatus::Ok);
    QVERIFY2(std::abs(sim.q()[2] - (r - g * tau * tau)) < 1e-6, qPrintable(QString::number(sim.q()[2] - r)));
  }

  // An MJCF capsule (a cylinder and a sphere at each end, as the reader makes it) lying on its side
  // rests on its round side: the axis at the radius above the ground, level.
  void capsuleRestsOnItsSide() {
    const double r = 0.05;
    const dyn::Model model = dyn::buildModel(dyn::parseMjcfString(
        "<mujoco><worldbody><body name=\"rod\" pos=\"0 0 0.1\"><freejoint/>"
        "<geom type=\"capsule\" fromto=\"-0.15 0 0 0.15 0 0\" size=\"0.05\" mass=\"1\"/></body></worldbody></mujoco>"));
    const dyn::ContactPointSet set = dyn::contactPoints(model);
    int spheres = 0;
    for (const dyn::ContactPoint& p : set.points) spheres += p.radius > 0;
    QCOMPARE(spheres, 2);  // the caps, exact
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    s.dt = 1e-4;
    s.ground = {.enabled = true, .timeConstant = 0.01};
    dyn::Simulator sim(model, s);
    sim.reset(model.home(), VectorXd::Zero(model.nv));
    sim.advance(0.8);
    QCOMPARE(sim.status(), dyn::SimulationStatus::Ok);
    dyn::Data d(model);
    dyn::forwardKinematics(model, d, sim.q());
    const Vector3d a = d.X0[1].pointToA(Vector3d(-0.15, 0, 0)), b = d.X0[1].pointToA(Vector3d(0.15, 0, 0));
    QVERIFY2(std::abs(a.z() - r) < 2e-3 && std::abs(b.z() - r) < 2e-3,
             qPrintable(QString("the axis' ends at z = %1 and %2").arg(a.z()).arg(b.z())));
    QVERIFY(sim.qd().norm() < 1e-3);
  }

  // A push that ends mid-run: the outside forces' columns keep one entry per sample (zero after it),
  // so a record's tau_ext_ columns line up with its times.
  void outsideForcesKeepOneEntryPerSample() {
    const dyn::Model model = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/ur5.urdf");
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    s.dt = 1e-3;
    dyn::Simulator sim(model, s);
    sim.reset(model.neutral(), VectorXd::Zero(model.nv));
    sim.advance(0.01);  // before the push: no outside forces
    sim.setWrenches({dyn::ExternalWrench{.body = model.N, .force = Vector3d(0, 0, -50)}});
    sim.advance(0.02);
    sim.setWrenches({});
    sim.advance(0.02);
    const dyn::SimulationRecord& r = sim.record();
    const Eigen::MatrixXd ext = r.externalTorques();
    QCOMPARE(r.tauExternal.size(), size_t(model.nv) * r.t.size());
    QCOMPARE(ext.cols(), Eigen::Index(r.samples()));
    QVERIFY(ext.col(r.samples() / 2).norm() > 1);    // during the push
    QCOMPARE(ext.col(r.samples() - 1).norm(), 0.0);  // after it
    QCOMPARE(ext.col(0).norm(), 0.0);                // before it
  }

  void realRobotsDropAndSettle_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("start");  // "inside" the joint limits, or "neutral" (q = 0, beyond some)
    for (const char* file : {"mesh_quadruped.urdf", "ant.xml"})
      for (const char* start : {"inside", "neutral"})
        QTest::newRow((std::string(file) + "/" + start).c_str()) << file << start;
  }
  // The default settings, the robot lifted 0.2 m above the ground and let go: no divergence, no energy
  // gained beyond 1 % of what the drop dissipates (E counts the contact and limit springs), at rest
  // on the ground by 3 s carrying its weight.
  void realRobotsDropAndSettle() {
    QFETCH(QString, file);
    QFETCH(QString, start);
    dyn::SimulationSettings s;
    s.ground.enabled = true;
    const dyn::Model model =
        dyn::loadModel(std::string(DYNSCOPE_TEST_DATA_DIR) + "/contact/" + file.toStdString(), {.floatingBase = true});
    QCOMPARE(model.joints[1].type, dyn::JointType::Floating);  // one free joint (the ant has its own)
    dyn::Simulator sim(model, s);
    if (file.startsWith("mesh"))  // the meshes' hull points
      QVERIFY2(sim.contactPoints().points.size() > 500, qPrintable(QString::number(sim.contactPoints().points.size())));
    VectorXd q = model.neutral();
    if (start == "inside")  // a crouch inside every limit
      for (int i = 2; i <= model.N; ++i) {
        const int iq = model.joints[i].idx_q;
        q[iq] = std::clamp(0.0, model.lowerLimit[iq] + 0.1, model.upperLimit[iq] - 0.1);
        if (model.jointNames[i].find("thigh") != std::string::npos) q[iq] = 0.8;
      }
    dyn::Data d(model);
    dyn::forwardKinematics(model, d, q);
    double lowest = 1e9;
    for (const dyn::ContactPoint& c : sim.contactPoints().points)
      lowest = std::min(lowest, d.X0[c.body].pointToA(c.point).z() - c.radius);
    q[2] += 0.2 - lowest;
    sim.reset(q, VectorXd::Zero(model.nv));
    const double E0 = sim.energy();
    double highest = E0;
    VectorXd base;
    while (sim.time() < 3.0 - 1e-9) {
      QVERIFY2(sim.step() == dyn::SimulationStatus::Ok, sim.lastError().c_str());
      highest = std::max(highest, sim.energy());
      if (std::abs(sim.time() - 2.5) < 1e-9) base = sim.q().head<3>();
    }
    const double dissipated = E0 - sim.energy();
    QVERIFY(dissipated > 0.5 * model.totalMass() * g * 0.2);  // at least half the fall's energy went
    QVERIFY2(highest - E0 <= 0.01 * dissipated,
             qPrintable(
                 QString("the energy rose %1 J above the start (%2 J dissipated)").arg(highest - E0).arg(dissipated)));
    dyn::computeEnergy(model, d, sim.q(), sim.qd());
    QVERIFY2(d.kinetic < 1e-4 * model.totalMass() * g * 0.2, qPrintable(QString("kinetic energy %1 J").arg(d.kinetic)));
    QVERIFY2((sim.q().head<3>() - base).norm() < 1e-3, "the base still moved in the last half second");
    double normal = 0;
    for (const dyn::ContactForce& c : sim.contactForces()) normal += c.force.z();
    QVERIFY2(std::abs(normal - model.totalMass() * g) < 0.01 * model.totalMass() * g,
             qPrintable(QString("the ground carries %1 N of %2 N").arg(normal).arg(model.totalMass() * g)));
  }

  // A shape's points in contact share its spring by depth: a drum standing on its end, given as a mesh
  // of 64 segments (its bottom rim gives several times the primitive's 12 points), rests m g / K into
  // the ground as the cylinder primitive does, with a stiffness K of one's own.
  void meshDrumSinksAsTheCylinderDoes() {
    const double r = 0.15, len = 0.1, m = 2, K = 2e4;
    QTemporaryDir dir;
    const std::string stl = dir.filePath("drum.stl").toStdString();
    {
      std::ofstream out(stl);
      out << "solid d\n";
      const int n = 64;
      const auto rim = [&](int k, double z) {
        return Vector3d(r * std::cos(2 * M_PI * k / n), r * std::sin(2 * M_PI * k / n), z);
      };
      const auto facet = [&](const Vector3d& p0, const Vector3d& p1, const Vector3d& p2) {
        out << "facet normal 0 0 0\nouter loop\n";
        for (const Vector3d& p : {p0, p1, p2}) out << "vertex " << p.x() << " " << p.y() << " " << p.z() << "\n";
        out << "endloop\nendfacet\n";
      };
      for (int k = 0; k < n; ++k) {
        facet(rim(k, -len / 2), rim(k + 1, -len / 2), rim(k + 1, len / 2));
        facet(rim(k, -len / 2), rim(k + 1, len / 2), rim(k, len / 2));
        facet(Vector3d(0, 0, -len / 2), rim(k + 1, -len / 2), rim(k, -len / 2));
        facet(Vector3d(0, 0, len / 2), rim(k, len / 2), rim(k + 1, len / 2));
      }
      out << "endsolid d\n";
    }
    const double ixx = m * (3 * r * r + len * len) / 12;
    double rest[2];
    int bottom[2];
    int k = 0;
    for (const std::string& shape :
         {"<cylinder radius=\"" + std::to_string(r) + "\" length=\"" + std::to_string(len) + "\"/>",
          "<mesh filename=\"" + stl + "\"/>"}) {
      const dyn::Model model = freeBody(shape, m, Vector3d(ixx, ixx, m * r * r / 2));
      dyn::SimulationSettings s;
      s.ground = {.enabled = true, .stiffness = K, .damping = 2 * std::sqrt(K * m)};
      dyn::Simulator sim(model, s);
      bottom[k] = 0;
      for (const dyn::ContactPoint& p : sim.contactPoints().points) bottom[k] += p.point.z() < -len / 2 + 1e-9;
      sim.reset(freePose(model, len / 2 + 0.01), VectorXd::Zero(model.nv));
      QCOMPARE(sim.advance(1.5), dyn::SimulationStatus::Ok);
      rest[k++] = sim.q()[2] - len / 2;
    }
    QVERIFY2(bottom[0] == 12 && bottom[1] > 24,
             qPrintable(QString("%1 and %2 points on the bottom rim").arg(bottom[0]).arg(bottom[1])));
    for (double z : rest) QVERIFY2(std::abs(z + m * g / K) < 1e-6, qPrintable(QString("rests at %1 m").arg(z)));
  }

  void settingsOutOfRangeAreRefused() {
    const dyn::Model model = ball(0.1, 1);
    for (auto set :
         {+[](dyn::GroundSettings& g) { g.friction = -1; }, +[](dyn::GroundSettings& g) { g.timeConstant = 0; },
          +[](dyn::GroundSettings& g) { g.height = NAN; }}) {
      dyn::SimulationSettings s;
      s.ground.enabled = true;
      set(s.ground);
      try {
        dyn::Simulator sim(model, s);
        QFAIL("accepted");
      } catch (const std::invalid_argument& e) {
        QVERIFY(QString(e.what()).contains("ground setting"));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestGroundContact)
#include "test_ground_contact.moc"
