// The model checker's shared state (model_check.cpp, model_check_conditioning.cpp): the model, its
// description, name lookups and the findings so far. Private to the engine.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "dynscope/io/model_check.hpp"
#include "quoted_name.hpp"

namespace dyn::check_detail {

struct Context {
  Context(const Model& m, const RobotDescription* d);

  const Model& model;
  const RobotDescription* desc;  // may be null
  std::vector<Finding> out;

  // A new finding in the robot's file; the caller fills in the rest.
  Finding& add(Severity severity, const char* code);
  // The finding is about link `name` (its body, its joint when it has one of its own, its line).
  void atLink(Finding& f, const std::string& name, int line = 0) const;
  // The finding is about the joint of body `body` (its name, line and child link).
  void atJointOfBody(Finding& f, int body) const;

  int bodyOfLink(const std::string& name) const;   // -1 when not in the model
  int bodyOfJoint(const std::string& name) const;  // the body it moves; for a fixed joint its child's body
  const LinkDesc* link(const std::string& name) const;
  const JointDesc* joint(const std::string& name) const;
  // "link 'x'" and the line of its <inertial> (else of the <link>), for mass findings.
  int massLine(const std::string& linkName) const;
  // The line of a link, or of an extra frame (a DH tool frame) of that name; 0 when unknown.
  int frameLine(const std::string& name) const;

 private:
  std::unordered_map<std::string, int> linkBody_, jointBody_;
  std::unordered_map<std::string, const LinkDesc*> links_;
  std::unordered_map<std::string, const JointDesc*> joints_;
};

std::string num(double v);                    // 3 significant digits

std::string momentsText(const Vec3<double>& moments);

void checkConditioning(Context& c);

// A body or link with |m| + sum |I_ij| at most this has no mass or inertia (massless subtrees).
inline constexpr double kMassless = 1e-12;
// No mass and no rotational inertia: moments such as 1e-35 are the rounding noise of nothing, not an
// inconsistent inertia, and balancing cannot give the link mass (fixups.cpp).
bool isMassless(const InertialDesc& in);

}  // namespace dyn::check_detail
