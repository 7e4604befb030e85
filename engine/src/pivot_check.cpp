// The refusal of forward dynamics at a pivot that is not positive (algorithms/pivot_check.hpp): what
// failed, where, what it means, and which findings of the model check explain it.
#include "dynscope/algorithms/pivot_check.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "model_check_context.hpp"

namespace dyn {
namespace {

using check_detail::num;

bool inSubtree(const std::vector<int>& parent, int root, int body) {
  while (body > root) body = parent[size_t(body)];
  return body == root;
}

// The model check's findings on the bodies below the joint (the pivot depends on them only) that
// explain a zero or a negative pivot: "; see the model check: inertia.not_psd at file:12 (link 'a')".
std::string explainingFindings(const PivotContext& m, int body, bool negative) {
  const auto relevant = [&](const std::string& code) {
    if (negative) return code == "inertia.not_psd" || code == "inertia.triangle";
    return code == "mass.massless_subtree" || code == "mass.zero_leaf" || code == "mass.zero";
  };
  std::string out;
  int shown = 0;
  for (const Finding& f : m.findings) {
    if (f.severity == Severity::Info && negative) continue;  // merged or fixed to the world: not the cause
    if (!relevant(f.code) || f.body < 1 || size_t(f.body) >= m.parent.size() || !inSubtree(m.parent, body, f.body))
      continue;
    if (shown == 2) {
      out += ", ...";
      break;
    }
    std::string where = f.file;
    if (f.line > 0) where += ":" + std::to_string(f.line);
    out += (shown++ ? ", " : "; see the model check: ") + f.code + " at " + where +
           (f.link.empty() ? "" : " (link '" + f.link + "')");
  }
  return out;
}

// Is every spatial inertia of the bodies below the joint positive semi-definite (to rounding)?
// Then so is H(q), and a negative pivot can only be a zero one that rounding pushed below.
bool inertiasPsdBelow(const PivotContext& m, int body) {
  for (size_t j = size_t(body); j < m.inertias.size() && j < m.parent.size(); ++j) {
    if (!inSubtree(m.parent, body, int(j))) continue;
    const Eigen::Matrix<double, 6, 6>& I = m.inertias[j];
    const double scale = I.cwiseAbs().maxCoeff();
    if (!std::isfinite(scale)) return false;
    if (scale > 0 &&
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>>(I, Eigen::EigenvaluesOnly).eigenvalues()[0] <
            -1e-12 * scale)
      return false;
  }
  return true;
}

}  // namespace

void throwNonPositivePivot(const PivotContext& m, int body, int jointDof, int jointDofs, double pivot,
                           PivotSource source) {
  const std::string joint = "joint '" + m.jointNames[size_t(body)] + "' (link '" + m.bodyNames[size_t(body)] + "')";
  // With every inertia below positive semi-definite, a negative pivot is a zero one below by rounding.
  const bool negative = pivot < 0 && !inertiasPsdBelow(m, body);
  const bool rounded = pivot < 0 && !negative;
  const std::string dof = std::to_string(jointDof + 1);
  const std::string value = jointDofs > 1
                                ? (negative ? "not positive definite (pivot " + num(pivot) + " of its dof " + dof + ")"
                                            : "singular (pivot " + num(pivot) + " of its dof " + dof + ")")
                                : num(pivot) + (rounded ? ", not positive (zero up to rounding)" : ", not positive");
  std::string what;
  switch (source) {
    case PivotSource::Aba:
      what = "forward dynamics (ABA) is refused at this configuration: the articulated inertia D = S^T IA S of " +
             joint + " is " + value;
      break;
    case PivotSource::Ltl:
      what = "H(q) = L^T L cannot be factorised at this configuration: the pivot of " + joint + " is " + value;
      break;
    case PivotSource::Loops:
      what =
          "closed-loop forward dynamics is refused at this configuration: a motion that the loops allow moves "
          "no mass (the mass matrix on the loops' free motions, K^T M K, has the eigenvalue " +
          num(pivot) + "); the motion is led by " + joint;
      break;
    case PivotSource::Denoc:
      what = "forward dynamics (DeNOC) is refused at this configuration: the pivot m^ of " + joint + " is " + value;
      break;
  }
  const std::string why =
      negative ? ". H(q) is not positive definite: inconsistent inertias give this motion a negative kinetic "
                 "energy, so forward dynamics has no meaning. Correct the <inertia> values, or apply the fix-up "
                 "balance-inertias"
               : ". H(q) is singular: the joint moves nothing it can accelerate (a link without mass on a "
                 "prismatic joint, links without mass or inertia, or mass only on the joint's axis), so forward "
                 "dynamics is undefined. Give the links it moves their mass and inertia (<inertial>)";
  throw ForwardDynamicsError(what + why + explainingFindings(m, body, negative), body);
}

}  // namespace dyn
