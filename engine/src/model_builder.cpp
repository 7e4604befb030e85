// RobotDescription -> Model: numbering (depth-first, so lambda(i) < i and each branch is a
// contiguous block of H), fixed-joint merging, and the physical sanity checks.
#include "dynscope/io/model_builder.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "canonical_frame.hpp"
#include "dynscope/io/dh_parser.hpp"
#include "dynscope/io/mjcf_parser.hpp"
#include "dynscope/io/model_check.hpp"
#include "dynscope/io/urdf_parser.hpp"
#include "dynscope/model/main_chain.hpp"
#include "loop_closures.hpp"

namespace dyn {
namespace {

// A body's tool frame: a frame on it named as a tool centre point (tcp), else as a tool or flange,
// else as a hand (a gripper's frames merged into the wrist), else the body itself.
std::string toolFrameOf(const Model& m, int body) {
  for (const char* word : {"tcp", "tool", "flange", "hand"})
    for (const auto& f : m.frames) {
      std::string lower = f.name;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      if (f.body == body && lower.find(word) != std::string::npos) return f.name;
    }
  return m.bodyNames[size_t(body)];
}

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Builder {
  const RobotDescription& robot;
  Model model;
  std::map<std::string, int> linkIndex;
  SpanningTree tree;
  std::vector<std::vector<int>> childJoints;  // per link: tree joints whose parent it is, file order
  std::vector<int> bodyOfLink;                // body each link is fixed to
  std::vector<Transform<double>> linkInBody;  // link_X_body

  explicit Builder(const RobotDescription& r) : robot(r) {}

  [[noreturn]] void fail(int line, const std::string& element, const std::string& msg) const {
    throw LoadError(robot.sourceFile, line, element, msg);
  }

  // Link names must be unique; the joints form one spanning tree from the root link plus the joints
  // that close loops (loop_closures.cpp).
  int findRoot() {
    for (int l = 0; l < (int)robot.links.size(); ++l) {
      if (!linkIndex.emplace(robot.links[l].name, l).second)
        fail(robot.links[l].line, "link '" + robot.links[l].name + "'", "duplicate link name");
    }
    if (robot.links.empty()) fail(0, "robot", "the robot has no links");
    tree = spanningTree(robot);
    childJoints = tree.children;
    return tree.root;
  }

  static JointType jointType(JointKind k) {
    switch (k) {
      case JointKind::Prismatic:
        return JointType::Prismatic;
      case JointKind::Helical:
        return JointType::Helical;
      case JointKind::Planar:
        return JointType::Planar;
      case JointKind::Spherical:
        return JointType::Spherical;
      case JointKind::Floating:
        return JointType::Floating;
      default:
        return JointType::Revolute;
    }
  }

  int addBody(int parentBody, const std::string& jointName, const std::string& bodyName, JointType type,
              const Vec3<double>& axis, double pitch, bool continuous, const Transform<double>& Xtree) {
    JointModel<double> jm;
    jm.type = type;
    jm.axis = axis.normalized();
    jm.pitch = pitch;
    jm.continuous = continuous;
    jm.nq = jointNq(type);
    jm.nv = jointNv(type);
    jm.idx_q = model.nq;
    jm.idx_v = model.nv;
    model.nq += jm.nq;
    model.nv += jm.nv;
    model.parent.push_back(parentBody);
    model.joints.push_back(jm);
    model.Xtree.push_back(Xtree);
    model.I.push_back(Inertia<double>::Zero());
    model.bodyNames.push_back(bodyName);
    model.jointNames.push_back(jointName);
    return ++model.N;
  }

  // Depth-first over the links: movable joints create bodies, fixed joints merge. An explicit
  // stack (link, its next child joint) instead of recursion: a 100,000-link chain is a valid robot.
  void visit(int root) {
    std::vector<std::pair<int, size_t>> stack{{root, 0}};
    while (!stack.empty()) {
      const int link = stack.back().first;
      if (stack.back().second == childJoints[link].size()) {
        stack.pop_back();
        continue;
      }
      const int j = childJoints[link][stack.back().second++];
      const JointDesc& jd = robot.joints[j];
      const int child = linkIndex.at(jd.child);
      const Transform<double> Xj = jd.origin.transform() * linkInBody[link];  // joint frame _X_ body
      if (jd.kind == JointKind::Fixed) {
        bodyOfLink[child] = bodyOfLink[link];
        linkInBody[child] = Xj;
      } else {
        if (!(jd.axis.norm() > 0) && jd.kind != JointKind::Spherical && jd.kind != JointKind::Floating)
          fail(jd.line, "joint '" + jd.name + "'", "the joint axis is zero");
        // Canonical joint frame (Featherstone's rule 2): rotate the body frame so z lies on the axis;
        // the link keeps its own frame as a model frame (linkInBody).
        const bool alongAxis = jd.kind == JointKind::Revolute || jd.kind == JointKind::Continuous ||
                               jd.kind == JointKind::Prismatic || jd.kind == JointKind::Helical;
        const Mat3<double> Ra = alongAxis ? rotationTakingZTo(jd.axis.normalized()) : Mat3<double>::Identity();
        bodyOfLink[child] = addBody(bodyOfLink[link], jd.name, jd.child, jointType(jd.kind),
                                    alongAxis ? Vec3<double>::UnitZ() : Vec3<double>(jd.axis.normalized()), jd.pitch,
                                    jd.kind == JointKind::Continuous, Transform<double>::rot(Ra.transpose()) * Xj);
        linkInBody[child] = Transform<double>::rot(Ra);
      }
      stack.emplace_back(child, 0);
    }
  }

  // What cannot be computed with; implausible inertias are the model checker's (model_check.hpp).
  void checkInertial(const LinkDesc& l) const {
    const InertialDesc& in = *l.inertial;
    const std::string el = "link '" + l.name + "' <inertial>";
    const double vals[] = {in.mass, in.ixx, in.ixy, in.ixz, in.iyy, in.iyz, in.izz};
    for (double v : vals)
      if (!std::isfinite(v)) fail(in.line, el, "mass or inertia is not a finite number");
    if (in.mass < 0) fail(in.line, el, "negative mass " + std::to_string(in.mass));
  }

  void addInertias() {
    for (int l = 0; l < (int)robot.links.size(); ++l) {
      const LinkDesc& ld = robot.links[l];
      if (!ld.inertial) continue;
      checkInertial(ld);
      const InertialDesc& in = *ld.inertial;
      Mat3<double> Ic;
      Ic << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
      // Inertia in the inertial frame, then carried to link and to body coordinates.
      const Inertia<double> Iin = Inertia<double>::mcI(in.mass, Vec3<double>::Zero(), Ic);
      const Inertia<double> Ilink = Iin.transformToA(in.origin.transform());
      model.I[bodyOfLink[l]] += Ilink.transformToA(linkInBody[l]);
    }
  }

  void addFramesAndGeometry() {
    for (int l = 0; l < (int)robot.links.size(); ++l) {
      const LinkDesc& ld = robot.links[l];
      model.frames.push_back(Frame<double>{ld.name, bodyOfLink[l], linkInBody[l]});
      auto addGeom = [&](const Geometry& g, bool collision) {
        model.geometries.push_back(GeometryObject{ld.name, bodyOfLink[l], g.origin.transform() * linkInBody[l], g.shape,
                                                  g.material, collision});
      };
      for (const auto& g : ld.visuals) addGeom(g, false);
      for (const auto& g : ld.collisions) addGeom(g, true);
    }
    for (const FrameDesc& fd : robot.frames) {
      auto it = linkIndex.find(fd.link);
      if (it == linkIndex.end()) fail(0, "frame '" + fd.name + "'", "link '" + fd.link + "' does not exist");
      model.frames.push_back(
          Frame<double>{fd.name, bodyOfLink[it->second], fd.origin.transform() * linkInBody[it->second]});
    }
  }

  void addLimitsAndDofs() {
    model.lowerLimit = VecX<double>::Constant(model.nq, -kInf);
    model.upperLimit = VecX<double>::Constant(model.nq, kInf);
    model.velocityLimit = VecX<double>::Constant(model.nv, kInf);
    model.effortLimit = VecX<double>::Constant(model.nv, kInf);
    model.damping = VecX<double>::Zero(model.nv);
    model.friction = VecX<double>::Zero(model.nv);
    model.dofParent.assign(model.nv, -1);
    model.dofBody.assign(model.nv, 0);
    std::unordered_map<std::string, int> bodyOfJoint;  // joint name -> body: linear, not a scan per joint
    // The file's joints only: a floating base's root_joint must not take the limits of a joint of
    // the file that has the same name (names.duplicate).
    for (int i = model.floatingBase ? 2 : 1; i <= model.N; ++i) bodyOfJoint.emplace(model.jointNames[i], i);
    const auto jointIndex = [&](const std::string& name) {
      const auto it = bodyOfJoint.find(name);
      return it == bodyOfJoint.end() ? -1 : it->second;
    };
    for (int i = 1; i <= model.N; ++i) {
      const JointModel<double>& jm = model.joints[i];
      for (int k = 0; k < jm.nv; ++k) {
        const int dof = jm.idx_v + k;
        model.dofBody[dof] = i;
        const int p = model.parent[i];
        model.dofParent[dof] = k > 0 ? dof - 1 : (p > 0 ? model.joints[p].idx_v + model.joints[p].nv - 1 : -1);
      }
    }
    for (const JointDesc& jd : robot.joints) {
      const int i = jointIndex(jd.name);
      if (jd.mimic) addMimic(jd, i, jointIndex(jd.mimic->joint));
      if (i < 0) continue;  // fixed
      const JointModel<double>& jm = model.joints[i];
      if (jm.nv == 1) {
        // Placeholder limits (no width, no effort, no velocity) say nothing: no limit, as the zeros of
        // effort and velocity alone (model_check.hpp).
        if (jd.hasLimits && jd.kind != JointKind::Continuous && !hasPlaceholderLimits(jd)) {
          if (!(jd.lower <= jd.upper))
            fail(jd.line, "joint '" + jd.name + "'", "lower limit is greater than the upper limit");
          model.lowerLimit[jm.idx_q] = jd.lower;
          model.upperLimit[jm.idx_q] = jd.upper;
        }
        if (jd.velocity > 0) model.velocityLimit[jm.idx_v] = jd.velocity;
        if (jd.effort > 0) model.effortLimit[jm.idx_v] = jd.effort;
      }
      for (int k = 0; k < jm.nv; ++k) {
        model.damping[jm.idx_v + k] = jd.damping;
        model.friction[jm.idx_v + k] = jd.friction;
      }
      if (jd.armature != 0) {  // only models with armature carry the vector (model.hpp)
        if (model.armature.size() != model.nv) model.armature = VecX<double>::Zero(model.nv);
        model.armature.segment(jm.idx_v, jm.nv).setConstant(jd.armature);
      }
      if (jd.stiffness != 0 && jm.nv == 1 && jm.nq == 1) {  // likewise springs
        if (model.stiffness.size() != model.nv) {
          model.stiffness = VecX<double>::Zero(model.nv);
          model.springref = VecX<double>::Zero(model.nv);
        }
        model.stiffness[jm.idx_v] = jd.stiffness;
        model.springref[jm.idx_v] = jd.springref;
      }
    }
  }

  // The mimic relation of joint jd (body i, -1 when fixed or cut), whose master is body m. One that
  // names no movable joint other than itself is dropped with a warning: the joint then moves on its own.
  // A relation between joints of more than one degree of freedom is dropped too (mimic_coupling.hpp
  // enforces q = a q_master + b on 1-DOF joints only), and so is one that closes a cycle of mimics.
  void addMimic(const JointDesc& jd, int i, int m) {
    const JointDesc::Mimic& mi = *jd.mimic;
    const bool oneDof = i > 0 && m > 0 && model.joints[size_t(i)].nv == 1 && model.joints[size_t(m)].nv == 1;
    const bool followsAlready =
        std::any_of(model.mimics.begin(), model.mimics.end(), [&](const MimicInfo& x) { return x.joint == i; });
    if (oneDof && m != i && !followsAlready && !closesCycle(i, m)) {
      model.mimics.push_back(MimicInfo{i, m, mi.multiplier, mi.offset});
      return;
    }
    const auto master =
        std::find_if(robot.joints.begin(), robot.joints.end(), [&](const JointDesc& j) { return j.name == mi.joint; });
    const auto cutOrFixed = [](const JointDesc& j) {
      return std::string(j.kind == JointKind::Fixed ? "is fixed" : "closes a loop (it is cut from the tree)");
    };
    std::string why;
    if (i < 0)
      why = "joint '" + jd.name + "' " + cutOrFixed(jd) + ": it has nothing to move";
    else if (mi.joint.empty())
      why = "<mimic> names no joint";
    else if (m == i)
      why = "joint '" + jd.name + "' mimics itself";
    else if (master == robot.joints.end())
      why = "joint '" + jd.name + "' mimics joint '" + mi.joint + "', which does not exist";
    else if (m > 0 && !oneDof)
      why = "joint '" + jd.name + "' mimics joint '" + mi.joint +
            "': a mimic relation needs two joints of one degree "
            "of freedom each";
    else if (m > 0 && followsAlready)
      why = "joint '" + jd.name + "' already follows another joint";
    else if (m > 0)
      why = "joint '" + jd.name + "' mimics joint '" + mi.joint + "', which follows joint '" + jd.name +
            "' through a chain of mimics (a cycle)";
    else
      why = "joint '" + jd.name + "' mimics joint '" + mi.joint + "', which " + cutOrFixed(*master);
    Finding f;
    f.severity = Severity::Warning;
    f.code = "mimic.dropped";
    f.file = robot.sourceFile;
    f.line = mi.line > 0 ? mi.line : jd.line;
    f.element = "joint '" + jd.name + "' <mimic>";
    f.joint = jd.name;
    f.link = jd.child;
    const auto child = linkIndex.find(jd.child);
    f.body = i > 0 ? i : child != linkIndex.end() ? bodyOfLink[size_t(child->second)] : -1;
    f.message = why + "; the <mimic> is dropped" + (i > 0 ? " and the joint moves on its own" : "");
    f.hint =
        "Name a movable joint of one degree of freedom (revolute, continuous or prismatic) that does not itself "
        "follow this joint in <mimic joint=\"...\">, or remove the element.";
    model.findings.push_back(std::move(f));
  }

  // Would i following m close a cycle: does m already follow i, directly or through a chain?
  bool closesCycle(int i, int m) const {
    for (int r = m, steps = 0; steps <= model.N; ++steps) {
      if (r == i) return true;
      const auto next =
          std::find_if(model.mimics.begin(), model.mimics.end(), [&](const MimicInfo& x) { return x.joint == r; });
      if (next == model.mimics.end()) return false;
      r = next->mimicked;
    }
    return true;
  }

  // Named configurations: the neutral one with the file's joint values put in by joint name (joints
  // that are fixed or absent are skipped; a value of the wrong size is the parser's to refuse).
  void addPoses() {
    const auto configuration = [&](const NamedPoseDesc& p) {
      Eigen::VectorXd q = model.neutral();
      for (const auto& [joint, values] : p.joints) {
        const int i = model.jointIndex(joint);
        if (i > 0 && int(values.size()) == model.joints[i].nq)
          for (int k = 0; k < model.joints[i].nq; ++k) q[model.joints[i].idx_q + k] = values[size_t(k)];
      }
      return q;
    };
    for (const NamedPoseDesc& p : robot.poses) model.poses.push_back(NamedPose{p.name, configuration(p)});
    if (robot.initialPose) model.initial = configuration(*robot.initialPose);
  }

  // Finite numbers can still overflow once combined (1e308 offsets added through fixed joints, a
  // large mass at a large lever): refuse the file, naming the element, rather than compute with inf.
  void checkFinite() const {
    const auto finite = [](const Transform<double>& X) { return X.E.allFinite() && X.r.allFinite(); };
    std::unordered_map<std::string, int> jointLine, linkLine;
    for (const JointDesc& jd : robot.joints) jointLine.emplace(jd.name, jd.line);
    for (const LinkDesc& ld : robot.links) linkLine.emplace(ld.name, ld.inertial ? ld.inertial->line : ld.line);
    const auto line = [](const std::unordered_map<std::string, int>& lines, const std::string& name) {
      const auto it = lines.find(name);
      return it == lines.end() ? 0 : it->second;
    };
    for (int i = 1; i <= model.N; ++i) {
      const std::string& joint = model.jointNames[i];
      if (!finite(model.Xtree[i]))
        fail(line(jointLine, joint), "joint '" + joint + "'",
             "its placement is not finite: the origins along the way add up beyond the range of numbers");
      const Inertia<double>& I = model.I[i];
      if (!std::isfinite(I.m) || !I.h.allFinite() || !I.Ibar.allFinite())
        fail(line(linkLine, model.bodyNames[i]), "link '" + model.bodyNames[i] + "' <inertial>",
             "the spatial inertia is not finite: mass, centre of mass or inertia too large");
    }
    for (const auto& f : model.frames)
      if (!finite(f.placement))
        fail(line(linkLine, f.name), "frame '" + f.name + "'", "its placement is not finite (offsets too large)");
    for (const auto& g : model.geometries)
      if (!finite(g.placement))
        fail(line(linkLine, g.link), "link '" + g.link + "' geometry",
             "its placement is not finite (offsets too large)");
  }

  Model build(const BuildOptions& opt) {
    const int root = findRoot();
    std::optional<Finding> floatsNote;
    model.name = robot.name;
    model.sourceFile = robot.sourceFile;
    model.parent = {-1};
    model.joints = {JointModel<double>{}};
    model.Xtree = {Transform<double>::Identity()};
    model.I = {Inertia<double>::Zero()};
    model.jointNames = {""};
    bodyOfLink.assign(robot.links.size(), -1);
    linkInBody.assign(robot.links.size(), Transform<double>::Identity());
    bodyOfLink[root] = 0;
    // A robot that floats already (every joint from its root is free, or a free joint from a root
    // that is the world: an MJCF <freejoint>, maybe beside static bodies welded to the world) gets no
    // second free joint: two stacked ones make H singular, and a free joint above the world would
    // move the static bodies with it. (A free joint below a URDF's base link stays one: the base
    // floats, the object on its free joint moves relative to it.)
    const std::string& rootName = robot.links[root].name;
    const JointDesc* ownFree = nullptr;
    bool allFree = true;
    for (const JointDesc& j : robot.joints)
      if (j.parent == rootName) {
        if (j.kind == JointKind::Floating && !ownFree) ownFree = &j;
        allFree &= j.kind == JointKind::Floating;
      }
    if (opt.floatingBase && ownFree && (allFree || rootName == "world")) {
      Finding f;
      f.severity = Severity::Info;
      f.code = "base.floats";
      f.file = robot.sourceFile;
      f.line = ownFree->line;
      f.element = "joint '" + ownFree->name + "'";
      f.joint = ownFree->name;
      f.link = ownFree->child;
      f.message = "the robot already has a free joint ('" + ownFree->name +
                  "'); the floating base asked for adds no second one" +
                  (allFree ? "" : " (the bodies welded to '" + rootName + "' stay where they are)");
      floatsNote = std::move(f);
    }
    const bool addsBase = opt.floatingBase && !floatsNote;
    model.bodyNames = {addsBase ? "world" : rootName};
    if (addsBase) {
      bodyOfLink[root] = addBody(0, "root_joint", robot.links[root].name, JointType::Floating, Vec3<double>::UnitZ(), 0,
                                 false, Transform<double>::Identity());
      model.floatingBase = true;
    }
    visit(root);
    if (floatsNote) {
      floatsNote->body = bodyOfLink[size_t(linkIndex.at(floatsNote->link))];
      model.findings.push_back(std::move(*floatsNote));
    }
    for (int l = 0; l < (int)robot.links.size(); ++l)
      if (bodyOfLink[l] < 0)
        fail(robot.links[l].line, "link '" + robot.links[l].name + "'", "link is not connected to the root");
    addInertias();
    addFramesAndGeometry();
    addLimitsAndDofs();
    // A joint whose subtree carries no mass and no rotational inertia gives H a zero row; the checker
    // reports them, forwardDynamicsRefusal() names them.
    model.immobileBodies = findImmobileBodies(model);
    checkFinite();
    for (int i = 0; i < 3; ++i)
      if (!std::isfinite(robot.gravity[i])) fail(0, "gravity", "gravity is not a finite vector");
    model.gravity = Motion<double>(Vec3<double>::Zero(), robot.gravity);
    // The file's suggestion (a DH tool, MJCF's last joint), unless it is a finger below the main
    // chain's end; else that end (the hand, not a finger: docs/ik.md).
    model.defaultEndEffector = robot.defaultEndEffector;
    if (model.N > 0) {
      const int hand = mainChainEnd(model);
      const int f = model.frameIndex(model.defaultEndEffector);
      const int suggested = f >= 0 ? model.frames[size_t(f)].body : -1;
      // A hand (its children are fingers): its tool frame, the TCP where the file names one.
      const bool grips = std::count(model.parent.begin(), model.parent.end(), hand) >= 2;
      if (suggested < 0 || (suggested != hand && model.isAncestor(hand, suggested)))
        model.defaultEndEffector =
            grips ? toolFrameOf(model, hand) : model.bodyNames[size_t(hand > 0 ? hand : model.N)];
    }
    addPoses();
    addLoopClosures(model, robot, tree, bodyOfLink, linkInBody);  // closed loops (docs/loops.md)
    return std::move(model);
  }
};

bool looksLikeDh(const std::string& path) { return std::filesystem::path(path).extension() == ".dh"; }

// An .xml (or .mjcf) file whose root element is <mujoco>: URDF files have <robot>.
bool looksLikeMjcfFile(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext != ".xml" && ext != ".mjcf") return false;
  std::ifstream in(path, std::ios::binary);
  std::string head(65536, '\0');  // past any licence comment at the top
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(size_t(in.gcount()));
  return looksLikeMjcf(head);
}

}  // namespace

Model buildModel(const RobotDescription& robot, const BuildOptions& options) {
  if (!options.fixups.empty()) {
    RobotDescription fixed = robot;
    for (Fixup f : options.fixups) applyFixup(fixed, f, options.floatingBase);
    BuildOptions rest = options;
    rest.fixups.clear();
    return buildModel(fixed, rest);
  }
  Model model = Builder(robot).build(options);
  if (options.check) {  // the builder's own findings (cut loops) first, then the checker's
    std::vector<Finding> checked = checkModel(model, &robot);
    model.findings.insert(model.findings.end(), std::make_move_iterator(checked.begin()),
                          std::make_move_iterator(checked.end()));
  }
  return model;
}

RobotDescription loadDescription(const std::string& path) {
  if (!std::filesystem::exists(path)) throw LoadError(path, 0, "", "file not found");
  if (looksLikeDh(path)) return parseDhFile(path);
  return looksLikeMjcfFile(path) ? parseMjcfFile(path) : parseUrdfFile(path);
}

Model loadModel(const std::string& path, const BuildOptions& options) {
  return buildModel(loadDescription(path), options);
}

}  // namespace dyn
