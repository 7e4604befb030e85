#include "dynscope/trajectory/mimic_trajectory.hpp"

namespace dyn {

void enforceMimic(const MimicCoupling& c, SampledTrajectory& trajectory) {
  if (!c.active()) return;
  checkSize("trajectory q rows", int(trajectory.q.rows()), c.nq);
  checkSize("trajectory qd rows", int(trajectory.qd.rows()), c.nv);
  checkSize("trajectory qdd rows", int(trajectory.qdd.rows()), c.nv);
  Eigen::VectorXd y(c.nqy), yd(c.ny), q(c.nq), qd(c.nv);
  for (Eigen::Index k = 0; k < trajectory.q.cols(); ++k) {
    selectPositions(c, trajectory.q.col(k), y);
    expandPositions(c, y, q);
    trajectory.q.col(k) = q;
    for (Eigen::MatrixXd* m : {&trajectory.qd, &trajectory.qdd}) {
      selectVelocities(c, m->col(k), yd);
      expandVelocities(c, yd, qd);
      m->col(k) = qd;
    }
  }
}

void forcesOnIndependentDofs(const MimicCoupling& c, Eigen::MatrixXd& perDof) {
  if (!c.active()) return;
  checkSize("force rows", int(perDof.rows()), c.nv);
  Eigen::VectorXd f(c.nv), fy(c.ny);
  for (Eigen::Index k = 0; k < perDof.cols(); ++k) {
    f = perDof.col(k);
    reduceForces(c, f, fy);
    perDof.col(k).setZero();
    for (int j = 0; j < c.ny; ++j) perDof(c.independentDofs[size_t(j)], k) = fy[j];
  }
}

void forcesOnIndependentDofs(const MimicCoupling& c, Eigen::VectorXd& perDof) {
  if (!c.active()) return;
  Eigen::MatrixXd m = perDof;
  forcesOnIndependentDofs(c, m);
  perDof = m.col(0);
}

}  // namespace dyn
