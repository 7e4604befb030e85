// MJCF reader (tinyxml2): <mujoco> with its <compiler>, <default>, <option>, <asset>, <worldbody>,
// <actuator> and <equality> sections, <include>d files expanded where they stand. Bodies become
// links; a body's joints become joints from its parent, chained through massless links when there
// are several (MuJoCo allows that, a URDF-shaped description does not). Everything else is a finding.
#include "dynscope/io/mjcf_parser.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <numbers>
#include <sstream>
#include <system_error>

#include <Eigen/Eigenvalues>

#include "dynscope/io/mesh_path.hpp"
#include "dynscope/io/utf8.hpp"
#include "mjcf_reader.hpp"
#include "quoted_name.hpp"
#include "triangle_mesh.hpp"
#include "xml_error_text.hpp"

namespace dyn {
namespace {

using namespace mjcf;
namespace fs = std::filesystem;

constexpr double kInfinity = std::numeric_limits<double>::infinity();
const char* const kActuatorTags[] = {"motor",  "position", "velocity", "general",  "intvelocity",
                                     "damper", "cylinder", "muscle",   "adhesion", "plugin"};
bool isActuatorTag(const std::string& tag) {
  return std::any_of(std::begin(kActuatorTags), std::end(kActuatorTags), [&](const char* t) { return tag == t; });
}
// The <default> bucket of an element kind: every actuator kind shares MuJoCo's one actuator default.
std::string bucketOf(const std::string& tag) { return isActuatorTag(tag) ? "general" : tag; }

struct MeshAsset {
  std::string path;  // as the description keeps it: relative to the model file's folder, or absolute;
                     // empty for a mesh given by its vertices in the file
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();
  Eigen::Vector3d refpos = Eigen::Vector3d::Zero();  // MuJoCo 2's refpos, refquat: the mesh's own frame
  Eigen::Quaterniond refquat = Eigen::Quaterniond::Identity();
  std::vector<Eigen::Vector3d> vertices;  // <mesh vertex>
  std::vector<int> faces;                 // <mesh face> (none: the vertices' convex hull, as MuJoCo)
  std::optional<MeshRule> rule;           // <mesh inertia> (MuJoCo 3.3)
  const XMLElement* el = nullptr;
};

// A mass, its centre and its inertia about the centre, in the body frame: what the geoms add up to.
struct MassSum {
  double mass = 0;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();  // sum of m c
  struct Part {
    double m;
    Eigen::Vector3d c;
    Eigen::Matrix3d Ic;
  };
  std::vector<Part> parts;
  // Mesh geoms: their inertia is read from the file only when the body takes its inertia from geoms.
  struct MeshPart {
    const XMLElement* el;
    Iso pose;
    std::string mesh;
    std::optional<double> mass;
    double density;
    MeshRule rule;
  };
  std::vector<MeshPart> meshes;
};

// Every attribute must be UTF-8: names end up in JSON, CSV headers and window titles.
void checkUtf8(const Reader& r, const XMLElement* el) {
  for (const tinyxml2::XMLAttribute* a = el->FirstAttribute(); a; a = a->Next())
    if (const std::string problem = utf8Problem("<" + std::string(el->Name()) + "> " + a->Name(), a->Value());
        !problem.empty())
      r.fail(el, "", problem);
  for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) checkUtf8(r, c);
}

class Parser {
 public:
  Parser(Reader& reader) : r(reader), robot(reader.robot()) {}

  void read(const XMLElement* root) {
    robot.name = root->Attribute("model") ? root->Attribute("model") : "";
    r.markRead(root, "model");
    r.noteUnreadAttributes(root);
    // MuJoCo reads the sections in any order: the compiler settings and defaults come first.
    forEachChild(root, [&](const XMLElement* el) {
      if (!std::strcmp(el->Name(), "compiler")) readCompiler(el);
    });
    forEachChild(root, [&](const XMLElement* el) {
      if (!std::strcmp(el->Name(), "default")) readDefault(el, nullptr);
    });
    forEachChild(root, [&](const XMLElement* el) {
      const std::string tag = el->Name();
      if (tag == "option") readOption(el);
      if (tag == "asset") readAssets(el);
    });
    collectNames(root);
    robot.links.push_back(LinkDesc{"world", std::nullopt, {}, {}, root->GetLineNum()});
    bool hasWorld = false;
    forEachChild(root, [&](const XMLElement* el) {
      if (std::strcmp(el->Name(), "worldbody")) return;
      if (!hasWorld) robot.links.front().line = el->GetLineNum();
      hasWorld = true;
      readBodyContents(el, "world", Iso::Identity(), "", nullptr);
    });
    forEachChild(root, [&](const XMLElement* el) {
      const std::string tag = el->Name();
      if (tag == "actuator")
        readActuators(el);
      else if (tag == "equality")
        readEquality(el);
      else if (tag == "tendon")
        forEachChild(el, [&](const XMLElement* t) {
          r.note(Severity::Warning, "mjcf.tendon", t, "<tendon> <" + std::string(t->Name()) + ">",
                 "tendons are not represented: their forces and length limits are missing from the dynamics",
                 "Dynscope models rigid bodies and joints; a tendon's spring, damping and actuation are left out.");
        });
      else if (tag == "contact")
        r.note(Severity::Info, "mjcf.contact", el, "<contact>",
               "contact pairs and exclusions are not used: Dynscope has no contact model",
               "The rigid-body dynamics (H, inverse and forward dynamics) do not depend on contacts.");
      else if (tag == "sensor")
        r.note(Severity::Info, "mjcf.sensor", el, "<sensor>", "sensors are not read", "");
      else if (tag == "keyframe")
        readKeyframes(el);
      else if (tag != "compiler" && tag != "default" && tag != "option" && tag != "asset" && tag != "worldbody")
        r.note(Severity::Info, "mjcf.element_ignored", el, "<" + tag + ">", "<" + tag + "> is not used by Dynscope",
               "Rendering, sizes and extensions do not change the dynamics.");
    });
    applyMassBounds();
    applyTotalMass(root);
    if (gravityDisabled) robot.gravity = Vec3<double>::Zero();
    if (passiveDisabled)
      for (JointDesc& j : robot.joints) j.damping = j.stiffness = 0;
    suggestEndEffector();
    describeInitialPose();
    r.flushFindings();
  }

 private:
  Reader& r;
  RobotDescription& robot;
  std::map<std::string, MeshAsset> meshes;
  std::map<std::string, std::array<double, 4>> materials;
  // Each mesh's triangles (scaled, in its own frame) or why they could not be read; its inertia by rule.
  std::map<std::string, std::pair<std::vector<Triangle>, std::string>> meshTriangles;
  std::map<std::pair<std::string, MeshRule>, std::pair<std::optional<MeshInertia>, std::string>> meshInertias;
  std::map<std::string, size_t> jointIndex;  // name -> robot.joints index (movable joints)
  std::map<std::string, double> jointRef;    // name -> ref (qpos0), in radians or metres
  std::map<std::string, Iso> freeBodyPose;   // free joint name -> its body's written pose in the world (qpos0)
  std::map<const XMLElement*, const XMLElement*> includedRoots;
  int unnamedCount = 0;
  std::set<std::string> writtenNames;
  // The links that are MuJoCo bodies (not the links of chained joints), with the body's pose as written.
  std::vector<std::pair<size_t, Iso>> bodyLinks;  // every name
                                                  // attribute of the file (for the names we make)
  int includeDepth = 0;
  std::string suffix;  // the names' suffix of the elements being read (<replicate>)
  std::map<std::string, std::vector<std::string>> replicas;  // a joint's name as written -> its replicas' names
  bool gravityDisabled = false;                              // <option><flag gravity="disable">
  bool passiveDisabled = false;                              // <option><flag passive="disable">

  // <compiler boundmass boundinertia balanceinertia> (MuJoCo 2.2.2's mjCBody::Compile, XML reference
  // compiler/boundmass ...): every body's mass raised to boundmass, its principal moments each to
  // boundinertia; then, with balanceinertia, moments violating A + B >= C all replaced by their mean.
  // A body without an <inertial> or geoms' inertia gets them where MuJoCo's compiler puts such a body's
  // inertial frame: at the body's own pos and quat (relative to its parent) read in the body frame.
  void applyMassBounds() {
    const Compiler& c = r.compiler;
    if (!(c.boundmass > 0) && !(c.boundinertia > 0) && !c.balanceinertia) return;
    int changed = 0;
    for (const auto& [k, written] : bodyLinks) {
      LinkDesc& link = robot.links[k];
      InertialDesc in = link.inertial ? *link.inertial : InertialDesc{};
      if (!link.inertial) {
        in.line = in.inertiaLine = link.line;
        in.origin = toPose(written);
      }
      Eigen::Matrix3d I;
      I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(I);
      const Eigen::Vector3d d = eig.eigenvalues();
      const double mass = std::max(in.mass, c.boundmass);
      Eigen::Vector3d bounded = d.cwiseMax(Eigen::Vector3d::Constant(c.boundinertia));
      if (c.balanceinertia && (bounded[0] + bounded[1] < bounded[2] || bounded[0] + bounded[2] < bounded[1] ||
                               bounded[1] + bounded[2] < bounded[0]))
        bounded.setConstant(bounded.sum() / 3);
      if (mass == in.mass && bounded == d) continue;
      const Eigen::Matrix3d J = eig.eigenvectors() * bounded.asDiagonal() * eig.eigenvectors().transpose();
      in.mass = mass;
      in.ixx = J(0, 0), in.iyy = J(1, 1), in.izz = J(2, 2), in.ixy = J(0, 1), in.ixz = J(0, 2), in.iyz = J(1, 2);
      link.inertial = in;
      ++changed;
    }
    if (changed)
      r.note(Severity::Info, "mjcf.mass_bounds", c.boundsAt, "<compiler> boundmass boundinertia balanceinertia",
             "<compiler> mass and inertia bounds applied as MuJoCo applies them: " + std::to_string(changed) +
                 " bodies changed",
             "");
  }

  // <compiler settotalmass="M"> (MuJoCo's XML reference, compiler/settotalmass; mj_setTotalmass): when
  // M > 0, every body's mass and inertia is scaled by M / (the sum of the bodies' masses), the world
  // excluded, after every other rule that sets masses. Bodies welded to the world count, as in MuJoCo.
  void applyTotalMass(const XMLElement* root) {
    const double target = r.compiler.settotalmass;
    if (!(target > 0)) return;
    double total = 0;
    for (const LinkDesc& l : robot.links)
      if (l.inertial) total += l.inertial->mass;
    if (!(total > 0)) return;  // MuJoCo leaves a massless model as it is
    const double s = target / total;
    for (LinkDesc& l : robot.links)
      if (InertialDesc* in = l.inertial ? &*l.inertial : nullptr) {
        in->mass *= s;
        for (double* i : {&in->ixx, &in->iyy, &in->izz, &in->ixy, &in->ixz, &in->iyz}) *i *= s;
      }
    std::ostringstream msg;
    msg.precision(6);
    msg << "<compiler settotalmass=\"" << target << "\"> applied: every body's mass and inertia scaled by " << s
        << " (the bodies' masses summed to " << total << " kg)";
    r.note(Severity::Info, "mjcf.settotalmass", r.compiler.settotalmassAt ? r.compiler.settotalmassAt : root,
           "<compiler> settotalmass", msg.str(), "MuJoCo's compiler scales the masses the same way (mj_setTotalmass).");
  }

  // The body the last movable joint moves (the builder's default would be its joint's own link when
  // that is a `body/joint` link).
  void suggestEndEffector() {
    const auto last = std::find_if(robot.joints.rbegin(), robot.joints.rend(),
                                   [](const JointDesc& j) { return j.kind != JointKind::Fixed; });
    if (last == robot.joints.rend()) return;
    robot.defaultEndEffector = last->child;
    for (const JointDesc& j : robot.joints)
      if (j.kind == JointKind::Fixed && j.parent == last->child && j.name == j.child + "/offset")
        robot.defaultEndEffector = j.child;
  }

  // MuJoCo's qpos0: free bodies at their written pose, hinges and slides at their ref (where the
  // model is drawn as written); balls at the identity, which is the neutral configuration too.
  void describeInitialPose() {
    NamedPoseDesc p;
    p.name = "qpos0";
    for (const JointDesc& j : robot.joints) {
      if (const auto f = freeBodyPose.find(j.name); j.kind == JointKind::Floating && f != freeBodyPose.end()) {
        const Eigen::Vector3d x = f->second.translation();
        const Eigen::Quaterniond e(f->second.rotation());
        p.joints.emplace_back(j.name, std::vector<double>{x.x(), x.y(), x.z(), e.x(), e.y(), e.z(), e.w()});
      } else if (const auto ref = jointRef.find(j.name); ref != jointRef.end() && ref->second != 0) {
        p.joints.emplace_back(j.name, std::vector<double>{ref->second});
      }
    }
    if (!p.joints.empty()) robot.initialPose = std::move(p);
  }

  // ---- structure ----------------------------------------------------------------------------

  void collectNames(const XMLElement* el) {
    forEachChild(el, [&](const XMLElement* c) {
      if (const char* n = c->Attribute("name")) writtenNames.insert(n);
      collectNames(c);
    });
  }

  // The element children of el, each <include> replaced by the children of the file's <mujoco>.
  void forEachChild(const XMLElement* el, const std::function<void(const XMLElement*)>& fn) {
    for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::strcmp(c->Name(), "include")) {
        fn(c);
        continue;
      }
      const XMLElement* root = included(c);
      if (++includeDepth > 20) r.fail(c, "<include>", "includes nest more than 20 deep (a file includes itself?)");
      forEachChild(root, fn);
      --includeDepth;
    }
  }

  const XMLElement* included(const XMLElement* inc) {
    if (const auto it = includedRoots.find(inc); it != includedRoots.end()) return it->second;
    const char* file = inc->Attribute("file");
    if (!file) r.fail(inc, "<include>", "missing file attribute");
    r.markRead(inc, "file");
    // MuJoCo resolves includes relative to the main model file's folder.
    const fs::path path = fs::path(r.mainFile()).parent_path() / file;
    std::ifstream in(path, std::ios::binary);
    if (!in) r.fail(inc, "<include>", "cannot open '" + path.string() + "': " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    const std::string xml = text.str();
    if (const std::string binary = binaryFileProblem(xml); !binary.empty())
      throw LoadError(path.string(), 0, "",
                      binary + " (included from " + r.fileOf(inc) + " line " + std::to_string(inc->GetLineNum()) + ")");
    tinyxml2::XMLDocument& doc = r.addDocument(path.string());
    if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
      const XmlErrorText error = describeXmlError(xml, doc);
      throw LoadError(path.string(), error.line, "", error.message);
    }
    const XMLElement* root = doc.RootElement();
    if (!root || std::strcmp(root->Name(), "mujoco"))
      throw LoadError(path.string(), root ? root->GetLineNum() : 0, "",
                      "an included file's root element must be <mujoco>");
    checkUtf8(r, root);
    includedRoots[inc] = root;
    return root;
  }

  // ---- compiler, defaults, option, assets ----------------------------------------------------

  void readCompiler(const XMLElement* el) {
    const auto flag = [&](const char* name, bool& out) {
      if (const char* v = el->Attribute(name)) {
        r.markRead(el, name);
        if (!std::strcmp(v, "true") || !std::strcmp(v, "false"))
          out = !std::strcmp(v, "true");
        else
          r.fail(el, "<compiler>", std::string(name) + "=\"" + v + "\": expected true or false");
      }
    };
    if (const char* a = el->Attribute("angle")) {
      r.markRead(el, "angle");
      if (!std::strcmp(a, "degree") || !std::strcmp(a, "radian"))
        r.compiler.degrees = !std::strcmp(a, "degree");
      else
        r.fail(el, "<compiler>", std::string("angle=\"") + a + "\": expected degree or radian");
    }
    if (const char* s = el->Attribute("eulerseq")) {
      r.markRead(el, "eulerseq");
      const std::string seq = s;
      if (seq.size() != 3 || seq.find_first_not_of("xyzXYZ") != std::string::npos)
        r.fail(el, "<compiler>", "eulerseq=\"" + seq + "\": expected three of x y z X Y Z");
      r.compiler.eulerseq = seq;
    }
    for (const char* dir : {"assetdir", "meshdir"})  // meshdir, when given, wins over assetdir
      if (const char* d = el->Attribute(dir)) {
        r.markRead(el, dir);
        r.compiler.meshdir = d;
      }
    flag("autolimits", r.compiler.autolimits);
    flag("exactmeshinertia", r.compiler.exactMeshInertia);
    if (const char* v = el->Attribute("inertiafromgeom")) {
      r.markRead(el, "inertiafromgeom");
      const std::string s = v;
      r.compiler.inertiaFromGeom =
          s == "true"    ? Compiler::FromGeom::True
          : s == "false" ? Compiler::FromGeom::False
          : s == "auto"  ? Compiler::FromGeom::Auto
                         : (r.fail(el, "<compiler>", "inertiafromgeom=\"" + s + "\": expected true, false or auto"),
                           Compiler::FromGeom::Auto);
    }
    if (const char* v = el->Attribute("inertiagrouprange")) {
      r.markRead(el, "inertiagrouprange");
      const std::vector<int> g = r.integers(el, "inertiagrouprange", v, 2);
      r.compiler.groupMin = g[0];
      r.compiler.groupMax = g[1];
    }
    if (const char* c = el->Attribute("coordinate")) {
      r.markRead(el, "coordinate");
      if (std::strcmp(c, "local"))
        r.fail(el, "<compiler>",
               "coordinate=\"" + std::string(c) + "\" is not supported (MuJoCo 2's global coordinates; use local)");
    }
    if (const char* v = el->Attribute("settotalmass")) {
      r.markRead(el, "settotalmass");
      r.compiler.settotalmass = r.numbers(el, "settotalmass", v, 1)[0];
      r.compiler.settotalmassAt = el;
    }
    for (const auto& [name, out] :
         {std::pair{"boundmass", &r.compiler.boundmass}, std::pair{"boundinertia", &r.compiler.boundinertia}})
      if (const char* v = el->Attribute(name)) {
        r.markRead(el, name);
        *out = r.numbers(el, name, v, 1)[0];
        r.compiler.boundsAt = el;
      }
    if (el->Attribute("balanceinertia")) {
      flag("balanceinertia", r.compiler.balanceinertia);
      r.compiler.boundsAt = el;
    }
    r.noteUnreadAttributes(el);
  }

  // A <default> class: its parent's attributes, overridden by its own; nested classes inherit.
  void readDefault(const XMLElement* el, const DefaultClass* parent) {
    const char* cls = el->Attribute("class");
    const std::string name = cls ? cls : "main";  // the top-level <default> is class "main"
    if (parent && r.defaults.count(name)) r.fail(el, "<default>", "class " + inQuotes(name) + " is defined twice");
    if (parent && !cls) r.fail(el, "<default>", "a nested <default> needs a class attribute");
    DefaultClass d = parent ? *parent : (r.defaults.count(name) ? r.defaults[name] : DefaultClass{});
    std::vector<const XMLElement*> nested;
    forEachChild(el, [&](const XMLElement* c) {
      if (!std::strcmp(c->Name(), "default")) {
        nested.push_back(c);
        return;
      }
      AttributeMap& attrs = d.byTag[bucketOf(c->Name())];
      for (const tinyxml2::XMLAttribute* a = c->FirstAttribute(); a; a = a->Next()) attrs[a->Name()] = a->Value();
    });
    r.defaults[name] = d;
    for (const XMLElement* c : nested) readDefault(c, &r.defaults[name]);
  }

  void readOption(const XMLElement* el) {
    if (const char* g = el->Attribute("gravity")) {
      r.markRead(el, "gravity");
      const std::vector<double> v = r.numbers(el, "gravity", g, 3);
      robot.gravity = Vec3<double>(v[0], v[1], v[2]);
    }
    r.noteUnreadAttributes(el);
    forEachChild(el, [&](const XMLElement* c) {
      if (!std::strcmp(c->Name(), "flag")) {
        readFlags(c);
        return;
      }
      r.note(Severity::Info, "mjcf.element_ignored", c, "<option> <" + std::string(c->Name()) + ">",
             "<option> <" + std::string(c->Name()) + "> is not used by Dynscope",
             "Simulator settings do not change the dynamics model.");
    });
  }

  // <option><flag>: of MuJoCo's flags (XML reference, option/flag) the rigid-body model depends on
  // gravity ("disable": MuJoCo computes with zero gravity) and passive ("disable": no joint damping
  // and springs); the others tune the solver, contacts, sensors or rendering.
  void readFlags(const XMLElement* el) {
    const auto value = [&](const char* name) -> std::optional<bool> {
      const char* v = el->Attribute(name);
      if (!v) return std::nullopt;
      r.markRead(el, name);
      if (!std::strcmp(v, "enable") || !std::strcmp(v, "disable")) return !std::strcmp(v, "enable");
      r.fail(el, "<option> <flag>", std::string(name) + "=\"" + v + "\": expected enable or disable");
    };
    if (value("gravity") == false) {
      gravityDisabled = true;
      r.note(Severity::Info, "mjcf.flag_applied", el, "<option> <flag> gravity",
             "<flag gravity=\"disable\">: the model has no gravity, as MuJoCo computes it",
             "MuJoCo replaces the gravity vector by zero while the flag is set.");
    }
    if (value("passive") == false) {
      passiveDisabled = true;
      r.note(Severity::Info, "mjcf.flag_applied", el, "<option> <flag> passive",
             "<flag passive=\"disable\">: joint damping and springs are left out, as MuJoCo leaves them out",
             "MuJoCo computes no passive forces while the flag is set.");
    }
    bool any = false;
    for (const tinyxml2::XMLAttribute* a = el->FirstAttribute(); a; a = a->Next()) {
      any = any || (std::strcmp(a->Name(), "gravity") && std::strcmp(a->Name(), "passive"));
      r.markRead(el, a->Name());
    }
    if (any)
      r.note(Severity::Info, "mjcf.element_ignored", el, "<option> <flag>",
             "<option> <flag> settings other than gravity and passive are not used by Dynscope",
             "They switch MuJoCo's solver, contacts, limits, sensors or actuation, not the rigid-body model.");
  }

  void readAssets(const XMLElement* el) {
    forEachChild(el, [&](const XMLElement* a) {
      const std::string tag = a->Name();
      if (tag == "mesh") {
        readMesh(a);
      } else if (tag == "material") {
        const char* nm = a->Attribute("name");
        const char* rgba = r.get(a, "rgba", "material", "");
        if (nm && rgba) {
          const std::vector<double> v = r.numbers(a, "rgba", rgba, 4);
          materials[nm] = {v[0], v[1], v[2], v[3]};
        }
        return;  // a material's texture and lighting are the renderer's business: not reported
      } else if (tag == "model") {
        r.note(Severity::Info, "mjcf.element_ignored", a, "<asset> <model>",
               "<asset> <model> (MuJoCo 3) is not read: only <attach> uses it, which Dynscope refuses", "");
        return;
      } else if (tag != "texture") {
        r.note(Severity::Info, "mjcf.element_ignored", a, "<asset> <" + tag + ">",
               "<asset> <" + tag + "> is not used by Dynscope", "");
        return;
      } else {
        return;
      }
      r.noteUnreadAttributes(a);
    });
  }

  // <asset><mesh>: a file (STL, OBJ) or vertices (and faces) written in the model; scale, MuJoCo 2's
  // refpos and refquat, MuJoCo 3.3's inertia rule.
  void readMesh(const XMLElement* a) {
    const char* file = r.get(a, "file", "mesh", "");
    const char* vertex = a->Attribute("vertex");
    const char* nm = a->Attribute("name");
    r.markRead(a, "vertex");
    if (!file && !vertex) {
      r.note(Severity::Warning, "mjcf.mesh_inline", a, "<mesh>",
             "a mesh with neither a file nor vertices (a built-in or plugin mesh) is not read: geoms using it have no "
             "mass from it and are not drawn",
             "");
      return;
    }
    if (!nm && !file) r.fail(a, "<mesh>", "a mesh given by its vertices needs a name");
    const std::string name = nm ? nm : fs::path(file).stem().string();
    MeshAsset m;
    m.el = a;
    if (file) {
      const fs::path f(file);
      m.path = f.is_absolute() || r.compiler.meshdir.empty() ? f.string() : (fs::path(r.compiler.meshdir) / f).string();
    }
    if (vertex) {
      if (file) r.fail(a, "<mesh>", "a mesh has either a file or vertices, not both");
      const std::vector<double> v = r.numbers(a, "vertex", vertex, 0, std::numeric_limits<size_t>::max());
      if (v.size() % 3 || v.size() < 12)
        r.fail(
            a, "<mesh>",
            "vertex: expected at least 4 vertices of 3 numbers each, found " + std::to_string(v.size()) + " numbers");
      for (size_t k = 0; k < v.size(); k += 3) m.vertices.emplace_back(v[k], v[k + 1], v[k + 2]);
      if (const char* f = a->Attribute("face")) {
        r.markRead(a, "face");
        const std::vector<double> idx = r.numbers(a, "face", f, 0, std::numeric_limits<size_t>::max());
        if (idx.size() % 3 || idx.empty())
          r.fail(a, "<mesh>", "face: expected 3 vertex indices per triangle, found " + std::to_string(idx.size()));
        for (const double i : idx) {
          if (i != std::floor(i) || i < 0 || i >= double(m.vertices.size()))
            r.fail(a, "<mesh>",
                   "face: vertex index " + formatNumber(i) + " is not one of the " + std::to_string(m.vertices.size()) +
                       " vertices (counted from 0)");
          m.faces.push_back(int(i));
        }
      }
      for (const char* drawing : {"normal", "texcoord"}) r.markRead(a, drawing);
    }
    if (const char* s = r.get(a, "scale", "mesh", "")) {
      const std::vector<double> v = r.numbers(a, "scale", s, 3);
      m.scale = Eigen::Vector3d(v[0], v[1], v[2]);
    }
    if (const char* p = r.get(a, "refpos", "mesh", "")) {
      const std::vector<double> v = r.numbers(a, "refpos", p, 3);
      m.refpos = Eigen::Vector3d(v[0], v[1], v[2]);
    }
    if (const char* q = r.get(a, "refquat", "mesh", "")) {
      const std::vector<double> v = r.numbers(a, "refquat", q, 4);
      m.refquat = Eigen::Quaterniond(v[0], v[1], v[2], v[3]);
      if (!(m.refquat.norm() > 0)) r.fail(a, "<mesh>", "refquat: the quaternion must not be zero");
      m.refquat.normalize();
    }
    if (const char* rule = r.get(a, "inertia", "mesh", "")) {
      const std::string v = rule;
      m.rule = v == "convex"   ? MeshRule::Convex
               : v == "exact"  ? MeshRule::Exact
               : v == "legacy" ? MeshRule::Legacy3
               : v == "shell"  ? MeshRule::Shell
                               : (r.fail(a, "<mesh>", "inertia=\"" + v + "\": expected convex, exact, legacy or shell"),
                                 MeshRule::Exact);
    }
    meshes[name] = std::move(m);
    r.noteUnreadAttributes(a);
  }

  static std::string formatNumber(double v) {
    std::ostringstream o;
    o << v;
    return o.str();
  }

  // A mesh's triangles in its frame as MuJoCo places them: v -> scale * (refquat^-1 (v - refpos)).
  const std::pair<std::vector<Triangle>, std::string>& trianglesOf(const std::string& name, const MeshAsset& a) {
    if (const auto it = meshTriangles.find(name); it != meshTriangles.end()) return it->second;
    std::vector<Triangle> triangles;
    std::string error;
    if (!a.path.empty()) {
      const std::string path = resolveMeshPath(a.path, r.mainFile(), &error);
      if (!path.empty()) readTriangleMesh(path, triangles, &error);
    } else if (!a.faces.empty()) {
      for (size_t k = 0; k + 2 < a.faces.size(); k += 3)
        triangles.push_back(
            {a.vertices[size_t(a.faces[k])], a.vertices[size_t(a.faces[k + 1])], a.vertices[size_t(a.faces[k + 2])]});
    } else {
      triangles = convexHull(a.vertices);  // MuJoCo makes the faces of a vertex-only mesh from its hull
      if (triangles.empty()) error = "its vertices span no volume";
    }
    const Eigen::Matrix3d Rt = a.refquat.toRotationMatrix().transpose();
    for (Triangle& t : triangles)
      for (Eigen::Vector3d& v : t) v = (Rt * (v - a.refpos)).cwiseProduct(a.scale);
    return meshTriangles.emplace(name, std::make_pair(std::move(triangles), error)).first->second;
  }

  // ---- bodies ---------------------------------------------------------------------------------

  std::string nameOf(const XMLElement* el, const std::string& prefix) {
    const char* n = el->Attribute("name");
    if (n && *n) return std::string(n) + suffix;
    // A name of our own that no element of the file has (MuJoCo leaves such elements unnamed; a body
    // written as "body2" must not meet an unnamed one called so).
    std::string made;
    do made = prefix + std::to_string(++unnamedCount);
    while (writtenNames.count(made));
    return made;
  }

  static bool isIdentity(const Iso& T) {
    return (T.matrix() - Eigen::Matrix4d::Identity()).cwiseAbs().maxCoeff() < 1e-15;
  }

  double angleUnit() const { return r.compiler.degrees ? std::numbers::pi / 180 : 1.0; }

  double optNumber(const XMLElement* el, const char* name, const std::string& tag, const std::string& cc,
                   double fallback) {
    const char* v = r.get(el, name, tag, cc);
    return v ? r.numbers(el, name, v, 1)[0] : fallback;
  }

  // limited="true|false|auto": auto (and no attribute) means "when a range is given", if autolimits.
  bool limited(const XMLElement* el, const char* flag, const char* range, const std::string& tag,
               const std::string& cc) {
    const char* l = r.get(el, flag, tag, cc);
    const bool hasRange = r.get(el, range, tag, cc) != nullptr;
    if (l && !std::strcmp(l, "true")) {
      // MuJoCo's default range is "0 0", which its compiler refuses for a limited element.
      if (!hasRange)
        r.fail(el, "<" + std::string(el->Name()) + ">", std::string(flag) + "=\"true\" without a " + range);
      return true;
    }
    if (l && !std::strcmp(l, "false")) return false;
    if (hasRange && !r.compiler.autolimits) {
      r.note(
          Severity::Warning, "mjcf.range_without_limited", el, "<" + std::string(el->Name()) + "> " + range,
          std::string(range) + " is given without " + flag + "=\"true\" and <compiler autolimits=\"false\">: ignored",
          "MuJoCo 2 ignores such a range and MuJoCo 3 refuses it; set " + std::string(flag) +
              "=\"true\" or autolimits=\"true\".");
      return false;
    }
    return hasRange;
  }

  // A body's children in file order, with <frame> elements (MuJoCo 3) opened: each child comes with
  // the pose of the frames around it and the childclass in force.
  // <replicate> (MuJoCo 3, XML reference "replicate") is expanded here too: its children count times,
  // replica i at position p_i (p_0 = 0, p_i+1 = p_i + R_i offset) turned by R_i = euler(i x euler),
  // the names inside it suffixed with sep and i written with as many digits as count has (inner
  // replicates' suffixes first).
  struct Item {
    const XMLElement* el;
    Iso prefix;
    std::string childclass;
    std::string suffix;  // appended to the names of the element and everything in it (<replicate>)
  };
  void collect(const XMLElement* el, const Iso& prefix, const std::string& cc, const std::string& suffix,
               std::vector<Item>& out) {
    forEachChild(el, [&](const XMLElement* c) {
      if (!std::strcmp(c->Name(), "frame")) {
        const char* fcc = c->Attribute("childclass");
        r.markRead(c, "childclass");
        collect(c, prefix * framePose(r, c), fcc ? fcc : cc, suffix, out);
        r.noteUnreadAttributes(c);
        return;
      }
      if (!std::strcmp(c->Name(), "replicate")) {
        replicate(c, prefix, cc, suffix, out);
        return;
      }
      if (!std::strcmp(c->Name(), "attach"))
        r.fail(c, "<attach>",
               "MuJoCo 3's <attach> (bodies from another model) is not supported: the bodies it would add are "
               "missing. Compile the model with MuJoCo and save it (mj_saveLastXML), then load the result");
      out.push_back(Item{c, prefix, cc, suffix});
    });
  }

  void replicate(const XMLElement* c, const Iso& prefix, const std::string& cc, const std::string& suffix,
                 std::vector<Item>& out) {
    const char* countAttr = c->Attribute("count");
    if (!countAttr) r.fail(c, "<replicate>", "missing count attribute");
    const int count = r.integers(c, "count", countAttr, 1)[0];
    if (count < 1) r.fail(c, "<replicate>", "count=\"" + std::string(countAttr) + "\": must be positive");
    if (count > 100000) r.fail(c, "<replicate>", "count=\"" + std::string(countAttr) + "\": more than 100000 replicas");
    Eigen::Vector3d offset = Eigen::Vector3d::Zero(), euler = Eigen::Vector3d::Zero();
    if (const char* o = c->Attribute("offset")) {
      const std::vector<double> v = r.numbers(c, "offset", o, 3);
      offset = Eigen::Vector3d(v[0], v[1], v[2]);
    }
    if (const char* e = c->Attribute("euler")) {
      const std::vector<double> v = r.numbers(c, "euler", e, 3);
      euler = Eigen::Vector3d(v[0], v[1], v[2]);
    }
    const std::string sep = c->Attribute("sep") ? c->Attribute("sep") : "";
    const char* rcc = c->Attribute("childclass");
    if (rcc && !r.defaults.count(rcc))
      r.fail(c, "<replicate>", "childclass " + inQuotes(rcc) + " is not defined by any <default>");
    for (const char* a : {"count", "offset", "euler", "sep", "childclass"}) r.markRead(c, a);
    r.noteUnreadAttributes(c);
    const size_t digits = std::to_string(count).size();
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    for (int i = 0; i < count; ++i) {
      Iso pose = Iso::Identity();
      pose.linear() = eulerRotation(r, double(i) * euler);
      pose.translation() = p;
      p += pose.linear() * offset;
      std::string index = std::to_string(i);
      index.insert(0, digits - index.size(), '0');
      collect(c, prefix * pose, rcc ? rcc : cc, sep + index + suffix, out);
    }
    r.note(Severity::Info, "mjcf.replicate", c, "<replicate>",
           "<replicate> expanded as MuJoCo 3 does: its children repeated, each replica moved by offset and turned by "
           "euler from the previous one, names suffixed with sep and the replica's index",
           "");
  }

  void readBody(const XMLElement* el, const std::string& parentLink, const Iso& parentOffset, std::string cc) {
    if (const char* c = el->Attribute("childclass")) {
      cc = c;
      r.markRead(el, "childclass");
      if (!r.defaults.count(cc))
        r.fail(el, "<body>", "childclass " + inQuotes(cc) + " is not defined by any <default>");
    }
    const std::string name = nameOf(el, "body");
    const std::string ctx = "body " + inQuotes(name);
    r.markRead(el, "mocap");  // a mocap body is welded to the world in the model: no joint, as here
    const Iso written = framePose(r, el);
    Iso pre = parentOffset * written;  // the body frame (before its joints), in the parent link's frame
    std::vector<const XMLElement*> joints;
    forEachChild(el, [&](const XMLElement* c) {
      if (!std::strcmp(c->Name(), "joint") || !std::strcmp(c->Name(), "freejoint")) joints.push_back(c);
    });
    std::string link = parentLink;
    if (joints.size() > 1)
      r.note(Severity::Info, "mjcf.joint_chain", el, ctx,
             "body " + inQuotes(name) + " has " + std::to_string(joints.size()) +
                 " joints: they are chained through massless links named '" + name + "/<joint>'",
             "MuJoCo moves a body by all its joints in turn; Dynscope gives each joint a link of its own.");
    for (size_t k = 0; k < joints.size(); ++k) {
      // An unnamed joint: "body/joint", or "body/joint2" for the second of several (mjcf.md).
      const std::string unnamed = name + "/joint" + (joints.size() > 1 ? std::to_string(k + 1) : "");
      JointDesc jd = readJoint(joints[k], unnamed, link, pre, cc, parentLink);
      // The last joint moves the body's own link when its frame is the body frame (no anchor offset,
      // no ref); otherwise a link of its own, welded to the body's at the offset: so the link named
      // after the body has MuJoCo's body frame.
      const bool direct = k + 1 == joints.size() && isIdentity(pre);
      const std::string child = direct ? name : name + "/" + jd.name;
      jd.child = child;
      if (!direct) robot.links.push_back(LinkDesc{child, std::nullopt, {}, {}, joints[k]->GetLineNum()});
      link = child;
      jointIndex[jd.name] = robot.joints.size();
      robot.joints.push_back(std::move(jd));
    }
    if (joints.empty() || link != name) {
      JointDesc fixed;
      fixed.name = name + (joints.empty() ? "/weld" : "/offset");
      fixed.kind = JointKind::Fixed;
      fixed.parent = link;
      fixed.child = name;
      fixed.origin = toPose(pre);
      fixed.line = el->GetLineNum();
      robot.joints.push_back(std::move(fixed));
      pre = Iso::Identity();
    }
    robot.links.push_back(LinkDesc{name, std::nullopt, {}, {}, el->GetLineNum()});
    bodyLinks.emplace_back(robot.links.size() - 1, written);
    const size_t linkIndex = robot.links.size() - 1;
    readBodyContents(el, name, pre, cc, &linkIndex);
    r.noteUnreadAttributes(el);
  }

  // A joint of body `body`, from link `parentLink`; pre: the body frame so far in that link's frame.
  // On return pre places the body frame in the new link's frame (MuJoCo turns a hinge about its
  // anchor pos by q - ref, slides by (q - ref) along the axis, turns a ball about its anchor).
  JointDesc readJoint(const XMLElement* el, const std::string& unnamed, const std::string& parentLink, Iso& pre,
                      const std::string& cc, const std::string& bodyParent) {
    const bool freeElement = !std::strcmp(el->Name(), "freejoint");
    const char* t = freeElement ? "free" : r.get(el, "type", "joint", cc);
    const std::string type = t ? t : "hinge";
    JointDesc jd;
    jd.line = el->GetLineNum();
    jd.name = el->Attribute("name") && *el->Attribute("name") ? el->Attribute("name") + suffix : unnamed;
    if (!suffix.empty() && el->Attribute("name") && *el->Attribute("name"))
      replicas[el->Attribute("name")].push_back(jd.name);
    jd.parent = parentLink;
    const std::string ctx = "joint " + inQuotes(jd.name);
    if (type == "free") {
      if (bodyParent != "world" || parentLink != "world")
        r.fail(el, ctx, "a free joint must be the only joint of a body at the top level of <worldbody>");
      jd.kind = JointKind::Floating;  // q = the body's position and orientation in the world, as MuJoCo's qpos
      freeBodyPose[jd.name] = pre;    // where the file puts the body: MuJoCo's qpos0 for this joint
      pre = Iso::Identity();
      if (!freeElement) {  // <freejoint> is <joint type="free"> with no damping, friction or armature
        jd.damping = optNumber(el, "damping", "joint", cc, 0);
        jd.armature = optNumber(el, "armature", "joint", cc, 0);
        if (optNumber(el, "stiffness", "joint", cc, 0) != 0)
          r.note(Severity::Warning, "mjcf.joint_spring", el, ctx + " stiffness",
                 "a free joint's spring (stiffness) is not represented",
                 "Dynscope applies the springs of hinge and slide joints only.");
        r.markRead(el, "springref");
        jd.friction = optNumber(el, "frictionloss", "joint", cc, 0);
      }
      r.markRead(el, "align");
      r.noteUnreadAttributes(el);
      return jd;
    }
    if (type != "hinge" && type != "slide" && type != "ball")
      r.fail(el, ctx, "type=\"" + type + "\": expected hinge, slide, ball or free");
    Eigen::Vector3d pos = Eigen::Vector3d::Zero(), axis = Eigen::Vector3d::UnitZ();
    if (const char* p = r.get(el, "pos", "joint", cc)) {
      const std::vector<double> v = r.numbers(el, "pos", p, 3);
      pos = Eigen::Vector3d(v[0], v[1], v[2]);
    }
    if (const char* a = r.get(el, "axis", "joint", cc)) {
      const std::vector<double> v = r.numbers(el, "axis", a, 3);
      axis = Eigen::Vector3d(v[0], v[1], v[2]);
      if (!(axis.norm() > 1e-12)) r.fail(el, ctx, "axis: the axis must not be zero");
      axis.normalize();
    }
    const bool hinge = type == "hinge", slide = type == "slide";
    const double unit = hinge ? angleUnit() : 1.0;
    const double ref = type == "ball" ? 0 : optNumber(el, "ref", "joint", cc, 0) * unit;
    jointRef[jd.name] = ref;
    Iso origin = pre;
    origin.translate(pos);
    jd.origin = toPose(origin);
    jd.axis = axis;
    if (hinge || slide) {
      const bool lim = limited(el, "limited", "range", "joint", cc);
      if (lim) {
        const char* rg = r.get(el, "range", "joint", cc);
        const std::vector<double> v = r.numbers(el, "range", rg, 2);
        if (v[0] < v[1]) {
          jd.hasLimits = true;
          jd.lower = v[0] * unit;
          jd.upper = v[1] * unit;
        } else {
          r.note(Severity::Warning, "mjcf.range_empty", el, ctx + " range",
                 "range=\"" + std::string(rg) + "\" has no width: the joint is left unlimited",
                 "MuJoCo refuses a range whose lower end is not below its upper end.");
        }
      }
      jd.kind = slide ? JointKind::Prismatic : jd.hasLimits ? JointKind::Revolute : JointKind::Continuous;
    } else {
      jd.kind = JointKind::Spherical;
      r.markRead(el, "axis");
      if (limited(el, "limited", "range", "joint", cc))
        r.note(Severity::Info, "mjcf.ball_range", el, ctx + " range",
               "a ball joint's range (a cone) is not represented", "The joint moves freely in Dynscope.");
    }
    jd.damping = optNumber(el, "damping", "joint", cc, 0);
    jd.friction = optNumber(el, "frictionloss", "joint", cc, 0);
    jd.armature = optNumber(el, "armature", "joint", cc, 0);
    // A spring: MuJoCo's passive force -stiffness (qpos - springref), springref in the compiler's angle
    // unit for hinges (qpos_spring); independent of ref, which is qpos0.
    const double stiffness = optNumber(el, "stiffness", "joint", cc, 0);
    // MuJoCo compiles negative values (they add energy instead of taking it): kept, with a warning.
    if (jd.damping < 0 || jd.friction < 0 || jd.armature < 0 || stiffness < 0)
      r.note(Severity::Warning, "mjcf.negative_joint_value", el, ctx,
             "a negative damping, frictionloss, armature or stiffness is kept as written",
             "MuJoCo accepts it, but it adds energy (a negative armature can make H(q) indefinite, and forward "
             "dynamics is then refused naming the joint); check the value.");
    if (hinge || slide) {
      jd.stiffness = stiffness;
      jd.springref = optNumber(el, "springref", "joint", cc, 0) * unit;
    } else if (stiffness != 0) {
      r.note(Severity::Warning, "mjcf.joint_spring", el, ctx + " stiffness",
             "a ball joint's spring (stiffness) is not represented",
             "Dynscope applies the springs of hinge and slide joints only.");
    }
    r.markRead(el, "springref");
    if (limited(el, "actuatorfrclimited", "actuatorfrcrange", "joint", cc)) {
      const std::vector<double> f = r.numbers(el, "actuatorfrcrange", r.get(el, "actuatorfrcrange", "joint", cc), 2);
      jd.effort = std::max(std::abs(f[0]), std::abs(f[1]));
    }
    // The body frame in the new link: undo the anchor offset and the reference position.
    Iso post = Iso::Identity();
    if (hinge) post.rotate(Eigen::AngleAxisd(-ref, axis));
    if (slide) post.translate(-ref * axis);
    post.translate(-pos);
    pre = post;
    r.noteUnreadAttributes(el);
    return jd;
  }

  // The contents of a body (or of <worldbody>): inertial, geoms, sites and child bodies. offset: the
  // body frame in the link's frame. linkIndex: the body's link (null for the world).
  void readBodyContents(const XMLElement* el, const std::string& link, const Iso& offset, const std::string& cc,
                        const size_t* linkIndex) {
    std::vector<Item> items;
    const std::string base = suffix;  // the names' suffix where el stands (<replicate>)
    collect(el, Iso::Identity(), cc, base, items);
    const XMLElement* inertial = nullptr;
    MassSum sum;
    std::vector<Geometry> visuals, collisions;
    for (const Item& it : items) {
      const std::string tag = it.el->Name();
      suffix = it.suffix;
      if (tag == "body")
        readBody(it.el, link, offset * it.prefix, it.childclass);
      else if (tag == "geom")
        readGeom(it.el, offset, it.prefix, it.childclass, sum, visuals, collisions, link);
      else if (tag == "site")
        readSite(it.el, link, offset * it.prefix, it.childclass);
      else if (tag == "inertial")
        inertial = it.el;
      else if (tag == "joint" || tag == "freejoint") {
        if (!linkIndex) r.fail(it.el, "<worldbody>", "the world body cannot have joints");
      } else if (tag == "camera" || tag == "light")
        r.note(Severity::Info, "mjcf.element_ignored", it.el, "<" + tag + ">", "<" + tag + "> is not used by Dynscope",
               "Cameras and lights are MuJoCo's renderer settings.");
      else if (tag == "composite" || tag == "flexcomp" || tag == "plugin")
        r.note(Severity::Warning, "mjcf.element_unsupported", it.el, "<" + tag + ">",
               "<" + tag + "> is not expanded: the bodies it would generate are missing",
               "Expand the model with MuJoCo (e.g. save it with mj_saveLastXML) and load the result.");
      else
        r.note(Severity::Info, "mjcf.element_ignored", it.el, "<" + tag + ">", "<" + tag + "> is not used by Dynscope",
               "");
    }
    suffix = base;
    if (!linkIndex) {  // the world: geometry only (its mass does not move)
      LinkDesc& world = robot.links.front();
      world.visuals.insert(world.visuals.end(), visuals.begin(), visuals.end());
      world.collisions.insert(world.collisions.end(), collisions.begin(), collisions.end());
      return;
    }
    LinkDesc& body = robot.links[*linkIndex];
    body.visuals = std::move(visuals);
    body.collisions = std::move(collisions);
    const auto mode = r.compiler.inertiaFromGeom;
    if (inertial && mode != Compiler::FromGeom::True) {
      body.inertial = readInertial(inertial, offset);
    } else if (mode != Compiler::FromGeom::False) {
      addMeshes(sum, link);
      if (sum.mass > 0) body.inertial = inertialFromGeoms(sum, offset, el);
    }
    if (inertial && mode == Compiler::FromGeom::True)
      r.note(Severity::Info, "mjcf.inertial_replaced", inertial, "body " + inQuotes(link) + " <inertial>",
             "<inertial> is replaced by the geoms' inertia (<compiler inertiafromgeom=\"true\">)", "");
  }

  // The mesh geoms' mass and inertia, from their triangles by the rule that applies (as MuJoCo's
  // compiler; mjcf_mesh_inertia.cpp), and a finding naming the rule.
  void addMeshes(MassSum& sum, const std::string& link) {
    for (const MassSum::MeshPart& p : sum.meshes) {
      const auto asset = meshes.find(p.mesh);
      if (asset == meshes.end()) continue;  // mjcf.mesh_missing says so
      auto cached = meshInertias.find({p.mesh, p.rule});
      if (cached == meshInertias.end()) {
        const auto& [triangles, readError] = trianglesOf(p.mesh, asset->second);
        std::string error = readError;
        std::optional<MeshInertia> mi = triangles.empty() ? std::nullopt : meshInertia(triangles, p.rule, &error);
        cached = meshInertias.emplace(std::make_pair(p.mesh, p.rule), std::make_pair(mi, error)).first;
      }
      const auto& [mi, error] = cached->second;
      if (!mi) {
        r.note(Severity::Warning, "mjcf.mesh_inertia", p.el, "body " + inQuotes(link) + " <geom>",
               "the inertia of mesh " + inQuotes(p.mesh) + " is not computed (" + error + "): body " + inQuotes(link) +
                   " lacks its share",
               "MuJoCo computes a mesh's volume and inertia from its triangles (MuJoCo refuses such a mesh); "
               "Dynscope reads STL and OBJ files and meshes written in the model. Give the body an <inertial> "
               "element, or make the mesh file available.");
        continue;
      }
      noteMeshRule(p);
      const double m = p.mass ? *p.mass : p.density * mi->volume;
      const Eigen::Matrix3d R = p.pose.linear();
      const Eigen::Vector3d c = p.pose * mi->centroid;
      sum.mass += m;
      sum.moment += m * c;
      sum.parts.push_back({m, c, m * R * mi->inertiaPerMass * R.transpose()});
    }
  }

  void noteMeshRule(const MassSum::MeshPart& p) {
    std::string how;
    switch (p.rule) {
      case MeshRule::Legacy2:
        how =
            "MuJoCo 2.x's default rule (<compiler exactmeshinertia=\"false\">, as MuJoCo 2.2.2 to 3.2 compute it): "
            "the tetrahedra from the face centre counted with positive volume, the mass from the volume of the box "
            "with the same inertia. MuJoCo 3.3 and later take the tetrahedra's volume instead (their "
            "inertia=\"legacy\"); set <mesh inertia=...> to choose";
        break;
      case MeshRule::Exact:
        how = "the exact rule (exactmeshinertia=\"true\" or <mesh inertia=\"exact\">): the solid the triangles enclose";
        break;
      case MeshRule::Legacy3:
        how =
            "MuJoCo 3.3's legacy rule (<mesh inertia=\"legacy\">): the tetrahedra from the face centre counted "
            "with positive volume (over-counting a concave mesh)";
        break;
      case MeshRule::Convex:
        how = "the convex rule (<mesh inertia=\"convex\">): the solid of the mesh's convex hull";
        break;
      case MeshRule::Shell:
        how = "the shell rule (<mesh inertia=\"shell\"> or <geom shellinertia=\"true\">): the mass on the surface";
        break;
    }
    r.note(Severity::Info, "mjcf.mesh_inertia_rule", p.el, "<geom> mesh", "mesh geoms' mass and inertia by " + how,
           "docs/mjcf.md lists MuJoCo's mesh inertia rules.");
  }

  InertialDesc readInertial(const XMLElement* el, const Iso& offset) {
    const std::string ctx = "<inertial>";
    InertialDesc in;
    in.line = in.inertiaLine = el->GetLineNum();
    if (!el->Attribute("pos")) r.fail(el, ctx, "missing pos attribute");
    if (!el->Attribute("mass")) r.fail(el, ctx, "missing mass attribute");
    in.origin = toPose(offset * framePose(r, el));
    in.mass = r.numbers(el, "mass", el->Attribute("mass"), 1)[0];
    r.markRead(el, "mass");
    if (in.mass < 0) r.fail(el, ctx, "negative mass");
    if (const char* d = el->Attribute("diaginertia")) {
      r.markRead(el, "diaginertia");
      const std::vector<double> v = r.numbers(el, "diaginertia", d, 3);
      in.ixx = v[0];
      in.iyy = v[1];
      in.izz = v[2];
    } else if (const char* f = el->Attribute("fullinertia")) {
      r.markRead(el, "fullinertia");
      const std::vector<double> v = r.numbers(el, "fullinertia", f, 6);  // ixx iyy izz ixy ixz iyz
      in.ixx = v[0];
      in.iyy = v[1];
      in.izz = v[2];
      in.ixy = v[3];
      in.ixz = v[4];
      in.iyz = v[5];
    } else {
      r.fail(el, ctx, "needs diaginertia or fullinertia");
    }
    r.noteUnreadAttributes(el);
    return in;
  }

  // Mass, centre and inertia of the geoms, as MuJoCo's compiler sums them (parallel-axis theorem).
  InertialDesc inertialFromGeoms(const MassSum& sum, const Iso& offset, const XMLElement* body) {
    const Eigen::Vector3d com = sum.moment / sum.mass;
    Eigen::Matrix3d I = Eigen::Matrix3d::Zero();
    for (const MassSum::Part& p : sum.parts) {
      const Eigen::Vector3d d = p.c - com;
      I += p.Ic + p.m * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
    }
    InertialDesc in;
    in.line = in.inertiaLine = body->GetLineNum();
    Iso at = offset;
    at.translate(com);
    in.origin = toPose(at);
    in.mass = sum.mass;
    in.ixx = I(0, 0);
    in.iyy = I(1, 1);
    in.izz = I(2, 2);
    in.ixy = I(0, 1);
    in.ixz = I(0, 2);
    in.iyz = I(1, 2);
    return in;
  }

  // The mesh inertia rule for a geom: its mesh's inertia (MuJoCo 3.3), else the geom's shellinertia
  // (MuJoCo 2.3 to 3.2), else the compiler's exactmeshinertia (MuJoCo 2.x), else MuJoCo 2's default.
  MeshRule meshRule(const XMLElement* el, const char* mesh, const std::string& cc) {
    if (const auto it = mesh ? meshes.find(mesh) : meshes.end(); it != meshes.end() && it->second.rule)
      return *it->second.rule;
    if (const char* shell = r.get(el, "shellinertia", "geom", cc); shell && !std::strcmp(shell, "true"))
      return MeshRule::Shell;
    return r.compiler.exactMeshInertia ? MeshRule::Exact : MeshRule::Legacy2;
  }

  void readGeom(const XMLElement* el, const Iso& offset, const Iso& prefix, const std::string& cc, MassSum& sum,
                std::vector<Geometry>& visuals, std::vector<Geometry>& collisions, const std::string& link) {
    const char* t = r.get(el, "type", "geom", cc);
    const std::string typeName = t ? t : "sphere";
    const GeomType type = geomType(typeName);
    const std::string ctx = "<geom>" + (el->Attribute("name") ? " " + inQuotes(el->Attribute("name")) : "");
    if (type == GeomType::Unknown) r.fail(el, ctx, "type=\"" + typeName + "\" is not a MuJoCo geom type");
    Eigen::Vector3d size = Eigen::Vector3d::Zero();
    if (const char* s = r.get(el, "size", "geom", cc)) {
      const std::vector<double> v = r.numbers(el, "size", s, 1, 3);
      for (size_t i = 0; i < v.size(); ++i) size[Eigen::Index(i)] = v[i];
    }
    Iso pose;
    const char* fromto = r.get(el, "fromto", "geom", cc);
    if (fromto && (type == GeomType::Capsule || type == GeomType::Cylinder || type == GeomType::Box ||
                   type == GeomType::Ellipsoid)) {
      const std::vector<double> v = r.numbers(el, "fromto", fromto, 6);
      const Eigen::Vector3d a(v[0], v[1], v[2]), b(v[3], v[4], v[5]);
      const double length = (b - a).norm();
      if (!(length > 1e-12)) r.fail(el, ctx, "fromto: the two points coincide");
      pose = Iso::Identity();
      pose.translation() = (a + b) / 2;
      pose.linear() = rotationZTo((b - a) / length);
      if (type == GeomType::Box || type == GeomType::Ellipsoid) {
        size[1] = size[0];
        size[2] = length / 2;
      } else {
        size[1] = length / 2;
      }
      r.markRead(el, "pos");
      for (const char* o : {"quat", "axisangle", "euler", "xyaxes", "zaxis"}) r.markRead(el, o);
    } else {
      pose = framePose(r, el, "geom", cc);
    }
    pose = prefix * pose;  // in the body frame
    const char* g = r.get(el, "group", "geom", cc);
    const int group = g ? r.integers(el, "group", g, 1)[0] : 0;

    // Inertia (inertiafromgeom): the geoms of the groups in inertiagrouprange.
    const char* massAttr = r.get(el, "mass", "geom", cc);
    const char* densityAttr = r.get(el, "density", "geom", cc);
    if (group >= r.compiler.groupMin && group <= r.compiler.groupMax) {
      if (const std::optional<UnitInertia> u = primitiveInertia(type, size)) {
        const double m = massAttr ? r.numbers(el, "mass", massAttr, 1)[0]
                                  : (densityAttr ? r.numbers(el, "density", densityAttr, 1)[0] : 1000.0) * u->volume;
        if (m < 0) r.fail(el, ctx, "negative mass or density");
        if (m > 0) {
          const Eigen::Matrix3d R = pose.linear();
          sum.mass += m;
          sum.moment += m * pose.translation();
          sum.parts.push_back({m, pose.translation(), m * R * u->diagonalPerMass.asDiagonal() * R.transpose()});
        }
      } else if (type == GeomType::Mesh) {
        const char* mesh = r.get(el, "mesh", "geom", cc);
        MassSum::MeshPart part{el,
                               pose,
                               mesh ? mesh : "",
                               std::nullopt,
                               densityAttr ? r.numbers(el, "density", densityAttr, 1)[0] : 1000.0,
                               meshRule(el, mesh, cc)};
        if (massAttr) part.mass = r.numbers(el, "mass", massAttr, 1)[0];
        if (part.mass.value_or(1) < 0 || part.density < 0) r.fail(el, ctx, "negative mass or density");
        if (part.mass.value_or(1) > 0 && part.density > 0) sum.meshes.push_back(std::move(part));
      }
    }

    // Drawing: MuJoCo's viewer shows groups 0-2; geoms that collide are collision geometry.
    Geometry geo;
    geo.name = el->Attribute("name") ? el->Attribute("name") + suffix : "";
    geo.line = geo.shapeLine = el->GetLineNum();
    geo.origin = toPose(offset * pose);
    geo.material.hasColor = true;
    geo.material.rgba = {0.5, 0.5, 0.5, 1};
    if (const char* mat = r.get(el, "material", "geom", cc)) {
      geo.material.name = mat;
      if (const auto it = materials.find(mat); it != materials.end()) geo.material.rgba = it->second;
    }
    if (const char* rgba = r.get(el, "rgba", "geom", cc)) {
      const std::vector<double> v = r.numbers(el, "rgba", rgba, 4);
      geo.material.rgba = {v[0], v[1], v[2], v[3]};
    }
    std::vector<Geometry> shapes;
    switch (type) {
      case GeomType::Sphere:
        geo.shape.kind = Shape::Kind::Sphere;
        geo.shape.radius = size[0];
        shapes.push_back(geo);
        break;
      case GeomType::Box:
        geo.shape.kind = Shape::Kind::Box;
        geo.shape.size = 2 * size;
        shapes.push_back(geo);
        break;
      case GeomType::Cylinder:
      case GeomType::Capsule:
        geo.shape.kind = Shape::Kind::Cylinder;
        geo.shape.radius = size[0];
        geo.shape.length = 2 * size[1];
        shapes.push_back(geo);
        if (type == GeomType::Capsule)  // the caps: spheres at the ends, so the drawing is exact
          for (double end : {-size[1], size[1]}) {
            Geometry cap = geo;
            cap.shape = Shape{};
            cap.shape.kind = Shape::Kind::Sphere;
            cap.shape.radius = size[0];
            cap.origin = toPose(offset * pose * Iso(Eigen::Translation3d(0, 0, end)));
            shapes.push_back(cap);
          }
        break;
      case GeomType::Ellipsoid:
        geo.shape.kind = Shape::Kind::Sphere;
        geo.shape.radius = size.maxCoeff();
        shapes.push_back(geo);
        r.note(Severity::Info, "mjcf.ellipsoid_drawn_as_sphere", el, ctx,
               "ellipsoids are drawn as spheres of the largest semi-axis",
               "Only the drawing: the inertia is the ellipsoid's.");
        break;
      case GeomType::Plane:
        if (size[0] > 0 && size[1] > 0) {
          geo.shape.kind = Shape::Kind::Box;
          geo.shape.size = Vec3<double>(2 * size[0], 2 * size[1], 1e-3);
          shapes.push_back(geo);
        }
        break;
      case GeomType::Mesh: {
        const char* mesh = r.get(el, "mesh", "geom", cc);
        const auto it = mesh ? meshes.find(mesh) : meshes.end();
        if (it == meshes.end()) {
          r.note(Severity::Warning, "mjcf.mesh_missing", el, ctx,
                 mesh ? "mesh " + inQuotes(mesh) + " is not defined in <asset>" : "a mesh geom names no mesh", "");
          break;
        }
        if (it->second.path.empty()) {
          r.note(Severity::Info, "mjcf.mesh_inline", el, ctx,
                 "a mesh written in the model (<mesh vertex>) counts for the inertia but is not drawn", "");
          break;
        }
        geo.shape.kind = Shape::Kind::Mesh;
        geo.shape.meshUri = it->second.path;
        geo.shape.scale = it->second.scale;
        if (it->second.refpos.norm() > 0 || !it->second.refquat.isApprox(Eigen::Quaterniond::Identity(), 0)) {
          // scale * (R^T (v - refpos)): exact for a uniform scale or no refquat.
          const Eigen::Matrix3d Rt = it->second.refquat.toRotationMatrix().transpose();
          Iso ref = Iso::Identity();
          ref.linear() = Rt;
          ref.translation() = -(Rt * it->second.refpos).cwiseProduct(it->second.scale);
          geo.origin = toPose(offset * pose * ref);
        }
        shapes.push_back(geo);
        break;
      }
      default:
        r.note(Severity::Info, "mjcf.geom_not_drawn", el, ctx, typeName + " geoms are not drawn", "");
    }
    const char* ct = r.get(el, "contype", "geom", cc);
    const char* ca = r.get(el, "conaffinity", "geom", cc);
    const bool collides = !(ct && !std::strcmp(ct, "0") && ca && !std::strcmp(ca, "0"));
    const bool shown = group >= 0 && group <= 2;
    for (const Geometry& s : shapes) {
      if (shown) visuals.push_back(s);
      if (collides) collisions.push_back(s);
    }
    (void)link;
    r.noteUnreadAttributes(el);
  }

  void readSite(const XMLElement* el, const std::string& link, const Iso& offset, const std::string& cc) {
    FrameDesc f;
    f.name = nameOf(el, "site");
    f.link = link;
    f.origin = toPose(offset * framePose(r, el, "site", cc));
    f.line = el->GetLineNum();
    robot.frames.push_back(std::move(f));
    r.markRead(el, "size");
    r.markRead(el, "type");
    r.noteUnreadAttributes(el);
  }

  // ---- actuators, equality constraints, keyframes -----------------------------------------------

  void readActuators(const XMLElement* section) {
    forEachChild(section, [&](const XMLElement* el) {
      const std::string tag = el->Name();
      const std::string ctx = "<actuator> <" + tag + ">";
      if (!isActuatorTag(tag)) {
        r.note(Severity::Info, "mjcf.element_ignored", el, ctx, ctx + " is not used by Dynscope", "");
        return;
      }
      const char* joint = r.get(el, "joint", "general", "");
      if (!joint) joint = r.get(el, "jointinparent", "general", "");
      if (!joint) {
        r.note(Severity::Warning, "mjcf.actuator_target", el, ctx,
               "an actuator on a tendon, site or body is not represented (only joint actuators are read)", "");
        return;
      }
      // A joint in a <replicate>: MuJoCo replicates the actuator with it (one per replica).
      std::vector<size_t> targets;
      if (const auto j = jointIndex.find(joint); j != jointIndex.end())
        targets.push_back(j->second);
      else if (const auto rep = replicas.find(joint); rep != replicas.end())
        for (const std::string& name : rep->second) targets.push_back(jointIndex.at(name));
      if (targets.empty()) r.fail(el, ctx, "joint " + inQuotes(joint) + " does not exist");
      double gear = 1;
      if (const char* g = r.get(el, "gear", "general", "")) gear = r.numbers(el, "gear", g, 1, 6)[0];
      double effort = kInfinity;
      if (limited(el, "forcelimited", "forcerange", "general", "")) {
        const std::vector<double> f = r.numbers(el, "forcerange", r.get(el, "forcerange", "general", ""), 2);
        effort = std::abs(gear) * std::max(std::abs(f[0]), std::abs(f[1]));
      }
      // A motor's force is its control (a general actuator's, gain times control when it has no bias).
      const char* gaintype = r.get(el, "gaintype", "general", "");
      const char* biastype = r.get(el, "biastype", "general", "");
      const bool direct = tag == "motor" || (tag == "general" && (!gaintype || !std::strcmp(gaintype, "fixed")) &&
                                             (!biastype || !std::strcmp(biastype, "none")));
      if (direct && limited(el, "ctrllimited", "ctrlrange", "general", "")) {
        double gain = 1;
        if (const char* gp = r.get(el, "gainprm", "general", ""); gp && tag == "general")
          gain = r.numbers(el, "gainprm", gp, 1, 10)[0];
        const std::vector<double> c = r.numbers(el, "ctrlrange", r.get(el, "ctrlrange", "general", ""), 2);
        effort = std::min(effort, std::abs(gear * gain) * std::max(std::abs(c[0]), std::abs(c[1])));
      }
      for (const size_t t : targets)
        if (effort < kInfinity) robot.joints[t].effort = std::max(robot.joints[t].effort, effort);
      r.noteUnreadAttributes(el);
    });
  }

  void readEquality(const XMLElement* section) {
    forEachChild(section, [&](const XMLElement* el) {
      const std::string tag = el->Name();
      const std::string ctx = "<equality> <" + tag + ">";
      if (tag != "joint") {
        r.note(Severity::Warning, "mjcf.equality_unsupported", el, ctx,
               "<equality> <" + tag + "> is not represented: only joint couplings are read",
               "Closed chains written as connect or weld constraints load as open trees; write the loop as a "
               "URDF <loop_joint> if Dynscope should close it.");
        return;
      }
      if (const char* a = r.get(el, "active", "equality", ""); a && !std::strcmp(a, "false")) return;
      const char* j1 = el->Attribute("joint1");
      const char* j2 = el->Attribute("joint2");
      r.markRead(el, "joint1");
      r.markRead(el, "joint2");
      if (!j1 || !jointIndex.count(j1)) r.fail(el, ctx, "joint1 names no joint");
      std::vector<double> c = {0, 1, 0, 0, 0};
      if (const char* p = r.get(el, "polycoef", "equality", "")) c = r.numbers(el, "polycoef", p, 5);
      if (!j2 || c[2] != 0 || c[3] != 0 || c[4] != 0) {
        r.note(Severity::Warning, "mjcf.equality_unsupported", el, ctx,
               !j2 ? "a joint held at a constant position is not represented"
                   : "a nonlinear joint coupling (polycoef beyond the linear term) is not represented",
               "The joint moves freely in Dynscope.");
        return;
      }
      if (!jointIndex.count(j2)) r.fail(el, ctx, "joint2 names no joint");
      // MuJoCo: q1 - ref1 = c0 + c1 (q2 - ref2); a URDF mimic: q1 = multiplier q2 + offset.
      JointDesc::Mimic m;
      m.joint = j2;
      m.multiplier = c[1];
      m.offset = c[0] + jointRef[j1] - c[1] * jointRef[j2];
      m.line = el->GetLineNum();
      robot.joints[jointIndex[j1]].mimic = m;
      r.noteUnreadAttributes(el);
    });
  }

  // Each <key>'s qpos, in MuJoCo's order (the joints as the file nests them, which is the order they
  // were read in), as a named pose; quaternions from w x y z to x y z w and normalised.
  void readKeyframes(const XMLElement* section) {
    int nq = 0;
    for (const JointDesc& j : robot.joints)
      nq += j.kind == JointKind::Fixed ? 0 : j.kind == JointKind::Floating ? 7 : j.kind == JointKind::Spherical ? 4 : 1;
    forEachChild(section, [&](const XMLElement* el) {
      NamedPoseDesc pose;
      pose.name = el->Attribute("name") && *el->Attribute("name") ? el->Attribute("name")
                                                                  : "key" + std::to_string(robot.poses.size() + 1);
      pose.line = el->GetLineNum();
      r.markRead(el, "qpos");
      const char* qpos = el->Attribute("qpos");
      if (!qpos) {
        r.noteUnreadAttributes(el);
        return;  // MuJoCo's qpos0: the neutral pose here
      }
      const std::vector<double> q = r.numbers(el, "qpos", qpos, 0, std::numeric_limits<size_t>::max());
      if (int(q.size()) != nq) {
        r.note(Severity::Warning, "mjcf.keyframe_size", el, "<key> " + inQuotes(pose.name),
               "qpos has " + std::to_string(q.size()) + " numbers, the model " + std::to_string(nq) +
                   ": the key is not read",
               "MuJoCo refuses such a key too.");
        return;
      }
      size_t at = 0;
      for (const JointDesc& j : robot.joints) {
        if (j.kind == JointKind::Fixed) continue;
        std::vector<double> v;
        const auto quaternion = [&](size_t w) {  // w x y z -> x y z w, normalised
          Eigen::Vector4d xyzw(q[w + 1], q[w + 2], q[w + 3], q[w]);
          if (xyzw.norm() > 0) xyzw.normalize();
          for (int k = 0; k < 4; ++k) v.push_back(xyzw[k]);
        };
        if (j.kind == JointKind::Floating) {
          v = {q[at], q[at + 1], q[at + 2]};
          quaternion(at + 3);
          at += 7;
        } else if (j.kind == JointKind::Spherical) {
          quaternion(at);
          at += 4;
        } else {
          v = {q[at++]};
        }
        pose.joints.emplace_back(j.name, std::move(v));
      }
      robot.poses.push_back(std::move(pose));
      r.noteUnreadAttributes(el);
    });
    if (!robot.poses.empty()) {
      std::string names;
      for (const NamedPoseDesc& p : robot.poses) names += (names.empty() ? "" : ", ") + p.name;
      r.note(Severity::Info, "mjcf.keyframes", section, "<keyframe>",
             "keyframes read as named poses: " + names + " (qvel, act and ctrl are not kept)",
             "A pose is the key's qpos in Dynscope's joint order.");
    }
  }
};

}  // namespace

bool looksLikeMjcf(const std::string& xmlText) {
  size_t p = 0;
  for (;;) {
    p = xmlText.find('<', p);
    if (p == std::string::npos || p + 1 >= xmlText.size()) return false;
    const char c = xmlText[p + 1];
    if (c == '?' || c == '!') {  // declaration, comment, doctype
      const size_t end = xmlText.find(c == '!' && xmlText.compare(p, 4, "<!--") == 0 ? "-->" : ">", p);
      if (end == std::string::npos) return false;
      p = end + 1;
      continue;
    }
    return xmlText.compare(p + 1, 6, "mujoco") == 0 &&
           (p + 7 >= xmlText.size() || !std::isalnum(static_cast<unsigned char>(xmlText[p + 7])));
  }
}

RobotDescription parseMjcfString(const std::string& xml, const std::string& sourceName) {
  if (const std::string binary = binaryFileProblem(xml); !binary.empty()) throw LoadError(sourceName, 0, "", binary);
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
    const XmlErrorText error = describeXmlError(xml, doc);  // in words, at the line to look at
    throw LoadError(sourceName, error.line, "", error.message);
  }
  const XMLElement* root = doc.RootElement();
  if (!root) throw LoadError(sourceName, 0, "", "no root element");
  if (std::strcmp(root->Name(), "mujoco"))
    throw LoadError(sourceName, root->GetLineNum(), "<" + std::string(root->Name()) + ">",
                    "the root element must be <mujoco>");
  RobotDescription robot;
  robot.sourceFile = sourceName;
  Reader reader(robot, sourceName);
  reader.nameDocument(&doc, sourceName);
  checkUtf8(reader, root);
  Parser(reader).read(root);
  if (robot.links.size() == 1) {  // MuJoCo loads it (a template a program fills): an empty model
    Finding f;
    f.severity = Severity::Info;
    f.code = "mjcf.no_bodies";
    f.file = sourceName;
    f.line = robot.links.front().line;
    f.element = "<worldbody>";
    f.message = "the model has no bodies: an empty model (no joints, no mass), as MuJoCo loads it";
    f.hint = "A template that a program fills at run time; there is nothing to compute until bodies are added.";
    robot.findings.push_back(std::move(f));
  }
  return robot;
}

RobotDescription parseMjcfFile(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw LoadError(path, 0, "", "is a directory, not an MJCF file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "", std::string("cannot open file: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw LoadError(path, 0, "", "cannot read file");
  return parseMjcfString(text.str(), path);
}

}  // namespace dyn
