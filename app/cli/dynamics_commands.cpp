// id, mass, bias and fd at one state. --algorithm picks the formulation from the engine's registry
// (dynscope/formulations/registry.hpp); rnea, crba and aba are called directly (they take --fext).
#include "commands.hpp"
#include "messages.hpp"

namespace cli {
namespace {

// The registry's formulation of this command's problem, bound to the model (throws naming the joint
// when the formulation cannot handle the model).
dyn::BoundFormulation<double> bindFormulation(const Session& s, dyn::Problem problem) {
  return dyn::formulation(problem, s.options.algorithm).bind(s.model);
}

}  // namespace

void writeInverseDynamics(const Session& s, JsonWriter& json) {
  if (s.model.hasLoops()) {
    if (s.options.algorithmGiven && s.options.algorithm != "rnea")
      warn("--algorithm " + s.options.algorithm + " is ignored: " + s.model.name +
           " has closed loops, whose inverse dynamics runs RNEA on the spanning tree (docs/loops.md)");
    return writeLoopInverseDynamics(s, json);
  }
  if (s.mimic) return writeMimicInverseDynamics(s, json);  // the independent coordinates (docs/mimic.md)
  const Eigen::VectorXd q = configurationInput(s, s.options.q);
  const Eigen::VectorXd qd = velocityInput(s, s.options.qd, "--qd");
  const Eigen::VectorXd qdd = velocityInput(s, s.options.qdd, "--qdd");
  const std::vector<ExternalForce> forces = externalForceInputs(s);
  const std::vector<dyn::Force<double>> fext = bodyForces(s, forces, &q);
  dyn::Data data(s.model);
  Eigen::VectorXd tau;
  if (s.options.algorithm == "rnea")
    tau = dyn::rnea(s.model, data, q, qd, qdd, forces.empty() ? nullptr : &fext);
  else
    tau = bindFormulation(s, dyn::Problem::InverseDynamics).inverseDynamics(q, qd, qdd);
  json.arrayField("q", q);
  json.arrayField("qd", qd);
  json.arrayField("qdd", qdd);
  writeExternalForces(forces, json);
  json.field("algorithm", s.options.algorithm);
  json.arrayField("tau", tau);
  if (const std::vector<dyn::ExternalWrench> wrenches = wrenchesOf(s, forces); !wrenches.empty()) {
    Eigen::VectorXd tauE;  // J^T f: what the wrenches exert, so that tau = ID without them - tauE
    dyn::Data kin(s.model);
    dyn::forwardKinematics(s.model, kin, q);
    dyn::wrenchJointForces(s.model, kin, wrenches, tauE);
    json.arrayField("external_tau", tauE);
  }
}

void writeMassMatrix(const Session& s, JsonWriter& json) {
  if (s.mimic) return writeMimicMassMatrix(s, json);  // G^T H G (docs/mimic.md)
  const Eigen::VectorXd q = configurationInput(s, s.options.q);
  const Eigen::MatrixXd M = bindFormulation(s, dyn::Problem::MassMatrix).massMatrix(q);
  // Branch-induced sparsity (eq. 45): one walk up the dof tree per column, O(nv * depth) like CRBA
  // itself (an ancestor test per entry would cost O(nv^2 * depth): 494 s for a 10,000-body chain).
  const dyn::SparsityPattern pattern = dyn::structuralPattern(s.model);
  const int nv = s.model.nv;
  const long nonZeros = long(pattern.count());
  json.arrayField("q", q);
  json.field("algorithm", s.options.algorithm);
  json.arrayField("columns", s.vNames);
  json.key("mass_matrix");
  json.matrix(M);
  json.key("sparsity");
  json.beginArray();
  std::vector<bool> row(static_cast<size_t>(nv));
  for (int r = 0; r < nv; ++r) {
    for (int c = 0; c < nv; ++c) row[size_t(c)] = pattern(r, c);
    json.inlineArray(row);
  }
  json.endArray();
  json.field("structural_nonzeros", (long long)nonZeros);
  json.field("entries", (long long)nv * nv);
}

void writeBias(const Session& s, JsonWriter& json) {
  if (s.mimic) return writeMimicBias(s, json);  // G^T C and G^T g (docs/mimic.md)
  const Eigen::VectorXd q = configurationInput(s, s.options.q);
  const Eigen::VectorXd qd = velocityInput(s, s.options.qd, "--qd");
  dyn::Data data(s.model);
  dyn::nonLinearEffects(s.model, data, q, qd);
  dyn::gravityVector(s.model, data, q);
  json.arrayField("q", q);
  json.arrayField("qd", qd);
  json.arrayField("nonlinear_effects", data.nle);
  json.arrayField("gravity_vector", data.g);
}

void writeForwardDynamics(const Session& s, JsonWriter& json) {
  if (s.model.hasLoops() || s.options.loopMethod) {
    if (s.options.algorithmGiven)
      warn("--algorithm " + s.options.algorithm + " is ignored: " +
           (s.model.hasLoops() ? s.model.name + " has closed loops, whose forward dynamics --loop-method chooses"
                               : std::string("--loop-method chooses the forward dynamics")) +
           " (1, 2, 3 or global; here " + s.options.loopMethod.value_or("2") + ")");
    return writeLoopForwardDynamics(s, json);
  }
  if (s.mimic) return writeMimicForwardDynamics(s, json);  // the independent coordinates (docs/mimic.md)
  if (s.options.baumgarte)
    warn("--baumgarte is ignored: " + s.model.name +
         " has no closed loops and no --loop-method was given (the stabilization acts on loop constraints)");
  const Eigen::VectorXd q = configurationInput(s, s.options.q);
  const Eigen::VectorXd qd = velocityInput(s, s.options.qd, "--qd");
  const Eigen::VectorXd tau = velocityInput(s, s.options.tau, "--tau");
  const std::vector<ExternalForce> forces = externalForceInputs(s);
  const std::vector<dyn::Force<double>> fext = bodyForces(s, forces, &q);
  const auto* fextPtr = forces.empty() ? nullptr : &fext;
  requireRegularInertia(s.model);
  dyn::Data data(s.model);
  if (s.options.algorithm == "crba")
    dyn::forwardDynamicsCrba(s.model, data, q, qd, tau, fextPtr);
  else if (s.options.algorithm == "aba")
    dyn::aba(s.model, data, q, qd, tau, fextPtr);
  else
    data.qdd = bindFormulation(s, dyn::Problem::ForwardDynamics).forwardDynamics(q, qd, tau);
  requireFinite(s.model, data.qdd, "forward dynamics");
  json.arrayField("q", q);
  json.arrayField("qd", qd);
  json.arrayField("tau", tau);
  writeExternalForces(forces, json);
  json.field("algorithm", s.options.algorithm);
  json.arrayField("qdd", data.qdd);
}

}  // namespace cli
