#include "session.hpp"

#include <fstream>
#include <sstream>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "dynscope/io/atomic_file.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/model/names.hpp"
#include "messages.hpp"
#include "project/project_setup.hpp"

namespace cli {
namespace {

// Edit distance, to suggest the intended name for a mistyped --link.
size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string sizeMismatch(const char* option, size_t given, const char* sizeName, int size,
                         const std::vector<std::string>& names) {
  return std::string(option) + " has " + std::to_string(given) + " value" + (given == 1 ? "" : "s") +
         ", the model has " + sizeName + " = " + std::to_string(size) + (names.empty() ? "" : ": ") + joinNames(names);
}

// The warnings and errors (at most kShown of them) and the fix-ups' changes, one line each; the
// notes are left to 'dynscope-cli check'.
void printFindings(const std::vector<dyn::Finding>& findings) {
  constexpr int kShown = 10;
  int shown = 0, more = 0;
  for (const dyn::Finding& f : findings) {
    if (f.code.rfind("fixup.", 0) == 0) {
      std::fprintf(stderr, "dynscope-cli: fix-up: %s\n", f.text().c_str());
    } else if (f.severity != dyn::Severity::Info) {
      if (shown++ < kShown)
        std::fprintf(stderr, "dynscope-cli: %s: %s\n", dyn::severityName(f.severity), f.text().c_str());
      else
        ++more;
    }
  }
  if (more > 0)
    std::fprintf(stderr, "dynscope-cli: ... and %d more (dynscope-cli check MODEL lists them all, with hints)\n", more);
}

}  // namespace

void writeOutput(const std::optional<std::string>& out, const std::function<void(std::ostream&)>& write) {
  if (out) return dyn::writeFileAtomically(*out, write);
  write(std::cout);
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("stdout: write error");
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

Session openSession(const Options& options) {
  Session s;
  s.options = options;
  if (options.project) s.project = dyn::readProjectFile(QString::fromStdString(*options.project));
  s.modelPath = options.modelPath.empty() && s.project ? s.project->robotPath : options.modelPath;
  const bool floating = options.floatingBase || (s.project && s.project->floatingBase);
  if (s.project) s.fixups = s.project->fixups;
  for (const std::string& name : options.fixes)
    for (dyn::Fixup f : dyn::kAllFixups)
      if ((name == "all" || name == dyn::fixupName(f)) &&
          std::find(s.fixups.begin(), s.fixups.end(), f) == s.fixups.end())
        s.fixups.push_back(f);
  if (options.chain) {  // opcount --chain N: the generated general revolute chain
    const dyn::RobotDescription chain = dyn::generalChainDescription(*options.chain);
    s.modelPath = chain.sourceFile;
    s.model = dyn::buildModel(chain, dyn::BuildOptions{.floatingBase = floating, .fixups = s.fixups});
  } else {
    s.model = dyn::loadModel(s.modelPath, dyn::BuildOptions{.floatingBase = floating, .fixups = s.fixups});
  }
  if (s.project) s.model = dyn::applyProjectSettings(std::move(s.model), *s.project);
  if (options.gravity)
    s.model.gravity.v = Eigen::Vector3d((*options.gravity)[0], (*options.gravity)[1], (*options.gravity)[2]);
  s.qNames = dyn::configurationNames(s.model);
  s.vNames = dyn::velocityNames(s.model);
  if (options.command != Command::Check) printFindings(s.model.findings);
  if (floating && !s.model.floatingBase && options.command != Command::Check)  // printFindings shows no infos
    for (const dyn::Finding& f : s.model.findings)
      if (f.code == "base.floats") note(f.message);
  // --no-mimic: every joint free. info and check still report the file's relations; every other
  // command gets a model without them (the IK solver and the simulator enforce what the model has).
  if (options.noMimic && options.command != Command::Info && options.command != Command::Check) s.model.mimics.clear();
  if (!s.model.mimics.empty() && !options.noMimic && !s.model.hasLoops()) {
    s.mimic = dyn::mimicCoupling(s.model);
    for (int k : s.mimic->independentQ) s.yqNames.push_back(s.qNames[size_t(k)]);
    for (int k : s.mimic->independentDofs) s.yvNames.push_back(s.vNames[size_t(k)]);
    const Command c = options.command;
    const bool oneState = !options.trajectory && !options.project && !options.loopMethod;
    const bool reduced =
        c == Command::Info || c == Command::Check || c == Command::Opcount ||
        (oneState && (c == Command::Id || c == Command::Fd || c == Command::Mass || c == Command::Bias));
    if (c == Command::Ik || c == Command::Simulate)
      std::fprintf(stderr,
                   "dynscope-cli: note: %s has mimic joints; %s takes and prints all joints' coordinates and keeps "
                   "the relations (the followers' given values are replaced by their masters'; docs/mimic.md)\n",
                   s.model.name.c_str(), commandName(c));
    else if (!reduced)
      std::fprintf(stderr,
                   "dynscope-cli: note: %s has mimic joints; %s works on all joints' coordinates and does not "
                   "enforce them (id, fd, mass and bias at one state, ik and simulate do; docs/mimic.md)\n",
                   s.model.name.c_str(), commandName(c));
  } else if (!s.model.mimics.empty() && s.model.hasLoops() && !options.noMimic && options.command != Command::Check) {
    std::fprintf(stderr,
                 "dynscope-cli: note: %s has mimic joints and closed loops; the mimic relations are not enforced "
                 "(docs/mimic.md)\n",
                 s.model.name.c_str());
  }
  return s;
}

std::string readTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Eigen::VectorXd configurationInput(const Session& s, const std::optional<std::vector<double>>& given,
                                   const char* option) {
  if (!given) return s.model.home();  // neutral, or a closed loop's assembled reference
  Eigen::VectorXd q;
  if (s.mimic && int(given->size()) == s.mimic->nqy && s.mimic->nqy != s.model.nq) {
    q.resize(s.model.nq);  // the independent entries: the followers from their masters (header: q_given)
    dyn::expandPositions(*s.mimic, toVector(*given), q);
  } else if (int(given->size()) != s.model.nq) {
    throw UsageError(
        sizeMismatch(option, given->size(), "nq", s.model.nq, s.qNames) +
        (s.mimic ? " (or the " + std::to_string(s.mimic->nqy) + " independent ones: " + joinNames(s.yqNames) + ")"
                 : ""));
  } else {
    q = toVector(*given);
  }
  if (const int i = jointWithZeroQuaternion(s.model, q))
    throw UsageError(std::string(option) + ": the quaternion of joint '" + s.model.jointNames[i] +
                     "' is zero (identity is 0,0,0,1)");
  return q;
}

int jointWithZeroQuaternion(const dyn::Model& model, const Eigen::VectorXd& q) {
  for (int i = 1; i <= model.N; ++i) {
    const auto& J = model.joints[i];
    const int offset = J.type == dyn::JointType::Floating ? 3 : J.type == dyn::JointType::Spherical ? 0 : -1;
    if (offset >= 0 && q.segment<4>(J.idx_q + offset).norm() == 0) return i;  // the engine divides by the norm
  }
  return 0;
}

Eigen::VectorXd velocityInput(const Session& s, const std::optional<std::vector<double>>& given, const char* option) {
  if (!given) return Eigen::VectorXd::Zero(s.model.nv);
  // Velocities and accelerations over the independent dofs: the followers' from their masters. (A
  // reduced tau has no unique full one: --tau takes nv values here.)
  const bool motion = std::string(option) != "--tau";
  if (s.mimic && motion && int(given->size()) == s.mimic->ny && s.mimic->ny != s.model.nv) {
    Eigen::VectorXd v(s.model.nv);
    dyn::expandVelocities(*s.mimic, toVector(*given), v);
    return v;
  }
  if (int(given->size()) != s.model.nv)
    throw UsageError(sizeMismatch(option, given->size(), "nv", s.model.nv, s.vNames) +
                     (s.mimic && motion ? " (or the " + std::to_string(s.mimic->ny) +
                                              " independent ones: " + joinNames(s.yvNames) + ")"
                                        : ""));
  return toVector(*given);
}

int frameInput(const Session& s, const std::string& name) {
  const int k = s.model.frameIndex(name);
  if (k >= 0) return k;
  std::string msg = "unknown link '" + name + "' in " + s.model.name;
  if (s.model.frames.empty()) throw UsageError(msg + " (the model has no frames)");
  const auto nearest = std::min_element(s.model.frames.begin(), s.model.frames.end(), [&](auto& a, auto& b) {
    return editDistance(a.name, name) < editDistance(b.name, name);
  });
  if (editDistance(nearest->name, name) <= std::max<size_t>(2, name.size() / 3))
    msg += "; did you mean '" + nearest->name + "'?";
  std::vector<std::string> some;
  for (size_t k2 = 0; k2 < s.model.frames.size() && k2 < 8; ++k2) some.push_back(s.model.frames[k2].name);
  msg += " Valid names include: " + joinNames(some);
  if (s.model.frames.size() > some.size())
    msg += ", ... (" + std::to_string(s.model.frames.size()) + " frames; 'dynscope-cli info' lists them all)";
  throw UsageError(msg);
}

namespace {

// An --fext or --wrench entry with its link found and its six values (force, moment) in place.
ExternalForce resolved(const Session& s, ExternalForce f, const std::vector<double>& v, const char* option) {
  f.frame = frameInput(s, f.link);
  f.body = s.model.frames[f.frame].body;
  f.bodyName = s.model.bodyNames[f.body];
  f.force = Eigen::Vector3d(v[0], v[1], v[2]);
  f.moment = Eigen::Vector3d(v[3], v[4], v[5]);
  if (f.body == 0)
    std::fprintf(stderr, "dynscope-cli: warning: %s on '%s' acts on the fixed base and changes nothing\n", option,
                 f.link.c_str());
  return f;
}

}  // namespace

std::vector<ExternalForce> externalForceInputs(const Session& s) {
  std::vector<ExternalForce> forces;
  for (const std::string& spec : s.options.fext) {
    const size_t colon = spec.rfind(':');  // the last colon: link names may contain colons, numbers do not
    if (colon == std::string::npos || colon == 0)
      throw UsageError("--fext '" + spec + "' is not LINK:fx,fy,fz,nx,ny,nz");
    ExternalForce f;
    f.link = spec.substr(0, colon);
    const std::vector<double> v = parseNumberList(spec.substr(colon + 1), "--fext " + f.link);
    if (v.size() != 6)
      throw UsageError("--fext " + f.link + " has " + std::to_string(v.size()) +
                       " values, it needs 6: fx,fy,fz,nx,ny,nz");
    forces.push_back(resolved(s, f, v, "--fext"));
  }
  for (const std::string& given : s.options.wrench) {
    // LINK:fx,fy,fz,mx,my,mz[@x,y,z]: the point after the last '@', the link before the last ':'.
    const size_t at = given.rfind('@');
    const std::string spec = at == std::string::npos ? given : given.substr(0, at);
    const size_t colon = spec.rfind(':');
    if (colon == std::string::npos || colon == 0)
      throw UsageError("--wrench '" + given + "' is not LINK:fx,fy,fz,mx,my,mz[@x,y,z]");
    ExternalForce f;
    f.world = true;
    f.link = spec.substr(0, colon);
    const std::vector<double> v = parseNumberList(spec.substr(colon + 1), "--wrench " + f.link);
    if (v.size() != 6)
      throw UsageError("--wrench " + f.link + " has " + std::to_string(v.size()) +
                       " values, it needs 6: fx,fy,fz,mx,my,mz (world axes), then optionally @x,y,z");
    if (at != std::string::npos) {
      const std::vector<double> p = parseNumberList(given.substr(at + 1), "--wrench " + f.link + " @point");
      if (p.size() != 3)
        throw UsageError("--wrench " + f.link + ": the point after '@' needs 3 values x,y,z (LINK coordinates)");
      f.point = Eigen::Vector3d(p[0], p[1], p[2]);
    }
    forces.push_back(resolved(s, f, v, "--wrench"));
  }
  if (s.project && s.project->wrench) {  // the project's steady wrench acts like a --wrench
    const dyn::LinkWrench& w = *s.project->wrench;
    ExternalForce f;
    f.world = true;
    f.link = w.link;
    f.point = w.point;
    forces.push_back(resolved(s, f, {w.force.x(), w.force.y(), w.force.z(), w.moment.x(), w.moment.y(), w.moment.z()},
                              "the project's wrench"));
  }
  return forces;
}

std::vector<dyn::ExternalWrench> wrenchesOf(const Session& s, const std::vector<ExternalForce>& forces) {
  std::vector<dyn::ExternalWrench> out;
  for (const ExternalForce& f : forces)
    if (f.world) out.push_back(dyn::wrenchOnFrame(s.model, f.frame, f.point, f.force, f.moment));
  return out;
}

std::vector<dyn::Force<double>> bodyForces(const Session& s, const std::vector<ExternalForce>& forces,
                                           const Eigen::VectorXd* q) {
  std::vector<dyn::Force<double>> perBody(s.model.N + 1, dyn::Force<double>::Zero());
  const std::vector<dyn::ExternalWrench> wrenches = wrenchesOf(s, forces);
  if (!wrenches.empty()) {  // world axes: turned into the bodies' frames at q
    if (!q)
      throw std::runtime_error(
          "--wrench is not available here yet (mimic joints: their coordinates are reduced); "
          "give the force in the link's coordinates with --fext");
    dyn::Data data(s.model);
    dyn::forwardKinematics(s.model, data, *q);
    dyn::bodyForces(s.model, data, wrenches, perBody);
  }
  for (const ExternalForce& f : forces) {
    if (f.world) continue;
    // placement = frame_X_body; its transpose carries a force from frame to body coordinates.
    const auto& placement = s.model.frames[f.frame].placement;
    perBody[f.body] += placement.applyTranspose(dyn::Force<double>(f.moment, f.force));
  }
  return perBody;
}

void writeHeader(const Session& s, JsonWriter& json) {
  json.field("command", commandName(s.options.command));
  json.field("model", s.model.name);
  json.field("file", s.modelPath);
  json.field("floating_base", s.model.floatingBase);
  json.arrayField("gravity", s.model.gravity.v);
  // Mimic joints: --q may list every joint or only the independent ones (docs/mimic.md); which it was.
  if (s.mimic && s.options.q && s.mimic->nqy != s.model.nq)
    json.field("q_given", int(s.options.q->size()) == s.mimic->nqy ? "independent" : "all joints");
}

void writeExternalForces(const std::vector<ExternalForce>& forces, JsonWriter& json) {
  if (forces.empty()) return;
  json.key("fext");
  json.beginArray();
  for (const ExternalForce& f : forces) {
    json.beginObject();
    json.field("link", f.link);
    json.field("body", f.bodyName);
    json.field("axes", f.world ? "world" : "link");
    json.arrayField("force", f.force);
    json.arrayField("moment", f.moment);
    if (f.world) json.arrayField("point", f.point);
    json.endObject();
  }
  json.endArray();
}

void requireRegularInertia(const dyn::Model& model) {
  if (const std::string refusal = dyn::forwardDynamicsRefusal(model); !refusal.empty())
    throw std::runtime_error(refusal);
}

void requireFinite(const dyn::Model& model, const Eigen::VectorXd& result, const std::string& what) {
  for (Eigen::Index k = 0; k < result.size(); ++k) {
    if (std::isfinite(result[k])) continue;
    const int body = k < Eigen::Index(model.dofBody.size()) ? model.dofBody[size_t(k)] : 0;
    throw std::runtime_error(what + " gave a non-finite result (" + dyn::formatCsvNumber(result[k]) + ") for joint '" +
                             model.jointNames[size_t(body)] + "' (link '" + model.bodyNames[size_t(body)] +
                             "'): the inputs or the model's numbers overflow, or H(q) is nearly singular here "
                             "(see cond(H) in dynscope-cli check)");
  }
}

}  // namespace cli
