// fk, jacobian and energy: quantities of the configuration (and velocity) alone.
#include "commands.hpp"

namespace cli {
namespace {

void writeFramePose(const Session& s, const dyn::Data& data, int k, JsonWriter& json) {
  const dyn::Transform<double>& X = data.oMf[k];  // frame_X_world
  const Eigen::Matrix3d R = X.rotation();         // vector-rotating: columns are the frame axes in world
  json.beginObject();
  json.field("name", s.model.frames[k].name);
  json.field("body", s.model.bodyNames[s.model.frames[k].body]);
  json.arrayField("position", X.translation());
  json.key("rotation");
  json.matrix(R);
  json.arrayField("quaternion", dyn::matrixToQuaternion<double>(R));
  json.arrayField("rpy", dyn::matrixToRpy<double>(R));
  json.endObject();
}

dyn::ReferenceFrame referenceFrame(const std::string& name) {
  if (name == "local") return dyn::ReferenceFrame::Local;
  if (name == "world") return dyn::ReferenceFrame::World;
  return dyn::ReferenceFrame::LocalWorldAligned;
}

// --link, or the model's end effector for commands about a single frame.
std::string linkOrEndEffector(const Session& s) {
  if (s.options.link) return *s.options.link;
  if (s.model.defaultEndEffector.empty()) throw UsageError("the model names no end effector: give --link NAME");
  return s.model.defaultEndEffector;
}

}  // namespace

void writeForwardKinematics(const Session& s, JsonWriter& json) {
  const Eigen::VectorXd q = configurationInput(s, s.options.q);
  const int only = s.options.link ? frameInput(s, *s.options.link) : -1;
  dyn::Data data(s.model);
  dyn::forwardKinematics(s.model, data, q);
  dyn::updateFrames(s.model, data);
  json.arrayField("q", q);
  if (s.options.link) json.field("link", *s.options.link);
  json.key("frames");
  json.beginArray();
  for (int k = 0; k < int(s.model.frames.size()); ++k)
    if (only < 0 || k == only) writeFramePose(s, data, k, json);
  json.endArray();
  json.arrayField("com", dyn::centerOfMass(s.model, data));
}

void writeJacobian(const Session& s, JsonWriter& json) {
  const Eigen::VectorXd q = configurationInput(s, s.options.q);
  const std::string link = linkOrEndEffector(s);
  const int frame = frameInput(s, link);
  dyn::Data data(s.model);
  const dyn::Mat6X<double>& J = dyn::frameJacobian(s.model, data, q, frame, referenceFrame(s.options.frame));
  json.arrayField("q", q);
  json.field("link", link);
  json.field("frame", s.options.frame);
  json.arrayField("rows", std::vector<std::string>{"wx", "wy", "wz", "vx", "vy", "vz"});
  json.arrayField("columns", s.vNames);
  json.key("jacobian");
  json.matrix(J);
}

void writeEnergy(const Session& s, JsonWriter& json) {
  const Eigen::VectorXd q = configurationInput(s, s.options.q);
  const Eigen::VectorXd qd = velocityInput(s, s.options.qd, "--qd");
  dyn::Data data(s.model);
  dyn::computeEnergy(s.model, data, q, qd);
  json.arrayField("q", q);
  json.arrayField("qd", qd);
  json.field("kinetic", data.kinetic);
  json.field("potential", data.potential);
  json.field("total", data.kinetic + data.potential);
  json.arrayField("com", data.com);
  json.field("total_mass", s.model.totalMass());
}

}  // namespace cli
