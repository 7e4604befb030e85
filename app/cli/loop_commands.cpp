// Closed kinematic loops (docs/loops.md): the loop section of info, fd and id of closed-loop
// mechanisms (review §3.4, and the global form of §3.5), and the assemble command.
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "commands.hpp"
#include "dynscope/loops/assembly.hpp"
#include "dynscope/loops/global_analysis.hpp"
#include "dynscope/loops/loop_forward_dynamics.hpp"
#include "dynscope/loops/loop_inverse_dynamics.hpp"
#include "messages.hpp"

namespace cli {
namespace {

std::vector<std::string> dofNames(const Session& s, const std::vector<int>& dofs) {
  std::vector<std::string> names;
  for (int v : dofs) names.push_back(s.vNames[size_t(v)]);
  return names;
}

// The configuration and velocity checked against the loops: a warning when they are not on the
// constraints (the dynamics is still computed there, with the Baumgarte terms if asked).
void checkState(const Session& s, dyn::Data& data, dyn::LoopData& ld, const Eigen::VectorXd& q,
                const Eigen::VectorXd& qd) {
  dyn::loopConstraints(s.model, data, ld, q, qd);
  const double phi = dyn::maxAbs(ld.phi), phid = dyn::maxAbs(ld.phiDot);
  if (phi > 1e-6)
    warn("q is not assembled: max |phi| = " + formatJsonNumber(phi) + " (loop joint '" +
         s.model.loops[size_t(dyn::worstLoop(s.model, ld.phi))].name +
         "'); 'dynscope-cli assemble' finds the nearest assembled configuration");
  if (phid > 1e-6) warn("qd does not satisfy the loop constraints: max |phi' qd| = " + formatJsonNumber(phid));
}

// id takes the independent entries of --qd / --qdd and solves the dependent ones from the loops
// (phi' qd = 0, phi' qdd = c): a warning names each given dependent entry that differed.
void warnReplaced(const Session& s, const char* option, bool given, const Eigen::VectorXd& in,
                  const Eigen::VectorXd& used) {
  if (!given) return;
  std::string changed;
  for (int v : s.model.dependentDofs)
    if (std::abs(in[v] - used[v]) > 1e-9 * (1 + std::abs(used[v])))
      changed += (changed.empty() ? "" : ", ") + s.vNames[size_t(v)] + " " + formatJsonNumber(in[v]) + " -> " +
                 formatJsonNumber(used[v]);
  if (!changed.empty())
    warn(std::string(option) + ": the dependent coordinates' entries were replaced by those the loop constraints " +
         "give with the independent entries as given (" + changed + ")");
}

void writeStateNorms(const dyn::LoopData& ld, JsonWriter& json) {
  json.field("phi_norm", ld.phi.norm());
  json.field("phi_dot_norm", ld.phiDot.norm());
}

}  // namespace

void writeLoopInfo(const Session& s, JsonWriter& json) {
  const dyn::Model& m = s.model;
  json.arrayField("actuated", dofNames(s, m.actuatedDofs()));
  // The loops' independent coordinates only where there are loops: a mimic model's independent
  // coordinates are its masters, named once (independent_q_names, mimic_commands.cpp).
  if (m.hasLoops()) {
    json.arrayField("independent", dofNames(s, m.independentDofs()));
    json.arrayField("dependent", dofNames(s, m.dependentDofs));
  }
  json.field("constraint_rows", m.constraintRows);
  json.field("constraint_rank", m.loopRank);
  json.field("mobility", m.nv - m.loopRank);
  std::vector<std::string> cut;
  for (const auto& J : m.loops)
    if (J.cut) cut.push_back(J.name);
  json.arrayField("cut_joints", cut);
  json.key("loops");
  json.beginArray();
  for (const auto& J : m.loops) {
    json.beginObject();
    json.field("name", J.name);
    json.field("type", dyn::loopJointTypeName(J.type));
    json.field("link1", J.link1);
    json.field("link2", J.link2);
    json.field("predecessor", m.bodyNames[size_t(J.predecessor)]);
    json.field("successor", m.bodyNames[size_t(J.successor)]);
    json.field("rows", J.rows());
    json.field("cut", J.cut);  // true: a joint of the file cut from a cycle; false: a <loop_joint> / .dh loop
    json.field("line", J.line);
    json.endObject();
  }
  json.endArray();
  if (m.hasLoops()) json.arrayField("assembled_reference", m.loopReference);
}

void writeLoopForwardDynamics(const Session& s, JsonWriter& json) {
  const dyn::Model& m = s.model;
  const Eigen::VectorXd q = configurationInput(s, s.options.q);
  const Eigen::VectorXd qd = velocityInput(s, s.options.qd, "--qd");
  const Eigen::VectorXd tau = velocityInput(s, s.options.tau, "--tau");
  const std::vector<ExternalForce> forces = externalForceInputs(s);
  const std::vector<dyn::Force<double>> fext = bodyForces(s, forces, &q);
  const auto* fextPtr = forces.empty() ? nullptr : &fext;
  requireRegularInertia(m);
  const std::string method = s.options.loopMethod.value_or("2");
  const double alpha = s.options.baumgarte ? (*s.options.baumgarte)[0] : 0.0;
  const double beta = s.options.baumgarte ? (*s.options.baumgarte)[1] : 0.0;
  dyn::Data data(m);
  dyn::LoopData ld(m);
  checkState(s, data, ld, q, qd);
  Eigen::VectorXd qdd;
  std::string name;
  if (method.starts_with("global")) {
    dyn::GlobalData gd(m);
    const auto f = method == "global-26"   ? dyn::GlobalFormulation::NullSpace
                   : method == "global-28" ? dyn::GlobalFormulation::ConstraintForces
                                           : dyn::GlobalFormulation::Augmented;
    qdd = dyn::globalForwardDynamics(m, data, ld, gd, q, qd, tau, f, alpha, beta, 1e-10, fextPtr);
    name = std::string("global, ") + dyn::globalFormulationName(f);
  } else {
    dyn::LoopSettings settings;
    settings.method = *dyn::loopMethodByName(method);
    settings.baumgarteAlpha = alpha;
    settings.baumgarteBeta = beta;
    qdd = dyn::loopForwardDynamics(m, data, ld, q, qd, tau, settings, fextPtr);
    name = std::string(method) + " (" + dyn::loopMethodName(settings.method) + ")";
  }
  requireFinite(m, qdd, "forward dynamics");
  json.arrayField("q", q);
  json.arrayField("qd", qd);
  json.arrayField("tau", tau);
  writeExternalForces(forces, json);
  json.field("loop_method", name);
  json.arrayField("baumgarte", std::vector<double>{alpha, beta});
  json.arrayField("qdd", qdd);
  writeStateNorms(ld, json);
  json.field("constraint_rank", ld.rank);
  if (!method.starts_with("global")) {  // the constraint forces of the rows eq. 18 kept
    std::vector<std::string> rows;
    for (int k = 0; k < ld.rank; ++k) rows.push_back(dyn::loopRowName(m, ld.rows[size_t(k)]));
    json.arrayField("lambda_rows", rows);
    json.arrayField("lambda", ld.lambda.head(ld.rank));
  }
}

void writeLoopInverseDynamics(const Session& s, JsonWriter& json) {
  const dyn::Model& m = s.model;
  Eigen::VectorXd q = configurationInput(s, s.options.q);
  Eigen::VectorXd qd = velocityInput(s, s.options.qd, "--qd");
  const Eigen::VectorXd qdd = velocityInput(s, s.options.qdd, "--qdd");
  const std::vector<ExternalForce> forces = externalForceInputs(s);
  dyn::Data data(m);
  dyn::LoopData ld(m);
  dyn::loopConstraints(m, data, ld, q);
  if (dyn::maxAbs(ld.phi) > 1e-10) {  // assemble with the independent coordinates as given
    const dyn::AssemblyResult a = dyn::assemble(m, q, {m.independentDofs(), 1e-12, 100});
    if (!a.converged) throw std::runtime_error("q cannot be assembled: " + a.message);
    warn("q was not assembled (max |phi| = " + formatJsonNumber(dyn::maxAbs(ld.phi)) +
         "): the dependent coordinates were solved from the independent ones");
    q = a.q;
  }
  const Eigen::VectorXd qdGiven = qd;
  dyn::loopDependentVelocities(m, data, ld, q, qd);  // only the independent entries of qd and qdd are used
  const std::vector<dyn::Force<double>> fext = bodyForces(s, forces, &q);  // at the assembled q
  dyn::loopInverseDynamics(m, data, ld, q, qd, qdd, forces.empty() ? nullptr : &fext);
  warnReplaced(s, "--qd", s.options.qd.has_value(), qdGiven, qd);
  warnReplaced(s, "--qdd", s.options.qdd.has_value(), qdd, ld.qdd);
  if (ld.residual > 1e-8 * (1 + data.tau.norm()))
    warn("the actuated joints cannot produce this motion: a generalized force of size " +
         formatJsonNumber(ld.residual) + " is left over (fewer actuated joints than the mechanism's mobility?)");
  json.arrayField("q", q);
  json.arrayField("qd", qd);
  json.arrayField("qdd", ld.qdd);
  writeExternalForces(forces, json);
  json.arrayField("actuated", dofNames(s, m.actuatedDofs()));
  json.arrayField("independent", dofNames(s, m.independentDofs()));
  json.arrayField("tau", ld.tau);
  json.arrayField("tau_tree", data.tau);  // RNEA of the spanning tree: tau + phi'^T lambda
  std::vector<std::string> rows;
  for (int r = 0; r < m.constraintRows; ++r) rows.push_back(dyn::loopRowName(m, r));
  json.arrayField("lambda_rows", rows);
  json.arrayField("lambda", ld.lambdaAll);
  json.field("residual", ld.residual);
}

void writeAssembly(const Session& s, JsonWriter& json) {
  const dyn::Model& m = s.model;
  const Eigen::VectorXd q0 = configurationInput(s, s.options.q);
  dyn::AssemblyOptions options;
  if (s.options.holdIndependent) options.held = m.independentDofs();
  for (const std::string& name : s.options.holds) {
    const int i = m.jointIndex(name);
    if (i < 0) {
      if (m.loopIndex(name) >= 0)
        throw UsageError("--hold " + name + ": a loop-closure joint has no coordinate; hold a tree joint");
      throw UsageError("--hold " + name + ": no such joint (joints: " + joinNames(dofNames(s, m.independentDofs())) +
                       ", ...; 'dynscope-cli info' lists them)");
    }
    for (int k = 0; k < m.joints[size_t(i)].nv; ++k) options.held.push_back(m.joints[size_t(i)].idx_v + k);
  }
  if (!m.hasLoops()) note(m.name + " has no kinematic loops: every configuration is assembled");
  dyn::Assembler assembler(m);
  const dyn::AssemblyResult& r = assembler.solve(q0, options);
  if (!r.converged) throw std::runtime_error(m.name + ": " + r.message);
  json.arrayField("q_given", q0);
  json.arrayField("held", dofNames(s, options.held));
  json.arrayField("q", r.q);
  json.field("converged", r.converged);
  json.field("residual", r.residual);
  json.field("iterations", r.iterations);
  json.key("loops");
  json.beginArray();
  for (int k = 0; k < int(m.loops.size()); ++k) {
    const auto& J = m.loops[size_t(k)];
    json.beginObject();
    json.field("name", J.name);
    json.field("max_abs_phi", assembler.loopData().phi.segment(J.row, J.rows()).cwiseAbs().maxCoeff());
    json.endObject();
  }
  json.endArray();
}

}  // namespace cli
