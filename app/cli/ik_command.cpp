// ik: the engine's IkSolver from --q0 (default neutral; closed loops: the assembled reference) to
// --target, with pins and locked joints. On a closed-loop mechanism the solver moves along the loop
// constraints (dynscope/ik/ik_solver.hpp), so the result is assembled.
#include <cmath>

#include "commands.hpp"
#include "dynscope/ik/ik_solver.hpp"

namespace cli {
namespace {

// --target x,y,z[,qx,qy,qz,qw] as a world pose (target_X_world); position-only without a quaternion.
dyn::IkTask targetInput(const Session& s, int frame) {
  const std::vector<double>& t = *s.options.target;
  dyn::IkTask task;
  task.frame = frame;
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  if (t.size() == 7) {
    const Eigen::Vector4d quat(t[3], t[4], t[5], t[6]);
    if (quat.norm() == 0) throw UsageError("--target: the quaternion qx,qy,qz,qw is zero (identity is 0,0,0,1)");
    R = dyn::quaternionToMatrix<double>(quat);
  }
  task.target = dyn::Transform<double>::fromPose(R, Eigen::Vector3d(t[0], t[1], t[2]));
  task.positionOnly = s.options.positionOnly || t.size() == 3;
  return task;
}

int jointInput(const Session& s, const std::string& name) {
  const int j = s.model.jointIndex(name);
  if (j > 0) return j;
  std::vector<std::string> names(s.model.jointNames.begin() + 1, s.model.jointNames.end());
  throw UsageError("--lock: unknown joint '" + name + "' in " + s.model.name + "; joints: " + joinNames(names));
}

}  // namespace

void writeInverseKinematics(const Session& s, JsonWriter& json) {
  const Eigen::VectorXd q0 = configurationInput(s, s.options.q0, "--q0");
  std::string link;
  if (s.options.link)
    link = *s.options.link;
  else if (!s.model.defaultEndEffector.empty())
    link = s.model.defaultEndEffector;
  else
    throw UsageError("the model names no end effector: give --link NAME");
  const int frame = frameInput(s, link);

  dyn::IkSolver solver(s.model);
  solver.options.restarts = 20;  // a one-shot solve: search past local minima
  const dyn::IkTask task = targetInput(s, frame);
  solver.setTarget(task);
  for (const std::string& pin : s.options.pins) solver.pinAt(frameInput(s, pin), q0);
  std::vector<std::string> locked;
  for (const std::string& name : s.options.locks) {
    solver.lockJoint(jointInput(s, name));
    locked.push_back(name);
  }
  const dyn::IkResult& r = solver.solve(q0);

  json.field("link", link);
  json.arrayField("target_position", task.target.translation());
  if (!task.positionOnly) json.arrayField("target_quaternion", dyn::matrixToQuaternion<double>(task.target.rotation()));
  json.field("position_only", task.positionOnly);
  json.arrayField("pins", s.options.pins);
  json.arrayField("locked", locked);
  json.arrayField("q0", q0);
  json.arrayField("q", r.q);
  json.field("converged", r.converged);
  json.field("reachable", r.reachable);
  json.field("iterations", r.iterations);
  json.field("restarts", r.restartsUsed);
  json.key("residual");
  json.beginObject();
  json.field("position", r.positionError);
  json.field("rotation", r.rotationError);
  json.field("pins", r.pinError);
  if (s.model.hasLoops()) json.field("loops", r.constraintError);  // max |phi|: the solver keeps the loops closed
  json.endObject();
  std::vector<std::string> limited;
  for (int v : r.limitedDofs) limited.push_back(s.vNames[v]);
  json.arrayField("at_limit", limited);
  const dyn::Transform<double> X = solver.framePose(frame, r.q);
  json.arrayField("position", X.translation());
  json.arrayField("quaternion", dyn::matrixToQuaternion<double>(X.rotation()));
}

}  // namespace cli
