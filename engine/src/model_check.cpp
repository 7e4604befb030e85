// The model checker (docs/model-check.md): inertias, masses, massless moving subtrees, limits,
// mimic joints, names, unused links and meshes; conditioning is in model_check_conditioning.cpp.
#include "dynscope/io/model_check.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_set>

#include "dynscope/algorithms/kinematics.hpp"
#include "dynscope/io/mesh_path.hpp"
#include "model_check_context.hpp"
#include "quoted_name.hpp"

namespace dyn {
namespace check_detail {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string momentsText(const Vec3<double>& e) {
  return "(" + num(e[0]) + ", " + num(e[1]) + ", " + num(e[2]) + ") kg m^2";
}

Context::Context(const Model& m, const RobotDescription* d) : model(m), desc(d) {
  for (const Frame<double>& f : m.frames) linkBody_.emplace(f.name, f.body);
  for (int i = 0; i < int(m.bodyNames.size()); ++i) linkBody_.emplace(m.bodyNames[i], i);
  for (int i = 1; i <= m.N; ++i) jointBody_.emplace(m.jointNames[i], i);
  if (!d) return;
  for (const LinkDesc& l : d->links) links_.emplace(l.name, &l);
  for (const JointDesc& j : d->joints) joints_.emplace(j.name, &j);
}

Finding& Context::add(Severity severity, const char* code) {
  Finding& f = out.emplace_back();
  f.severity = severity;
  f.code = code;
  f.file = desc ? desc->sourceFile : model.sourceFile;
  return f;
}

int Context::bodyOfLink(const std::string& name) const {
  const auto it = linkBody_.find(name);
  return it == linkBody_.end() ? -1 : it->second;
}

int Context::bodyOfJoint(const std::string& name) const {
  if (const auto it = jointBody_.find(name); it != jointBody_.end()) return it->second;
  const JointDesc* j = joint(name);
  return j ? bodyOfLink(j->child) : -1;
}

const LinkDesc* Context::link(const std::string& name) const {
  const auto it = links_.find(name);
  return it == links_.end() ? nullptr : it->second;
}

const JointDesc* Context::joint(const std::string& name) const {
  const auto it = joints_.find(name);
  return it == joints_.end() ? nullptr : it->second;
}

int Context::massLine(const std::string& linkName) const {
  const LinkDesc* l = link(linkName);
  if (!l) return 0;
  return l->inertial ? l->inertial->line : l->line;
}

int Context::frameLine(const std::string& name) const {
  if (desc)
    for (const FrameDesc& fr : desc->frames)
      if (fr.name == name && fr.line > 0) return fr.line;
  const LinkDesc* l = link(name);
  return l ? l->line : 0;
}

void Context::atLink(Finding& f, const std::string& name, int line) const {
  f.link = name;
  f.body = bodyOfLink(name);
  if (f.body > 0 && model.bodyNames[f.body] == name) f.joint = model.jointNames[f.body];
  const LinkDesc* l = link(name);
  f.line = line > 0 ? line : l ? l->line : 0;
  if (f.element.empty()) f.element = (desc ? "link " : "body ") + inQuotes(name);
}

void Context::atJointOfBody(Finding& f, int body) const {
  f.body = body;
  f.joint = model.jointNames[body];
  f.link = model.bodyNames[body];
  const JointDesc* j = joint(f.joint);
  const LinkDesc* l = link(f.link);
  // The joint's line; for a joint the file does not have (a floating base's root_joint), its link's.
  f.line = j ? j->line : l ? l->line : 0;
  if (f.element.empty()) f.element = "joint " + inQuotes(f.joint);
}

namespace {

// ---------------------------------------------------------------- description findings

void copyDescriptionFindings(Context& c) {
  if (!c.desc) return;
  for (Finding f : c.desc->findings) {
    if (f.body < 0 && !f.joint.empty()) f.body = c.bodyOfJoint(f.joint);
    if (f.body < 0 && !f.link.empty()) f.body = c.bodyOfLink(f.link);
    c.out.push_back(std::move(f));
  }
}

// ---------------------------------------------------------------- inertias

std::string inertiaProblem(const InertiaConsistency& k) {
  const Vec3<double>& e = k.moments;
  const double largest = std::max(std::abs(e[0]), std::abs(e[2]));
  const auto percent = [&](double x) { return num(100 * x / largest) + " %"; };
  if (k.negative > check_limits::kInertiaNoise * e.cwiseAbs().sum())
    return "the rotational inertia is not positive semi-definite: principal moments " + momentsText(e) +
           ", the smallest " + num(k.negative) + " below zero (" + percent(k.negative) + " of the largest)";
  return "the principal moments " + momentsText(e) + " violate the triangle inequality a + b >= c: " + num(e[0]) +
         " + " + num(e[1]) + " falls " + num(k.deficit) + " short of " + num(e[2]) + " (" + percent(k.deficit) + ")";
}

const char* inertiaCode(const InertiaConsistency& k) {
  return k.negative > check_limits::kInertiaNoise * k.moments.cwiseAbs().sum() ? "inertia.not_psd" : "inertia.triangle";
}

constexpr const char* kInertiaHint =
    "No rigid body has these moments. The algorithms compute with them as given; a large violation can make "
    "H(q) or the articulated-body inertias indefinite, and forward dynamics is then refused where it is, naming "
    "the joint. Correct the <inertia>, or apply the fix-up balance-inertias (Model > Fix-ups; --fix "
    "balance-inertias), which raises the smallest moments just enough.";

void checkInertias(Context& c) {
  const Model& m = c.model;
  if (!c.desc) {  // the model alone: each body's inertia about its centre of mass
    for (int i = 1; i <= m.N; ++i) {
      if (!(std::abs(m.I[i].m) + m.I[i].Ibar.cwiseAbs().sum() > kMassless)) continue;  // massless
      const InertiaConsistency k = inertiaConsistency(m.I[i].inertiaAboutCom());
      if (k.physical) continue;
      Finding& f = c.add(Severity::Warning, inertiaCode(k));
      c.atLink(f, m.bodyNames[i]);
      f.message = inertiaProblem(k);
      f.hint = kInertiaHint;
    }
    return;
  }
  std::vector<int> inertials(m.N + 1, 0);  // links with an <inertial> per body
  for (const LinkDesc& l : c.desc->links)
    if (const int b = c.bodyOfLink(l.name); l.inertial && b >= 0) ++inertials[b];
  for (const LinkDesc& l : c.desc->links) {
    if (!l.inertial || isMassless(*l.inertial)) continue;  // massless: the mass checks speak for it
    const InertiaConsistency k = inertiaConsistency(inertiaMatrix(*l.inertial));
    if (k.physical) continue;
    const int body = c.bodyOfLink(l.name);
    Severity severity = Severity::Warning;
    std::string context;
    if (body == 0) {
      severity = Severity::Info;
      context = "; the link is fixed to the world, so its inertia never enters the dynamics";
    } else if (body > 0 && inertials[body] > 1 && inertiaConsistency(m.I[body].inertiaAboutCom()).physical) {
      severity = Severity::Info;
      context = "; fixed joints merge it with other links into body " + inQuotes(m.bodyNames[body]) +
                ", whose total inertia is physical, so the dynamics is too";
    }
    Finding& f = c.add(severity, inertiaCode(k));
    f.element = "link " + inQuotes(l.name) + " <inertial>";
    c.atLink(f, l.name, l.inertial->inertiaLine > 0 ? l.inertial->inertiaLine : l.inertial->line);
    f.message = inertiaProblem(k) + context;
    f.hint = severity == Severity::Warning
                 ? kInertiaHint
                 : "Harmless for the dynamics; correct the <inertia> if the link is ever used on its own "
                   "(the fix-up balance-inertias also changes it).";
  }
}

// ---------------------------------------------------------------- masses

std::vector<bool> immobileFlags(const Model& m) {
  std::vector<bool> immobile(m.N + 1, false);
  for (int i : m.immobileBodies) immobile[i] = true;
  return immobile;
}

void checkMasses(Context& c) {
  const Model& m = c.model;
  const std::vector<bool> immobile = immobileFlags(m);
  std::vector<int> children(m.N + 1, 0);
  for (int i = 1; i <= m.N; ++i) ++children[m.parent[i]];
  for (int i = 1; i <= m.N; ++i) {
    const double mass = m.I[i].m;
    const std::string& name = m.bodyNames[i];
    if (mass < 0) {
      Finding& f = c.add(Severity::Error, "mass.negative");
      c.atLink(f, name, c.massLine(name));
      f.message = "body " + inQuotes(name) + " has a negative mass, " + num(mass) + " kg";
      f.hint = "No algorithm result is meaningful with a negative mass. Correct the <mass>.";
    } else if (mass == 0 && !immobile[i]) {
      const bool leaf = children[i] == 0;
      Finding& f = c.add(leaf ? Severity::Warning : Severity::Info, leaf ? "mass.zero_leaf" : "mass.zero");
      c.atLink(f, name, c.massLine(name));
      f.message = "link " + inQuotes(name) + " (moved by joint " + inQuotes(m.jointNames[i]) + ") has no mass" +
                  (leaf ? ", only rotational inertia" : "; the links beyond it carry its joint's load");
      f.hint = leaf ? "Nothing with rotational inertia alone can be pushed along: a prismatic joint, or any "
                      "motion that translates the link, meets no inertia, and H(q) is then singular (see cond(H)): "
                      "forward dynamics and simulation are refused there, naming the joint. Give the link its mass."
                    : "Common for the intermediate link of a multi-axis joint (a massless link between two "
                      "revolute joints); nothing to do unless the link is a real part.";
    }
  }
  if (m.floatingBase || !c.desc) return;
  // Mass on the fixed base: right for an arm on a table, a surprise for a legged robot.
  double fixedMass = 0;
  std::vector<std::string> names;
  for (const LinkDesc& l : c.desc->links)
    if (l.inertial && l.inertial->mass > 0 && c.bodyOfLink(l.name) == 0) {
      fixedMass += l.inertial->mass;
      names.push_back(l.name);
    }
  if (names.empty()) return;
  Finding& f = c.add(Severity::Info, "mass.fixed_to_world");
  c.atLink(f, names.front(), c.massLine(names.front()));
  std::string list;
  for (size_t k = 0; k < names.size() && k < 6; ++k) list += (k ? ", " : "") + inQuotes(names[k]);
  if (names.size() > 6) list += ", ...";
  f.message = std::to_string(names.size()) + (names.size() == 1 ? " link" : " links") + " fixed to the world (" + list +
              (names.size() == 1 ? ") carries " : ") carry ") + num(fixedMass) + " kg that never enters the dynamics";
  f.hint =
      "Right for a fixed-base arm. A mobile robot (legged, humanoid, wheeled) needs a floating base: "
      "File > Floating base, or --floating-base.";
}

void checkMasslessSubtrees(Context& c) {
  const Model& m = c.model;
  const std::vector<bool> immobile = immobileFlags(m);
  // Bodies are numbered depth-first: the subtree of i is i..last[i] (an ancestor walk per body was
  // quadratic on a long massless chain).
  std::vector<int> last(m.N + 1);
  for (int i = 0; i <= m.N; ++i) last[i] = i;
  for (int i = m.N; i >= 1; --i) last[m.parent[i]] = std::max(last[m.parent[i]], last[i]);
  for (int i : m.immobileBodies) {
    if (immobile[m.parent[i]]) continue;  // reported with its topmost massless ancestor
    const int below = last[i] - i;        // the bodies beyond i: the first six named, all counted
    Finding& f = c.add(Severity::Warning, "mass.massless_subtree");
    c.atJointOfBody(f, i);
    std::string joints;
    for (int j = i + 1; j <= last[i] && j <= i + 6; ++j) joints += (j > i + 1 ? ", " : "") + inQuotes(m.jointNames[j]);
    if (below > 6) joints += ", ...";
    f.message =
        "joint " + inQuotes(m.jointNames[i]) + " moves no mass or inertia: link " + inQuotes(m.bodyNames[i]) +
        (below == 0   ? " has"
         : below == 1 ? " and the body beyond it (joint " + joints + ") have"
                      : " and the " + std::to_string(below) + " bodies beyond it (joints " + joints + ") have") +
        " no mass and no rotational inertia";
    f.hint =
        "H(q) is singular, so forward dynamics and simulation are refused, naming this joint; inverse "
        "dynamics, kinematics and IK work. Give the links their <inertial>, or apply the fix-up "
        "mass-massless-links (Model > Fix-ups; --fix mass-massless-links).";
  }
}

// ---------------------------------------------------------------- limits

std::string limitValues(const JointDesc& j) {
  std::string s = "lower = upper = " + num(j.lower);
  if (j.effort == 0 && j.velocity == 0) return s + ", effort = velocity = 0";
  if (j.effort <= 0 && j.velocity <= 0) return s + ", no effort or velocity limit";
  return s;
}

void checkLimits(Context& c) {
  const Model& m = c.model;
  if (!c.desc) {
    for (int i = 1; i <= m.N; ++i) {
      const JointModel<double>& J = m.joints[i];
      if (J.nv != 1 || J.nq != 1) continue;
      const double lo = m.lowerLimit[J.idx_q], hi = m.upperLimit[J.idx_q];
      if (!std::isfinite(lo) || !std::isfinite(hi) || hi - lo > 1e-12) continue;
      Finding& f = c.add(Severity::Warning, "limits.degenerate");
      c.atJointOfBody(f, i);
      f.message = "lower = upper = " + num(lo) + ": the joint cannot move";
      f.hint = "If the joint is meant to be rigid, make it fixed; otherwise give it its real range.";
    }
    return;
  }
  for (const JointDesc& j : c.desc->joints) {
    const bool element = j.limitLine > 0;
    const auto locate = [&](Finding& f) {
      f.element = "joint " + inQuotes(j.name) + (element ? " <limit>" : "");
      f.joint = j.name;
      f.link = j.child;
      f.body = c.bodyOfJoint(j.name);
      f.line = element ? j.limitLine : j.line;
    };
    if (hasPlaceholderLimits(j)) {
      Finding& f = c.add(Severity::Warning, "limits.placeholder");
      locate(f);
      f.message = limitValues(j) +
                  ": placeholder limits, treated as no limit at all (the joint moves freely, "
                  "with no effort or velocity limit)";
      f.hint =
          "Generated files often carry these zeros. If the joint is limited, write its range, effort and "
          "velocity; if it turns freely, make it continuous; if it is rigid, make it fixed.";
    } else if (hasDegenerateRange(j)) {
      Finding& f = c.add(Severity::Warning, "limits.degenerate");
      locate(f);
      f.message = limitValues(j) +
                  ": the joint cannot move (its slider has no range, IK keeps it there, a simulation's limit "
                  "spring holds it)";
      f.hint =
          "If the joint is meant to be rigid, make it fixed; otherwise write its real range, or apply the "
          "fix-up unlimited-degenerate-limits (Model > Fix-ups; --fix unlimited-degenerate-limits).";
    } else if (element && j.kind != JointKind::Fixed && (j.effort == 0 || j.velocity == 0)) {
      Finding& f = c.add(Severity::Info, "limits.zero_effort_velocity");
      locate(f);
      f.message = std::string(j.effort == 0 && j.velocity == 0 ? "effort = velocity = 0"
                              : j.effort == 0                  ? "effort = 0"
                                                               : "velocity = 0") +
                  ": taken as not given (no effort line in the torque plots, no velocity bound)";
      f.hint =
          "URDF requires both; a zero usually means unknown, or a passive joint. Write the real values to see "
          "the effort limits in the torque plots.";
    }
  }
}

// ---------------------------------------------------------------- mimic joints, names, links

void checkMimics(Context& c) {
  const Model& m = c.model;
  for (const MimicInfo& mi : m.mimics) {
    Finding& f = c.add(Severity::Info, "mimic.enforced");
    c.atJointOfBody(f, mi.joint);
    f.element = "joint " + inQuotes(m.jointNames[mi.joint]) + " <mimic>";
    if (const JointDesc* j = c.joint(f.joint); j && j->mimic && j->mimic->line > 0) f.line = j->mimic->line;
    f.message = "joint " + inQuotes(m.jointNames[mi.joint]) + " follows joint " + inQuotes(m.jointNames[mi.mimicked]) +
                " (q = " + num(mi.multiplier) + " q_" + m.jointNames[mi.mimicked] + " + " + num(mi.offset) +
                "): it is not an independent degree of freedom";
    f.hint =
        "Dynscope keeps the relation everywhere: the window's sliders (the follower is read-only), IK, "
        "trajectories, simulation and the mass-matrix view (H_y = G^T H G), and dynscope-cli's id, fd, mass, bias "
        "(on the independent coordinates, tau_y = G^T tau), ik and simulate (docs/mimic.md). "
        "dynscope-cli --no-mimic treats every joint as free.";
  }
}

void checkNames(Context& c) {
  const Model& m = c.model;
  std::unordered_set<std::string> seen;
  // A link and an extra frame (an MJCF site) sharing a name is valid MJCF: MuJoCo keeps bodies and sites
  // in separate name spaces (XML reference, "name" attributes). Only where a name means one frame does a
  // second one confuse: two links, two sites, or models built in code.
  const auto linkAndSite = [&](const std::string& name) {
    if (!c.desc) return false;
    const auto links =
        std::count_if(c.desc->links.begin(), c.desc->links.end(), [&](const LinkDesc& l) { return l.name == name; });
    const auto sites =
        std::count_if(c.desc->frames.begin(), c.desc->frames.end(), [&](const FrameDesc& f) { return f.name == name; });
    return links == 1 && sites == 1;
  };
  for (const Frame<double>& fr : m.frames) {
    if (seen.insert(fr.name).second) continue;
    if (linkAndSite(fr.name)) {
      Finding& f = c.add(Severity::Info, "names.shared");
      f.element = "frame " + inQuotes(fr.name);
      c.atLink(f, fr.name, c.frameLine(fr.name));
      f.link = fr.name;
      f.body = fr.body;
      for (const FrameDesc& site : c.desc->frames)
        if (site.name == fr.name && site.line > 0) f.line = site.line;
      f.message = "a link and a site (frame) are both named " + inQuotes(fr.name) +
                  ": --link, IK targets and the view mean the link";
      f.hint = "Valid MJCF (MuJoCo keeps bodies and sites apart); rename the site to address it by name.";
      continue;
    }
    Finding& f = c.add(Severity::Error, "names.duplicate");
    f.element = "frame " + inQuotes(fr.name);
    c.atLink(f, fr.name, c.frameLine(fr.name));
    f.link = fr.name;
    f.body = fr.body;
    f.message = "two frames are named " + inQuotes(fr.name) + ": --link, IK targets and the view pick the first";
    f.hint = "Give every link and frame its own name.";
  }
  seen.clear();
  for (int i = 1; i <= m.N; ++i) {
    if (seen.insert(m.jointNames[i]).second) continue;
    Finding& f = c.add(Severity::Error, "names.duplicate");
    c.atJointOfBody(f, i);
    const bool root = m.floatingBase && m.jointNames[1] == m.jointNames[i];  // the free joint Dynscope adds
    f.message = (root ? "the floating base's joint is named " + inQuotes(m.jointNames[i]) + ", and so is this joint"
                      : "two joints are named " + inQuotes(m.jointNames[i])) +
                ": joint values by name (projects, CSV columns) cannot tell them apart";
    f.hint = root ? "Rename the file's joint, or load the robot with a fixed base." : "Give every joint its own name.";
  }
}

// Links that carry nothing (no inertial, no geometry, no joint below them) and so serve only as frames.
void checkUnusedLinks(Context& c) {
  if (!c.desc) return;
  std::unordered_set<std::string> parents;
  for (const JointDesc& j : c.desc->joints) parents.insert(j.parent);
  std::vector<const LinkDesc*> unused;
  for (const LinkDesc& l : c.desc->links)
    if (!l.inertial && l.visuals.empty() && l.collisions.empty() && !parents.count(l.name) && c.desc->links.size() > 1)
      unused.push_back(&l);
  if (unused.empty()) return;
  Finding& f = c.add(Severity::Info, "links.unused");
  c.atLink(f, unused.front()->name);
  std::string list;
  for (size_t k = 0; k < unused.size() && k < 8; ++k) list += (k ? ", " : "") + inQuotes(unused[k]->name);
  if (unused.size() > 8) list += ", ...";
  f.message = std::to_string(unused.size()) + (unused.size() == 1 ? " link carries" : " links carry") +
              " nothing (no <inertial>, no geometry, no joint below): " + list;
  f.hint = "Nothing to do: they add no mass and stay available as named frames (fk --link, IK targets, payloads).";
}

// ---------------------------------------------------------------- a legged robot fixed to the world

// A robot whose base carries two or more legs (chains of two or more joints from the base whose tips
// hang at least 0.1 m below it at the neutral pose: a quadruped's, a humanoid's) but no free joint:
// its legs dangle in the air; say where the floating base is.
void checkFixedLeggedBase(Context& c) {
  const Model& m = c.model;
  for (int i = 1; i <= m.N; ++i)
    if (m.joints[size_t(i)].type == JointType::Floating) return;
  if (m.N < 4) return;
  Data d(m);
  forwardKinematics(m, d, m.neutral());
  int legs = 0;
  for (int child = 1; child <= m.N; ++child) {
    if (m.parent[size_t(child)] != 0) continue;
    int tip = child, joints = 1;
    bool chain = true;
    for (;;) {
      int next = -1, children = 0;
      for (int k = tip + 1; k <= m.N; ++k)
        if (m.parent[size_t(k)] == tip) ++children, next = k;
      if (children == 0) break;
      if (children > 1) {
        chain = false;
        break;
      }
      tip = next;
      ++joints;
    }
    // The tip's origin below the base: world z (gravity along -z), body 0 at the world origin.
    if (chain && joints >= 2 && d.X0[size_t(tip)].r.z() < -0.1) ++legs;
  }
  if (legs < 2) return;
  Finding& f = c.add(Severity::Info, "base.legged");
  f.body = 0;
  f.link = m.bodyNames.empty() ? std::string() : m.bodyNames[0];
  if (c.desc) f.line = c.frameLine(f.link);
  f.element = "link " + inQuotes(f.link);
  f.message = inQuotes(f.link) + " carries " + std::to_string(legs) +
              " legs and is fixed to the world: the robot hangs in the air";
  f.hint = "To stand it on the ground and let it fall: File > Floating base (dynscope-cli --floating-base).";
}

// ---------------------------------------------------------------- meshes

// "mesh 'URI' ..." with resolveMeshPath's reason, without repeating the file it names.
std::string meshProblem(const std::string& uri, const std::string& error) {
  // "mesh file 'PATH' not found" and, after it, "(why)": where the package is, that a folder does not exist.
  const std::string file = "mesh file '", notFound = "' not found";
  if (const size_t end = error.rfind(notFound);
      error.starts_with(file) && end != std::string::npos && end > file.size()) {
    const std::string path = error.substr(file.size(), end - file.size());
    std::string why = error.substr(end + notFound.size());
    if (why.starts_with(" (") && why.ends_with(")")) why = why.substr(2, why.size() - 3);
    if (path != uri) why = "looked for " + path + (why.empty() ? "" : "; " + why);
    return "mesh " + inQuotes(uri) + " not found" + (why.empty() ? "" : " (" + why + ")");
  }
  // "package 'NAME' (file 'REST') not found; searched ...": the file is in the URI already.
  const size_t inFile = error.find(" (file '"), end = error.find("')", inFile == std::string::npos ? 0 : inFile);
  if (error.starts_with("package '") && inFile != std::string::npos && end != std::string::npos)
    return "mesh " + inQuotes(uri) + ": " + error.substr(0, inFile) + error.substr(end + 2);
  return "mesh " + inQuotes(uri) + ": " + error;
}

void checkMeshes(Context& c) {
  if (!c.desc) return;
  struct Missing {
    std::string uri, error, link;
    int line = 0, uses = 0;
    bool collision = false;
  };
  std::vector<Missing> missing;
  std::unordered_map<std::string, size_t> byKey;         // one finding per missing file, or per missing package
  std::unordered_map<std::string, std::string> checked;  // uri -> error ("" when found)
  for (const LinkDesc& l : c.desc->links) {
    for (const auto* list : {&l.visuals, &l.collisions}) {
      for (const Geometry& g : *list) {
        if (g.shape.kind != Shape::Kind::Mesh) continue;
        const std::string& uri = g.shape.meshUri;
        auto it = checked.find(uri);
        if (it == checked.end()) {
          std::string error;
          if (resolveMeshPath(uri, c.desc->sourceFile, &error).empty() && error.empty()) error = "not found";
          it = checked.emplace(uri, error).first;
        }
        if (it->second.empty()) continue;
        // A package that cannot be found makes every mesh in it missing: one finding for all.
        std::string key = uri;
        const size_t scheme = uri.find("://");
        if (it->second.rfind("package '", 0) == 0 && scheme != std::string::npos)
          key = uri.substr(0, uri.find('/', scheme + 3));
        auto [k, fresh] = byKey.emplace(key, missing.size());
        if (fresh)
          missing.push_back(
              Missing{uri, it->second, l.name, g.shapeLine > 0 ? g.shapeLine : g.line, 0, list == &l.collisions});
        ++missing[k->second].uses;
      }
    }
  }
  for (const Missing& miss : missing) {
    Finding& f = c.add(Severity::Warning, "mesh.missing");
    f.element = "link " + inQuotes(miss.link) + (miss.collision ? " <collision>" : " <visual>");
    c.atLink(f, miss.link, miss.line);
    f.message = meshProblem(miss.uri, miss.error) +
                (miss.uses > 1 ? " (" + std::to_string(miss.uses) + " mesh references, the first here)" : "");
    f.hint =
        "The view draws a placeholder box instead; the dynamics does not use meshes. For package:// URIs set "
        "ROS_PACKAGE_PATH (ROS 1) or AMENT_PREFIX_PATH (ROS 2), or keep the package's folder beside or "
        "above the URDF.";
  }
}

}  // namespace
}  // namespace check_detail

InertiaConsistency inertiaConsistency(const Mat3<double>& Ic) {
  InertiaConsistency k;
  k.moments = Eigen::SelfAdjointEigenSolver<Mat3<double>>(Ic, Eigen::EigenvaluesOnly).eigenvalues();
  const Vec3<double>& e = k.moments;
  k.negative = std::max(0.0, -e[0]);
  k.deficit = std::max(0.0, e[2] - e[0] - e[1]);
  const double tol = check_limits::kInertiaNoise * e.cwiseAbs().sum();
  k.physical = k.negative <= tol && k.deficit <= tol;
  return k;
}

Mat3<double> inertiaMatrix(const InertialDesc& in) {
  Mat3<double> I;
  I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
  return I;
}

bool check_detail::isMassless(const InertialDesc& in) {
  return !(std::abs(in.mass) + inertiaMatrix(in).cwiseAbs().sum() > check_detail::kMassless);
}

bool hasDegenerateRange(const JointDesc& j) { return j.hasLimits && !(j.upper - j.lower > 1e-12); }

// A negative effort or velocity is "no limit" as a zero is (limits.negative, urdf_parser.cpp).
bool hasPlaceholderLimits(const JointDesc& j) { return hasDegenerateRange(j) && j.effort <= 0 && j.velocity <= 0; }

std::vector<int> findImmobileBodies(const Model& model) {
  // Magnitudes, so that an (implausible) negative inertia does not count as none.
  std::vector<double> load(model.N + 1, 0.0);
  for (int i = model.N; i >= 1; --i) {
    load[i] += std::abs(model.I[i].m) + model.I[i].Ibar.cwiseAbs().sum();
    load[model.parent[i]] += load[i];
  }
  std::vector<int> immobile;
  for (int i = 1; i <= model.N; ++i)
    if (!(load[i] > check_detail::kMassless)) immobile.push_back(i);
  return immobile;
}

std::string forwardDynamicsRefusal(const Model& model) {
  if (model.immobileBodies.empty()) return {};
  const int i = model.immobileBodies.front();
  return "joint '" + model.jointNames[i] + "' moves no mass or inertia (link '" + model.bodyNames[i] +
         "' and its children have no <inertial>): the joint-space inertia matrix is singular and forward "
         "dynamics is undefined";
}

std::vector<Finding> checkModel(const Model& model, const RobotDescription* description, const CheckOptions& options) {
  check_detail::Context c(model, description);
  check_detail::copyDescriptionFindings(c);
  check_detail::checkInertias(c);
  check_detail::checkMasses(c);
  check_detail::checkMasslessSubtrees(c);
  check_detail::checkLimits(c);
  check_detail::checkMimics(c);
  check_detail::checkNames(c);
  check_detail::checkUnusedLinks(c);
  check_detail::checkFixedLeggedBase(c);
  if (options.meshes) check_detail::checkMeshes(c);
  check_detail::checkConditioning(c);
  return std::move(c.out);
}

}  // namespace dyn
