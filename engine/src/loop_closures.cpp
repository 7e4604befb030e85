// Closed kinematic loops at load time: the spanning tree, the loop-closure joints of the Model, the
// assembled reference configuration and the choice of actuated and independent coordinates.
#include "loop_closures.hpp"

#include "canonical_frame.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <numeric>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "dynscope/loops/assembly.hpp"
#include "dynscope/loops/loop_constraints.hpp"
#include "quoted_name.hpp"

namespace dyn {
namespace {


std::optional<LoopJointType> loopType(JointKind kind) {
  switch (kind) {
    case JointKind::Revolute:
    case JointKind::Continuous:
      return LoopJointType::Revolute;
    case JointKind::Prismatic:
      return LoopJointType::Prismatic;
    case JointKind::Spherical:
      return LoopJointType::Spherical;
    case JointKind::Fixed:
      return LoopJointType::Fixed;
    default:
      return std::nullopt;
  }
}

bool alongAxis(LoopJointType t) { return t == LoopJointType::Revolute || t == LoopJointType::Prismatic; }

}  // namespace

SpanningTree spanningTree(const RobotDescription& robot) {
  auto fail = [&](int line, const std::string& element, const std::string& message) {
    throw LoadError(robot.sourceFile, line, element, message);
  };
  std::unordered_map<std::string, int> linkIndex;
  for (int l = 0; l < int(robot.links.size()); ++l) linkIndex.emplace(robot.links[size_t(l)].name, l);
  const int nl = int(robot.links.size());
  std::vector<std::vector<int>> parentJoints(static_cast<size_t>(nl)), outgoing(static_cast<size_t>(nl));
  for (int j = 0; j < int(robot.joints.size()); ++j) {
    const JointDesc& jd = robot.joints[size_t(j)];
    const std::string el = "joint " + inQuotes(jd.name);
    const auto p = linkIndex.find(jd.parent), c = linkIndex.find(jd.child);
    if (p == linkIndex.end()) fail(jd.line, el, "parent link " + inQuotes(jd.parent) + " does not exist");
    if (c == linkIndex.end()) fail(jd.line, el, "child link " + inQuotes(jd.child) + " does not exist");
    if (p->second == c->second) fail(jd.line, el, "connects link " + inQuotes(jd.child) + " to itself");
    parentJoints[size_t(c->second)].push_back(j);
    outgoing[size_t(p->second)].push_back(j);
  }

  std::vector<int> roots;
  for (int l = 0; l < nl; ++l)
    if (parentJoints[size_t(l)].empty()) roots.push_back(l);
  if (roots.size() > 1) {
    std::string names;
    for (int r : roots) names += (names.empty() ? "" : ", ") + inQuotes(robot.links[size_t(r)].name);
    const LinkDesc& second = robot.links[size_t(roots[1])];
    fail(second.line, "link " + inQuotes(second.name),
         "the robot has several root links (" + names + "); all links must form one tree");
  }

  SpanningTree tree;
  tree.children.assign(size_t(nl), {});
  std::vector<char> reached(size_t(nl), 0);
  if (!roots.empty()) {
    tree.root = roots[0];
    std::deque<int> queue{tree.root};
    reached[size_t(tree.root)] = 1;
    while (!queue.empty()) {  // breadth first: each link joins the tree by its shortest path from the root
      const int l = queue.front();
      queue.pop_front();
      for (int j : outgoing[size_t(l)]) {
        const int c = linkIndex.at(robot.joints[size_t(j)].child);
        if (reached[size_t(c)]) {
          tree.cut.push_back(j);
        } else {
          reached[size_t(c)] = 1;
          tree.children[size_t(l)].push_back(j);
          queue.push_back(c);
        }
      }
    }
    std::sort(tree.cut.begin(), tree.cut.end());
  }

  // A link the root does not reach hangs on a cycle of its own (every link above it has a parent too).
  // Reported for the first such link; the walk marks positions, so it stays linear in the file.
  for (int start = 0; start < nl; ++start) {
    if (reached[size_t(start)]) continue;
    std::vector<int> joints;                    // parent joints met walking up by each link's first one
    std::vector<int> position(size_t(nl), -1);  // a link's place in the walk
    int l = start;
    while (position[size_t(l)] < 0) {
      position[size_t(l)] = int(joints.size());
      joints.push_back(parentJoints[size_t(l)].front());
      l = linkIndex.at(robot.joints[size_t(joints.back())].parent);
    }
    const size_t first = size_t(position[size_t(l)]);
    std::vector<int> cycle(joints.begin() + long(first), joints.end());  // child-to-parent
    std::reverse(cycle.begin(), cycle.end());                            // parent-to-child reads more naturally
    const auto earliest = std::min_element(cycle.begin(), cycle.end(), [&](int a, int b) {
      return robot.joints[size_t(a)].line < robot.joints[size_t(b)].line;
    });
    std::rotate(cycle.begin(), earliest, cycle.end());  // start at the joint first in the file: a stable message
    std::string names;
    for (int j : cycle) names += (names.empty() ? "" : " -> ") + inQuotes(robot.joints[size_t(j)].name);
    const JointDesc& jd = robot.joints[size_t(cycle.front())];
    fail(jd.line, "joint " + inQuotes(jd.name),
         "the joints form a cycle: " + names +
             (roots.empty() ? " (no link is the root of the tree)" : " (not connected to the root link)"));
  }
  return tree;
}

namespace {

struct LoopBuilder {
  Model& model;
  const RobotDescription& robot;
  const std::vector<int>& bodyOfLink;
  const std::vector<Transform<double>>& linkInBody;
  std::unordered_map<std::string, int> linkIndex;

  [[noreturn]] void fail(int line, const std::string& element, const std::string& message) const {
    throw LoadError(robot.sourceFile, line, element, message);
  }
  // A finding of the load (listed in the Model check panel and by dynscope-cli info/check).
  void note(Severity severity, const char* code, int line, const std::string& element, const std::string& joint,
            std::string message, std::string hint) const {
    Finding f;
    f.severity = severity;
    f.code = code;
    f.file = robot.sourceFile;
    f.line = line;
    f.element = element;
    f.joint = joint;
    f.message = std::move(message);
    f.hint = std::move(hint);
    model.findings.push_back(std::move(f));
  }

  int link(const std::string& name, int line, const std::string& element, const char* role) const {
    const auto it = linkIndex.find(name);
    if (it == linkIndex.end()) fail(line, element, std::string(role) + " link " + inQuotes(name) + " does not exist");
    return it->second;
  }

  // F_X_body of a joint frame given by `origin` on `link`, turned so that z lies on `axis`.
  Transform<double> frame(int l, const Pose& origin, const Mat3<double>& Ra) const {
    return Transform<double>::rot(Ra.transpose()) * origin.transform() * linkInBody[size_t(l)];
  }

  void add(LoopJoint<double> J) {
    J.row = model.constraintRows;
    model.constraintRows += J.rows();
    model.loops.push_back(std::move(J));
  }

  // A joint of the file that closes a cycle: F1 is its frame on the parent link; F2 is F1 at the
  // file's zero pose, fixed to the child (the zero pose is taken as assembled).
  void addCut(const JointDesc& jd, const Data& zero) {
    const std::string el = "joint " + inQuotes(jd.name);
    const auto type = loopType(jd.kind);
    if (!type)
      fail(jd.line, el,
           "closes a kinematic loop, but a loop-closure joint must be revolute, continuous, prismatic, spherical "
           "or fixed");
    const int p = linkIndex.at(jd.parent), s = linkIndex.at(jd.child);
    const Mat3<double> Ra = alongAxis(*type) ? rotationTakingZTo(jd.axis.normalized()) : Mat3<double>::Identity();
    LoopJoint<double> J;
    J.name = jd.name;
    J.type = *type;
    J.continuous = jd.kind == JointKind::Continuous;
    J.predecessor = bodyOfLink[size_t(p)];
    J.successor = bodyOfLink[size_t(s)];
    J.Xp = frame(p, jd.origin, Ra);
    const Transform<double> o1 = J.Xp * zero.X0[size_t(J.predecessor)];  // F1_X_0 at the zero pose
    J.Xs = o1 * zero.X0[size_t(J.successor)].inverse();                  // F2_X_s = F1_X_0 0_X_s
    J.link1 = jd.parent;
    J.link2 = jd.child;
    J.line = jd.line;
    J.cut = true;
    if (J.predecessor == J.successor)
      fail(jd.line, el,
           "closes a loop between links " + inQuotes(jd.parent) + " and " + inQuotes(jd.child) +
               ", which fixed joints already join rigidly");
    const auto treeJoint = std::find_if(robot.joints.begin(), robot.joints.end(), [&](const JointDesc& other) {
      return other.child == jd.child && model.jointIndex(other.name) >= 0;
    });
    const auto merged = std::find_if(robot.joints.begin(), robot.joints.end(),
                                     [&](const JointDesc& other) { return other.child == jd.child && &other != &jd; });
    const JointDesc* other = treeJoint != robot.joints.end() ? &*treeJoint
                             : merged != robot.joints.end()  ? &*merged
                                                             : nullptr;
    std::string message =
        "closes a kinematic loop" +
        (other ? " (link " + inQuotes(jd.child) + " is also the child of joint " + inQuotes(other->name) + ")"
               : std::string()) +
        "; cut from the spanning tree and kept as a " + loopJointTypeName(J.type) +
        " loop-closure joint at its origin on " + inQuotes(jd.parent) + ", the file's zero pose taken as assembled";
    if (jd.hasLimits || jd.damping > 0 || jd.friction > 0)
      message += "; its limits, damping and friction are not modelled (a loop-closure joint has no coordinate)";
    if (jd.actuated) message += "; its actuator marker is ignored (only tree joints are actuated)";
    note(Severity::Info, "loop.cut", jd.line, el, jd.name, std::move(message),
         "To choose which joint is cut, write the loop with <loop_joint> (docs/loops.md).");
    add(std::move(J));
  }

  // An explicit loop joint (<loop_joint> or a .dh `loop` line).
  void addExplicit(const LoopJointDesc& d) {
    const std::string el = "loop joint " + inQuotes(d.name);
    if (model.jointIndex(d.name) >= 0 || model.loopIndex(d.name) >= 0 ||
        std::any_of(robot.joints.begin(), robot.joints.end(), [&](const JointDesc& j) { return j.name == d.name; }))
      fail(d.line, el, "the name is already used by another joint");
    const auto type = loopType(d.kind);
    if (!type) fail(d.line, el, "the type must be revolute, continuous, prismatic, fixed or spherical");
    const int l1 = link(d.link1, d.line, el, "<link1>"), l2 = link(d.link2, d.line, el, "<link2>");
    if (l1 == l2) fail(d.line, el, "connects link " + inQuotes(d.link1) + " to itself");
    LoopJoint<double> J;
    J.name = d.name;
    J.type = *type;
    J.continuous = d.kind == JointKind::Continuous;
    J.predecessor = bodyOfLink[size_t(l1)];
    J.successor = bodyOfLink[size_t(l2)];
    if (J.predecessor == J.successor)
      fail(d.line, el,
           "connects links " + inQuotes(d.link1) + " and " + inQuotes(d.link2) +
               ", which fixed joints already join rigidly: the constraint could not act");
    if (alongAxis(J.type) && !(d.axis.norm() > 1e-12)) fail(d.line, el, "the axis must not be zero");
    const Mat3<double> Ra = alongAxis(J.type) ? rotationTakingZTo(d.axis.normalized()) : Mat3<double>::Identity();
    J.Xp = frame(l1, d.origin1, Ra);
    J.Xs = frame(l2, d.origin2, Ra);
    J.link1 = d.link1;
    J.link2 = d.link2;
    J.line = d.line;
    add(std::move(J));
  }

  // A configuration where the loops close: the zero pose when it does, else the nearest one.
  void assembleReference() {
    model.loopReference = model.neutral();
    AssemblyOptions opt;
    opt.tolerance = 1e-10;
    opt.maxIterations = 200;
    Assembler assembler(model);
    assembler.evaluate(model.loopReference);
    if (maxAbs(assembler.loopData().phi) <= opt.tolerance) return;
    const AssemblyResult& r = assembler.solve(model.loopReference, opt);
    if (!r.converged) {
      const LoopJoint<double>& J = model.loops[size_t(r.worstLoop)];
      fail(J.line, (J.cut ? "joint " : "loop joint ") + inQuotes(J.name),
           "the mechanism cannot be assembled: this loop cannot close (the closest configuration to the zero pose "
           "leaves " +
               describeLoopError(model, assembler.loopData().phi, r.worstLoop) + " there)");
    }
    model.loopReference = r.q;
  }

  // n_c = rank phi' at the reference; the dependent coordinates: n_c dofs whose columns of phi' are
  // independent, taken greedily (pivoted Gram-Schmidt) in the order passive before actuated,
  // multi-dof joints (quaternions cannot be dragged) before 1-dof ones, later dofs before earlier.
  void chooseCoordinates(bool marked) {
    Data data(model);
    LoopData ld(model);
    loopConstraints(model, data, ld, model.loopReference);
    model.loopRank = selectLoopRows(ld, 1e-10);
    const int n = model.nv, m = model.constraintRows, r = model.loopRank;
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    auto key = [&](int v) {
      const bool actuated = marked && model.isActuated(v);
      return std::tuple(actuated, model.joints[size_t(model.dofBody[size_t(v)])].nv == 1, -v);
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
    double largest = 0;
    for (int v = 0; v < n; ++v) largest = std::max(largest, ld.Jc.col(v).norm());
    Eigen::MatrixXd basis(m, std::max(r, 1));
    std::vector<int> dependent;
    std::vector<char> taken(size_t(n), 0);
    for (const double relative : {1e-3, 0.0}) {  // well-conditioned choices first, then any independent one
      for (int v : order) {
        if (int(dependent.size()) == r) break;
        if (taken[size_t(v)]) continue;
        Eigen::VectorXd x = ld.Jc.col(v);
        for (int pass = 0; pass < 2; ++pass)  // Gram-Schmidt, twice for orthogonality
          for (int k = 0; k < int(dependent.size()); ++k) x -= basis.col(k) * basis.col(k).dot(x);
        const double norm = x.norm();
        if (norm > 1e-8 * largest && norm > relative * ld.Jc.col(v).norm()) {
          basis.col(int(dependent.size())) = x / norm;
          dependent.push_back(v);
          taken[size_t(v)] = 1;
        }
      }
    }
    std::sort(dependent.begin(), dependent.end());
    model.dependentDofs = dependent;
  }
};

}  // namespace

void addLoopClosures(Model& model, const RobotDescription& robot, const SpanningTree& tree,
                     const std::vector<int>& bodyOfLink, const std::vector<Transform<double>>& linkInBody) {
  LoopBuilder b{model, robot, bodyOfLink, linkInBody, {}};
  for (int l = 0; l < int(robot.links.size()); ++l) b.linkIndex.emplace(robot.links[size_t(l)].name, l);

  // Actuation: the joints the file marks; without markers every tree joint (for now).
  const bool marked =
      std::any_of(robot.joints.begin(), robot.joints.end(), [](const JointDesc& j) { return j.actuated; });
  model.passiveDofs.clear();
  if (marked) {
    std::unordered_set<std::string> actuatedNames;  // by name: a scan per body was quadratic
    for (const JointDesc& j : robot.joints)
      if (j.actuated) actuatedNames.insert(j.name);
    for (int i = 1; i <= model.N; ++i) {
      if (actuatedNames.count(model.jointNames[size_t(i)])) continue;
      for (int k = 0; k < model.joints[size_t(i)].nv; ++k)
        model.passiveDofs.push_back(model.joints[size_t(i)].idx_v + k);
    }
  }

  if (!tree.cut.empty()) {
    Data zero(model);
    forwardKinematics(model, zero, model.neutral());
    for (int j : tree.cut) b.addCut(robot.joints[size_t(j)], zero);
  }
  for (const LoopJointDesc& d : robot.loopJoints) b.addExplicit(d);
  if (model.loops.empty()) return;

  b.assembleReference();
  b.chooseCoordinates(marked);
  const int mobility = model.nv - model.loopRank;
  if (!marked) {
    model.passiveDofs = model.dependentDofs;  // the independent coordinates are the actuated ones
  } else {
    const int actuated = model.nv - int(model.passiveDofs.size());
    if (actuated < mobility)
      b.note(Severity::Warning, "loop.underactuated", 0, "actuated joints", "",
             std::to_string(actuated) + " joints are marked actuated, fewer than the mechanism's mobility of " +
                 std::to_string(mobility) + ": inverse dynamics can only match some motions",
             "Mark as many joints actuated as the mechanism has degrees of freedom (docs/loops.md).");
  }
}

}  // namespace dyn
