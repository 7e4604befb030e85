// Edits of a robot's parameters over its description (io/robot_edit.hpp, issue 24), checked against
// closed-form dynamics: a pendulum (a point-like bob on a massless rod, a revolute joint about y)
// whose mass, COM and joint origin are edited gives
//   tau = (I_c + m l^2) qdd + m g l sin(q)
// with the edited values; refusals name the element and field and leave the description as it was.
#include <QtTest>
#include <cmath>
#include <limits>

#include "dynscope/dynscope.hpp"
#include "dynscope/io/robot_edit.hpp"

namespace {

// A pendulum hanging along -z from a pivot about y; the bob's COM at (0, 0, -l) in the link frame.
const char* kPendulum = R"(<?xml version="1.0"?>
<robot name="pendulum">
  <link name="base"/>
  <link name="bob">
    <inertial>
      <origin xyz="0 0 -0.5" rpy="0 0 0"/>
      <mass value="2"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
  <joint name="pivot" type="revolute">
    <parent link="base"/>
    <child link="bob"/>
    <origin xyz="0 0 1" rpy="0 0 0"/>
    <axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="50" velocity="3"/>
  </joint>
</robot>)";

// tau of the closed form: I_c about y, COM at distance l below the pivot, gravity 9.81 along -z.
double pendulumTau(double m, double l, double Iyy, double q, double qdd) {
  return (Iyy + m * l * l) * qdd + m * 9.81 * l * std::sin(q);
}

double tauOf(const dyn::RobotDescription& d, double q, double qdd) {
  const dyn::Model model = dyn::buildModel(d);
  dyn::Data data(model);
  Eigen::VectorXd Q(1), V = Eigen::VectorXd::Zero(1), A(1);
  Q << q;
  A << qdd;
  return dyn::rnea(model, data, Q, V, A)[0];
}

dyn::RobotEdit edit(bool joint, const char* element, dyn::EditField f, std::vector<double> v) {
  return dyn::RobotEdit{joint, element, f, std::move(v)};
}

}  // namespace

class TestRobotEdit : public QObject {
  Q_OBJECT

 private slots:
  void massComAndInertiaEditsGiveTheClosedForm() {
    dyn::RobotDescription d = dyn::parseUrdfString(kPendulum);
    const double q = 0.7, qdd = -1.3;
    QVERIFY(std::abs(tauOf(d, q, qdd) - pendulumTau(2, 0.5, 0.01, q, qdd)) < 1e-12);
    dyn::applyEdits(
        d, {edit(false, "bob", dyn::EditField::Mass, {3.5}), edit(false, "bob", dyn::EditField::Com, {0, 0, -0.8}),
            edit(false, "bob", dyn::EditField::Inertia, {0.02, 0.03, 0.04, 0, 0, 0})});
    QVERIFY(std::abs(tauOf(d, q, qdd) - pendulumTau(3.5, 0.8, 0.03, q, qdd)) < 1e-12);
    // The joint's origin does not change the pendulum's dynamics; its axis picks the inertia that
    // counts (about x: Ixx = 0.02 instead of Iyy = 0.03; gravity's torque has the same form).
    dyn::applyEdit(d, edit(true, "pivot", dyn::EditField::OriginXyz, {0.3, -0.2, 2}));
    QVERIFY(std::abs(tauOf(d, q, qdd) - pendulumTau(3.5, 0.8, 0.03, q, qdd)) < 1e-12);
    dyn::applyEdit(d, edit(true, "pivot", dyn::EditField::Axis, {2, 0, 0}));  // normalised on apply
    QCOMPARE(d.joints[0].axis, Eigen::Vector3d(1, 0, 0));
    QVERIFY(std::abs(tauOf(d, q, qdd) - pendulumTau(3.5, 0.8, 0.02, q, qdd)) < 1e-12);
  }

  void jointParametersReachTheModel() {
    dyn::RobotDescription d = dyn::parseUrdfString(kPendulum);
    const double inf = std::numeric_limits<double>::infinity();
    dyn::applyEdits(
        d, {edit(true, "pivot", dyn::EditField::Limits, {-0.5, 1.5}),
            edit(true, "pivot", dyn::EditField::Velocity, {4}), edit(true, "pivot", dyn::EditField::Effort, {70}),
            edit(true, "pivot", dyn::EditField::Damping, {0.3}), edit(true, "pivot", dyn::EditField::Friction, {0.2})});
    dyn::Model m = dyn::buildModel(d);
    QCOMPARE(m.lowerLimit[0], -0.5);
    QCOMPARE(m.upperLimit[0], 1.5);
    QCOMPARE(m.velocityLimit[0], 4.0);
    QCOMPARE(m.effortLimit[0], 70.0);
    QCOMPARE(m.damping[0], 0.3);
    QCOMPARE(m.friction[0], 0.2);
    dyn::applyEdit(d, edit(true, "pivot", dyn::EditField::Limits, {-inf, inf}));  // no limits
    QVERIFY(!d.joints[0].hasLimits);
    QCOMPARE(dyn::currentValues(d, true, "pivot", dyn::EditField::Limits), (std::vector<double>{-inf, inf}));
  }

  void refusalsNameTheReason_data() {
    QTest::addColumn<bool>("joint");
    QTest::addColumn<QString>("element");
    QTest::addColumn<int>("field");
    QTest::addColumn<QVector<double>>("values");
    QTest::addColumn<QString>("reason");
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    QTest::newRow("negative mass") << false << "bob" << int(dyn::EditField::Mass) << QVector<double>{-1}
                                   << "link 'bob' mass: a mass cannot be negative";
    QTest::newRow("NaN com") << false << "bob" << int(dyn::EditField::Com) << QVector<double>{0, nan, 0}
                             << "not a finite number";
    QTest::newRow("zero axis") << true << "pivot" << int(dyn::EditField::Axis) << QVector<double>{0, 0, 0}
                               << "the axis cannot be zero";
    QTest::newRow("lower above upper") << true << "pivot" << int(dyn::EditField::Limits) << QVector<double>{1, -1}
                                       << "the lower limit is above the upper one";
    QTest::newRow("one limit") << true << "pivot" << int(dyn::EditField::Limits) << QVector<double>{-inf, 1}
                               << "give both limits, or neither";
    QTest::newRow("negative effort") << true << "pivot" << int(dyn::EditField::Effort) << QVector<double>{-3}
                                     << "cannot be negative";
    QTest::newRow("unknown link") << false << "rod" << int(dyn::EditField::Mass) << QVector<double>{1}
                                  << "no link named 'rod'";
    QTest::newRow("joint field on a link")
        << false << "bob" << int(dyn::EditField::Axis) << QVector<double>{1, 0, 0} << "a link has no field 'axis'";
    QTest::newRow("wrong count") << false << "bob" << int(dyn::EditField::Com) << QVector<double>{1, 2}
                                 << "expected 3 values";
  }
  void refusalsNameTheReason() {
    QFETCH(bool, joint);
    QFETCH(QString, element);
    QFETCH(int, field);
    QFETCH(QVector<double>, values);
    QFETCH(QString, reason);
    dyn::RobotDescription d = dyn::parseUrdfString(kPendulum);
    const dyn::RobotEdit e{joint, element.toStdString(), dyn::EditField(field), {values.begin(), values.end()}};
    const std::string why = dyn::checkEdit(d, e);
    QVERIFY2(QString::fromStdString(why).contains(reason), why.c_str());
    const double before = tauOf(d, 0.4, 0.2);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::applyEdit(d, e));
    QCOMPARE(tauOf(d, 0.4, 0.2), before);  // nothing changed
  }

  // The joint's type: prismatic along y (gravity along -z does no work on it): tau = m qdd; fixed:
  // nothing moves; planar is not offered.
  void jointKindEdits() {
    dyn::RobotDescription d = dyn::parseUrdfString(kPendulum);
    dyn::applyEdit(d, edit(true, "pivot", dyn::EditField::Kind, {double(int(dyn::JointKind::Prismatic))}));
    QVERIFY(std::abs(tauOf(d, 0.1, 1.7) - 2 * 1.7) < 1e-12);
    dyn::applyEdit(d, edit(true, "pivot", dyn::EditField::Kind, {double(int(dyn::JointKind::Fixed))}));
    QCOMPARE(dyn::buildModel(d).nv, 0);
    QVERIFY(QString::fromStdString(
                dyn::checkEdit(d, edit(true, "pivot", dyn::EditField::Kind, {double(int(dyn::JointKind::Planar))})))
                .contains("revolute, continuous, prismatic or fixed"));
    dyn::applyEdit(d, edit(true, "pivot", dyn::EditField::Kind, {double(int(dyn::JointKind::Continuous))}));
    QVERIFY(!d.joints[0].hasLimits);
    QVERIFY(std::abs(tauOf(d, 0.7, -1.3) - pendulumTau(2, 0.5, 0.01, 0.7, -1.3)) < 1e-12);
  }

  void aFixedJointHasNoAxisOrLimits() {
    dyn::RobotDescription d = dyn::parseUrdfString(kPendulum);
    d.joints[0].kind = dyn::JointKind::Fixed;
    QVERIFY(dyn::currentValues(d, true, "pivot", dyn::EditField::Axis).empty());
    QVERIFY(QString::fromStdString(dyn::checkEdit(d, edit(true, "pivot", dyn::EditField::Limits, {0, 1})))
                .contains("fixed joint has no such parameter"));
  }

  void aMasslessLinkGetsAnInertial() {
    dyn::RobotDescription d = dyn::parseUrdfString(kPendulum);
    d.links[1].inertial.reset();
    QCOMPARE(dyn::currentValues(d, false, "bob", dyn::EditField::Mass), std::vector<double>{0});
    dyn::applyEdits(
        d, {edit(false, "bob", dyn::EditField::Mass, {1.5}), edit(false, "bob", dyn::EditField::Com, {0, 0, -0.4})});
    QVERIFY(std::abs(tauOf(d, 0.3, 0.9) - pendulumTau(1.5, 0.4, 0, 0.3, 0.9)) < 1e-12);
  }

  void withEditKeepsOneEntryPerField() {
    std::vector<dyn::RobotEdit> list;
    list = dyn::withEdit(list, edit(false, "bob", dyn::EditField::Mass, {1}));
    list = dyn::withEdit(list, edit(true, "pivot", dyn::EditField::Damping, {0.1}));
    list = dyn::withEdit(list, edit(false, "bob", dyn::EditField::Mass, {4}));
    QCOMPARE(int(list.size()), 2);
    QCOMPARE(list[0].values, std::vector<double>{4});
    for (dyn::EditField f : {dyn::EditField::Mass, dyn::EditField::Limits, dyn::EditField::Friction})
      QCOMPARE(dyn::editFieldByName(dyn::editFieldName(f)), std::optional<dyn::EditField>(f));
    QVERIFY(!dyn::editFieldByName("colour"));
  }
};

QTEST_APPLESS_MAIN(TestRobotEdit)
#include "test_robot_edit.moc"
