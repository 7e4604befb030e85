// Time scalings, cubic splines and waypoint trajectories: boundary conditions and continuity as
// each kind promises them, closed forms (polynomials a spline must reproduce, Eigen's slerp),
// q̇/q̈ against central differences of q(t) on the joint manifolds (spherical and floating joints
// included), sampling, and the input checks.
#include <Eigen/Geometry>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/trajectory.hpp"
#include "random_tree.hpp"

using dyn::Interpolation;
using dyn::Model;
using dyn::WaypointTrajectory;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using K = dyn::JointKind;

namespace {

struct State {
  VectorXd q, qd, qdd;
};

State at(const WaypointTrajectory& traj, double t) {
  State s{VectorXd(traj.nq()), VectorXd(traj.nv()), VectorXd(traj.nv())};
  traj.evaluate(t, s.q, s.qd, s.qdd);
  return s;
}

// The displacement from q0 to q1 in v coordinates (zero when equal on the manifold, whatever the
// quaternion signs).
VectorXd manifoldGap(const Model& m, const VectorXd& q0, const VectorXd& q1) {
  VectorXd v(m.nv);
  dyn::difference(m, q0, q1, v);
  return v;
}

// A tree with spherical and floating joints among the 1-DOF and planar ones, on a floating base.
Model curvedTree(unsigned seed) {
  return dyn::buildModel(dyn::testing::randomTree(seed, 9,
                                                  {K::Revolute, K::Prismatic, K::Helical, K::Planar, K::Spherical,
                                                   K::Floating, K::Continuous, K::Fixed}),
                         {.floatingBase = true});
}

Model flatTree(unsigned seed) {
  return dyn::buildModel(
      dyn::testing::randomTree(seed, 7, {K::Revolute, K::Prismatic, K::Helical, K::Planar, K::Continuous}));
}

std::vector<dyn::Waypoint> randomWaypoints(const Model& m, unsigned seed, std::vector<double> times) {
  std::mt19937 rng(seed);
  std::vector<dyn::Waypoint> w;
  for (double t : times) w.push_back({t, dyn::randomConfiguration(m, rng)});
  return w;
}

bool hasCurvedJoint(const Model& m) {
  for (int i = 1; i <= m.N; ++i)
    if (m.joints[i].type == dyn::JointType::Spherical || m.joints[i].type == dyn::JointType::Floating) return true;
  return false;
}

// Is t within `margin` of a point where the kind's q̈ may jump (trapezoid phase changes)?
bool nearKink(const std::vector<dyn::Waypoint>& w, Interpolation kind, double t, double margin) {
  for (size_t k = 0; k + 1 < w.size(); ++k) {
    const double h = w[k + 1].t - w[k].t;
    for (double f : {0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0})
      if (std::abs(t - (w[k].t + f * h)) < margin && (kind == Interpolation::Trapezoidal || f == 0 || f == 1))
        return true;
  }
  return false;
}

void addKindRows() {
  QTest::addColumn<int>("kind");
  QTest::newRow("quintic") << int(Interpolation::Quintic);
  QTest::newRow("trapezoidal") << int(Interpolation::Trapezoidal);
  QTest::newRow("cubic-spline") << int(Interpolation::CubicSpline);
}

}  // namespace

class TestTrajectoryWaypoints : public QObject {
  Q_OBJECT

 private slots:
  // s(0) = 0, s(T) = 1, zero end velocities, the promised end accelerations, and s', s'' equal to
  // central differences of s and s' inside.
  void timeScalings() {
    const double T = 2.5;
    struct Profile {
      const char* name;
      std::function<dyn::ScalingSample(double)> f;
      double sdd0;  // promised s''(0) (NaN: not promised)
    };
    const double ta = 0.25 * T, V = 1 / (T - ta);
    const std::vector<Profile> profiles = {
        {"quintic", [&](double t) { return dyn::quinticScaling(t, T); }, 0.0},
        {"cubic", [&](double t) { return dyn::cubicScaling(t, T); }, 6 / (T * T)},
        {"trapezoidal 1/3", [&](double t) { return dyn::trapezoidalScaling(t, T); }, 1.0 / ((T - T / 3) * T / 3)},
        {"trapezoidal 1/4", [&](double t) { return dyn::trapezoidalScaling(t, T, 0.25); }, V / ta},
        {"cycloid", [&](double t) { return dyn::cycloidScaling(t, T); }, 0.0},
    };
    for (const Profile& p : profiles) {
      const auto s0 = p.f(0), s1 = p.f(T), mid = p.f(T / 2);
      QVERIFY2(s0.s == 0 && std::abs(s1.s - 1) < 1e-15, p.name);
      QVERIFY2(s0.sd == 0 && std::abs(s1.sd) < 1e-15, p.name);
      QVERIFY2(std::abs(s0.sdd - p.sdd0) < 1e-12, p.name);
      QVERIFY2(std::abs(s1.sdd + p.sdd0) < 1e-12, p.name);  // all are point-symmetric about T/2
      QVERIFY2(std::abs(mid.s - 0.5) < 1e-15, p.name);
      const double h = 1e-6;
      for (double t = 0.013; t < T; t += 0.1) {
        if (std::string(p.name).starts_with("trapezoidal") &&
            (std::abs(t - T / 3) < 0.01 || std::abs(t - 2 * T / 3) < 0.01 || std::abs(t - ta) < 0.01 ||
             std::abs(t - (T - ta)) < 0.01))
          continue;
        const auto a = p.f(t - h), b = p.f(t + h), c = p.f(t);
        QVERIFY2(std::abs((b.s - a.s) / (2 * h) - c.sd) < 1e-7, p.name);
        QVERIFY2(std::abs((b.sd - a.sd) / (2 * h) - c.sdd) < 1e-6, p.name);
      }
    }
    // The trapezoid coasts at 1 / (T - ta) in the middle.
    QCOMPARE(dyn::trapezoidalScaling(T / 2, T, 0.25).sd, V);
    QCOMPARE(dyn::trapezoidalScaling(T / 2, T, 0.25).sdd, 0.0);
  }

  // Not-a-knot reproduces any cubic polynomial exactly (values and derivatives), on uneven knots.
  void splineReproducesCubics() {
    const VectorXd t = (VectorXd(7) << -1.0, -0.3, 0.1, 0.15, 0.9, 2.0, 2.2).finished();
    auto poly = [](double x, int channel) {
      const double a = 0.3 + channel, b = -1.2, c = 0.7 * channel, d = 0.25 - channel;
      return Eigen::Vector3d(a + b * x + c * x * x + d * x * x * x, b + 2 * c * x + 3 * d * x * x, 2 * c + 6 * d * x);
    };
    for (int n : {4, 5, 7}) {
      MatrixXd y(2, n);
      for (int k = 0; k < n; ++k)
        for (int c = 0; c < 2; ++c) y(c, k) = poly(t[k], c)[0];
      const dyn::CubicSpline spline(t.head(n), y, dyn::SplineEnds::NotAKnot);
      VectorXd v(2), vd(2), vdd(2);
      for (double x = t[0]; x <= t[n - 1]; x += 0.037) {
        spline.evaluate(x, v, vd, vdd);
        for (int c = 0; c < 2; ++c) {
          const Eigen::Vector3d e = poly(x, c);
          QVERIFY(std::abs(v[c] - e[0]) < 1e-12 && std::abs(vd[c] - e[1]) < 1e-11 && std::abs(vdd[c] - e[2]) < 1e-10);
        }
      }
      const MatrixXd D = spline.firstDerivatives();
      for (int k = 0; k < n; ++k) QVERIFY(std::abs(D(1, k) - poly(t[k], 1)[1]) < 1e-11);
    }
    // Three knots: the parabola through them; two: the chord.
    MatrixXd y3(1, 3);
    y3 << 1, 0, 1;
    const dyn::CubicSpline parabola((VectorXd(3) << -1.0, 0.0, 1.0).finished(), y3, dyn::SplineEnds::NotAKnot);
    VectorXd v(1), vd(1), vdd(1);
    parabola.evaluate(0.5, v, vd, vdd);
    QVERIFY(std::abs(v[0] - 0.25) < 1e-15 && std::abs(vd[0] - 1) < 1e-15 && std::abs(vdd[0] - 2) < 1e-15);
  }

  // Clamped: zero slope at both ends, C² at the knots; with two knots it is the rest-to-rest cubic.
  void clampedSpline() {
    const VectorXd t = (VectorXd(5) << 0.0, 0.4, 1.5, 1.7, 3.0).finished();
    MatrixXd y(3, 5);
    y << 0, 1, -1, 2, 0.5, 3, 3, 2, 0, 1, -0.4, 0.2, 0.2, 0.9, 1.1;
    const dyn::CubicSpline s(t, y, dyn::SplineEnds::ClampedRest);
    const MatrixXd D = s.firstDerivatives();
    QVERIFY(D.col(0).norm() < 1e-14 && D.col(4).norm() < 1e-14);
    VectorXd a(3), ad(3), add(3), b(3), bd(3), bdd(3);
    for (int k = 0; k < 5; ++k) {
      s.evaluate(t[k], a, ad, add);
      CHECK_CLOSE(a, y.col(k), 1e-14, 1.0, "knot value");
    }
    for (int k = 1; k < 4; ++k) {  // left and right limits agree up to O(eps)
      const double e = 1e-9;
      s.evaluate(t[k] - e, a, ad, add);
      s.evaluate(t[k] + e, b, bd, bdd);
      CHECK_CLOSE(ad, bd, 1e-6, 1.0, "slope continuity");
      CHECK_CLOSE(add, bdd, 1e-6, 1.0, "curvature continuity");
    }
    MatrixXd y2(1, 2);
    y2 << 2, 5;
    const dyn::CubicSpline two((VectorXd(2) << 1.0, 3.0).finished(), y2, dyn::SplineEnds::ClampedRest);
    VectorXd v(1), vd(1), vdd(1);
    for (double x = 1; x <= 3; x += 0.25) {
      two.evaluate(x, v, vd, vdd);
      const dyn::ScalingSample c = dyn::cubicScaling(x - 1, 2);
      QVERIFY(std::abs(v[0] - (2 + 3 * c.s)) < 1e-14 && std::abs(vd[0] - 3 * c.sd) < 1e-14 &&
              std::abs(vdd[0] - 3 * c.sdd) < 1e-13);
    }
  }

  // Every kind passes through the waypoints; q̇ (and for quintic q̈) is zero where promised.
  void boundaryConditions_data() { addKindRows(); }
  void boundaryConditions() {
    QFETCH(int, kind);
    const Interpolation k = Interpolation(kind);
    for (unsigned seed : {1u, 2u, 3u}) {
      const Model m = seed == 1 ? flatTree(seed) : curvedTree(seed);
      const auto w = randomWaypoints(m, seed, {0.0, 0.8, 1.1, 2.5});
      const WaypointTrajectory traj(m, w, k);
      for (size_t j = 0; j < w.size(); ++j) {
        const State s = at(traj, w[j].t);
        CHECK_CLOSE(manifoldGap(m, w[j].q, s.q), VectorXd::Zero(m.nv), 1e-12, 1.0, "through the waypoint");
        const bool end = j == 0 || j + 1 == w.size();
        if (k != Interpolation::CubicSpline || end)
          CHECK_CLOSE(s.qd, VectorXd::Zero(m.nv), 1e-12, 1.0, "rest at the waypoint");
        if (k == Interpolation::Quintic) CHECK_CLOSE(s.qdd, VectorXd::Zero(m.nv), 1e-12, 1.0, "q̈ = 0 at the waypoint");
      }
      if (k == Interpolation::CubicSpline)  // documented: the spline does not stop at the inner waypoints
        QVERIFY(at(traj, w[1].t).qd.norm() > 1e-3);
      // Clamped to the ends outside [t_0, t_end].
      CHECK_CLOSE(manifoldGap(m, at(traj, -5.0).q, w.front().q), VectorXd::Zero(m.nv), 1e-12, 1.0, "before");
      CHECK_CLOSE(manifoldGap(m, at(traj, 99.0).q, w.back().q), VectorXd::Zero(m.nv), 1e-12, 1.0, "after");
    }
  }

  // Continuity at the inner waypoints: C² for quintic and spline (on the manifold), C¹ for the
  // trapezoid, whose q̈ jump the same check detects.
  void continuityAtWaypoints_data() { addKindRows(); }
  void continuityAtWaypoints() {
    QFETCH(int, kind);
    const Interpolation k = Interpolation(kind);
    for (unsigned seed : {4u, 5u, 6u}) {
      const Model m = curvedTree(seed);
      QVERIFY(hasCurvedJoint(m));
      const auto w = randomWaypoints(m, seed, {0.0, 0.5, 1.7, 2.0, 3.1});
      const WaypointTrajectory traj(m, w, k);
      double scale = 1;  // of q̇ and q̈ over the whole trajectory
      for (double t = 0; t <= 3.1; t += 0.01) {
        const State s = at(traj, t);
        scale = std::max({scale, s.qd.cwiseAbs().maxCoeff(), s.qdd.cwiseAbs().maxCoeff()});
      }
      const double e = 1e-8;
      bool qddJumps = false;
      for (size_t j = 1; j + 1 < w.size(); ++j) {
        const State a = at(traj, w[j].t - e), b = at(traj, w[j].t + e);
        CHECK_CLOSE(manifoldGap(m, a.q, b.q), VectorXd::Zero(m.nv), 1e-5, scale, "q continuity");
        CHECK_CLOSE(a.qd, b.qd, 1e-4, scale, "q̇ continuity");
        qddJumps = qddJumps || (a.qdd - b.qdd).cwiseAbs().maxCoeff() > 1e-3 * scale;
      }
      QCOMPARE(qddJumps, k == Interpolation::Trapezoidal);
    }
  }

  // q̇ and q̈ are the time derivatives of q(t) on the manifold: central differences
  // difference(q(t - h), q(t + h)) / 2h and (q̇(t + h) - q̇(t - h)) / 2h, on trees with spherical and
  // floating joints (a floating base too).
  void derivativesMatchCentralDifferences_data() { addKindRows(); }
  void derivativesMatchCentralDifferences() {
    QFETCH(int, kind);
    const Interpolation k = Interpolation(kind);
    for (unsigned seed : {7u, 8u, 9u, 10u}) {
      const Model m = curvedTree(seed);
      const auto w = randomWaypoints(m, seed, {0.0, 0.6, 1.5, 1.9, 3.0});
      const WaypointTrajectory traj(m, w, k);
      std::mt19937 rng(seed);
      std::uniform_real_distribution<double> U(0.0, 3.0);
      const double h = 1e-5;
      for (int sample = 0; sample < 40; ++sample) {
        const double t = U(rng);
        if (nearKink(w, k, t, 2 * h)) continue;
        const State s = at(traj, t), a = at(traj, t - h), b = at(traj, t + h);
        const double scale = 1 + s.qd.cwiseAbs().maxCoeff() + s.qdd.cwiseAbs().maxCoeff();
        CHECK_CLOSE(manifoldGap(m, a.q, b.q) / (2 * h), s.qd, 1e-6, scale, "q̇ vs central difference of q");
        CHECK_CLOSE((b.qd - a.qd) / (2 * h), s.qdd, 1e-5, scale, "q̈ vs central difference of q̇");
        for (int i = 1; i <= m.N; ++i) {  // quaternions stay unit
          const auto& J = m.joints[i];
          if (J.type == dyn::JointType::Spherical || J.type == dyn::JointType::Floating)
            QVERIFY(std::abs(s.q.segment<4>(J.idx_q + (J.type == dyn::JointType::Floating ? 3 : 0)).norm() - 1) <
                    1e-14);
        }
      }
    }
  }

  // On flat joints the spline is q_0 + U(t), U the clamped spline of the displacements: its values
  // between waypoints equal a CubicSpline built directly on the waypoint values.
  void splineOnFlatJointsIsTheCubicSpline() {
    const Model m = flatTree(11);
    const auto w = randomWaypoints(m, 11, {0.0, 0.3, 1.0, 1.8});
    const WaypointTrajectory traj(m, w, Interpolation::CubicSpline);
    MatrixXd Y(m.nq, 4);
    VectorXd T(4);
    for (int j = 0; j < 4; ++j) {
      Y.col(j) = w[j].q;
      T[j] = w[j].t;
    }
    const dyn::CubicSpline ref(T, Y, dyn::SplineEnds::ClampedRest);
    VectorXd y(m.nq), yd(m.nq), ydd(m.nq);
    for (double t = 0; t <= 1.8; t += 0.07) {
      ref.evaluate(t, y, yd, ydd);
      const State s = at(traj, t);
      CHECK_CLOSE(s.q, y, 1e-12, 1.0, "q");
      CHECK_CLOSE(s.qd, yd, 1e-11, 1.0, "q̇");
      CHECK_CLOSE(s.qdd, ydd, 1e-10, 1.0, "q̈");
    }
  }

  // Two waypoints of a spherical joint: the rotation follows Eigen's slerp at s(t), for the
  // quintic (s = quintic scaling) and the spline (two knots: s = the rest-to-rest cubic).
  void sphericalSegmentIsSlerp() {
    const Model m = dyn::buildModel(dyn::testing::randomTree(3, 2, {K::Spherical}));
    QCOMPARE(m.nq, 4);
    const Eigen::Quaterniond a(Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 2, 3).normalized()));
    const Eigen::Quaterniond b(Eigen::AngleAxisd(2.7, Eigen::Vector3d(-1, 0.5, 0.2).normalized()));
    std::vector<dyn::Waypoint> w = {{0.5, a.coeffs()}, {2.5, b.coeffs()}};
    for (Interpolation k : {Interpolation::Quintic, Interpolation::CubicSpline, Interpolation::Trapezoidal}) {
      const WaypointTrajectory traj(m, w, k);
      for (double t = 0.5; t <= 2.5; t += 0.1) {
        const double s = k == Interpolation::Quintic       ? dyn::quinticScaling(t - 0.5, 2).s
                         : k == Interpolation::CubicSpline ? dyn::cubicScaling(t - 0.5, 2).s
                                                           : dyn::trapezoidalScaling(t - 0.5, 2).s;
        const State st = at(traj, t);
        const Eigen::Quaterniond got(st.q[3], st.q[0], st.q[1], st.q[2]);
        QVERIFY(std::abs(got.norm() - 1) < 1e-14);
        CHECK_CLOSE(got.toRotationMatrix(), a.slerp(s, b).toRotationMatrix(), 1e-12, 1.0, "slerp");
      }
    }
  }

  void sampling() {
    const Model m = flatTree(12);
    auto w = randomWaypoints(m, 12, {0.0, 1.0, 3.0});
    const WaypointTrajectory traj(m, w, Interpolation::Quintic);
    dyn::SampledTrajectory s = traj.sample(100);
    QCOMPARE(s.samples(), 301);
    QCOMPARE(s.t[0], 0.0);
    QCOMPARE(s.t[300], 3.0);
    QCOMPARE(s.t[150], 1.5);
    s.validate(m);
    const State mid = at(traj, 1.5);
    QCOMPARE(VectorXd(s.q.col(150)), mid.q);
    QCOMPARE(VectorXd(s.qdd.col(150)), mid.qdd);
    w.back().t = 3.005;  // the end is off the grid: one extra sample at t_end
    s = WaypointTrajectory(m, w, Interpolation::Quintic).sample(100);
    QCOMPARE(s.samples(), 302);
    QCOMPARE(s.t[301], 3.005);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, traj.sample(0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, traj.sample(-1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, traj.sample(1e9));
  }

  // Scrubbing between samples: exact at the samples, q on the manifold between them, nearest index.
  void sampledInterpolation() {
    const Model m = curvedTree(13);
    const auto w = randomWaypoints(m, 13, {0.0, 1.0, 2.0});
    const dyn::SampledTrajectory s = WaypointTrajectory(m, w, Interpolation::CubicSpline).sample(20);
    VectorXd q(m.nq), qd(m.nv), qdd(m.nv);
    s.interpolate(m, s.t[7], q, qd, qdd);
    QCOMPARE(q, VectorXd(s.q.col(7)));
    QCOMPARE(qd, VectorXd(s.qd.col(7)));
    const double t = s.t[7] + 0.25 * (s.t[8] - s.t[7]);
    s.interpolate(m, t, q, qd, qdd);
    // A quarter of the way along the chord from sample 7 to 8 (on the manifold).
    CHECK_CLOSE(manifoldGap(m, s.q.col(7), q), 0.25 * manifoldGap(m, s.q.col(7), s.q.col(8)), 1e-12, 1.0, "chord");
    CHECK_CLOSE(qd, 0.75 * s.qd.col(7) + 0.25 * s.qd.col(8), 1e-14, 1.0, "q̇ linear");
    QCOMPARE(s.nearestSample(t), 7);
    QCOMPARE(s.nearestSample(s.t[7] + 0.6 * (s.t[8] - s.t[7])), 8);
    QCOMPARE(s.nearestSample(-3), 0);
    QCOMPARE(s.nearestSample(30), s.samples() - 1);
    s.interpolate(m, 30, q, qd, qdd);
    QCOMPARE(q, VectorXd(s.q.col(s.samples() - 1)));
  }

  void inputErrors_data() {
    QTest::addColumn<int>("mistake");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("one waypoint") << 0 << "at least 2 waypoints";
    QTest::newRow("times not increasing") << 1 << "waypoint 3: t = 1";
    QTest::newRow("wrong q size") << 2 << "waypoint 2: q has";
    QTest::newRow("nan") << 3 << "waypoint 1: q entry";
    QTest::newRow("nan time") << 4 << "waypoint 3: the time";
    QTest::newRow("zero quaternion") << 5 << "waypoint 2: the quaternion";
    QTest::newRow("trapezoid fraction") << 6 << "fraction";
  }
  void inputErrors() {
    QFETCH(int, mistake);
    QFETCH(QString, fragment);
    const Model m = curvedTree(14);
    auto w = randomWaypoints(m, 14, {0.0, 1.0, 2.0});
    double fraction = 1.0 / 3;
    if (mistake == 0) w.resize(1);
    if (mistake == 1) w[2].t = 1.0;
    if (mistake == 2) w[1].q.conservativeResize(m.nq - 1);
    if (mistake == 3) w[0].q[m.nq - 1] = std::nan("");
    if (mistake == 4) w[2].t = std::nan("");
    if (mistake == 5) {
      for (int i = 1; i <= m.N; ++i)
        if (m.joints[i].type == dyn::JointType::Floating) w[1].q.segment<4>(m.joints[i].idx_q + 3).setZero();
    }
    if (mistake == 6) fraction = 0.6;
    try {
      WaypointTrajectory traj(m, w, Interpolation::Trapezoidal, fraction);
      QFAIL("no exception");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains(fragment), e.what());
    }
    QCOMPARE(dyn::interpolationByName("cubic-spline"), std::optional(Interpolation::CubicSpline));
    QVERIFY(!dyn::interpolationByName("linear"));
  }
};

QTEST_GUILESS_MAIN(TestTrajectoryWaypoints)
#include "test_trajectory_waypoints.moc"
