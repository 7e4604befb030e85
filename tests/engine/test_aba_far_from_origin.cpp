// ABA's accuracy far from the origin (issue 26, the measuring step): a robot carried by a prismatic
// rail (the UR5) or by a floating base (the quadruped) at 0 to 1e5 m from the world origin, the
// rest of the state the same. τ = RNEA(q, q̇, q̈_true); H from CRBA and C from RNEA at q̈ = 0 work in
// link coordinates and stay exact far out. Recorded (printed) for docs/benchmarks.md, "Issue 26":
// the residual ‖H q̈ + C − τ‖∞ of ABA's q̈ and of CRBA + LᵀL's, their distance from q̈_true and from
// each other, and how many states ABA refused.
//
// ABA works in world coordinates (aba.hpp): the spatial inertias about the distant origin carry
// terms of order m d² (d the distance), and their rounding, ε m d², is what q̈ loses: measured
// (2026-11-28) 2e-12 at the origin (LᵀL: 2e-14), 2e-9 at 100 m, 2e-7 at 1e3 m, 6e-5 at 1e4 m,
// 2e-3 at 1e5 m and 2e-2 at 3e5 m on the UR5 on a rail; on the floating quadruped ABA refuses every
// state from 1e3 m out (the free-flyer's 6x6 D loses its rotational pivots below the rounding floor
// and is reported as a singular H). The bounds below assert what holds today, no more; issue 26
// asks for 1e-9 at 1e5 m (and no refusal), as a local-frame ABA (Pinocchio's LOCAL) reaches:
// tighten them when it does.
#include <QtTest>
#include <algorithm>
#include <cstdio>
#include <random>

#include "dynscope/dynscope.hpp"
#include "ur5_on_a_rail.hpp"

using dyn::Model;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

const double kDistances[] = {0.0, 1e2, 1e3, 1e4, 1e5};

using dyn::testing::ur5OnARail;

Model floatingQuadruped() {
  dyn::BuildOptions o;
  o.floatingBase = true;
  return dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/quadruped.urdf", o);
}

// Max over the seeds; "err" is the distance from the q̈ that τ was made from.
struct Errors {
  double abaResidual = 0, ltlResidual = 0;  // |H q̈ + C − τ|
  double abaError = 0, ltlError = 0;        // |q̈ − q̈_true|
  double abaVsLtl = 0;                      // |q̈_ABA − q̈_LᵀL|
  int abaRefused = 0;                       // states where ABA threw (a pivot below its rounding floor)
};

constexpr int kSeeds = 8;

// Seeded states (joint angles, q̇ and q̈_true in [-1, 1]; τ = RNEA(q, q̇, q̈_true)) moved `distance`
// along x: the rail's q, or the floating base's position x.
Errors measure(const Model& m, double distance) {
  dyn::Data d(m);
  Errors e;
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> U(-1, 1);
    VectorXd q = dyn::randomConfiguration(m, rng), qd(m.nv), qddTrue(m.nv);
    for (int i = 1; i <= m.N; ++i)  // joint angles in [-1, 1], as Pinocchio's benchmark and issue 26's table
      if (m.joints[i].nq == 1) q[m.joints[i].idx_q] = U(rng);
    for (int k = 0; k < m.nv; ++k) qd[k] = U(rng);
    for (int k = 0; k < m.nv; ++k) qddTrue[k] = U(rng);
    q[m.joints[1].idx_q] = distance;
    const VectorXd tau = dyn::rnea(m, d, q, qd, qddTrue);
    const Eigen::MatrixXd H = dyn::crba(m, d, q);
    const VectorXd C = dyn::nonLinearEffects(m, d, q, qd);
    const VectorXd ltl = dyn::forwardDynamicsCrba(m, d, q, qd, tau);
    e.ltlResidual = std::max(e.ltlResidual, (H * ltl + C - tau).cwiseAbs().maxCoeff());
    e.ltlError = std::max(e.ltlError, (ltl - qddTrue).cwiseAbs().maxCoeff());
    try {
      const VectorXd aba = dyn::aba(m, d, q, qd, tau);
      e.abaResidual = std::max(e.abaResidual, (H * aba + C - tau).cwiseAbs().maxCoeff());
      e.abaError = std::max(e.abaError, (aba - qddTrue).cwiseAbs().maxCoeff());
      e.abaVsLtl = std::max(e.abaVsLtl, (aba - ltl).cwiseAbs().maxCoeff());
    } catch (const dyn::ForwardDynamicsError&) {
      ++e.abaRefused;
    }
  }
  return e;
}

}  // namespace

class TestAbaFarFromOrigin : public QObject {
  Q_OBJECT

  // Prints the table for one model and checks today's bounds.
  void record(const char* name, const Model& m) {
    std::printf("%-20s %7s %11s %11s %11s %11s %11s %8s\n", name, "d [m]", "ABA resid", "LTL resid", "ABA err",
                "LTL err", "|ABA-LTL|", "refused");
    for (double dist : kDistances) {
      const Errors e = measure(m, dist);
      std::printf("%-20s %7.0e %11.2e %11.2e %11.2e %11.2e %11.2e %5d/%d\n", "", dist, e.abaResidual, e.ltlResidual,
                  e.abaError, e.ltlError, e.abaVsLtl, e.abaRefused, kSeeds);
      const auto at = [&](const char* what, double x) {
        return qPrintable(QString("%1: %2 = %3 at %4 m").arg(name, what).arg(x).arg(dist));
      };
      // CRBA + LᵀL (and RNEA, CRBA) work in link coordinates: exact to rounding at any distance.
      QVERIFY2(e.ltlResidual <= 1e-11, at("LTL residual", e.ltlResidual));
      QVERIFY2(e.ltlError <= 1e-11, at("LTL error", e.ltlError));
      // ABA: today's bounds, about 5x what it measures (its error grows as eps d^2, the world-frame
      // inertias' m d^2 terms); issue 26 asks for 1e-9 at 1e5 m. Refused states are not counted.
      const double abaBound = dist == 0 ? 1e-11 : dist <= 1e2 ? 1e-8 : dist <= 1e3 ? 1e-6 : dist <= 1e4 ? 5e-4 : 2e-2;
      QVERIFY2(e.abaVsLtl <= abaBound, at("|ABA - LTL|", e.abaVsLtl));
      QVERIFY2(e.abaError <= abaBound, at("ABA error", e.abaError));
      QVERIFY2(e.abaResidual <= abaBound, at("ABA residual", e.abaResidual));
      // Refusals (the free-flyer's D pivot below its rounding floor, a false "H singular") happen
      // today on the floating quadruped from 1e3 m out; never closer.
      if (dist <= 1e2) QVERIFY2(e.abaRefused == 0, at("ABA refusals", e.abaRefused));
    }
  }

 private slots:
  void ur5OnARailFarOut() { record("UR5 on a rail", ur5OnARail()); }
  void floatingQuadrupedFarOut() { record("quadruped, floating", floatingQuadruped()); }
};

QTEST_APPLESS_MAIN(TestAbaFarFromOrigin)
#include "test_aba_far_from_origin.moc"
