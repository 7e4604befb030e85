// The model checker's conditioning checks: cond(H) at the neutral pose (clamped into the limits)
// from the eigenvalues of the CRBA's H, and the mass and inertia ratios of neighbouring moving
// bodies that usually cause a large one.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "dynscope/algorithms/crba.hpp"
#include "dynscope/model/data.hpp"
#include "model_check_context.hpp"

namespace dyn::check_detail {
namespace {

// The neutral configuration moved into the joint limits: the pose the window starts in.
VecX<double> neutralWithinLimits(const Model& m) {
  VecX<double> q = m.neutral();
  for (int i = 1; i <= m.N; ++i) {
    const JointModel<double>& J = m.joints[i];
    if (J.nq != 1) continue;
    const double lo = m.lowerLimit[J.idx_q], hi = m.upperLimit[J.idx_q];
    if (std::isfinite(lo) && std::isfinite(hi) && lo <= hi) q[J.idx_q] = std::clamp(q[J.idx_q], lo, hi);
  }
  return q;
}

// The joint whose dof dominates an eigenvector.
int dominantBody(const Model& m, const VecX<double>& v) {
  Eigen::Index dof = 0;
  v.cwiseAbs().maxCoeff(&dof);
  return m.dofBody[dof];
}

struct Condition {
  enum class Kind { NotComputed, Fine, Large, Singular, Indefinite } kind = Kind::NotComputed;
  double cond = 0, smallest = 0, largest = 0;
  int body = -1;  // along which the smallest eigenvalue lies
};

Condition conditionAtNeutral(const Model& m) {
  Condition r;
  if (m.nv == 0 || m.nv > check_limits::kConditionMaxDofs) return r;
  Data d(m);
  crba(m, d, neutralWithinLimits(m));
  const Eigen::SelfAdjointEigenSolver<MatX<double>> es(d.M);
  if (es.info() != Eigen::Success) return r;
  r.smallest = es.eigenvalues()[0];
  r.largest = es.eigenvalues()[m.nv - 1];
  const double scale = std::max(std::abs(r.smallest), std::abs(r.largest));
  if (!(scale > 0)) return r;  // nothing moves any mass: the massless-subtree finding says so
  r.body = dominantBody(m, es.eigenvectors().col(0));
  if (r.smallest < -1e-12 * scale)
    r.kind = Condition::Kind::Indefinite;
  else if (r.smallest <= 1e-14 * r.largest)
    r.kind = Condition::Kind::Singular;
  else {
    r.cond = r.largest / r.smallest;
    r.kind = r.cond >= check_limits::kConditionWarning ? Condition::Kind::Large : Condition::Kind::Fine;
  }
  return r;
}

void reportCondition(Context& c, const Condition& r) {
  const Model& m = c.model;
  const std::string along = r.body > 0 ? ", mostly along joint " + inQuotes(m.jointNames[r.body]) : "";
  const auto locate = [&](Finding& f) {
    if (r.body > 0) c.atJointOfBody(f, r.body);
    f.element = "H(q)";
  };
  switch (r.kind) {
    case Condition::Kind::NotComputed:
      if (m.nv > check_limits::kConditionMaxDofs) {
        Finding& f = c.add(Severity::Info, "conditioning.cond_h");
        f.element = "H(q)";
        c.atLink(f, m.bodyNames[m.floatingBase ? 1 : 0]);  // at the root link: the whole robot
        f.message = "cond(H) not computed: " + std::to_string(m.nv) + " dofs (the check stops at " +
                    std::to_string(check_limits::kConditionMaxDofs) + ")";
        f.hint = "A dense eigenvalue decomposition of H costs O(nv^3).";
      }
      return;
    case Condition::Kind::Fine:
    case Condition::Kind::Large: {
      const bool large = r.kind == Condition::Kind::Large;
      Finding& f = c.add(large ? Severity::Warning : Severity::Info, "conditioning.cond_h");
      locate(f);
      f.message = "cond(H) = " + num(r.cond) + " at the neutral pose (eigenvalues from " + num(r.smallest) + " to " +
                  num(r.largest) + (large ? ")" + along : ")");
      f.hint = large ? "Forward dynamics and simulation lose about log10(cond(H)) of the 16 digits of a double and "
                       "need small time steps. The usual cause is a very light body next to a heavy one, or a tiny "
                       "inertia about a joint axis (see the ratio findings)."
                     : "The condition number of the joint-space inertia matrix; below 1e8 forward dynamics keeps at "
                       "least 8 significant digits.";
      return;
    }
    case Condition::Kind::Singular: {
      const bool explained = !m.immobileBodies.empty();
      Finding& f = c.add(explained ? Severity::Info : Severity::Warning, "conditioning.singular");
      locate(f);
      f.message = "H(q) is singular at the neutral pose (eigenvalues from " + num(r.smallest) + " to " +
                  num(r.largest) + ")" + along;
      f.hint = explained ? "The joints that move no mass (reported above) make it singular."
                         : "Some joint moves nothing it can accelerate at this pose: a massless leaf on a prismatic "
                           "joint, or a link whose mass lies on its joint axis with no rotational inertia. Forward "
                           "dynamics is undefined there and is refused, naming the joint.";
      return;
    }
    case Condition::Kind::Indefinite: {
      Finding& f = c.add(Severity::Warning, "conditioning.indefinite");
      locate(f);
      f.message = "H(q) is not positive definite at the neutral pose: its smallest eigenvalue is " + num(r.smallest) +
                  " (largest " + num(r.largest) + ")" + along;
      f.hint =
          "The inconsistent inertias reported above give some motions a negative kinetic energy; forward "
          "dynamics and simulation are refused at such poses, naming the joint. Correct them, or apply the fix-up "
          "balance-inertias.";
      return;
    }
  }
}

// Largest principal moment about the centre of mass.
double largestMoment(const Inertia<double>& I) {
  return Eigen::SelfAdjointEigenSolver<Mat3<double>>(I.inertiaAboutCom(), Eigen::EigenvaluesOnly).eigenvalues()[2];
}

void reportRatios(Context& c, bool illConditioned) {
  const Model& m = c.model;
  const Severity severity = illConditioned ? Severity::Warning : Severity::Info;
  const char* hint =
      "Large ratios between neighbouring bodies make H(q) ill-conditioned (see cond(H)). Often a sensor or "
      "dummy link with a tiny placeholder mass: merge it with a fixed joint, or give it a realistic mass.";
  const auto massless = [&](int b) {  // a massless subtree's 1e-35 is no ratio: it is reported as massless
    return std::find(m.immobileBodies.begin(), m.immobileBodies.end(), b) != m.immobileBodies.end();
  };
  for (int i = 1; i <= m.N; ++i) {
    const int p = m.parent[i];
    if (p < 1 || massless(i) || massless(p)) continue;
    const double mi = m.I[i].m, mp = m.I[p].m;
    if (mi > 0 && mp > 0 && std::max(mi, mp) >= check_limits::kMassRatio * std::min(mi, mp)) {
      const int light = mi < mp ? i : p, heavy = mi < mp ? p : i;
      Finding& f = c.add(severity, "conditioning.mass_ratio");
      c.atLink(f, m.bodyNames[light], c.massLine(m.bodyNames[light]));
      f.message = "link " + inQuotes(m.bodyNames[light]) + " (" + num(m.I[light].m) + " kg) next to link " +
                  inQuotes(m.bodyNames[heavy]) + " (" + num(m.I[heavy].m) + " kg): their masses differ by a factor " +
                  num(std::max(mi, mp) / std::min(mi, mp));
      f.hint = hint;
      continue;
    }
    const double ji = largestMoment(m.I[i]), jp = largestMoment(m.I[p]);
    if (ji > 0 && jp > 0 && std::max(ji, jp) >= check_limits::kInertiaRatio * std::min(ji, jp)) {
      const int light = ji < jp ? i : p, heavy = ji < jp ? p : i;
      Finding& f = c.add(severity, "conditioning.inertia_ratio");
      c.atLink(f, m.bodyNames[light], c.massLine(m.bodyNames[light]));
      f.message = "link " + inQuotes(m.bodyNames[light]) + " (largest principal moment " + num(std::min(ji, jp)) +
                  " kg m^2) next to link " + inQuotes(m.bodyNames[heavy]) + " (" + num(std::max(ji, jp)) +
                  " kg m^2): their inertias differ by a factor " + num(std::max(ji, jp) / std::min(ji, jp));
      f.hint = hint;
    }
  }
}

}  // namespace

void checkConditioning(Context& c) {
  const Condition r = conditionAtNeutral(c.model);
  reportCondition(c, r);
  reportRatios(c, r.kind == Condition::Kind::Large);
}

}  // namespace dyn::check_detail
