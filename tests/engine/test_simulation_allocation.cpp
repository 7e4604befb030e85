// Simulator::step allocates nothing once the simulator is built and its record reserved, also
// through joint-limit contacts: this program interposes malloc/calloc/realloc (which operator new
// and Eigen both use) and counts the calls of the test thread inside a guarded region; a
// deliberate allocation is shown to be seen.
#include <QtTest>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "dynscope/dynscope.hpp"

#include "malloc_counter.hpp"

namespace {

using dyn::testing::countAllocations;

dyn::Model robot(const char* file, bool floating = false) {
  return dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file, {.floatingBase = floating});
}

// A short reference for PD tracking: the neutral pose and a shifted one.
dyn::SampledTrajectory reference(const dyn::Model& model) {
  dyn::SampledTrajectory t;
  t.t = Eigen::Vector2d(0, 1);
  t.q.resize(model.nq, 2);
  t.q.col(0) = t.q.col(1) = model.neutral();
  for (int i = 0; i < model.nq; ++i)
    if (model.lowerLimit.size() && std::isfinite(model.lowerLimit[i]) && std::isfinite(model.upperLimit[i]))
      t.q(i, 1) = 0.5 * (model.lowerLimit[i] + model.upperLimit[i]);
  t.qd = Eigen::MatrixXd::Zero(model.nv, 2);
  t.qdd = Eigen::MatrixXd::Zero(model.nv, 2);
  return t;
}

}  // namespace

class TestSimulationAllocation : public QObject {
  Q_OBJECT

 private slots:
  void counterSeesAllocations() {
    std::vector<double>* v = nullptr;
    QVERIFY(countAllocations([&] { v = new std::vector<double>(100); }) >= 1);
    delete v;
    Eigen::VectorXd x;
    QVERIFY(countAllocations([&] { x.resize(1000); }) >= 1);
  }

  void stepDoesNotAllocate_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("floating");
    QTest::addColumn<int>("integrator");
    QTest::addColumn<QString>("controller");
    QTest::addColumn<bool>("compare");
    for (auto [file, floating] : {std::pair{"panda.urdf", false}, {"humanoid.urdf", false}, {"quadruped.urdf", true}})
      for (auto integrator :
           {dyn::Integrator::SemiImplicitEuler, dyn::Integrator::Rk4, dyn::Integrator::DormandPrince45})
        for (const char* controller : {"passive", "gravity", "constant", "computed-torque", "replay"})
          for (bool compare : {false, true}) {
            const std::string name = std::string(file) + "/" + dyn::integratorName(integrator) + "/" + controller +
                                     (compare ? "/compare" : "");
            QTest::newRow(name.c_str()) << file << floating << int(integrator) << controller << compare;
          }
  }

  void stepDoesNotAllocate() {
    QFETCH(QString, file);
    QFETCH(bool, floating);
    QFETCH(int, integrator);
    QFETCH(QString, controller);
    QFETCH(bool, compare);
    const dyn::Model model = robot(file.toStdString().c_str(), floating);
    dyn::Controller c = dyn::PassiveController{};
    if (controller == "gravity") c = dyn::GravityCompensation{};
    if (controller == "constant") c = dyn::ConstantTorque{Eigen::VectorXd::Constant(model.nv, 0.1)};
    if (controller == "computed-torque")
      c = dyn::PdTracking{reference(model), Eigen::VectorXd::Constant(model.nv, 100),
                          Eigen::VectorXd::Constant(model.nv, 20), dyn::PdTracking::Mode::ComputedTorque};
    if (controller == "replay")
      c = dyn::TorqueReplay{Eigen::Vector2d(0, 1), Eigen::MatrixXd::Constant(model.nv, 2, 0.1)};
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator(integrator);
    s.compare = compare;
    dyn::Simulator sim(model, s, c);
    sim.reset(reference(model).q.col(1), Eigen::VectorXd::Constant(model.nv, 0.1));  // mid-range: no limit hit
    sim.record().reserve(1000);
    sim.step();  // warm-up
    dyn::SimulationStatus status = dyn::SimulationStatus::Ok;
    const long n = countAllocations([&] {
      for (int k = 0; k < 100 && status == dyn::SimulationStatus::Ok; ++k) status = sim.step();
    });
    QCOMPARE(status, dyn::SimulationStatus::Ok);
    QCOMPARE(sim.record().samples(), 102);
    QCOMPARE(n, 0L);
  }

  // A record at its limit is thinned in place (SimulationSettings::recordLimit).
  void recordThinningDoesNotAllocate() {
    const dyn::Model model = robot("panda.urdf", false);
    dyn::SimulationSettings s;
    s.recordLimit = 50;
    dyn::Simulator sim(model, s);
    sim.reset(reference(model).q.col(1), Eigen::VectorXd::Constant(model.nv, 0.1));
    sim.record().reserve(s.recordLimit);
    dyn::SimulationStatus status = dyn::SimulationStatus::Ok;
    const long n = countAllocations([&] {
      for (int k = 0; k < 500 && status == dyn::SimulationStatus::Ok; ++k) status = sim.step();
    });
    QCOMPARE(status, dyn::SimulationStatus::Ok);
    QVERIFY(sim.recordInterval() >= 8);  // thinned at least three times
    QCOMPARE(n, 0L);
  }

  // Through ground contact: the quadruped dropped onto the ground, its feet touching down, sticking
  // and slipping (anchors moved), in every integrator.
  void groundContactDoesNotAllocate_data() {
    QTest::addColumn<int>("integrator");
    for (auto integrator : {dyn::Integrator::SemiImplicitEuler, dyn::Integrator::Rk4, dyn::Integrator::DormandPrince45})
      QTest::newRow(dyn::integratorName(integrator)) << int(integrator);
  }
  void groundContactDoesNotAllocate() {
    QFETCH(int, integrator);
    const dyn::Model model = robot("quadruped.urdf", true);
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator(integrator);
    s.ground.enabled = true;
    dyn::Simulator sim(model, s);
    QVERIFY(!sim.contactPoints().points.empty());
    dyn::Data d(model);  // the ground 5 mm above the lowest point at the neutral pose: landing at once
    dyn::forwardKinematics(model, d, model.neutral());
    s.ground.height = 1e9;
    for (const dyn::ContactPoint& c : sim.contactPoints().points)
      s.ground.height = std::min(s.ground.height, d.X0[c.body].pointToA(c.point).z() - c.radius + 0.005);
    sim.setSettings(s);
    Eigen::VectorXd qd0 = Eigen::VectorXd::Zero(model.nv);
    qd0[0] = 0.5;  // sliding sideways as it lands
    sim.reset(model.neutral(), qd0);
    sim.record().reserve(2000);
    sim.step();
    dyn::SimulationStatus status = dyn::SimulationStatus::Ok;
    const long n = countAllocations([&] {
      for (int k = 0; k < 400 && status == dyn::SimulationStatus::Ok; ++k) status = sim.step();
    });
    QCOMPARE(status, dyn::SimulationStatus::Ok);
    QVERIFY(!sim.contactForces().empty());  // it did land
    QCOMPARE(n, 0L);
  }

  // Through joint-limit contacts too (Dormand-Prince steps onto each located entry and release):
  // the humanoid thrown towards its upper limits.
  void limitContactsDoNotAllocate_data() {
    QTest::addColumn<int>("integrator");
    for (auto integrator : {dyn::Integrator::SemiImplicitEuler, dyn::Integrator::Rk4, dyn::Integrator::DormandPrince45})
      QTest::newRow(dyn::integratorName(integrator)) << int(integrator);
  }
  void limitContactsDoNotAllocate() {
    QFETCH(int, integrator);
    const dyn::Model model = robot("humanoid.urdf");
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator(integrator);
    dyn::Simulator sim(model, s);
    Eigen::VectorXd q0 = model.neutral();
    for (int k = 0; k < model.nq; ++k)  // 0.1 of the range inside every upper limit, moving towards it
      if (std::isfinite(model.upperLimit[k]) && std::isfinite(model.lowerLimit[k]))
        q0[k] = model.upperLimit[k] - 0.1 * (model.upperLimit[k] - model.lowerLimit[k]);
    sim.reset(q0, Eigen::VectorXd::Constant(model.nv, 2.0));
    sim.record().reserve(2000);  // and room for 200 limit events
    sim.step();
    dyn::SimulationStatus status = dyn::SimulationStatus::Ok;
    const long n = countAllocations([&] {
      for (int k = 0; k < 300 && status == dyn::SimulationStatus::Ok; ++k) status = sim.step();
    });
    QCOMPARE(status, dyn::SimulationStatus::Ok);
    QVERIFY(sim.record().limitEvents.size() >= 10);
    QVERIFY(sim.record().limitEvents.size() <= 200);
    QCOMPARE(n, 0L);
  }
};

QTEST_GUILESS_MAIN(TestSimulationAllocation)
#include "test_simulation_allocation.moc"
