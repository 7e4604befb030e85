// The Simulator's ground contact (ground_contact.hpp; the reasoning is in docs/simulation.md, "Ground
// and contact"): the contact points and their shapes' springs, the forces at a state, the anchors of
// sticking friction, and symplectic Euler's step with the contact forces taken at the step's end.
#include <algorithm>
#include <cmath>

#include "contact_point_state.hpp"
#include "dynscope/algorithms/aba.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/kinematics.hpp"
#include "dynscope/algorithms/ltl.hpp"
#include "dynscope/simulation/simulator.hpp"

namespace dyn {

using detail::pointState;
using detail::PointState;

// The points and the mass each one pushes: m = 1 / (n^T J H^-1 J^T n) at the neutral pose, n the
// ground normal (the point's inertia along it when the rest of the robot gives way; the largest
// mobility of the three axes when the joints cannot move the point along the normal there).
void Simulator::setUpContacts() {
  if (contactsReady_ || !settings_.ground.enabled) return;
  contactsReady_ = true;
  contactSet_ = dyn::contactPoints(model_);
  const size_t n = contactSet_.points.size();
  contactMass_.assign(n, 0.0);
  contactMassT_.assign(n, 0.0);
  contactDepth_.assign(n, 0.0);
  shapeDepth_.assign(model_.geometries.size(), 0.0);
  anchor_.assign(n, Vec3<double>::Zero());
  anchored_.assign(n, 0);
  contactWrenches_.reserve(n);
  contactForces_.reserve(n);
  contactRows_.reserve(n);
  contactJ_.setZero(3 * Eigen::Index(n), model_.nv);
  if (n == 0 || model_.nv == 0) return;
  const Eigen::VectorXd q0 = model_.neutral(), v0 = Eigen::VectorXd::Zero(model_.nv);
  Eigen::MatrixXd L = crba(model_, data_, q0);
  factorLTL(model_, L);  // positive definite there: the constructor factored it
  forwardKinematics(model_, data_, q0, v0);
  std::vector<ExternalWrench> unit(1);
  Eigen::VectorXd tauUnit, x;
  for (size_t j = 0; j < n; ++j) {
    const ContactPoint& c = contactSet_.points[j];
    double mobility[3];
    for (int axis = 0; axis < 3; ++axis) {
      unit[0] = {c.body, pointState(data_, c).pb, Vec3<double>::Unit(axis), Vec3<double>::Zero()};
      wrenchJointForces(model_, data_, unit, tauUnit);  // J^T e_axis
      x = tauUnit;
      solveLTL(model_, L, x);
      mobility[axis] = tauUnit.dot(x);  // e^T J H^-1 J^T e
    }
    const double largest = std::max({mobility[0], mobility[1], mobility[2]});
    const double w = mobility[2] > 1e-6 * largest ? mobility[2] : largest;
    const double wt =
        std::max(mobility[0], mobility[1]) > 1e-6 * largest ? std::max(mobility[0], mobility[1]) : largest;
    contactMass_[j] = w > 0 ? 1 / w : 0;     // along the normal
    contactMassT_[j] = wt > 0 ? 1 / wt : 0;  // along the ground, the lighter way
  }
}

bool Simulator::groundActive() const { return settings_.ground.enabled && !contactSet_.points.empty(); }

bool Simulator::implicitContact() const {
  return settings_.integrator == Integrator::SemiImplicitEuler && !model_.hasLoops() && !mimic_;
}

// Gravity compensation cancels gravity exactly, so a stage that needs qdd alone can drop both (not
// when the ground takes the compensation of a free base away).
bool Simulator::cancelsGravity() const {
  return std::holds_alternative<GravityCompensation>(controller_) && !model_.hasLoops() &&
         !(groundActive() && !freeDofs_.empty());
}

// contactDepth_: each point's penetration at the kinematics in data_ (0 above the ground), h ahead
// at its present velocity; shapeDepth_: their sums per shape. A shape's points in contact share its
// spring and damper as depth_j / sum: a flat face pressed in evenly gives the shape's K however many
// points it has, and a point that just touches (depth 0) takes a share that grows from zero.
void Simulator::measureDepths(double h) {
  std::fill(shapeDepth_.begin(), shapeDepth_.end(), 0.0);
  for (size_t j = 0; j < contactSet_.points.size(); ++j) {
    const PointState s = pointState(data_, contactSet_.points[j]);
    contactDepth_[j] = std::max(0.0, settings_.ground.height - s.p.z() - h * s.vp.z());
    shapeDepth_[size_t(contactSet_.points[j].geometry)] += contactDepth_[j];
  }
}

double Simulator::contactShare(size_t j) const {
  const double sum = shapeDepth_[size_t(contactSet_.points[j].geometry)];
  return sum > 0 ? contactDepth_[j] / sum : 0.0;
}

// tau += J^T f over the points below the ground at the kinematics in data_ (forwardKinematics with
// velocities first): F_n = max(0, K d - C v_n), F_t = -K (p - anchor) - C v_t kept inside mu F_n, with
// each point's share of its shape's K and C.
void Simulator::groundForces(Eigen::VectorXd& tau, bool state) {
  const GroundSettings& g = settings_.ground;
  contactWrenches_.clear();
  if (state) {
    contactForces_.clear();
    contactEnergy_ = 0;
  }
  measureDepths(0);
  for (size_t j = 0; j < contactSet_.points.size(); ++j) {
    const double d = contactDepth_[j], w = contactShare(j);
    if (!(d > 0) || !(w > 0)) continue;
    const ContactPoint& c = contactSet_.points[j];
    const PointState s = pointState(data_, c);
    const double K = w * contactK_[j], C = w * contactC_[j], Kt = w * contactKt_[j], Ct = w * contactCt_[j];
    const double fn = std::max(0.0, K * d - C * s.vp.z());  // the spring-damper that only pushes
    Vec3<double> stretch = Vec3<double>::Zero();            // from where the point stuck
    if (anchored_[j]) stretch.head<2>() = s.p.head<2>() - anchor_[j].head<2>();
    Vec3<double> f(-Kt * stretch.x() - Ct * s.vp.x(), -Kt * stretch.y() - Ct * s.vp.y(), 0);
    const double limit = g.friction * fn, trial = f.norm();
    const bool sliding = trial > limit;
    if (sliding) f *= limit / trial;  // onto the cone's surface: Coulomb's sliding friction
    f.z() = fn;
    contactWrenches_.push_back({c.body, s.pb, f, Vec3<double>::Zero()});
    if (!state) continue;
    contactForces_.push_back({int(j), c.body, s.p, f, d, sliding});
    contactEnergy_ += 0.5 * (K * d * d + Kt * stretch.squaredNorm());  // the springs' stored energy
  }
  if (contactWrenches_.empty()) return;
  wrenchJointForces(model_, data_, contactWrenches_, tauWrench_);
  tau += tauWrench_;
}

void Simulator::stateReadouts() {
  tauExternal_.setZero();
  tauGround_.setZero();
  if (wrenches_.empty() && !groundActive()) return;
  forwardKinematics(model_, data_, q_, qd_);
  if (!wrenches_.empty()) {
    wrenchJointForces(model_, data_, wrenches_, tauWrench_);
    tauExternal_ += tauWrench_;
  }
  if (groundActive()) {
    force_.setZero();
    groundForces(force_, true);  // also contactForces_, contactEnergy_
    tauGround_ = force_;
    tauExternal_ += force_;
  }
}

// After an accepted step: a point that touched down sticks where it is; a stuck point whose spring
// would pull harder than mu F_n slips, its anchor moved so that the spring pulls mu F_n (the
// reset integrator); a point that left the ground forgets its anchor.
bool Simulator::slipAnchors() {
  const GroundSettings& g = settings_.ground;
  forwardKinematics(model_, data_, q_, qd_);
  measureDepths(0);
  bool slipped = false;
  for (size_t j = 0; j < contactSet_.points.size(); ++j) {
    const double d = contactDepth_[j];
    if (!(d > 0)) {
      anchored_[j] = 0;
      continue;
    }
    const PointState s = pointState(data_, contactSet_.points[j]);
    if (!anchored_[j]) {
      anchored_[j] = 1;
      anchor_[j] = s.p;
      continue;
    }
    const double w = contactShare(j), Kt = w * contactKt_[j];
    const double fn = std::max(0.0, w * (contactK_[j] * d - contactC_[j] * s.vp.z()));
    const Eigen::Vector2d stretch = s.p.head<2>() - anchor_[j].head<2>();
    const double r = stretch.norm(), keep = Kt > 0 ? g.friction * fn / Kt : 0.0;
    if (r > keep) {
      anchor_[j].head<2>() = s.p.head<2>() - (r > 0 ? keep / r : 0.0) * stretch;
      slipped = true;
    }
  }
  return slipped;
}

// ---- Symplectic Euler with the contact forces at the step's end -------------------------------------
//
// The step qd+ = qd + h H^-1 (tau - C), q+ = q (+) h qd+ of the velocity form, with each contact's
// spring and damper evaluated at the step's end rather than its start (linearly implicit Euler in the
// contact terms): f_n+ = k d+ - c v_n+ with d+ = d - h v_n+ gives f_n+ = k d - (c + h k) v_n+, linear in
// qd+ through v_n+ = J_n qd+, and the same for a stuck point's tangential spring. Moved to the left:
//   (H + h B + h sum J^T (c + h k) J) (qd+ - qd) = h (tau' - C) + h sum J^T (k d - (c + h k) J qd),
// tau' every force but the ground's (the joints' damping B implicit too). The matrix only gains terms
// in the rows of the point's supporting joints, so the L^T L factor keeps its branch-induced sparsity.
// An implicit spring-damper is stable for any stiffness and step and only takes energy out: what
// MuJoCo's soft constraints achieve with the implicit reference acceleration (Todorov 2014) and
// Drake's compliant point contact with its implicit time stepping (Castro et al. 2020). A point whose
// step-end force would pull is released and a stuck point whose spring would leave the friction cone
// slides with Coulomb's force mu f_n (an active-set loop of a few passes).

// The points that touch now or will within h at their present velocity, as rows with their shares of
// the shape's springs, and the kinematics of (q_, qd_) in data_. False when none.
bool Simulator::contactCandidates(double h) {
  contactRows_.clear();
  if (!groundActive()) return false;
  forwardKinematics(model_, data_, q_, qd_);
  measureDepths(h);
  for (size_t j = 0; j < contactSet_.points.size(); ++j) {
    const double w = contactShare(j);
    if (!(w > 0)) continue;
    const PointState s = pointState(data_, contactSet_.points[j]);
    ContactRow r;
    r.point = int(j);
    r.k = w * contactK_[j];
    r.c = w * contactC_[j];
    r.kt = w * contactKt_[j];
    r.ct = w * contactCt_[j];
    r.depth = settings_.ground.height - s.p.z();  // now (< 0 for a point that is about to touch)
    if (anchored_[j]) r.stretch = s.p.head<2>() - anchor_[j].head<2>();
    contactRows_.push_back(r);
  }
  return !contactRows_.empty();
}

bool Simulator::stepEulerContact(double h) {
  // The world motion subspaces 0_S = 0_X_i S_i, and each row's Jacobian: the point's world velocity per
  // dof, v + w x p, over the joints that support its body (the other columns stay zero).
  for (int i = 1; i <= model_.N && !contactRows_.empty(); ++i) {
    const JointModel<double>& J = model_.joints[i];
    for (int k = 0; k < J.nv; ++k) Sw_.col(J.idx_v + k) = data_.X0[i].applyInverse(data_.S[J.idx_v + k]).toVector();
  }
  for (size_t r = 0; r < contactRows_.size(); ++r) {
    const ContactPoint& c = contactSet_.points[size_t(contactRows_[r].point)];
    const Vec3<double> p = pointState(data_, c).p;
    auto rows = contactJ_.middleRows<3>(3 * Eigen::Index(r));
    rows.setZero();
    for (int i = c.body; i > 0; i = model_.parent[i])
      for (int k = 0, v = model_.joints[i].idx_v; k < model_.joints[i].nv; ++k, ++v)
        rows.col(v) = Sw_.col(v).tail<3>() + cross3(Vec3<double>(Sw_.col(v).head<3>()), p);
  }
  massMatrix_ = crba(model_, data_, q_);  // H(q)
  // tau' - C = H qdd - J^T f_ground. A plain loop: Eigen's matrix-vector product peels by the heap
  // address' alignment, and a run would then differ in the last bit from one process to another.
  for (int i = 0; i < model_.nv; ++i) {
    double sum = 0;
    for (int j = 0; j < model_.nv; ++j) sum += massMatrix_(i, j) * qdd_[j];
    force_[i] = sum - tauGround_[i];
  }
  if (!solveContactStep(h)) return false;
  integrate(model_, q_, qdNew_, h, qNew_);  // q+ = q (+) h qd+
  ++stats_.subSteps;
  return commit(t_ + h, false);
}

// Pushing joint limits alone (no contact rows): their implicit terms are diagonal in joint space,
// (H + h diag(b + c + h k)) (qd+ - qd) = h (tau - C) - h^2 k qd, i.e. one ABA on the model with that
// diagonal as extra armature and tau - h k qd: the same step as stepEulerContact's, for an ABA's cost.
bool Simulator::stepEulerLimits(double h) {
  if (model_.armature.size() == model_.nv)
    armatureWork_ = model_.armature;
  else
    armatureWork_.setZero();
  force_ = tau_;
  if (settings_.damping) armatureWork_ += h * model_.damping;  // -B qd+: implicit
  for (size_t j = 0; j < limitDofs_.size(); ++j)
    if (contact_[j] == 1 || contact_[j] == -1) {  // its spring and damper at the step's end
      const int v = limitDofs_[j];
      armatureWork_[v] += h * (limitC_[j] + h * limitK_[j]);
      force_[v] -= h * limitK_[j] * qd_[v];
    }
  model_.armature.swap(armatureWork_);
  ++stats_.evaluations;
  dv_ = aba(model_, data_, q_, qd_, force_);  // (qd+ - qd) / h
  model_.armature.swap(armatureWork_);
  qdNew_ = qd_ + h * dv_;
  integrate(model_, q_, qdNew_, h, qNew_);  // q+ = q (+) h qd+
  ++stats_.subSteps;
  return commit(t_ + h, false);
}

bool Simulator::solveContactStep(double h) {
  const double mu = settings_.ground.friction;
  // factor_ += s j^T j for a Jacobian row j (3 r + axis), over the supporting joints' entries.
  const auto addRow = [&](size_t r, int axis, double s) {
    const int body = contactSet_.points[size_t(contactRows_[r].point)].body;
    const auto j = contactJ_.row(3 * Eigen::Index(r) + axis);
    for (int a = body; a > 0; a = model_.parent[a])
      for (int ka = 0, va = model_.joints[a].idx_v; ka < model_.joints[a].nv; ++ka, ++va)
        for (int b = body; b > 0; b = model_.parent[b])
          for (int kb = 0, vb = model_.joints[b].idx_v; kb < model_.joints[b].nv; ++kb, ++vb)
            factor_(va, vb) += s * j[va] * j[vb];
  };
  constexpr int kPasses = 8;
  for (int pass = 0; pass < kPasses; ++pass) {
    factor_ = massMatrix_;
    if (settings_.damping) factor_.diagonal() += h * model_.damping;  // -B qd+: implicit
    impulse_ = h * force_;
    if (settings_.limits)  // a limit that pushes: its spring and damper at the step's end too
      for (size_t j = 0; j < limitDofs_.size(); ++j)
        if (contact_[j] == 1 || contact_[j] == -1) {
          const int v = limitDofs_[j];
          factor_(v, v) += h * (limitC_[j] + h * limitK_[j]);
          impulse_[v] -= h * h * limitK_[j] * qd_[v];
        }
    for (size_t r = 0; r < contactRows_.size(); ++r) {
      const ContactRow& row = contactRows_[r];
      if (row.mode < 0) continue;
      const auto J = contactJ_.middleRows<3>(3 * Eigen::Index(r));
      const double W = row.c + h * row.k;  // normal: f_n+ = k d - W v_n+
      addRow(r, 2, h * W);
      impulse_.noalias() += (h * (row.k * row.depth - W * J.row(2).dot(qd_))) * J.row(2).transpose();
      if (row.mode == 0) {  // stuck: f_t+ = -k_t s - W_t v_t+
        const double Wt = row.ct + h * row.kt;
        for (int a = 0; a < 2; ++a) {
          addRow(r, a, h * Wt);
          impulse_.noalias() += (h * (-row.kt * row.stretch[a] - Wt * J.row(a).dot(qd_))) * J.row(a).transpose();
        }
      } else {  // sliding: Coulomb's force, held through the step
        for (int a = 0; a < 2; ++a) impulse_.noalias() += (h * row.slide[a]) * J.row(a).transpose();
      }
    }
    factorLTL(model_, factor_);
    solveLTL(model_, factor_, impulse_);
    qdNew_ = qd_ + impulse_;
    // The step-end forces: release a point that would pull, let a stuck one outside the cone slide.
    bool changed = false;
    for (size_t r = 0; r < contactRows_.size(); ++r) {
      ContactRow& row = contactRows_[r];
      if (row.mode < 0) continue;
      const auto J = contactJ_.middleRows<3>(3 * Eigen::Index(r));
      const double fn = row.k * row.depth - (row.c + h * row.k) * J.row(2).dot(qdNew_);
      if (fn < 0) {
        row.mode = -1;
        changed = true;
        continue;
      }
      const double Wt = row.ct + h * row.kt;
      const Eigen::Vector2d ft(-row.kt * row.stretch.x() - Wt * J.row(0).dot(qdNew_),
                               -row.kt * row.stretch.y() - Wt * J.row(1).dot(qdNew_));
      const double limit = mu * fn, trial = ft.norm();
      if (row.mode == 0 && trial > limit) {
        row.mode = 1;
        changed = true;
      }
      if (row.mode == 1) row.slide = (trial > 0 ? limit / trial : 0.0) * ft;
    }
    if (!changed) break;
  }
  return true;
}

}  // namespace dyn
