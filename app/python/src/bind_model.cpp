// dynscope.load / load_string, and the Model, Data, Joint, Frame, Finding, Mimic and Loop objects.
#include <fstream>
#include <sstream>

#include "arrays.hpp"
#include "dynscope/io/dh_parser.hpp"
#include "dynscope/io/fixups.hpp"
#include "dynscope/io/mjcf_parser.hpp"
#include "dynscope/io/model_builder.hpp"
#include "dynscope/io/urdf_parser.hpp"
#include "dynscope/model/names.hpp"
#include "py_types.hpp"

namespace pyd {
namespace {

struct PyJoint {
  std::string name, type, link, parentLink;
  int body = 0, parent = 0, idx_q = 0, idx_v = 0, nq = 0, nv = 0;
  bool continuous = false;
  Eigen::Vector3d axis;
  double pitch = 0;
};

struct PyFrame {
  std::string name, link;
  int body = 0;
  Eigen::Matrix4d placement;  // the frame's pose in its body's coordinates
};

Eigen::Matrix4d poseMatrix(const dyn::Transform<double>& X) {
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  T.topLeftCorner<3, 3>() = X.rotation();
  T.topRightCorner<3, 1>() = X.translation();
  return T;
}

std::vector<dyn::Fixup> fixupsByName(const std::vector<std::string>& names) {
  std::vector<dyn::Fixup> out;
  for (const std::string& n : names) {
    if (n == "all") return {std::begin(dyn::kAllFixups), std::end(dyn::kAllFixups)};
    const auto f = dyn::fixupByName(n);
    if (!f) {
      std::string valid = "all";
      for (dyn::Fixup g : dyn::kAllFixups) valid += std::string(", ") + dyn::fixupName(g);
      throw py::value_error("unknown fix-up '" + n + "'; the fix-ups are: " + valid);
    }
    out.push_back(*f);
  }
  return out;
}

std::string formatOf(const std::string& text) {
  const size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos || text[start] != '<') return "dh";
  return dyn::looksLikeMjcf(text) ? "mjcf" : "urdf";
}

std::string formatOfFile(const std::string& path) {
  const auto dot = path.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (ext == "dh") return "dh";
  if (ext == "mjcf") return "mjcf";
  std::ifstream in(path);
  std::string head(4096, '\0');
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(size_t(in.gcount()));
  return formatOf(head);
}

// One ModelWarning for the file's errors and warnings (the CLI prints them on stderr); the notes and
// hints stay in model.findings.
void warnFindings(const dyn::Model& model) {
  int count = 0;
  std::string first;
  for (const dyn::Finding& f : model.findings) {
    if (f.severity == dyn::Severity::Info || f.code.rfind("fixup.", 0) == 0) continue;
    if (count++ < 3) first += "\n  " + std::string(dyn::severityName(f.severity)) + ": " + f.text();
  }
  if (count == 0) return;
  const std::string text = model.name + ": " + std::to_string(count) + " finding" + (count == 1 ? "" : "s") +
                           " of the model check (model.findings lists them with hints):" + first +
                           (count > 3 ? "\n  ..." : "");
  py::module_::import("warnings")
      .attr("warn")(text, py::module_::import("dynscope").attr("ModelWarning"), 1);  // 1: the line that called load
}

PyModel finish(dyn::Model model, std::string path, std::string source, std::string format, bool floating,
               const std::vector<std::string>& fixups, const py::object& gravity) {
  if (!gravity.is_none()) {
    const VectorIn g = vectorIn(gravity, "gravity", 3, "3 components (x, y, z)", {});
    model.gravity.v = g.map();
  }
  PyModel m;
  m.qNames = dyn::configurationNames(model);
  m.vNames = dyn::velocityNames(model);
  m.ptr = std::make_shared<const dyn::Model>(std::move(model));
  m.path = std::move(path);
  m.source = std::move(source);
  m.format = std::move(format);
  m.floatingBaseRequested = floating;
  m.fixups = fixups;
  warnFindings(*m.ptr);
  return m;
}

PyModel load(const std::string& path, bool floating, const std::vector<std::string>& fixups,
             const py::object& gravity) {
  const dyn::BuildOptions options{.floatingBase = floating, .fixups = fixupsByName(fixups)};
  std::string format = formatOfFile(path);
  dyn::Model model = dyn::loadModel(path, options);
  return finish(std::move(model), path, "", std::move(format), floating, fixups, gravity);
}

PyModel loadString(const std::string& text, const std::string& formatGiven, bool floating,
                   const std::vector<std::string>& fixups, const py::object& gravity, const std::string& name) {
  const std::string format = formatGiven.empty() ? formatOf(text) : formatGiven;
  dyn::RobotDescription desc;
  if (format == "urdf")
    desc = dyn::parseUrdfString(text, name);
  else if (format == "mjcf")
    desc = dyn::parseMjcfString(text, name);
  else if (format == "dh")
    desc = dyn::parseDhString(text, name);
  else
    throw py::value_error("format must be 'urdf', 'mjcf' or 'dh' (or None to tell from the text); got '" + format +
                          "'");
  dyn::Model model = dyn::buildModel(desc, {.floatingBase = floating, .fixups = fixupsByName(fixups)});
  return finish(std::move(model), "", text, format, floating, fixups, gravity);
}

PyJoint jointOf(const PyModel& pm, int i) {
  const dyn::Model& m = *pm;
  const auto& j = m.joints[size_t(i)];
  return PyJoint{.name = m.jointNames[size_t(i)],
                 .type = dyn::jointTypeName(j.type),
                 .link = m.bodyNames[size_t(i)],
                 .parentLink = m.bodyNames[size_t(m.parent[size_t(i)])],
                 .body = i,
                 .parent = m.parent[size_t(i)],
                 .idx_q = j.idx_q,
                 .idx_v = j.idx_v,
                 .nq = j.nq,
                 .nv = j.nv,
                 .continuous = j.continuous,
                 .axis = j.axis,
                 .pitch = j.pitch};
}

// A frame by index or name (model frames: every link, tool frames).
int frameArg(const PyModel& pm, const py::object& frame) {
  const dyn::Model& m = *pm;
  if (py::isinstance<py::str>(frame)) {
    const std::string name = frame.cast<std::string>();
    const int k = m.frameIndex(name);
    if (k >= 0) return k;
    std::vector<std::string> names;
    for (const auto& f : m.frames) names.push_back(f.name);
    throw py::value_error("no frame named '" + name + "' in " + m.name + "; the frames are: " + joinNames(names));
  }
  const long k = frame.cast<long>();
  if (k < 0 || k >= long(m.frames.size()))
    throw py::index_error("frame " + std::to_string(k) + " is out of range: " + m.name + " has " +
                          std::to_string(m.frames.size()) + " frames");
  return int(k);
}

}  // namespace

int frameIndexArg(const PyModel& model, const py::object& frame) { return frameArg(model, frame); }
Eigen::Matrix4d pose4(const dyn::Transform<double>& X) { return poseMatrix(X); }

void bindModel(py::module_& m) {
  py::class_<PyJoint>(m, "Joint", "A joint of the model's spanning tree (body i's joint connects it to its parent).")
      .def_readonly("name", &PyJoint::name)
      .def_readonly("type", &PyJoint::type, "'revolute', 'prismatic', 'helical', 'planar', 'spherical' or 'floating'")
      .def_readonly("link", &PyJoint::link, "the link (body) it moves")
      .def_readonly("parent_link", &PyJoint::parentLink)
      .def_readonly("body", &PyJoint::body, "the index of the body it moves (1..nbodies)")
      .def_readonly("parent", &PyJoint::parent, "the index of the parent body (0: the fixed base)")
      .def_readonly("idx_q", &PyJoint::idx_q, "its first entry in q")
      .def_readonly("idx_v", &PyJoint::idx_v, "its first entry in qd, qdd and tau")
      .def_readonly("nq", &PyJoint::nq)
      .def_readonly("nv", &PyJoint::nv)
      .def_readonly("continuous", &PyJoint::continuous, "a revolute joint without position limits")
      .def_readonly("axis", &PyJoint::axis, "in the body's (canonical) frame: z for revolute, prismatic, helical")
      .def_readonly("pitch", &PyJoint::pitch, "helical joints: metres per radian")
      .def("__repr__", [](const PyJoint& j) {
        return "<dynscope.Joint '" + j.name + "' (" + j.type + ") moves '" + j.link + "'>";
      });

  py::class_<PyFrame>(m, "Frame", "A named frame fixed to a body: every link (merged ones too) and tool frames.")
      .def_readonly("name", &PyFrame::name)
      .def_readonly("body", &PyFrame::body, "the index of the body it is fixed to (0: the base)")
      .def_readonly("link", &PyFrame::link, "the name of that body")
      .def_readonly("placement", &PyFrame::placement, "4x4 pose of the frame in its body's coordinates [m]")
      .def("__repr__", [](const PyFrame& f) { return "<dynscope.Frame '" + f.name + "' on '" + f.link + "'>"; });

  py::class_<dyn::Finding>(m, "Finding", "One finding of the model check (docs/model-check.md).")
      .def_property_readonly(
          "severity", [](const dyn::Finding& f) { return std::string(dyn::severityName(f.severity)); },
          "'info', 'warning' or 'error'")
      .def_readonly("code", &dyn::Finding::code, "e.g. 'inertia.triangle'")
      .def_readonly("file", &dyn::Finding::file)
      .def_readonly("line", &dyn::Finding::line, "0 when unknown")
      .def_readonly("element", &dyn::Finding::element)
      .def_readonly("link", &dyn::Finding::link)
      .def_readonly("joint", &dyn::Finding::joint)
      .def_readonly("message", &dyn::Finding::message, "what is wrong and by how much")
      .def_readonly("hint", &dyn::Finding::hint, "what it means for the dynamics and what to do")
      .def("__str__", &dyn::Finding::text)
      .def("__repr__", [](const dyn::Finding& f) {
        return "<dynscope.Finding " + std::string(dyn::severityName(f.severity)) + " " + f.code + ">";
      });

  py::class_<PyModel>(
      m, "Model",
      "A robot model (immutable). Bodies 1..nbodies, body 0 the fixed base; joint i moves body i.\n"
      "q has nq entries (a spherical joint: quaternion x, y, z, w; a floating base: x, y, z, qx, qy, qz, qw),\n"
      "qd, qdd and tau have nv (a floating base: angular velocity before linear, [w; v], in body coordinates).")
      .def_property_readonly("name", [](const PyModel& p) { return p->name; })
      .def_property_readonly(
          "path", [](const PyModel& p) { return p.path; }, "the file it was loaded from ('' for a string)")
      .def_property_readonly(
          "source", [](const PyModel& p) { return p.source; }, "the text, when loaded from a string")
      .def_property_readonly(
          "format", [](const PyModel& p) { return p.format; }, "'urdf', 'mjcf' or 'dh'")
      .def_property_readonly(
          "fixups", [](const PyModel& p) { return p.fixups; }, "the fix-ups applied at load, by name")
      .def_property_readonly(
          "nq", [](const PyModel& p) { return p->nq; }, "configuration size")
      .def_property_readonly(
          "nv", [](const PyModel& p) { return p->nv; }, "velocity size (degrees of freedom)")
      .def_property_readonly(
          "nbodies", [](const PyModel& p) { return p->N; }, "moving bodies (body 0, the base, not counted)")
      .def_property_readonly("floating_base", [](const PyModel& p) { return p->floatingBase; })
      .def_property_readonly(
          "body_names", [](const PyModel& p) { return p->bodyNames; }, "nbodies + 1 names, the base first")
      .def_property_readonly(
          "joint_names",
          [](const PyModel& p) { return std::vector<std::string>(p->jointNames.begin() + 1, p->jointNames.end()); },
          "the joints of bodies 1..nbodies")
      .def_property_readonly(
          "parents", [](const PyModel& p) { return p->parent; }, "parent body of each body (-1 for the base)")
      .def_property_readonly(
          "q_names", [](const PyModel& p) { return p.qNames; }, "one name per q entry")
      .def_property_readonly(
          "v_names", [](const PyModel& p) { return p.vNames; }, "one name per qd, qdd or tau entry")
      .def_property_readonly("joints",
                             [](const PyModel& p) {
                               std::vector<PyJoint> js;
                               for (int i = 1; i <= p->N; ++i) js.push_back(jointOf(p, i));
                               return js;
                             })
      .def_property_readonly(
          "frames",
          [](const PyModel& p) {
            std::vector<PyFrame> fs;
            for (const auto& f : p->frames)
              fs.push_back(PyFrame{f.name, p->bodyNames[size_t(f.body)], f.body, poseMatrix(f.placement)});
            return fs;
          })
      .def_property_readonly("frame_names",
                             [](const PyModel& p) {
                               std::vector<std::string> names;
                               for (const auto& f : p->frames) names.push_back(f.name);
                               return names;
                             })
      .def_property_readonly(
          "end_effector", [](const PyModel& p) { return p->defaultEndEffector; },
          "the default end-effector frame ('' when the model names none)")
      .def_property_readonly(
          "lower_limit", [](const PyModel& p) { return vectorOut(p->lowerLimit); }, "per q entry; -inf where unlimited")
      .def_property_readonly(
          "upper_limit", [](const PyModel& p) { return vectorOut(p->upperLimit); }, "per q entry; +inf where unlimited")
      .def_property_readonly(
          "velocity_limit", [](const PyModel& p) { return vectorOut(p->velocityLimit); },
          "per v entry; inf where not given")
      .def_property_readonly(
          "effort_limit", [](const PyModel& p) { return vectorOut(p->effortLimit); },
          "per v entry [N m or N]; inf where not given")
      .def_property_readonly(
          "damping", [](const PyModel& p) { return vectorOut(p->damping); }, "per v entry [N m s/rad or N s/m]")
      .def_property_readonly(
          "friction", [](const PyModel& p) { return vectorOut(p->friction); }, "per v entry")
      .def_property_readonly(
          "armature",
          [](const PyModel& p) { return vectorOut(p->armature.size() ? p->armature : Eigen::VectorXd::Zero(p->nv)); },
          "rotor inertia per v entry (MJCF armature), added to H's diagonal")
      .def_property_readonly(
          "gravity", [](const PyModel& p) { return vectorOut(p->gravity.v); }, "[m/s^2], world axes")
      .def_property_readonly(
          "total_mass", [](const PyModel& p) { return p->totalMass(); }, "[kg]")
      .def_property_readonly(
          "masses",
          [](const PyModel& p) {
            Eigen::VectorXd ms(p->N + 1);
            for (int i = 0; i <= p->N; ++i) ms[i] = p->I[size_t(i)].m;
            return vectorOut(ms);
          },
          "per body 0..nbodies [kg] (a body includes the links fixed to it)")
      .def_property_readonly(
          "mimics",
          [](const PyModel& p) {
            py::list out;
            for (const auto& r : p->mimics)
              out.append(py::dict(py::arg("joint") = p->jointNames[size_t(r.joint)],
                                  py::arg("mimicked") = p->jointNames[size_t(r.mimicked)],
                                  py::arg("multiplier") = r.multiplier, py::arg("offset") = r.offset));
            return out;
          },
          "the mimic relations: joint = multiplier * mimicked + offset")
      .def_property_readonly(
          "loops",
          [](const PyModel& p) {
            std::vector<std::string> names;
            for (const auto& l : p->loops) names.push_back(l.name);
            return names;
          },
          "the joints that close kinematic loops, by name (docs/loops.md)")
      .def_property_readonly(
          "keyframes",
          [](const PyModel& p) {
            py::dict out;
            for (const auto& pose : p->poses) out[py::str(pose.name)] = vectorOut(pose.q);
            return out;
          },
          "named configurations from the file (MJCF keyframes): name -> q")
      .def_property_readonly(
          "findings", [](const PyModel& p) { return p->findings; }, "the model check's findings")
      .def(
          "neutral", [](const PyModel& p) { return vectorOut(p->neutral()); }, "q of zeros with identity quaternions")
      .def(
          "home", [](const PyModel& p) { return vectorOut(p->home()); },
          "the configuration to start from: an assembled closed loop, the file's initial q (MJCF qpos0), else neutral")
      .def(
          "joint",
          [](const PyModel& p, const std::string& name) {
            const int i = p->jointIndex(name);
            if (i < 0)
              throw py::value_error(
                  "no joint named '" + name + "' in " + p->name + "; the joints are: " +
                  joinNames(std::vector<std::string>(p->jointNames.begin() + 1, p->jointNames.end())));
            return jointOf(p, i);
          },
          py::arg("name"))
      .def(
          "frame_index", [](const PyModel& p, const std::string& name) { return frameArg(p, py::str(name)); },
          py::arg("name"))
      .def(
          "body_index",
          [](const PyModel& p, const std::string& name) {
            const int i = p->bodyIndex(name);
            if (i < 0)
              throw py::value_error("no body named '" + name + "' in " + p->name +
                                    "; the bodies are: " + joinNames(p->bodyNames));
            return i;
          },
          py::arg("name"))
      .def(
          "with_gravity",
          [](const PyModel& p, const py::object& g) {
            dyn::Model copy = *p;
            const VectorIn gv = vectorIn(g, "gravity", 3, "3 components (x, y, z)", {});
            copy.gravity.v = gv.map();
            PyModel out = p;
            out.bound = std::make_shared<std::map<std::string, dyn::BoundFormulation<double>>>();
            out.ptr = std::make_shared<const dyn::Model>(std::move(copy));
            return out;
          },
          py::arg("gravity"), "a copy of the model with another gravity vector [m/s^2]")
      .def("__repr__", [](const PyModel& p) {
        return "<dynscope.Model '" + p->name + "': " + std::to_string(p->N) + " bodies, nq=" + std::to_string(p->nq) +
               ", nv=" + std::to_string(p->nv) + (p->hasLoops() ? ", closed loops" : "") + ">";
      });

  py::class_<PyData>(m, "Data", "The algorithms' workspace for one model (one per thread), as in Pinocchio.")
      .def(py::init<const PyModel&>(), py::arg("model"))
      .def_property_readonly(
          "tau", [](const PyData& d) { return vectorOut(d.data.tau); }, "the last rnea result")
      .def_property_readonly(
          "qdd", [](const PyData& d) { return vectorOut(d.data.qdd); }, "the last aba / forward dynamics result")
      .def_property_readonly(
          "M", [](const PyData& d) { return matrixOut(d.data.M); }, "the last crba result (H)")
      .def_property_readonly("nle", [](const PyData& d) { return vectorOut(d.data.nle); })
      .def_property_readonly("g", [](const PyData& d) { return vectorOut(d.data.g); })
      .def_property_readonly(
          "J", [](const PyData& d) { return matrixOut(d.data.J); }, "the last jacobian")
      .def_property_readonly("com", [](const PyData& d) { return vectorOut(d.data.com); })
      .def_property_readonly("kinetic_energy", [](const PyData& d) { return d.data.kinetic; })
      .def_property_readonly("potential_energy", [](const PyData& d) { return d.data.potential; })
      .def(
          "frame_pose",
          [](const PyData& d, const py::object& frame) {
            PyModel pm;
            pm.ptr = d.model;
            return poseMatrix(d.data.oMf.at(size_t(frameArg(pm, frame))));
          },
          py::arg("frame"), "4x4 pose of a frame (name or index) in the world, after forward_kinematics")
      .def(
          "body_pose",
          [](const PyData& d, int body) {
            if (body < 0 || body > d.model->N)
              throw py::index_error("body " + std::to_string(body) + " is out of range");
            return poseMatrix(d.data.X0[size_t(body)]);
          },
          py::arg("body"), "4x4 pose of a body's frame in the world, after forward_kinematics")
      .def("__repr__", [](const PyData& d) { return "<dynscope.Data for '" + d.model->name + "'>"; });

  m.def("load", &load, py::arg("path"), py::kw_only(), py::arg("floating_base") = false,
        py::arg("fixups") = std::vector<std::string>{}, py::arg("gravity") = py::none(),
        "Loads a URDF (.urdf, .xml), MuJoCo MJCF (.xml, .mjcf) or DH table (.dh) file.\n\n"
        "floating_base: add a 6-DOF free joint between the world and the root link.\n"
        "fixups: names of fix-ups to apply ('balance-inertias', 'unlimited-degenerate-limits',\n"
        "'mass-massless-links', or 'all'), as the CLI's --fix.\n"
        "gravity: [x, y, z] in m/s^2 (default: the file's, else -9.81 along z).\n"
        "Raises LoadError (file:line: element: message) when the file cannot be used; implausible but\n"
        "usable input loads with findings (model.findings) and one ModelWarning.");
  m.def("load_string", &loadString, py::arg("text"), py::kw_only(), py::arg("format") = "",
        py::arg("floating_base") = false, py::arg("fixups") = std::vector<std::string>{},
        py::arg("gravity") = py::none(), py::arg("name") = "<string>",
        "Loads a model from text: format 'urdf', 'mjcf' or 'dh' ('' tells from the text).\n"
        "name: what error messages call it (instead of a file name).");
}

}  // namespace pyd
