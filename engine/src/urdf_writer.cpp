// RobotDescription -> URDF text (urdf_writer.hpp). One XML document: the original's when given,
// else a new one; each <link>, <joint>, <loop_joint> and top-level <material> of the description is
// synchronised with the element of that name (its modelled children replaced where they stood,
// the rest kept), elements the description no longer has are removed, new ones are appended.
#include "dynscope/io/urdf_writer.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "dh_geometry.hpp"

namespace dyn {
namespace {

using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;
using tinyxml2::XMLNode;

std::string exact(double v) { return dh::exactNumber(v); }  // reads back bitwise
std::string vec(const Vec3<double>& v) { return exact(v.x()) + " " + exact(v.y()) + " " + exact(v.z()); }

// The kind as URDF writes it (spherical and floating: the extension our reader, and Drake's, accept);
// null for helical, which URDF has no word for.
const char* kindName(JointKind k) { return k == JointKind::Helical ? nullptr : jointKindName(k); }

class Writer {
 public:
  Writer(const RobotDescription& robot, XMLDocument& doc, XMLElement* root) : robot_(robot), doc_(doc), root_(root) {}

  void write() {
    root_->SetAttribute("name", robot_.name.c_str());
    for (const Material& m : robot_.materials) topMaterials_.emplace(m.name, m);
    sync("material", robot_.materials, [&](XMLElement* el, const Material& m) { fillMaterial(el, m); });
    std::vector<LinkDesc> links = robot_.links;
    std::vector<JointDesc> joints = robot_.joints;
    addFrameLinks(links, joints);
    sync("link", links, [&](XMLElement* el, const LinkDesc& l) { fillLink(el, l); });
    sync("joint", joints, [&](XMLElement* el, const JointDesc& j) { fillJoint(el, j); });
    sync("loop_joint", robot_.loopJoints, [&](XMLElement* el, const LoopJointDesc& j) { fillLoop(el, j); });
    writeGravity();
    declareNamespace();
  }

 private:
  // Extra frames (FrameDesc) have no URDF form but a massless link on a fixed joint.
  void addFrameLinks(std::vector<LinkDesc>& links, std::vector<JointDesc>& joints) const {
    std::set<std::string> names;
    for (const LinkDesc& l : links) names.insert(l.name);
    for (const JointDesc& j : joints) names.insert(j.name);
    for (const LoopJointDesc& j : robot_.loopJoints) names.insert(j.name);
    const auto fresh = [&](std::string name) {
      while (names.count(name)) name += "_frame";
      names.insert(name);
      return name;
    };
    for (const FrameDesc& f : robot_.frames) {
      LinkDesc link;
      link.name = fresh(f.name);
      JointDesc joint;
      joint.name = fresh(link.name + "_joint");
      joint.kind = JointKind::Fixed;
      joint.parent = f.link;
      joint.child = link.name;
      joint.origin = f.origin;
      links.push_back(std::move(link));
      joints.push_back(std::move(joint));
    }
  }

  // Elements `tag` of the robot, matched by name with `items`: filled in place, removed when the
  // description has no such item, appended after the last element of that tag when new.
  template <class T, class Fill>
  void sync(const char* tag, const std::vector<T>& items, Fill fill) {
    std::map<std::string, XMLElement*> existing;
    XMLElement* last = nullptr;
    for (XMLElement* el = root_->FirstChildElement(tag); el; el = el->NextSiblingElement(tag)) {
      const char* name = el->Attribute("name");
      existing.emplace(name ? name : "", el);
      last = el;
    }
    std::set<std::string> kept;
    for (const T& item : items) {
      XMLElement* el = nullptr;
      if (const auto it = existing.find(item.name); it != existing.end() && !kept.count(item.name)) {
        el = it->second;
      } else {
        el = doc_.NewElement(tag);
        el->SetAttribute("name", item.name.c_str());
        if (last)
          root_->InsertAfterChild(last, el);
        else
          insertByKind(el, tag);
      }
      kept.insert(item.name);
      last = el;
      fill(el, item);
    }
    for (const auto& [name, el] : existing)
      if (!kept.count(name)) root_->DeleteChild(el);
  }

  // The first element of a kind goes after the elements of the kinds written before it.
  void insertByKind(XMLElement* el, const char* tag) {
    static const char* const kOrder[] = {"material", "link", "joint", "loop_joint"};
    XMLElement* after = nullptr;
    for (const char* kind : kOrder) {
      if (!std::strcmp(kind, tag)) break;
      for (XMLElement* e = root_->FirstChildElement(kind); e; e = e->NextSiblingElement(kind)) after = e;
    }
    if (after)
      root_->InsertAfterChild(after, el);
    else
      root_->InsertEndChild(el);
  }

  // Removes the children named in `modelled` and returns the node after which new ones go (their
  // first one's previous sibling; nullptr: at the front; the last child when there were none).
  struct Slot {
    XMLElement* parent;
    XMLNode* after;
    bool front;
  };
  Slot clear(XMLElement* el, std::initializer_list<const char*> modelled) {
    XMLNode* after = el->LastChild();
    bool front = after == nullptr, found = false;
    for (XMLElement* c = el->FirstChildElement(); c;) {
      XMLElement* next = c->NextSiblingElement();
      const bool ours =
          std::any_of(modelled.begin(), modelled.end(), [&](const char* t) { return !std::strcmp(t, c->Name()); });
      if (ours) {
        if (!found) {
          found = true;
          after = c->PreviousSibling();
          front = after == nullptr;
        }
        el->DeleteChild(c);
      }
      c = next;
    }
    return Slot{el, after, front};
  }
  XMLElement* add(Slot& s, const char* tag) {
    XMLElement* e = doc_.NewElement(tag);
    if (s.front)
      s.parent->InsertFirstChild(e);
    else if (s.after)
      s.parent->InsertAfterChild(s.after, e);
    else
      s.parent->InsertEndChild(e);
    s.after = e;
    s.front = false;
    return e;
  }
  XMLElement* child(XMLElement* parent, const char* tag) { return parent->InsertNewChildElement(tag); }

  void origin(XMLElement* el, const Pose& p) {
    el->SetAttribute("xyz", vec(p.xyz).c_str());
    el->SetAttribute("rpy", vec(p.rpy).c_str());
  }

  void fillMaterial(XMLElement* el, const Material& m) {
    el->DeleteChildren();
    if (m.hasColor)
      child(el, "color")
          ->SetAttribute(
              "rgba",
              (exact(m.rgba[0]) + " " + exact(m.rgba[1]) + " " + exact(m.rgba[2]) + " " + exact(m.rgba[3])).c_str());
    if (!m.texture.empty()) child(el, "texture")->SetAttribute("filename", m.texture.c_str());
  }

  void fillGeometry(XMLElement* el, const Geometry& g, bool visual) {
    if (!g.name.empty()) el->SetAttribute("name", g.name.c_str());
    origin(child(el, "origin"), g.origin);
    XMLElement* geometry = child(el, "geometry");
    const Shape& s = g.shape;
    switch (s.kind) {
      case Shape::Kind::Box:
        child(geometry, "box")->SetAttribute("size", vec(s.size).c_str());
        break;
      case Shape::Kind::Cylinder: {
        XMLElement* c = child(geometry, "cylinder");
        c->SetAttribute("radius", exact(s.radius).c_str());
        c->SetAttribute("length", exact(s.length).c_str());
        break;
      }
      case Shape::Kind::Sphere:
        child(geometry, "sphere")->SetAttribute("radius", exact(s.radius).c_str());
        break;
      case Shape::Kind::Mesh: {
        XMLElement* m = child(geometry, "mesh");
        m->SetAttribute("filename", s.meshUri.c_str());
        if (s.scale != Vec3<double>::Ones()) m->SetAttribute("scale", vec(s.scale).c_str());
        break;
      }
    }
    const Material& m = g.material;
    if (!visual || (m.name.empty() && !definesMaterial(m))) return;
    XMLElement* mat = child(el, "material");
    mat->SetAttribute("name", m.name.c_str());
    const auto top = topMaterials_.find(m.name);
    const bool byReference =
        !m.name.empty() && (!definesMaterial(m) || (top != topMaterials_.end() && sameMaterial(top->second, m)));
    if (!byReference) fillMaterial(mat, m);
  }

  void fillLink(XMLElement* el, const LinkDesc& l) {
    Slot s = clear(el, {"inertial", "visual", "collision"});
    if (l.inertial) {
      const InertialDesc& in = *l.inertial;
      XMLElement* inertial = add(s, "inertial");
      origin(child(inertial, "origin"), in.origin);
      child(inertial, "mass")->SetAttribute("value", exact(in.mass).c_str());
      XMLElement* I = child(inertial, "inertia");
      const std::pair<const char*, double> entries[] = {{"ixx", in.ixx}, {"ixy", in.ixy}, {"ixz", in.ixz},
                                                        {"iyy", in.iyy}, {"iyz", in.iyz}, {"izz", in.izz}};
      for (const auto& [key, v] : entries) I->SetAttribute(key, exact(v).c_str());
    }
    for (const Geometry& g : l.visuals) fillGeometry(add(s, "visual"), g, true);
    for (const Geometry& g : l.collisions) fillGeometry(add(s, "collision"), g, false);
  }

  void fillJoint(XMLElement* el, const JointDesc& j) {
    const char* kind = kindName(j.kind);
    if (!kind) throw std::invalid_argument("joint '" + j.name + "': URDF has no helical joint");
    const bool oneDof =
        j.kind == JointKind::Revolute || j.kind == JointKind::Continuous || j.kind == JointKind::Prismatic;
    // URDF requires limits on a revolute joint: one without them is a continuous joint.
    const bool continuous = j.kind == JointKind::Continuous || (j.kind == JointKind::Revolute && !j.hasLimits);
    el->SetAttribute("type", continuous ? "continuous" : kind);
    Slot s = clear(el, {"origin", "parent", "child", "axis", "limit", "dynamics", "mimic", "dynscope:actuated"});
    add(s, "parent")->SetAttribute("link", j.parent.c_str());
    add(s, "child")->SetAttribute("link", j.child.c_str());
    origin(add(s, "origin"), j.origin);
    if (oneDof || j.kind == JointKind::Planar) add(s, "axis")->SetAttribute("xyz", vec(j.axis).c_str());
    if (oneDof && (j.hasLimits || j.effort != 0 || j.velocity != 0 || j.kind == JointKind::Prismatic)) {
      XMLElement* limit = add(s, "limit");
      if (j.hasLimits && !continuous) {
        limit->SetAttribute("lower", exact(j.lower).c_str());
        limit->SetAttribute("upper", exact(j.upper).c_str());
      }
      limit->SetAttribute("effort", exact(j.effort).c_str());
      limit->SetAttribute("velocity", exact(j.velocity).c_str());
    }
    if (j.damping != 0 || j.friction != 0) {
      XMLElement* d = add(s, "dynamics");
      d->SetAttribute("damping", exact(j.damping).c_str());
      d->SetAttribute("friction", exact(j.friction).c_str());
    }
    if (j.mimic) {
      XMLElement* m = add(s, "mimic");
      m->SetAttribute("joint", j.mimic->joint.c_str());
      m->SetAttribute("multiplier", exact(j.mimic->multiplier).c_str());
      m->SetAttribute("offset", exact(j.mimic->offset).c_str());
    }
    if (j.actuated) add(s, "dynscope:actuated");
  }

  void fillLoop(XMLElement* el, const LoopJointDesc& j) {
    const char* kind = kindName(j.kind);
    el->SetAttribute("type", kind ? kind : "revolute");
    Slot s = clear(el, {"link1", "link2", "axis"});
    for (const auto& [tag, link, pose] : {std::tuple{"link1", &j.link1, &j.origin1}, {"link2", &j.link2, &j.origin2}}) {
      XMLElement* side = add(s, tag);
      side->SetAttribute("link", link->c_str());
      origin(side, *pose);
    }
    add(s, "axis")->SetAttribute("xyz", vec(j.axis).c_str());
  }

  void writeGravity() {
    XMLElement* g = root_->FirstChildElement("dynscope:gravity");
    if (robot_.gravity == Vec3<double>(0, 0, -9.81)) {
      if (g) root_->DeleteChild(g);
      return;
    }
    if (!g) {
      g = doc_.NewElement("dynscope:gravity");
      root_->InsertFirstChild(g);
    }
    g->SetAttribute("xyz", vec(robot_.gravity).c_str());
  }

  // Our extensions are namespaced elements: the prefix must be declared, or namespace-aware
  // readers (xmllint, Python's ElementTree, lxml) refuse the file. urdfdom ignores them.
  void declareNamespace() {
    const auto usesPrefix = [](const XMLElement* el, const auto& self) -> bool {
      for (; el; el = el->NextSiblingElement()) {
        if (std::strncmp(el->Name(), "dynscope:", 9) == 0 || self(el->FirstChildElement(), self)) return true;
      }
      return false;
    };
    if (usesPrefix(root_->FirstChildElement(), usesPrefix) && !root_->Attribute("xmlns:dynscope"))
      root_->SetAttribute("xmlns:dynscope", kDynscopeNamespace);
  }

  const RobotDescription& robot_;
  XMLDocument& doc_;
  XMLElement* root_;
  std::map<std::string, Material> topMaterials_;
};

// Two spaces per level, as URDFs are usually indented (tinyxml2 prints four).
class Printer : public tinyxml2::XMLPrinter {
 protected:
  void PrintSpace(int depth) override {
    for (int i = 0; i < depth; ++i) Write("  ");
  }
};

}  // namespace

std::string writeUrdf(const RobotDescription& robot, const std::string& originalUrdfText) {
  XMLDocument doc;
  XMLElement* root = nullptr;
  if (!originalUrdfText.empty()) {
    if (doc.Parse(originalUrdfText.data(), originalUrdfText.size()) != tinyxml2::XML_SUCCESS)
      throw std::invalid_argument(std::string("the original URDF is not well-formed XML: ") + doc.ErrorStr());
    root = doc.RootElement();
    if (!root || std::strcmp(root->Name(), "robot") != 0)
      throw std::invalid_argument("the original text is not a URDF (its root element is not <robot>)");
  } else {
    doc.InsertFirstChild(doc.NewDeclaration());
    doc.InsertEndChild(doc.NewComment(" Written by Dynscope (docs/convert.md) "));
    root = doc.NewElement("robot");
    doc.InsertEndChild(root);
  }
  Writer(robot, doc, root).write();
  Printer printer;
  doc.Print(&printer);
  return std::string(printer.CStr(), size_t(printer.CStrSize() > 0 ? printer.CStrSize() - 1 : 0));
}

void rebaseMeshPaths(RobotDescription& robot, const std::string& newFile) {
  namespace fs = std::filesystem;
  const bool fromFile = !robot.sourceFile.empty() && robot.sourceFile.front() != '<';
  const fs::path from = fs::absolute(fs::path(robot.sourceFile)).parent_path();
  const fs::path to = fs::absolute(fs::path(newFile)).parent_path();
  robot.sourceFile = newFile;
  if (!fromFile || from == to) return;
  const auto rebase = [&](Geometry& g) {
    if (g.shape.kind != Shape::Kind::Mesh) return;
    std::string uri = g.shape.meshUri;
    const bool fileScheme = uri.rfind("file://", 0) == 0;
    if (fileScheme) uri.erase(0, 7);
    if (uri.empty() || uri.find("://") != std::string::npos || fs::path(uri).is_absolute()) return;
    const fs::path target = (from / uri).lexically_normal();
    g.shape.meshUri = (fileScheme ? "file://" : "") + target.lexically_relative(to).generic_string();
  };
  for (LinkDesc& l : robot.links) {
    for (Geometry& g : l.visuals) rebase(g);
    for (Geometry& g : l.collisions) rebase(g);
  }
}

std::vector<std::string> urdfLosses(const RobotDescription& robot) {
  std::vector<std::string> out;
  for (const JointDesc& j : robot.joints)
    if (j.armature != 0)
      out.push_back("joint '" + j.name + "': the armature (rotor inertia " + exact(j.armature) +
                    ") has no URDF element and is left out");
  for (const JointDesc& j : robot.joints)
    if (j.stiffness != 0)
      out.push_back("joint '" + j.name + "': the spring (stiffness " + exact(j.stiffness) + ", springref " +
                    exact(j.springref) + ") has no URDF element and is left out");
  if (robot.initialPose)
    out.push_back("the initial configuration (MJCF qpos0) has no URDF element: the URDF starts at q = 0");
  if (!robot.poses.empty())
    out.push_back(std::to_string(robot.poses.size()) +
                  " named pose(s) (keyframes) have no URDF element and are left out");
  return out;
}

}  // namespace dyn
