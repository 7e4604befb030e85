// One run of a command: the loaded model and the command-line inputs checked against it
// (vector sizes, link names, external forces), plus the JSON header every result starts with.
#pragma once
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "dynscope/algorithms/external_wrench.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/model/mimic_coupling.hpp"
#include "json_writer.hpp"
#include "options.hpp"
#include "project/project_file.hpp"

namespace cli {

// A parsed list of numbers as an Eigen vector.
inline Eigen::VectorXd toVector(const std::vector<double>& xs) {
  return Eigen::Map<const Eigen::VectorXd>(xs.data(), Eigen::Index(xs.size()));
}

struct Session {
  Options options;
  dyn::Model model;
  std::vector<std::string> qNames, vNames;  // names of the q and v entries (dynscope/model/names.hpp)
  std::optional<dyn::ProjectFile> project;  // --project
  std::string modelPath;                    // MODEL, or the project's robot when MODEL is omitted
  std::vector<dyn::Fixup> fixups;           // applied: the project's, then --fix
  // Mimic joints enforced (docs/mimic.md): set when the model has mimic relations, no closed loops and
  // no --no-mimic; id, fd and mass then take and print the independent coordinates.
  std::optional<dyn::MimicCoupling> mimic;
  std::vector<std::string> yqNames, yvNames;  // names of the independent q and v entries
};

// Reads --project (ProjectError on failure); loads MODEL, or the project's robot, (LoadError on
// failure) with --floating-base or the project's flag and the fix-ups (the project's, then --fix);
// applies the project's gravity and payload, then --gravity. Prints the model's warnings and errors
// and the fix-ups' changes on stderr, except for check, which prints them all as JSON.
Session openSession(const Options& options);

// --q checked against nq (default: model.home(), the neutral configuration or a closed loop's
// assembled reference); quaternions must be non-zero.
Eigen::VectorXd configurationInput(const Session& s, const std::optional<std::vector<double>>& given,
                                   const char* option = "--q");
// The first joint whose quaternion in q is zero (no rotation at all), or 0 when all are usable.
int jointWithZeroQuaternion(const dyn::Model& model, const Eigen::VectorXd& q);
// An nv-sized input (--qd, --qdd, --tau), zero when not given.
Eigen::VectorXd velocityInput(const Session& s, const std::optional<std::vector<double>>& given, const char* option);

// Forward dynamics needs a regular H(q): throws naming the first joint that moves no mass. (A pivot
// that is not positive at the configuration is refused by the algorithms themselves, naming the joint.)
void requireRegularInertia(const dyn::Model& model);
// Throws, naming the joint of the first entry, when a result per dof (qdd) has NaN or inf: the inputs
// or the model's numbers overflow, or H(q) is nearly singular there.
void requireFinite(const dyn::Model& model, const Eigen::VectorXd& result, const std::string& what);

// A file's whole text (a DH table read again for convert or equations); "PATH: cannot open the file".
std::string readTextFile(const std::string& path);

// Index of a model frame by name; UsageError listing valid names (and the nearest one) otherwise.
int frameInput(const Session& s, const std::string& name);

// One --fext or --wrench, resolved.
struct ExternalForce {
  std::string link;
  int frame = 0, body = 0;
  std::string bodyName;
  Eigen::Vector3d force, moment;  // as given: --fext in the frame's coordinates at its origin; --wrench world axes
  bool world = false;             // --wrench
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  // --wrench: where the force acts, in the frame's coordinates
};
std::vector<ExternalForce> externalForceInputs(const Session& s);
// Per body 0..N in link coordinates (the form rnea/aba take): sum of X^T f over the --fext entries,
// and the --wrench entries at the configuration q (dyn::bodyForces; q is needed when there are any).
std::vector<dyn::Force<double>> bodyForces(const Session& s, const std::vector<ExternalForce>& forces,
                                           const Eigen::VectorXd* q = nullptr);
// The --wrench entries as the engine's wrenches (the point in body coordinates).
std::vector<dyn::ExternalWrench> wrenchesOf(const Session& s, const std::vector<ExternalForce>& forces);

// "command", "model", "file", "floating_base", "gravity": the start of every result object.
void writeHeader(const Session& s, JsonWriter& json);
void writeExternalForces(const std::vector<ExternalForce>& forces, JsonWriter& json);

// Writes a result to --out, atomically (the old file stays on an error), or to stdout when `out` is
// empty; throws naming the file on a write error.
void writeOutput(const std::optional<std::string>& out, const std::function<void(std::ostream&)>& write);

// "a, b, c" for messages.
std::string joinNames(const std::vector<std::string>& names);

}  // namespace cli
