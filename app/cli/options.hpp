// The command-line grammar of dynscope-cli: commands, their options, help texts, and the
// parsing of comma-separated number lists. Everything here is model-independent; checking
// vector sizes and link names against the model happens in session.cpp.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

// A mistake on the command line: exit status 2 (runtime and load errors exit with 1).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Command {
  Info,
  Check,
  Fk,
  Jacobian,
  Id,
  Mass,
  Bias,
  Fd,
  Energy,
  Trajectory,
  Simulate,
  Ik,
  Opcount,
  Trace,
  Assemble,
  Convert,
  Equations
};

const char* commandName(Command c);
std::optional<Command> commandByName(std::string_view name);

struct Options {
  Command command = Command::Info;
  std::string modelPath;
  std::optional<std::vector<double>> q, qd, qdd, tau, gravity;
  bool floatingBase = false;
  bool noMimic = false;  // --no-mimic: mimic joints are free (id, fd, mass on the full coordinates)
  std::optional<std::string> link;
  std::string frame = "local-world-aligned";  // jacobian: local | world | local-world-aligned
  // id | mass | fd: a formulation of the engine's registry (default rnea, crba, aba); simulate: aba | crba;
  // opcount: any formulation's name. Empty until parseArguments fills in the command's default.
  std::string algorithm;
  bool algorithmGiven = false;         // --algorithm was on the command line (not the command's default)
  std::optional<int> chain;            // opcount --chain N: the general N-link revolute chain instead of MODEL
  std::optional<std::string> problem;  // opcount --problem id|mass|fd
  std::vector<std::string> fext;       // as written: LINK:fx,fy,fz,nx,ny,nz
  std::vector<std::string> wrench;     // as written: LINK:fx,fy,fz,mx,my,mz[@px,py,pz] (world axes)
  std::optional<std::string> trajectory, out;
  bool progress = false;
  std::optional<std::string> project;  // --project P.json (then MODEL may be omitted)
  std::optional<std::string> demo;     // trajectory --demo NAME
  std::optional<double> rate;          // trajectory --rate HZ
  bool decompose = false;              // id --decompose
  // simulate (the engine's defaults where not given)
  std::optional<double> duration, dt, tolerance, limitStiffness, limitDamping, velocityBound;
  std::optional<double> ground, friction, contactTime;     // simulate: the ground plane's height, mu, time constant
  std::optional<double> contactStiffness, contactDamping;  // simulate: K, C per contact point (instead of the time)
  std::optional<int> recordEvery;
  std::string integrator = "euler", controller = "passive";
  std::optional<std::vector<double>> q0, qd0, kp, kd;
  std::optional<std::string> torques;  // --torques tau.csv (replay)
  bool compare = false;
  // ik (also --link, and --q0 as the start)
  std::optional<std::vector<double>> target;  // --target x,y,z[,qx,qy,qz,qw]
  std::vector<std::string> pins, locks;       // --pin LINK, --lock JOINT (repeatable)
  bool positionOnly = false;                  // --position-only
  // every command: fix-ups applied to the robot before anything else (dyn::fixupName; "all" is every one)
  std::vector<std::string> fixes;  // --fix NAME (repeatable), validated
  bool strict = false;             // check --strict: warnings make the exit status 1, as errors do
  // closed loops (docs/loops.md)
  std::optional<std::string> loopMethod;         // fd: 1 | 2 | 3 | global | global-26 | global-28; simulate: 1 | 2 | 3
  std::optional<std::vector<double>> baumgarte;  // --baumgarte alpha,beta (1/s)
  bool noProjection = false;                     // simulate --no-projection
  std::vector<std::string> holds;                // assemble --hold JOINT (repeatable)
  bool holdIndependent = false;                  // assemble --hold-independent
  // convert (docs/convert.md)
  std::optional<std::string> to;          // --to urdf | dh
  std::optional<std::string> convention;  // --convention standard | modified
  // equations (docs/symbolic.md)
  std::optional<std::string> parameters;  // --parameters numeric | symbolic (default: symbolic for a .dh)
  std::optional<std::string> format;      // --format text | latex | json (default: text)
};

// Parses argv. Prints --help / --version texts itself and returns nullopt then.
// Throws UsageError for anything malformed.
std::optional<Options> parseArguments(int argc, const char* const* argv);

// "a,b,c" -> numbers; every entry must be a finite number. `what` names the option in messages.
// An empty text is an empty list (a model without joints has nq = 0).
std::vector<double> parseNumberList(std::string_view text, std::string_view what);

std::string generalHelp();
std::string commandHelp(Command c);

}  // namespace cli
