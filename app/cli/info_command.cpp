// info: everything a user needs to write inputs for the other commands (q/v order and names).
#include "commands.hpp"

namespace cli {
namespace {

std::vector<std::string> slice(const std::vector<std::string>& names, int start, int count) {
  return {names.begin() + start, names.begin() + start + count};
}

void writeJoint(const Session& s, int i, JsonWriter& json) {
  const dyn::Model& m = s.model;
  const auto& J = m.joints[i];
  json.beginObject();
  json.field("name", m.jointNames[i]);
  json.field("type", dyn::jointTypeName(J.type));
  json.field("parent", m.bodyNames[m.parent[i]]);
  json.field("child", m.bodyNames[i]);
  json.field("idx_q", J.idx_q);
  json.field("nq", J.nq);
  json.field("idx_v", J.idx_v);
  json.field("nv", J.nv);
  json.arrayField("q_names", slice(s.qNames, J.idx_q, J.nq));
  json.arrayField("v_names", slice(s.vNames, J.idx_v, J.nv));
  if (J.type == dyn::JointType::Helical) json.field("pitch", J.pitch);
  json.field("continuous", J.continuous);
  // Per-entry arrays (multi-DOF joints have several); null = unlimited.
  json.key("limits");
  json.beginObject();
  json.arrayField("lower", m.lowerLimit.segment(J.idx_q, J.nq));
  json.arrayField("upper", m.upperLimit.segment(J.idx_q, J.nq));
  json.arrayField("velocity", m.velocityLimit.segment(J.idx_v, J.nv));
  json.arrayField("effort", m.effortLimit.segment(J.idx_v, J.nv));
  json.endObject();
  json.arrayField("damping", m.damping.segment(J.idx_v, J.nv));
  json.arrayField("friction", m.friction.segment(J.idx_v, J.nv));
  json.endObject();
}

}  // namespace

void writeInfo(const Session& s, JsonWriter& json) {
  const dyn::Model& m = s.model;
  json.field("nq", m.nq);
  json.field("nv", m.nv);
  json.field("bodies", m.N);
  json.field("base", m.bodyNames[0]);
  json.field("total_mass", m.totalMass());
  json.field("default_end_effector", m.defaultEndEffector);
  json.arrayField("q_names", s.qNames);
  json.arrayField("v_names", s.vNames);
  json.key("joints");  // bodies 1..N: already in q/v order (idx_q, idx_v grow with the body index)
  json.beginArray();
  for (int i = 1; i <= m.N; ++i) writeJoint(s, i, json);
  json.endArray();
  json.key("frames");
  json.beginArray();
  for (const auto& f : m.frames) {
    json.beginObject();
    json.field("name", f.name);
    json.field("body", m.bodyNames[f.body]);
    json.endObject();
  }
  json.endArray();
  writeLoopInfo(s, json);  // closed loops: loop joints, cut joints, actuated and independent coordinates
  json.key("mimics");
  json.beginArray();
  for (const auto& mi : m.mimics) {
    json.beginObject();
    json.field("joint", m.jointNames[mi.joint]);
    json.field("mimicked", m.jointNames[mi.mimicked]);
    json.field("multiplier", mi.multiplier);
    json.field("offset", mi.offset);
    json.endObject();
  }
  json.endArray();
  writeMimicInfo(s, json);             // which joints are independent, which follow whom (mimic_commands.cpp)
  writeFindings(m, m.findings, json);  // the warnings of the model checker, as check prints them
}

}  // namespace cli
