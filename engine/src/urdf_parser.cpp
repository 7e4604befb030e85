// URDF reader (tinyxml2). Reads <robot>, its <material>, <link> and <joint> children and checks
// everything that can be checked with the source lines still at hand: numbers, names, references
// and the joint graph (one root; cycles are loops, docs/loops.md). Other tags are ignored, each kind
// with a finding (urdf_unused.hpp); implausible values (inertias, limits) are the model checker's.
#include "dynscope/io/urdf_parser.hpp"

#include "dynscope/io/utf8.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>
#include <vector>

#include "loop_closures.hpp"
#include "quoted_name.hpp"
#include "urdf_unused.hpp"
#include "xml_error_text.hpp"

namespace dyn {
namespace {

using tinyxml2::XMLElement;

// Helpers throw without a file name; parseUrdfString() adds it, so nothing needs to carry it around.
[[noreturn]] void fail(int line, const std::string& element, const std::string& message) {
  throw LoadError("", line, element, message);
}
[[noreturn]] void fail(const XMLElement* at, const std::string& element, const std::string& message) {
  fail(at->GetLineNum(), element, message);
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string attr(const XMLElement* el, const char* name) {
  const char* v = el->Attribute(name);
  return v ? v : "";
}

// `<tag> name="value"`, to quote an attribute in a message.
std::string attrText(const XMLElement* el, const char* name) {
  return "<" + std::string(el->Name()) + "> " + name + "=\"" + attr(el, name) + "\"";
}

// A finding of the reader, in the robot's file (the model checker finds its body from the link or joint).
Finding& note(RobotDescription& robot, Severity severity, const char* code, int line, std::string element) {
  Finding& f = robot.findings.emplace_back();
  f.severity = severity;
  f.code = code;
  f.file = robot.sourceFile;
  f.line = line;
  f.element = std::move(element);
  return f;
}

bool isXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Parses exactly `count` whitespace-separated finite numbers from a required attribute.
// std::from_chars is locale-independent and, unlike strtod, rejects hex floats; it does accept
// "nan" and "inf", which the isfinite check turns away. A leading '+' is allowed, as urdfdom does.
std::vector<double> numbers(const XMLElement* el, const char* name, size_t count, const std::string& ctx) {
  const char* text = el->Attribute(name);
  if (!text) fail(el, ctx, "<" + std::string(el->Name()) + "> has no '" + name + "' attribute");
  std::vector<double> out;
  const char* end = text + std::strlen(text);
  for (const char* p = text;;) {
    while (p < end && isXmlSpace(*p)) ++p;
    if (p == end) break;
    const char* tokenEnd = p;
    while (tokenEnd < end && !isXmlSpace(*tokenEnd)) ++tokenEnd;
    const char* first = (*p == '+' && tokenEnd - p > 1 && p[1] != '-') ? p + 1 : p;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(first, tokenEnd, v);
    if (ec != std::errc() || ptr != tokenEnd || !std::isfinite(v))
      fail(el, ctx, attrText(el, name) + ": '" + std::string(p, tokenEnd) + "' is not a finite number");
    out.push_back(v);
    p = tokenEnd;
  }
  if (out.size() != count)
    fail(el, ctx,
         attrText(el, name) + ": expected " + std::to_string(count) + (count == 1 ? " number" : " numbers") +
             ", found " + std::to_string(out.size()));
  return out;
}

double number(const XMLElement* el, const char* name, const std::string& ctx) { return numbers(el, name, 1, ctx)[0]; }
double optNumber(const XMLElement* el, const char* name, const std::string& ctx, double fallback) {
  return el->Attribute(name) ? number(el, name, ctx) : fallback;
}
Vec3<double> vec3(const XMLElement* el, const char* name, const std::string& ctx) {
  const std::vector<double> v = numbers(el, name, 3, ctx);
  return Vec3<double>(v[0], v[1], v[2]);
}
Vec3<double> optVec3(const XMLElement* el, const char* name, const std::string& ctx, const Vec3<double>& fallback) {
  return el->Attribute(name) ? vec3(el, name, ctx) : fallback;
}

double nonNegative(const XMLElement* el, const char* name, const std::string& ctx) {
  const double v = number(el, name, ctx);
  if (v < 0) fail(el, ctx, attrText(el, name) + ": must not be negative");
  return v;
}

const XMLElement* requiredChild(const XMLElement* el, const char* tag, const std::string& ctx) {
  const XMLElement* child = el->FirstChildElement(tag);
  if (!child) fail(el, ctx, "missing <" + std::string(tag) + ">");
  return child;
}

// A <link> or <joint> name: everything else refers to it, so it must exist.
std::string requiredName(const XMLElement* el) {
  std::string name = attr(el, "name");
  if (name.empty()) fail(el, "<" + std::string(el->Name()) + ">", "missing name attribute");
  return name;
}

Pose parseOrigin(const XMLElement* el, const std::string& ctx) {
  Pose pose;
  if (const XMLElement* origin = el->FirstChildElement("origin")) {
    pose.xyz = optVec3(origin, "xyz", ctx, Vec3<double>::Zero());
    pose.rpy = optVec3(origin, "rpy", ctx, Vec3<double>::Zero());
  }
  return pose;
}

InertialDesc parseInertial(const XMLElement* el, const std::string& ctx) {
  InertialDesc in;
  in.line = el->GetLineNum();
  in.origin = parseOrigin(el, ctx);
  const XMLElement* mass = requiredChild(el, "mass", ctx);
  in.mass = number(mass, "value", ctx);
  if (in.mass < 0) fail(mass, ctx, attrText(mass, "value") + ": negative mass");
  const XMLElement* inertia = requiredChild(el, "inertia", ctx);
  in.ixx = number(inertia, "ixx", ctx);
  in.ixy = number(inertia, "ixy", ctx);
  in.ixz = number(inertia, "ixz", ctx);
  in.iyy = number(inertia, "iyy", ctx);
  in.iyz = number(inertia, "iyz", ctx);
  in.izz = number(inertia, "izz", ctx);
  in.inertiaLine = inertia->GetLineNum();  // an implausible inertia is the model checker's finding
  return in;
}

// A <material> as written (top level or inside a <visual>); a name alone is a reference.
Material parseMaterial(const XMLElement* el, const std::string& ctx) {
  Material m;
  m.name = attr(el, "name");
  if (const XMLElement* color = el->FirstChildElement("color")) {
    const std::vector<double> rgba = numbers(color, "rgba", 4, ctx);
    for (double c : rgba)
      if (c < 0 || c > 1) fail(color, ctx, attrText(color, "rgba") + ": components must be in [0, 1]");
    std::copy(rgba.begin(), rgba.end(), m.rgba.begin());
    m.hasColor = true;
  }
  if (const XMLElement* texture = el->FirstChildElement("texture")) m.texture = attr(texture, "filename");
  return m;
}

Shape parseShape(const XMLElement* geometry, const std::string& ctx) {
  const XMLElement* el = geometry->FirstChildElement();
  if (!el) fail(geometry, ctx, "<geometry> has no shape");
  const std::string kind = el->Name();
  Shape s;
  if (kind == "box") {
    s.kind = Shape::Kind::Box;
    s.size = vec3(el, "size", ctx);
    if ((s.size.array() < 0).any()) fail(el, ctx, attrText(el, "size") + ": must not be negative");
  } else if (kind == "cylinder") {
    s.kind = Shape::Kind::Cylinder;
    s.radius = nonNegative(el, "radius", ctx);
    s.length = nonNegative(el, "length", ctx);
  } else if (kind == "sphere") {
    s.kind = Shape::Kind::Sphere;
    s.radius = nonNegative(el, "radius", ctx);
  } else if (kind == "mesh") {
    s.kind = Shape::Kind::Mesh;
    s.meshUri = attr(el, "filename");
    if (s.meshUri.empty()) fail(el, ctx, "<mesh> has no filename");
    s.scale = optVec3(el, "scale", ctx, Vec3<double>::Ones());
  } else {
    fail(el, ctx, "unknown shape <" + kind + "> (expected box, cylinder, sphere or mesh)");
  }
  return s;
}

// A <visual> or <collision>. Only visuals carry a material in URDF, so a collision's is not read.
Geometry parseGeometry(const XMLElement* el, const std::string& ctx, bool withMaterial) {
  Geometry g;
  g.line = el->GetLineNum();
  g.name = attr(el, "name");
  g.origin = parseOrigin(el, ctx);
  const XMLElement* geometry = requiredChild(el, "geometry", ctx);
  g.shape = parseShape(geometry, ctx);
  g.shapeLine = geometry->FirstChildElement()->GetLineNum();
  if (const XMLElement* material = el->FirstChildElement("material"); material && withMaterial)
    g.material = parseMaterial(material, ctx);
  return g;
}

LinkDesc parseLink(const XMLElement* el) {
  LinkDesc link;
  link.line = el->GetLineNum();
  link.name = requiredName(el);
  const std::string ctx = "link " + inQuotes(link.name);
  if (const XMLElement* inertial = el->FirstChildElement("inertial"))
    link.inertial = parseInertial(inertial, ctx + " <inertial>");
  for (const XMLElement* v = el->FirstChildElement("visual"); v; v = v->NextSiblingElement("visual"))
    link.visuals.push_back(parseGeometry(v, ctx + " <visual>", true));
  for (const XMLElement* c = el->FirstChildElement("collision"); c; c = c->NextSiblingElement("collision"))
    link.collisions.push_back(parseGeometry(c, ctx + " <collision>", false));
  return link;
}

JointKind parseJointKind(const XMLElement* el, const std::string& ctx) {
  static const std::pair<const char*, JointKind> kinds[] = {
      {"revolute", JointKind::Revolute},  {"continuous", JointKind::Continuous}, {"prismatic", JointKind::Prismatic},
      {"fixed", JointKind::Fixed},        {"floating", JointKind::Floating},     {"planar", JointKind::Planar},
      {"spherical", JointKind::Spherical}};  // spherical: not URDF, but a common extension
  const char* type = el->Attribute("type");
  if (!type) fail(el, ctx, "missing type attribute");
  for (const auto& [name, kind] : kinds)
    if (std::strcmp(type, name) == 0) return kind;
  fail(el, ctx,
       "unknown joint type " + inQuotes(type) +
           " (expected revolute, continuous, prismatic, fixed, floating, planar or spherical)");
}

std::string linkRef(const XMLElement* el, const char* tag, const std::string& ctx) {
  const XMLElement* ref = el->FirstChildElement(tag);
  const std::string name = ref ? attr(ref, "link") : "";
  if (name.empty()) fail(ref ? ref : el, ctx, "missing <" + std::string(tag) + " link=\"...\">");
  return name;
}

bool usesAxis(JointKind k) {
  return k == JointKind::Revolute || k == JointKind::Continuous || k == JointKind::Prismatic ||
         k == JointKind::Planar;  // planar: the axis is the plane normal
}

// Cosmetic defects of a <limit> load with a warning (issue 23): a negative effort or velocity is a
// maker's "no limit" (kept as written; the builder takes values <= 0 as not given), and lower >
// upper leaves the joint without position limits.
void parseLimit(const XMLElement* el, JointDesc& j, const std::string& ctx, RobotDescription& robot) {
  // Numbers are checked on every joint kind, but only revolute/prismatic have position limits;
  // a missing <limit> (which URDF requires for them) leaves the joint unlimited (limits.missing).
  j.limitLine = el->GetLineNum();
  const double lower = optNumber(el, "lower", ctx, 0), upper = optNumber(el, "upper", ctx, 0);
  j.effort = optNumber(el, "effort", ctx, 0);
  j.velocity = optNumber(el, "velocity", ctx, 0);
  const auto located = [&](Finding& f) -> Finding& {
    f.joint = j.name;
    f.link = j.child;
    return f;
  };
  if (j.effort < 0 || j.velocity < 0) {
    const bool both = j.effort < 0 && j.velocity < 0;
    Finding& f = located(note(robot, Severity::Warning, "limits.negative", j.limitLine, ctx + " <limit>"));
    f.message = both ? attrText(el, "effort") + " and velocity=\"" + attr(el, "velocity") +
                           "\" are negative: taken as no effort limit and no velocity limit"
                     : attrText(el, j.effort < 0 ? "effort" : "velocity") + " is negative: taken as no " +
                           (j.effort < 0 ? "effort" : "velocity") + " limit";
    f.hint =
        "Some makers write -1 for \"no limit\"; URDF wants a non-negative number. Nothing else changes: "
        "write the real value to see it in the plots, or 0 to say it is not known.";
  }
  if (j.kind != JointKind::Revolute && j.kind != JointKind::Prismatic) return;
  // Without lower and upper: unlimited. One of them alone: the other is URDF's default 0 (both with a
  // limits.partial warning, urdf_unused.cpp).
  if (!el->Attribute("lower") && !el->Attribute("upper")) return;
  j.lower = lower;
  j.upper = upper;
  if (lower > upper) {  // ignored: the joint is unlimited
    Finding& f = located(note(robot, Severity::Warning, "limits.inverted", j.limitLine, ctx + " <limit>"));
    f.message = "lower " + num(lower) + " is above upper " + num(upper) +
                (!el->Attribute("upper")   ? " (upper is not given: URDF's default is 0)"
                 : !el->Attribute("lower") ? " (lower is not given: URDF's default is 0)"
                                           : "") +
                ": the position limits are ignored, the joint is unlimited";
    f.hint = "If the bounds are swapped, write them the other way round (lower=\"" + num(upper) + "\" upper=\"" +
             num(lower) + "\"); otherwise write the joint's real range. Effort and velocity limits still apply.";
    return;
  }
  j.hasLimits = true;
}

JointDesc parseJoint(const XMLElement* el, RobotDescription& robot) {
  JointDesc j;
  j.line = el->GetLineNum();
  j.name = requiredName(el);
  const std::string ctx = "joint " + inQuotes(j.name);
  j.kind = parseJointKind(el, ctx);
  j.parent = linkRef(el, "parent", ctx);
  j.child = linkRef(el, "child", ctx);
  j.origin = parseOrigin(el, ctx);
  if (const XMLElement* axis = el->FirstChildElement("axis")) {
    const Vec3<double> a = optVec3(axis, "xyz", ctx, Vec3<double>(1, 0, 0));
    if (usesAxis(j.kind)) {
      if (a.stableNorm() < 1e-12) fail(axis, ctx, attrText(axis, "xyz") + ": the axis must not be zero");
      j.axis = a.stableNormalized();  // stable: 1e200 components must not overflow to a zero axis
    }
  }
  if (const XMLElement* limit = el->FirstChildElement("limit")) parseLimit(limit, j, ctx, robot);
  if (const XMLElement* dynamics = el->FirstChildElement("dynamics")) {
    j.damping = optNumber(dynamics, "damping", ctx, 0);
    j.friction = optNumber(dynamics, "friction", ctx, 0);
    if (j.damping < 0) fail(dynamics, ctx, attrText(dynamics, "damping") + ": must not be negative");
    if (j.friction < 0) fail(dynamics, ctx, attrText(dynamics, "friction") + ": must not be negative");
  }
  j.actuated = el->FirstChildElement("dynscope:actuated") != nullptr;  // docs/loops.md
  if (const XMLElement* mimic = el->FirstChildElement("mimic")) {
    JointDesc::Mimic m;
    m.joint = attr(mimic, "joint");  // one that names no movable joint is dropped at build, with a warning
    m.line = mimic->GetLineNum();
    m.multiplier = optNumber(mimic, "multiplier", ctx, 1);
    m.offset = optNumber(mimic, "offset", ctx, 0);
    j.mimic = m;
  }
  return j;
}

// ---- Closed loops (docs/loops.md) -------------------------------------------------------------

// <loop_joint name type><link1 link xyz rpy/><link2 link xyz rpy/><axis xyz/></loop_joint>, the
// element Drake's URDF parser introduced: the joint frame on each link and the axis in that frame.
LoopJointDesc parseLoopJoint(const XMLElement* el) {
  LoopJointDesc j;
  j.line = el->GetLineNum();
  j.name = requiredName(el);
  const std::string ctx = "loop joint " + inQuotes(j.name);
  j.kind = parseJointKind(el, ctx);
  if (j.kind != JointKind::Revolute && j.kind != JointKind::Continuous && j.kind != JointKind::Prismatic &&
      j.kind != JointKind::Fixed && j.kind != JointKind::Spherical)
    fail(el, ctx,
         "type " + inQuotes(attr(el, "type")) +
             " cannot close a loop (expected revolute, continuous, prismatic, fixed or spherical)");
  auto side = [&](const char* tag, std::string& link, Pose& pose) {
    const XMLElement* s = el->FirstChildElement(tag);
    link = s ? attr(s, "link") : "";
    if (link.empty()) fail(s ? s : el, ctx, "missing <" + std::string(tag) + " link=\"...\">");
    pose.xyz = optVec3(s, "xyz", ctx, Vec3<double>::Zero());
    pose.rpy = optVec3(s, "rpy", ctx, Vec3<double>::Zero());
  };
  side("link1", j.link1, j.origin1);
  side("link2", j.link2, j.origin2);
  if (const XMLElement* axis = el->FirstChildElement("axis")) {
    const Vec3<double> a = optVec3(axis, "xyz", ctx, Vec3<double>(1, 0, 0));
    if (a.norm() < 1e-12) fail(axis, ctx, attrText(axis, "xyz") + ": the axis must not be zero");
    j.axis = a.normalized();
  }
  return j;
}

// A visual's material that carries its own colour or texture keeps it, and also defines its name
// for references elsewhere (as in urdfdom), unless a top-level material has that name. References
// are resolved after all links are read, so one may come before its definition. A name nothing
// defines (a `<material name="grey"/>` of a xacro whose definitions were left out) is cosmetic: the
// visual keeps the default colour, with one warning per name at its first reference (issue 23).
// `root` is the document: the <material> lines are read from its elements, which come in the same
// order as robot.links and their visuals.
void resolveMaterials(RobotDescription& robot, const XMLElement* root) {
  std::map<std::string, Material> named;
  for (const Material& m : robot.materials) named.emplace(m.name, m);
  for (const LinkDesc& link : robot.links)
    for (const Geometry& v : link.visuals)
      if (!v.material.name.empty() && definesMaterial(v.material)) named.emplace(v.material.name, v.material);
  std::map<std::string, std::pair<size_t, int>> undefined;  // name -> its finding in robot.findings, references
  const XMLElement* linkEl = root->FirstChildElement("link");
  for (LinkDesc& link : robot.links) {
    const XMLElement* visualEl = linkEl->FirstChildElement("visual");
    for (Geometry& v : link.visuals) {
      const XMLElement* materialEl = visualEl->FirstChildElement("material");
      visualEl = visualEl->NextSiblingElement("visual");
      if (v.material.name.empty() || definesMaterial(v.material)) continue;
      if (const auto it = named.find(v.material.name); it != named.end()) {
        v.material = it->second;
        continue;
      }
      const auto [it, fresh] = undefined.emplace(v.material.name, std::pair(robot.findings.size(), 0));
      if (++it->second.second > 1) continue;
      Finding& f = note(robot, Severity::Warning, "material.undefined", materialEl ? materialEl->GetLineNum() : v.line,
                        "link " + inQuotes(link.name) + " <visual>");
      f.link = link.name;
      f.message = "material " + inQuotes(v.material.name) +
                  " is not defined (no <material> with a color or texture has that name): drawn in the default "
                  "colour";
      f.hint = "Colours do not enter the dynamics. Define it once at the top level, e.g. <material name=\"" +
               v.material.name + "\"><color rgba=\"0.5 0.5 0.5 1\"/></material>, or give this visual its own <color>.";
    }
    linkEl = linkEl->NextSiblingElement("link");
  }
  for (const auto& [name, where] : undefined)
    if (where.second > 1)
      robot.findings[where.first].message += " (" + std::to_string(where.second) + " references, the first here)";
}

// A joint whose parent is `world` in a file without a link of that name fixes its child to the
// world, as Drake's and Gazebo's parsers read it (issue 23): the link is added, empty, at the end of
// the links (the root, so body 0 is `world`), and the joint keeps its type and origin: a fixed one
// places the robot, a floating one gives a floating base, a revolute one is a joint on the ground.
void addWorldLink(RobotDescription& robot) {
  const std::string world = "world";
  if (std::any_of(robot.links.begin(), robot.links.end(), [&](const LinkDesc& l) { return l.name == world; })) return;
  std::vector<const JointDesc*> onWorld;
  for (const JointDesc& j : robot.joints)
    if (j.parent == world) onWorld.push_back(&j);
  if (onWorld.empty()) return;
  const JointDesc& first = *onWorld.front();
  Finding& f = note(robot, Severity::Info, "links.implicit_world", first.line, "joint " + inQuotes(first.name));
  f.joint = first.name;
  f.link = first.child;
  const auto kindName = jointKindName;
  std::string joints;
  for (size_t k = 0; k < onWorld.size() && k < 6; ++k)
    joints += (k ? ", " : "") + inQuotes(onWorld[k]->name) + " (" + kindName(onWorld[k]->kind) + ", link " +
              inQuotes(onWorld[k]->child) + ")";
  if (onWorld.size() > 6) joints += ", ...";
  f.message = "parent link 'world' is not defined: taken as the world, to which " +
              (onWorld.size() == 1 ? std::string("the ") + kindName(first.kind) + " joint " + inQuotes(first.name) +
                                         " attaches link " + inQuotes(first.child) + " at its origin"
                                   : "joints " + joints + " attach their links at their origins");
  f.hint =
      "Drake's and Gazebo's convention. URDF itself (and urdfdom's check_urdf) wants <link name=\"world\"/> "
      "written in the file; add it to make the file portable. Nothing else changes.";
  LinkDesc link;
  link.name = world;
  link.line = first.line;
  robot.links.push_back(std::move(link));
}

// Every attribute the reader may use (on <robot> and inside its <link>, <joint>, <loop_joint> and
// <material> elements) must be UTF-8: names end up in JSON, CSV headers and window titles. Other tags
// (gazebo, transmission) are ignored, so their text is not checked.
void checkUtf8(const XMLElement* el) {
  for (const tinyxml2::XMLAttribute* a = el->FirstAttribute(); a; a = a->Next())
    if (const std::string problem = utf8Problem("<" + std::string(el->Name()) + "> " + a->Name(), a->Value());
        !problem.empty())
      fail(a->GetLineNum(), "", problem);
  for (const XMLElement* child = el->FirstChildElement(); child; child = child->NextSiblingElement())
    if (el->Parent() != el->GetDocument() || !std::strcmp(child->Name(), "link") ||
        !std::strcmp(child->Name(), "joint") || !std::strcmp(child->Name(), "loop_joint") ||
        !std::strcmp(child->Name(), "material"))
      checkUtf8(child);
}

RobotDescription parseDocument(const std::string& xml, const std::string& sourceName) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
    const XmlErrorText error = describeXmlError(xml, doc);  // in words, at the line to look at
    fail(error.line, "", error.message);
  }
  const XMLElement* root = doc.RootElement();
  if (!root) fail(0, "", "no root element");
  if (std::strcmp(root->Name(), "robot") != 0)
    fail(root, "<" + std::string(root->Name()) + ">", "the root element must be <robot>");
  checkUtf8(root);

  RobotDescription robot;
  robot.name = attr(root, "name");
  robot.sourceFile = sourceName;
  // Dynscope's extension (docs/convert.md): the gravity a DH table or MJCF model gave, kept by the writer.
  if (const XMLElement* g = root->FirstChildElement("dynscope:gravity"))
    robot.gravity = vec3(g, "xyz", "<dynscope:gravity>");

  std::map<std::string, size_t> materialIndex;
  for (const XMLElement* el = root->FirstChildElement("material"); el; el = el->NextSiblingElement("material")) {
    const std::string name = attr(el, "name");
    if (name.empty()) fail(el, "<material>", "missing name attribute");
    const std::string ctx = "material " + inQuotes(name);
    Material m = parseMaterial(el, ctx);
    // xacro includes often repeat a definition; only a conflicting repeat is a mistake.
    const auto [it, inserted] = materialIndex.emplace(name, robot.materials.size());
    if (inserted && !definesMaterial(m)) {  // urdfdom logs an error and opens the file: cosmetic (issue 23)
      Finding& f = note(robot, Severity::Warning, "material.undefined", el->GetLineNum(), ctx);
      f.message = "<material name=" + inQuotes(name) +
                  "> has no <color> and no <texture>: the visuals that use it are drawn in the default colour";
      f.hint = "Colours do not enter the dynamics. Give it a <color rgba=\"...\"/>, as URDF requires.";
    }
    if (inserted)
      robot.materials.push_back(m);
    else if (!sameMaterial(robot.materials[it->second], m))
      fail(el, ctx, "defined again with a different color or texture");
  }

  std::map<std::string, int> lines;  // name -> line of its definition, to find duplicates
  for (const XMLElement* el = root->FirstChildElement("link"); el; el = el->NextSiblingElement("link")) {
    LinkDesc link = parseLink(el);
    if (const auto [it, inserted] = lines.emplace(link.name, link.line); !inserted)
      fail(el, "link " + inQuotes(link.name),
           "duplicate link name (first defined on line " + std::to_string(it->second) + ")");
    robot.links.push_back(std::move(link));
  }
  if (robot.links.empty())
    fail(root, robot.name.empty() ? "<robot>" : "robot " + inQuotes(robot.name), "the robot has no <link>");

  lines.clear();
  for (const XMLElement* el = root->FirstChildElement("joint"); el; el = el->NextSiblingElement("joint")) {
    JointDesc joint = parseJoint(el, robot);
    if (const auto [it, inserted] = lines.emplace(joint.name, joint.line); !inserted)
      fail(el, "joint " + inQuotes(joint.name),
           "duplicate joint name (first defined on line " + std::to_string(it->second) + ")");
    robot.joints.push_back(std::move(joint));
  }

  for (const XMLElement* el = root->FirstChildElement("loop_joint"); el; el = el->NextSiblingElement("loop_joint")) {
    LoopJointDesc loop = parseLoopJoint(el);
    if (const auto [it, inserted] = lines.emplace(loop.name, loop.line); !inserted)
      fail(el, "loop joint " + inQuotes(loop.name),
           "duplicate joint name (first defined on line " + std::to_string(it->second) + ")");
    robot.loopJoints.push_back(std::move(loop));
  }

  resolveMaterials(robot, root);  // before addWorldLink: it walks the links and the <link> elements together
  addWorldLink(robot);
  spanningTree(robot);  // one root; joints that close cycles become loop-closure joints at build
  noteUnusedUrdfContent(root, robot);
  return robot;
}

}  // namespace

RobotDescription parseUrdfString(const std::string& xml, const std::string& sourceName) {
  if (const std::string binary = binaryFileProblem(xml); !binary.empty()) throw LoadError(sourceName, 0, "", binary);
  try {
    return parseDocument(xml, sourceName);
  } catch (const LoadError& e) {
    if (!e.file().empty()) throw;
    throw LoadError(sourceName, e.line(), e.element(), e.message());
  }
}

RobotDescription parseUrdfFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw LoadError(path, 0, "", "is a directory, not a URDF file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "", std::string("cannot open file: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw LoadError(path, 0, "", "cannot read file");
  return parseUrdfString(text.str(), path);
}

}  // namespace dyn
