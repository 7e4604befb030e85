#include "urdf_unused.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "dynscope/io/readable_number.hpp"

namespace dyn {
namespace {

using tinyxml2::XMLElement;

struct ReadChildren {
  const char* parent;
  std::vector<const char*> children;  // what the reader takes from `parent`
};

// The elements the reader reads, by parent. Each is read once, except the robot's links, joints and
// materials and a link's visuals and collisions.
const ReadChildren kRead[] = {
    {"robot", {"link", "joint", "material", "loop_joint", "dynscope:gravity"}},
    {"loop_joint", {"link1", "link2", "axis"}},
    {"link", {"inertial", "visual", "collision"}},
    {"inertial", {"origin", "mass", "inertia"}},
    {"visual", {"origin", "geometry", "material"}},
    {"collision", {"origin", "geometry"}},
    {"geometry", {"box", "cylinder", "sphere", "mesh"}},
    {"joint", {"origin", "parent", "child", "axis", "limit", "dynamics", "mimic", "dynscope:actuated"}},
    {"material", {"color", "texture"}},
};

bool repeats(const std::string& parent, const std::string& child) {
  return (parent == "robot") || (parent == "link" && (child == "visual" || child == "collision"));
}

struct OtherTool {
  const char* parent;  // nullptr: anywhere
  const char* tag;
  const char* what;
};

// Elements of other tools: ignored on purpose, an info.
const OtherTool kOtherTools[] = {
    {"robot", "transmission", "actuator transmissions (ros_control) are not part of the rigid-body model"},
    {"robot", "gazebo", "Gazebo simulation settings"},
    {"robot", "ros2_control", "ros2_control hardware interfaces"},
    {"joint", "calibration", "joint calibration (encoder references) does not change the kinematics"},
    {"joint", "safety_controller", "soft limits of a controller; the joint's <limit> is what Dynscope uses"},
    {"link", "contact", "contact parameters of a physics simulator (PyBullet)"},
    {"collision", "material", "URDF collisions have no material (the visual's colours are used)"},
    {"collision", "verbose", "urdfdom's collision description"},
};

const OtherTool* otherTool(const std::string& parent, const std::string& tag) {
  for (const OtherTool& o : kOtherTools)
    if ((!o.parent || parent == o.parent) && tag == o.tag) return &o;
  return nullptr;
}

struct Group {
  Finding finding;
  int count = 0;
  std::string summary;  // the message before the count
};

class Collector {
 public:
  explicit Collector(const RobotDescription& robot) : file_(robot.sourceFile) {}

  // `owner`: the link or joint element the element lies in (null at the top level).
  void visit(const XMLElement* el, const XMLElement* owner) {
    const std::string tag = el->Name();
    const ReadChildren* read = nullptr;
    for (const ReadChildren& r : kRead)
      if (tag == r.parent) read = &r;
    if (!read) return;
    std::map<std::string, int> seen;
    for (const XMLElement* child = el->FirstChildElement(); child; child = child->NextSiblingElement()) {
      const std::string name = child->Name();
      bool isRead = false;
      for (const char* c : read->children) isRead = isRead || name == c;
      // A <geometry> takes its first shape only.
      const bool repeated =
          isRead && ++seen[tag == "geometry" ? std::string("shape") : name] > 1 && !repeats(tag, name);
      const XMLElement* childOwner = tag == "robot" && (name == "link" || name == "joint") ? child : owner;
      if (isRead && !repeated) {
        visit(child, childOwner);
      } else if (repeated) {
        note(child, owner, tag, Severity::Warning, "urdf.repeated_element",
             tag == "geometry"
                 ? "a second shape <" + name + "> in <geometry> is ignored: only the first is read"
                 : "<" + name + "> repeated in <" + tag + ">: only the first is read, this one is ignored",
             tag == "geometry" ? "Give each shape its own <visual> or <collision>."
                               : "URDF allows one; merge them into one element.");
      } else if (const OtherTool* o = otherTool(tag, name)) {
        note(child, owner, tag, Severity::Info, "urdf.ignored_element", "<" + name + "> ignored: " + o->what,
             "Nothing to do: it does not change the robot's kinematics or dynamics.");
      } else {
        note(child, owner, tag, Severity::Warning, "urdf.unknown_element",
             "unknown element <" + name + "> in <" + tag + "> ignored",
             "A misspelt element loses what it holds (an <inertail> drops the link's mass). If it belongs to "
             "another tool, nothing to do.");
      }
    }
  }

  void appendTo(std::vector<Finding>& out) const {
    for (const Group& g : groups_) {
      Finding f = g.finding;
      if (g.count > 1) f.message += " (" + std::to_string(g.count) + " such elements, the first here)";
      out.push_back(std::move(f));
    }
  }

 private:
  void note(const XMLElement* el, const XMLElement* owner, const std::string& parent, Severity severity,
            const char* code, const std::string& message, const char* hint) {
    const std::string key = std::string(code) + "|" + parent + "|" + el->Name();
    const auto [it, fresh] = index_.emplace(key, groups_.size());
    if (fresh) {
      Group g;
      Finding& f = g.finding;
      f.severity = severity;
      f.code = code;
      f.file = file_;
      f.line = el->GetLineNum();
      f.message = message;
      f.hint = hint;
      const char* ownerName = owner ? owner->Attribute("name") : nullptr;
      const bool link = owner && std::strcmp(owner->Name(), "link") == 0;
      f.element = owner && ownerName ? std::string(link ? "link '" : "joint '") + ownerName + "' <" + el->Name() + ">"
                                     : "<" + std::string(el->Name()) + ">";
      if (ownerName) (link ? f.link : f.joint) = ownerName;
      groups_.push_back(std::move(g));
    }
    ++groups_[it->second].count;
  }

  std::string file_;
  std::vector<Group> groups_;
  std::map<std::string, size_t> index_;
};

// Revolute and prismatic joints must have a <limit> (URDF) with lower and upper (a missing one is 0);
// limits on other joints are not used.
void noteLimits(const XMLElement* root, RobotDescription& robot) {
  for (const XMLElement* el = root->FirstChildElement("joint"); el; el = el->NextSiblingElement("joint")) {
    const char* name = el->Attribute("name");
    const char* type = el->Attribute("type");
    if (!name || !type) continue;
    const std::string t = type;
    const XMLElement* limit = el->FirstChildElement("limit");
    Finding f;
    f.file = robot.sourceFile;
    f.joint = name;
    if (const XMLElement* child = el->FirstChildElement("child"))
      f.link = child->Attribute("link") ? child->Attribute("link") : "";
    if ((t == "revolute" || t == "prismatic") && !limit) {
      f.severity = Severity::Warning;
      f.code = "limits.missing";
      f.line = el->GetLineNum();
      f.element = "joint '" + f.joint + "'";
      f.message = t + " joint without <limit>: treated as unlimited, with no effort or velocity limit";
      f.hint =
          "URDF requires <limit lower upper effort velocity> on revolute and prismatic joints. Write the "
          "joint's range, or make it continuous if it turns freely.";
    } else if (limit && (t == "revolute" || t == "prismatic") &&
               (!limit->Attribute("lower") || !limit->Attribute("upper"))) {
      const bool lower = limit->Attribute("lower"), upper = limit->Attribute("upper");
      f.severity = Severity::Warning;
      f.code = "limits.partial";
      f.line = limit->GetLineNum();
      f.element = "joint '" + f.joint + "' <limit>";
      if (!lower && !upper) {
        f.message =
            "<limit> has no lower and no upper: the joint is taken as unlimited (URDF's defaults, lower = upper "
            "= 0, would lock it in place)";
      } else {
        const auto it = std::find_if(robot.joints.begin(), robot.joints.end(),
                                     [&](const JointDesc& j) { return j.name == f.joint; });
        const double lo = it != robot.joints.end() ? it->lower : 0, hi = it != robot.joints.end() ? it->upper : 0;
        if (lo > hi) continue;  // lower="0.5" alone: limits.inverted says it, with the default
        f.message = std::string("<limit> has no ") + (lower ? "upper" : "lower") + ": URDF's default " +
                    (lower ? "upper" : "lower") + " = 0 applies, so the range is [" + readableNumber(lo) + ", " +
                    readableNumber(hi) + "]";
      }
      f.hint =
          "URDF defaults a missing lower or upper to 0, which is rarely what was meant. Write both bounds; if "
          "the joint turns freely, make it continuous.";
    } else if (limit && (limit->Attribute("lower") || limit->Attribute("upper")) && t != "revolute" &&
               t != "prismatic") {
      f.severity = Severity::Info;
      f.code = "limits.ignored";
      f.line = limit->GetLineNum();
      f.element = "joint '" + f.joint + "' <limit>";
      f.message = "lower and upper of a " + t + " joint are ignored: it has no position limits";
      f.hint = t == "continuous" ? "A continuous joint turns freely; make it revolute if it is limited."
                                 : "Only revolute and prismatic joints have position limits.";
    } else {
      continue;
    }
    robot.findings.push_back(std::move(f));
  }
}

}  // namespace

void noteUnusedUrdfContent(const XMLElement* root, RobotDescription& robot) {
  Collector collector(robot);
  collector.visit(root, nullptr);
  collector.appendTo(robot.findings);
  noteLimits(root, robot);
}

}  // namespace dyn
