// Mimic joints enforced (docs/mimic.md; engine: dynscope/model/mimic_coupling.hpp): info's section,
// and id, mass, bias and fd on the independent coordinates y (the masters and the free joints). Inputs are
// y-sized (--q: the independent q entries, --qd/--qdd/--tau: the independent v entries); the results
// give the reduced quantities (tau_y = G^T tau, H_y = G^T H G, ydd) and the full ones they come from.
#include "commands.hpp"
#include "messages.hpp"

namespace cli {
namespace {

std::string mimicSizeMismatch(const char* option, size_t given, const char* what, size_t size,
                              const std::vector<std::string>& names) {
  return std::string(option) + " has " + std::to_string(given) + " value" + (given == 1 ? "" : "s") +
         ", the model has " + std::to_string(size) + " independent " + what +
         " (its mimic joints follow their masters; give those, or every joint's; --no-mimic frees all "
         "joints): " +
         joinNames(names);
}

// --q over the independent q entries (default: those of model.home()).
Eigen::VectorXd independentConfiguration(const Session& s) {
  const dyn::MimicCoupling& c = *s.mimic;
  Eigen::VectorXd y(c.nqy);
  if (!s.options.q) {
    dyn::selectPositions(c, s.model.home(), y);
    return y;
  }
  if (s.options.q->size() == size_t(c.nq) && c.nq != c.nqy) {  // every joint's: the masters' kept
    const Eigen::VectorXd q = toVector(*s.options.q);
    if (const int i = jointWithZeroQuaternion(s.model, q))
      throw UsageError("--q: the quaternion of joint '" + s.model.jointNames[i] + "' is zero (identity is 0,0,0,1)");
    dyn::selectPositions(c, q, y);
    Eigen::VectorXd back(c.nq);
    dyn::expandPositions(c, y, back);
    if ((back - q).cwiseAbs().maxCoeff() > 1e-12 * (1 + q.cwiseAbs().maxCoeff()))
      note(
          "--q gives every joint; the mimic joints' values are replaced by what their masters give them "
          "(q_full in the output)");
    return y;
  }
  if (s.options.q->size() != size_t(c.nqy))
    throw UsageError(mimicSizeMismatch("--q", s.options.q->size(), "q entries", size_t(c.nqy), s.yqNames));
  y = toVector(*s.options.q);
  Eigen::VectorXd q(c.nq);
  dyn::expandPositions(c, y, q);
  if (const int i = jointWithZeroQuaternion(s.model, q))
    throw UsageError("--q: the quaternion of joint '" + s.model.jointNames[i] + "' is zero (identity is 0,0,0,1)");
  return y;
}

Eigen::VectorXd independentVelocity(const Session& s, const std::optional<std::vector<double>>& given,
                                    const char* option) {
  const dyn::MimicCoupling& c = *s.mimic;
  if (!given) return Eigen::VectorXd::Zero(c.ny);
  if (given->size() == size_t(s.model.nv) && s.model.nv != c.ny) {  // every joint's
    const Eigen::VectorXd v = toVector(*given);
    Eigen::VectorXd y(c.ny);
    if (std::string(option) == "--tau")
      dyn::reduceForces(c, v, y);  // tau_y = G^T tau: the followers' torques reach their masters
    else
      dyn::selectVelocities(c, v, y);  // the masters' (and free joints') entries
    return y;
  }
  if (given->size() != size_t(c.ny))
    throw UsageError(mimicSizeMismatch(option, given->size(), "v entries", size_t(c.ny), s.yvNames));
  return toVector(*given);
}

void warnAlgorithmIgnored(const Session& s, const char* what) {
  if (s.options.algorithmGiven)
    warn("--algorithm " + s.options.algorithm + " is ignored: " + s.model.name + " has mimic joints, whose " + what +
         " (docs/mimic.md; --no-mimic for the formulations on all joints)");
}

// "coordinates", and the positions in both sets.
void writeState(const Session& s, const Eigen::VectorXd& y, JsonWriter& json) {
  Eigen::VectorXd q(s.mimic->nq);
  dyn::expandPositions(*s.mimic, y, q);
  json.field("coordinates", "independent");
  json.arrayField("independent_q_names", s.yqNames);
  json.arrayField("independent_v_names", s.yvNames);
  json.arrayField("q", y);
  json.arrayField("q_full", q);
}

}  // namespace

void writeMimicInfo(const Session& s, JsonWriter& json) {
  const dyn::Model& m = s.model;
  json.field("coordinates", s.mimic ? "independent" : "full");
  if (!s.mimic) return;
  const dyn::MimicCoupling& c = *s.mimic;
  json.field("nq_independent", c.nqy);
  json.field("nv_independent", c.ny);
  json.arrayField("independent_q_names", s.yqNames);
  json.arrayField("independent_v_names", s.yvNames);
  json.key("followers");  // per mimic joint: its root master and the resolved relation
  json.beginArray();
  for (int i = 1; i <= m.N; ++i) {
    if (!c.isFollower(i)) continue;
    const int k = m.joints[size_t(i)].idx_q;
    json.beginObject();
    json.field("joint", m.jointNames[size_t(i)]);
    json.field("follows", m.jointNames[size_t(c.rootMaster[size_t(i)])]);
    json.field("multiplier", c.qMultiplier[size_t(k)]);
    json.field("offset", c.qOffset[size_t(k)]);
    json.endObject();
  }
  json.endArray();
}

void writeMimicInverseDynamics(const Session& s, JsonWriter& json) {
  warnAlgorithmIgnored(s, "inverse dynamics is G^T RNEA");
  const Eigen::VectorXd y = independentConfiguration(s);
  const Eigen::VectorXd yd = independentVelocity(s, s.options.qd, "--qd");
  const Eigen::VectorXd ydd = independentVelocity(s, s.options.qdd, "--qdd");
  const std::vector<ExternalForce> forces = externalForceInputs(s);
  const std::vector<dyn::Force<double>> fext = bodyForces(s, forces);
  dyn::Data data(s.model);
  dyn::MimicData w(*s.mimic);
  const Eigen::VectorXd tauY =
      dyn::reducedInverseDynamics(s.model, data, *s.mimic, w, y, yd, ydd, forces.empty() ? nullptr : &fext);
  writeState(s, y, json);
  json.arrayField("qd", yd);
  json.arrayField("qdd", ydd);
  writeExternalForces(forces, json);
  json.field("algorithm", "rnea");
  json.arrayField("tau", tauY);
  json.arrayField("tau_full", data.tau);  // every joint's torque; the followers' are in tau through G^T
}

void writeMimicMassMatrix(const Session& s, JsonWriter& json) {
  warnAlgorithmIgnored(s, "mass matrix is G^T H G with H by CRBA");
  const Eigen::VectorXd y = independentConfiguration(s);
  dyn::Data data(s.model);
  dyn::MimicData w(*s.mimic);
  const Eigen::MatrixXd Hy = dyn::reducedMassMatrix(s.model, data, *s.mimic, w, y);
  writeState(s, y, json);
  json.field("algorithm", "crba");
  json.arrayField("columns", s.yvNames);
  json.key("mass_matrix");
  json.matrix(Hy);
  json.arrayField("columns_full", s.vNames);
  json.key("mass_matrix_full");
  json.matrix(data.M);
}

void writeMimicBias(const Session& s, JsonWriter& json) {
  const dyn::MimicCoupling& c = *s.mimic;
  const Eigen::VectorXd y = independentConfiguration(s);
  const Eigen::VectorXd yd = independentVelocity(s, s.options.qd, "--qd");
  Eigen::VectorXd q(c.nq), qd(c.nv), nleY(c.ny), gY(c.ny);
  dyn::expandPositions(c, y, q);
  dyn::expandVelocities(c, yd, qd);
  dyn::Data data(s.model);
  dyn::nonLinearEffects(s.model, data, q, qd);
  dyn::gravityVector(s.model, data, q);
  dyn::reduceForces(c, data.nle, nleY);  // G^T C
  dyn::reduceForces(c, data.g, gY);      // G^T g
  writeState(s, y, json);
  json.arrayField("qd", yd);
  json.arrayField("nonlinear_effects", nleY);
  json.arrayField("gravity_vector", gY);
}

void writeMimicForwardDynamics(const Session& s, JsonWriter& json) {
  warnAlgorithmIgnored(s, "forward dynamics solves G^T H G ydd = tau_y - G^T C");
  if (s.options.baumgarte) warn("--baumgarte is ignored: " + s.model.name + " has no closed loops");
  const Eigen::VectorXd y = independentConfiguration(s);
  const Eigen::VectorXd yd = independentVelocity(s, s.options.qd, "--qd");
  const Eigen::VectorXd tauY = independentVelocity(s, s.options.tau, "--tau");
  const std::vector<ExternalForce> forces = externalForceInputs(s);
  const std::vector<dyn::Force<double>> fext = bodyForces(s, forces);
  requireRegularInertia(s.model);
  dyn::Data data(s.model);
  dyn::MimicData w(*s.mimic);
  const Eigen::VectorXd ydd =
      dyn::reducedForwardDynamics(s.model, data, *s.mimic, w, y, yd, tauY, forces.empty() ? nullptr : &fext);
  requireFinite(s.model, w.qdd, "forward dynamics");
  writeState(s, y, json);
  json.arrayField("qd", yd);
  json.arrayField("tau", tauY);
  writeExternalForces(forces, json);
  json.field("algorithm", "crba");
  json.arrayField("qdd", ydd);
  json.arrayField("qdd_full", w.qdd);
}

}  // namespace cli
