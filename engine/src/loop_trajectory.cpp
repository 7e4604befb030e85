#include "dynscope/loops/loop_trajectory.hpp"

#include "dynscope/loops/loop_inverse_dynamics.hpp"

#include <algorithm>

namespace dyn {

bool closeState(const Model& model, Assembler& assembler, Data& data, LoopData& ld, Eigen::VectorXd& q,
                Eigen::VectorXd& qd, Eigen::VectorXd& qdd, int restarts, std::string* why) {
  if (!model.hasLoops()) return true;
  AssemblyOptions options;
  options.held = model.independentDofs();
  options.restarts = restarts;
  const AssemblyResult& r = assembler.solve(q, options);
  if (!r.converged) {
    if (why) *why = r.message;
    return false;
  }
  q = r.q;
  loopDependentVelocities(model, data, ld, q, qd);   // phi' qd = 0 (eq. 16 differentiated)
  loopInverseDynamics(model, data, ld, q, qd, qdd);  // phi' qdd = c (eq. 17) into ld.qdd
  qdd = ld.qdd;
  return true;
}

LoopTrajectoryReport closeTrajectory(const Model& model, SampledTrajectory& traj) {
  LoopTrajectoryReport report;
  traj.validate(model);
  if (!model.hasLoops()) {
    report.closed = traj.samples();
    return report;
  }
  Assembler assembler(model);
  Data data(model);
  LoopData ld(model);
  Eigen::VectorXd q, qd, qdd, previous;
  for (int k = 0; k < traj.samples(); ++k) {
    q = traj.q.col(k);
    qd = traj.qd.col(k);
    qdd = traj.qdd.col(k);
    if (previous.size()) {  // start from the last closed sample's dependent values: one branch
      for (int v : model.dependentDofs) {
        const int body = model.dofBody[size_t(v)];
        const auto& J = model.joints[size_t(body)];
        if (J.nq == J.nv)
          q[J.idx_q + v - J.idx_v] = previous[J.idx_q + v - J.idx_v];
        else
          q.segment(J.idx_q, J.nq) = previous.segment(J.idx_q, J.nq);  // multi-dof: the whole joint
      }
    }
    std::string why;
    if (!closeState(model, assembler, data, ld, q, qd, qdd, k == 0 ? 8 : 0, &why)) {
      report.failedSample = k;
      report.message = "sample " + std::to_string(k) + " (t = " + std::to_string(traj.t[k]) + " s): " + why;
      return report;
    }
    assembler.evaluate(q);
    report.maxResidual = std::max(report.maxResidual, maxAbs(assembler.loopData().phi));
    ld.t3.noalias() = ld.Jc * qd;
    report.maxRateResidual = std::max(report.maxRateResidual, maxAbs(ld.t3));
    traj.q.col(k) = q;
    traj.qd.col(k) = qd;
    traj.qdd.col(k) = qdd;
    previous = q;
    ++report.closed;
  }
  return report;
}

}  // namespace dyn
