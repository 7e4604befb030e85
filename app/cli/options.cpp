#include "options.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "dynscope/formulations/registry.hpp"
#include "dynscope/io/fixups.hpp"
#include "dynscope/trace/algorithm_trace.hpp"

namespace cli {
namespace {

constexpr const char* kVersion = DYNSCOPE_VERSION;  // project(VERSION) in CMakeLists.txt

struct OptionSpec {
  const char* name;
  const char* argument;  // nullptr for flags
  const char* help;
};

const OptionSpec kOptions[] = {
    {"--q", "a,b,...", "configuration, nq numbers in model order (default: neutral)"},
    {"--qd", "a,b,...", "joint velocities, nv numbers (default: zero)"},
    {"--qdd", "a,b,...", "joint accelerations, nv numbers (default: zero)"},
    {"--tau", "a,b,...", "joint forces/torques, nv numbers (default: zero)"},
    {"--gravity", "x,y,z", "gravity in world coordinates, m/s^2 (default: the model's)"},
    {"--floating-base", nullptr, "add a 6-DOF floating joint above the root link"},
    {"--no-mimic", nullptr,
     "treat mimic joints as free: id, fd, mass and bias on all joints' coordinates (default: the independent ones)"},
    {"--link", "NAME", "a model frame: any URDF link, or a DH frame such as frame3 or tool"},
    {"--frame", "REF", "local | world | local-world-aligned (default: local-world-aligned)"},
    {"--algorithm", "NAME",
     "the formulation (listed above; simulate: aba | crba; trace: rnea | crba | aba | crba-ltl | denoc-id | ...; "
     "default: rnea, crba, aba)"},
    {"--chain", "N", "opcount: the general N-link revolute chain (1 <= N <= 64) instead of MODEL"},
    {"--problem", "id|mass|fd", "opcount: only this problem (a name such as denoc has all three)"},
    {"--fext", "LINK:fx,fy,fz,nx,ny,nz", "force and moment on LINK, in LINK coordinates at its origin (repeatable)"},
    {"--wrench", "LINK:fx,fy,fz,mx,my,mz[@x,y,z]",
     "force and moment on LINK in world axes, the force acting at the point x,y,z of LINK (LINK coordinates; "
     "default its origin) (repeatable)"},
    {"--trajectory", "IN.csv", "evaluate every row of a CSV trajectory (see above)"},
    {"--project", "P.json", "a Dynscope project: robot (if MODEL is omitted), payload, gravity, trajectory"},
    {"--decompose", nullptr, "also write the inertial M(q)qdd, Coriolis/centrifugal c(q,qd) and gravity g(q) terms"},
    {"--demo", "NAME", "saha-stanford | saha-planar3: Saha's cycloidal joint trajectories (T = 10 s)"},
    {"--rate", "HZ", "samples per second (default: the project's sample rate; 100 for a demo)"},
    {"--duration", "T", "simulated time in seconds"},
    {"--dt", "H", "time step in seconds (default 0.001; rk45: the output interval and largest step)"},
    {"--integrator", "NAME", "euler (symplectic) | rk4 | rk45 (adaptive Dormand-Prince) (default: euler)"},
    {"--controller", "NAME", "passive | gravity | constant | pd | computed-torque | replay (default: passive)"},
    {"--q0", "a,b,...", "initial configuration, nq numbers (default: neutral)"},
    {"--qd0", "a,b,...", "initial velocities, nv numbers (default: zero)"},
    {"--torques", "IN.csv", "replay: a CSV with t and tau_<v name> columns (linear between rows, held outside)"},
    {"--kp", "a[,b,...]", "pd / computed-torque: stiffness gain, one value or nv values"},
    {"--kd", "a[,b,...]", "pd / computed-torque: damping gain, one value or nv values"},
    {"--tolerance", "EPS", "rk45: error tolerance per step (default 1e-8)"},
    {"--compare", nullptr, "also run the other forward-dynamics algorithm; adds a fd_difference column"},
    {"--limit-stiffness", "K", "joint-limit spring, N m/rad or N/m (default 1e4)"},
    {"--limit-damping", "C", "joint-limit damper, N m s/rad or N s/m (default 100)"},
    {"--velocity-bound", "V", "stop as diverged when a joint velocity exceeds V (default 1000)"},
    {"--ground", "H", "simulate: a ground plane z = H (m) the robot's collision geometry touches"},
    {"--friction", "MU", "simulate --ground: Coulomb friction coefficient (default 0.8)"},
    {"--contact-time", "T", "simulate --ground: contact time constant in s, MuJoCo's solref (default 0.01)"},
    {"--contact-stiffness", "K",
     "simulate --ground: N/m per shape (its points in contact share it), instead of the time constant's rule"},
    {"--contact-damping", "C", "simulate --ground --contact-stiffness: N s/m per shape (default 0)"},
    {"--record-every", "K", "write every K-th step (default 1)"},
    {"--out", "OUT", "write the result here: a trajectory's CSV, trace's JSON, the equations (default: stdout)"},
    {"--progress", nullptr,
     "trajectory progress on stderr (automatic above 2000 rows on a terminal); equations: each step and its time"},
    {"--target", "x,y,z[,qx,qy,qz,qw]",
     "ik: target position (m) and optional orientation quaternion of --link, in world"},
    {"--pin", "LINK", "ik: hold LINK at its pose in the start configuration (repeatable)"},
    {"--lock", "JOINT", "ik: JOINT does not move (repeatable)"},
    {"--position-only", nullptr, "ik: reach the position only; the orientation is free"},
    {"--fix", "NAME",
     "apply a fix-up first: balance-inertias | unlimited-degenerate-limits | mass-massless-links | all "
     "(repeatable; docs/model-check.md)"},
    {"--strict", nullptr, "check: exit with status 1 on warnings too (by default only errors do)"},
    {"--loop-method", "M",
     "closed loops: 1 (augmented, eq. 20) | 2 (lambda first, eq. 21) | 3 (null space, eq. 22); fd also\n"
     "                              global (eq. 27) | global-26 | global-28 (the 6N form, review 3.5) (default: 2)"},
    {"--baumgarte", "alpha,beta",
     "closed loops: Baumgarte gains in 1/s, phi'' + 2 alpha phi' + beta^2 phi = 0 (fd default 0,0; simulate 20,20)"},
    {"--no-projection", nullptr, "closed loops: do not project each new state back onto phi = 0, phi' qd = 0"},
    {"--hold", "JOINT", "assemble: JOINT keeps its value from --q (repeatable)"},
    {"--hold-independent", nullptr, "assemble: the independent coordinates keep their values from --q"},
    {"--to", "urdf|dh", "convert: the format to write"},
    {"--convention", "standard|modified", "convert --to dh: the DH convention (default: the table's own, or standard)"},
    {"--parameters", "numeric|symbolic",
     "equations: the link parameters as symbols (a standard-DH table) or the model's numbers (default: symbolic "
     "for a .dh, else numeric)"},
    {"--format", "text|latex|json|c|python|matlab",
     "equations: one entry a line, LaTeX (pmatrix, then each entry), JSON, or code computing M, c, g and tau\n"
     "                              (C, Python with only math, MATLAB) (default: text)"},
    {"--help", nullptr, "this help"},
};

// "a, b, c" of every formulation name (each once).
std::string allAlgorithmNames() {
  std::vector<std::string> names;
  for (const dyn::Formulation& f : dyn::formulations())
    if (std::find(names.begin(), names.end(), f.name) == names.end()) names.push_back(f.name);
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// "a, b or c"
std::string alternatives(const std::vector<std::string>& names) {
  std::string s;
  for (size_t k = 0; k < names.size(); ++k) s += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + names[k];
  return s;
}

// Fills in the command's default algorithm and refuses a name the command does not have.
void checkAlgorithm(Options& opts) {
  const auto problemOf = [](Command c) -> std::optional<dyn::Problem> {
    if (c == Command::Id) return dyn::Problem::InverseDynamics;
    if (c == Command::Mass) return dyn::Problem::MassMatrix;
    if (c == Command::Fd) return dyn::Problem::ForwardDynamics;
    return std::nullopt;
  };
  const std::string given = opts.algorithm;
  opts.algorithmGiven = !given.empty();
  if (opts.command == Command::Simulate) {
    if (given.empty()) opts.algorithm = "aba";
    if (opts.algorithm != "aba" && opts.algorithm != "crba")
      throw UsageError("--algorithm of simulate must be aba or crba, not '" + given + "'");
  } else if (const auto problem = problemOf(opts.command)) {
    if (given.empty()) opts.algorithm = dyn::formulationNames(*problem).front();
    if (!dyn::findFormulation(*problem, opts.algorithm))
      throw UsageError("unknown " + std::string(dyn::problemTitle(*problem)) + " algorithm '" + given +
                       "' (valid: " + alternatives(dyn::formulationNames(*problem)) + ")");
  } else if (opts.command == Command::Opcount) {
    if (given.empty()) throw UsageError("opcount needs --algorithm NAME (" + allAlgorithmNames() + ")");
    bool known = false, inProblem = false;
    for (const dyn::Formulation& f : dyn::formulations())
      if (f.name == given) {
        known = true;
        inProblem |= !opts.problem || f.problem == *dyn::problemByName(*opts.problem);
      }
    if (!known) throw UsageError("unknown algorithm '" + given + "' (valid: " + allAlgorithmNames() + ")");
    if (!inProblem)
      throw UsageError("'" + given + "' is not an algorithm for " +
                       dyn::problemTitle(*dyn::problemByName(*opts.problem)) +
                       " (valid: " + alternatives(dyn::formulationNames(*dyn::problemByName(*opts.problem))) + ")");
  }
}

// "  name  title (reference)" per formulation of a problem, for the help texts.
std::string algorithmHelp(dyn::Problem problem) {
  std::string s = "Algorithms (--algorithm NAME, default " + dyn::formulationNames(problem).front() + "):\n";
  size_t width = 0;  // the longest name sets the column: names are never cut
  for (const dyn::Formulation& f : dyn::formulations())
    if (f.problem == problem) width = std::max(width, f.name.size());
  for (const dyn::Formulation& f : dyn::formulations())
    if (f.problem == problem)
      s += "  " + f.name + std::string(width + 2 - f.name.size(), ' ') + f.title +
           (f.revolutePrismaticOnly ? " [revolute/prismatic joints]" : "") + "\n";
  return s;
}

struct CommandSpec {
  Command command;
  const char* name;
  const char* summary;
  std::vector<std::string_view> options;  // besides --help, --gravity and --floating-base
  const char* details;
};

const std::vector<CommandSpec>& commands() {
  static const std::vector<CommandSpec> specs = {
      {Command::Info,
       "info",
       "model summary: joints in q/v order, limits, frames, mimic relations, the model check's findings",
       {},
       "Prints nq, nv, the bodies' total mass, gravity, and every joint with its parent and child body,\n"
       "its slices of q and v (idx_q, nq, idx_v, nv and the entry names), limits (null when unlimited),\n"
       "damping and friction; then all frames and mimic relations, and the findings of the model check\n"
       "(counts and findings, as 'check' prints them). With mimic joints: \"coordinates\" (independent, or\n"
       "full with --no-mimic), the independent q and v entries that id, fd, mass and bias take; per follower\n"
       "its root master with q = multiplier q_root + offset (chains resolved; docs/mimic.md)."},
      {Command::Check,
       "check",
       "model check: every finding (inertias, masses, limits, mimic joints, meshes, cond(H)) as JSON",
       {"--strict", "--project"},
       "Loads the robot as every command does (a file that cannot be loaded prints one error finding with\n"
       "\"loaded\": false) and prints what the model checker finds: severity (error, warning, info), a stable\n"
       "code (e.g. inertia.triangle), file, line, element, link, joint, message and hint; the fix-ups applied\n"
       "(--fix, or the project's with --project) are listed as fixup.<name> findings. Exit status 0 when there\n"
       "are no errors (warnings are fine unless --strict), 1 otherwise. Details: docs/model-check.md."},
      {Command::Fk,
       "fk",
       "world pose of every frame (or of --link NAME) and the centre of mass",
       {"--q", "--link"},
       "Position, rotation matrix (row-major, vector-rotating), quaternion (x, y, z, w) and roll-pitch-yaw\n"
       "of each frame in world coordinates."},
      {Command::Jacobian,
       "jacobian",
       "6 x nv Jacobian of a frame",
       {"--q", "--link", "--frame"},
       "Rows [wx, wy, wz, vx, vy, vz]; columns in v order. --link defaults to the model's end effector.\n"
       "local-world-aligned: world axes, linear velocity of the frame origin; local: the frame's own\n"
       "coordinates; world: Pluecker coordinates of the world frame."},
      {Command::Id,
       "id",
       "inverse dynamics tau = ID(q, qd, qdd) (RNEA or another formulation)",
       {"--q", "--qd", "--qdd", "--algorithm", "--fext", "--wrench", "--trajectory", "--project", "--decompose",
        "--out", "--progress"},
       "--fext, --wrench and --decompose use rnea. With --wrench: tau = ID(q, qd, qdd) - J^T f, and\n"
       "external_tau = J^T f (the joint forces the wrenches exert; docs/external-forces.md).\n"
       "Trajectory mode (--trajectory or --project), CSV out: t,tau_<v name>,... (rnea: in parallel).\n"
       "--trajectory IN.csv: a header row naming the columns: t (strictly increasing), every q entry by\n"
       "name (see 'info'), optionally qd_<v name> and qdd_<v name>; missing velocities/accelerations are\n"
       "the derivatives of the C2 cubic spline through the samples (not-a-knot ends).\n"
       "--project P.json: the robot (MODEL may be omitted), payload and gravity of the project, and its\n"
       "trajectory (waypoints interpolated and sampled at its rate, its CSV file, or its demo).\n"
       "--decompose adds inertial_<v name> (M(q) qdd), coriolis_<v name> (c(q, qd) = RNEA(q, qd, 0) - g)\n"
       "and gravity_<v name> (g(q) = RNEA(q, 0, 0)) columns; the three sum to tau."},
      {Command::Mass,
       "mass",
       "joint-space inertia matrix H(q) and its structural sparsity",
       {"--q", "--algorithm"},
       "Also the branch-induced sparsity pattern (entry i,j can be non-zero only when one dof's body is\n"
       "an ancestor of the other's) and the count of structural non-zeros."},
      {Command::Bias,
       "bias",
       "bias forces C(q, qd) (Coriolis, centrifugal, gravity) and gravity g(q)",
       {"--q", "--qd"},
       "C(q, qd) = ID(q, qd, 0) includes gravity; g(q) = ID(q, 0, 0)."},
      {Command::Fd,
       "fd",
       "forward dynamics qdd = FD(q, qd, tau)",
       {"--q", "--qd", "--tau", "--algorithm", "--loop-method", "--baumgarte", "--fext", "--wrench", "--trajectory",
        "--out", "--progress"},
       "--fext and --wrench work with aba and crba: H qdd + C = tau + J^T f.\n"
       "Closed loops (q and qd over the tree joints): --loop-method 1, 2 (default) or 3 of the review's 3.4,\n"
       "or the global 6N form (global = eq. 27, global-26, global-28); prints qdd, the constraint forces\n"
       "lambda of the independent rows of phi' (eq. 18) and |phi|, |phi' qd| at the state.\n"
       "Trajectory mode: CSV with t, every q entry by name, tau_<v name> columns and optionally\n"
       "qd_<v name> (else the derivative of the C2 cubic spline through q). Output: t,qdd_<v name>,..."},
      {Command::Energy,
       "energy",
       "kinetic and potential energy, centre of mass, total mass",
       {"--q", "--qd"},
       "Potential energy is -sum m_i g.c_i (zero at the world origin)."},
      {Command::Trajectory,
       "trajectory",
       "sample a trajectory (a project's or a demo) to CSV: t, q, qd_, qdd_",
       {"--project", "--demo", "--rate", "--out"},
       "Exactly one source: --project P.json (its waypoints interpolated as the project says, sampled at\n"
       "--rate or the project's rate; MODEL may be omitted) or --demo saha-stanford|saha-planar3 (Saha\n"
       "1999 eq. 39 cycloids over T = 10 s, analytic derivatives; needs the matching arm, e.g.\n"
       "robots/stanford_arm.dh or robots/planar3.dh). The output reads back with id --trajectory."},
      {Command::Simulate,
       "simulate",
       "forward-dynamics simulation from (q0, qd0) to CSV: t, q, qd_, qdd_, tau_, energy",
       {"--duration",     "--dt",           "--integrator",        "--controller",     "--q0",
        "--qd0",          "--tau",          "--trajectory",        "--torques",        "--kp",
        "--kd",           "--algorithm",    "--loop-method",       "--baumgarte",      "--no-projection",
        "--compare",      "--tolerance",    "--limit-stiffness",   "--limit-damping",  "--velocity-bound",
        "--record-every", "--out",          "--progress",          "--wrench",         "--ground",
        "--friction",     "--contact-time", "--contact-stiffness", "--contact-damping"},
       "Integrates qdd = FD(q, qd, tau) with tau = controller + joint damping (-b qd) + joint springs (MJCF\n"
       "stiffness: -k (q - springref)) + smoothed Coulomb friction (-f tanh(qd / 0.01)) + joint-limit\n"
       "spring-dampers (+ J^T f of each --wrench, held in world axes while the robot moves) (+ J^T f of\n"
       "the ground's contact forces with --ground H: soft contact at\n"
       "the collision geometry's points, Coulomb friction --friction, time constant --contact-time or\n"
       "--contact-stiffness K with --contact-damping C per shape; adds\n"
       "contact_normal, contact_friction and penetration columns). Controllers: passive (tau = 0), gravity\n"
       "(g(q)), constant (--tau), pd (Kp e + Kd e' along --trajectory IN.csv, the id --trajectory format),\n"
       "computed-torque (RNEA(q, qd, qdd_ref + Kp e + Kd e'), gains in 1/s^2 and 1/s), replay (--torques).\n"
       "tau_ columns are the applied total; energy is kinetic + potential, energy_drift (E - E0) / |E0|.\n"
       "Joint-limit hits are noted on stderr. A diverging run (NaN/inf, a velocity above the bound) writes\n"
       "the CSV up to the last good state and exits with status 1. Details: docs/simulation.md.\n"
       "Closed loops (docs/loops.md): --loop-method 1|2|3 (default 2), Baumgarte stabilization (--baumgarte,\n"
       "default 20,20) and projection onto the constraints after each step (unless --no-projection); q0 is\n"
       "assembled first (default: the assembled reference); phi_norm and phi_dot_norm columns are added and\n"
       "the controller drives the actuated joints only (gravity and computed-torque by closed-loop ID)."},
      {Command::Trace,
       "trace",
       "step through an algorithm (RNEA, CRBA, ABA, DeNOC, the Lagrangian family...): every step's equation, "
       "values and operation count",
       {"--algorithm", "--q", "--qd", "--qdd", "--tau", "--out"},
       "One entry per elementary step, as the workbench's lecture mode shows them: RNEA 2 per body\n"
       "(outward, inward), ABA 3 per body (three passes), CRBA one per composite-inertia step and one per\n"
       "column walk, CRBA + L^T L (forward dynamics) those of RNEA (C = ID(q, qd, 0)) and CRBA, then tau - C\n"
       "and one per dof for the factorisation and each triangular solve. Each step names its body and pass,\n"
       "its equations (Featherstone Part 2 / the Orin-Featherstone review, with their numbers), the\n"
       "quantities it wrote (link coordinates; ABA in world coordinates) and the operation count so far,\n"
       "measured on the counting scalar (joint transforms apart). Inputs: rnea --q --qd --qdd; aba and\n"
       "crba-ltl --q --qd --tau; crba --q. The result is under the plain command's key (tau, qdd,\n"
       "mass_matrix; CRBA's also under M) and equals it bit for bit; null marks an entry of H or L not\n"
       "computed yet. A singular H(q) is refused naming the joint, as fd does; a non-finite result\n"
       "(inputs that overflow) is printed as null with a warning.\n"
       "The engine's other formulations step too (revolute and prismatic joints, except\n"
       "configuration-space): denoc-id, newton-euler-3, lagrange-4x4, lagrange-3x3 2 per body (the two\n"
       "recursions), waters 2 per body (its recurrences, its sum), uicker-kahn 5 per body (its five loops),\n"
       "configuration-space the tables, the products q'q' and one per row; denoc-gim as CRBA; denoc-fd\n"
       "DeNOC's inverse dynamics for phi, phi, then 3 per body (steps 1-3 of Saha's section 5.2).\n"
       "Details: docs/lecture-mode.md."},
      {Command::Ik,
       "ik",
       "inverse kinematics: a configuration putting --link at --target",
       {"--link", "--target", "--q0", "--pin", "--lock", "--position-only"},
       "Damped least squares (Levenberg-Marquardt) from --q0 (the start; default neutral) with the joint\n"
       "limits always respected, pins (links held where they are at the start), locked joints, and up to\n"
       "20 random restarts when an attempt ends at a local minimum. --link defaults to the end effector.\n"
       "With only x,y,z the target is position-only. Prints q, the residual (position m, rotation rad),\n"
       "iterations, converged, reachable (false: out of reach, q is the closest configuration found) and\n"
       "the dofs resting at a limit. Exit status 0 also when the target is not reached (see converged).\n"
       "Details: docs/ik.md."},
      {Command::Convert,
       "convert",
       "write MODEL (URDF, DH table or MJCF) as a URDF or as a DH table (--to urdf|dh --out FILE)",
       {"--to", "--convention", "--out"},
       "--to urdf: the model as a URDF that loads back to the same model (links, inertials, visuals, joints,\n"
       "limits, damping, mimic, closed loops; a DH table's frames as fixed links). From a URDF, every element\n"
       "Dynscope does not model (gazebo, transmission, unknown children) is kept as it was.\n"
       "--to dh: a serial chain of revolute and prismatic joints (fixed joints merged) as a DH table in\n"
       "--convention standard (default) or modified, by the classic construction (common normals between\n"
       "successive axes; parallel and intersecting axes handled as docs/convert.md says), with q unchanged;\n"
       "a DH table is converted between conventions with the same motion and dynamics. A model that is not\n"
       "such a chain is refused (exit status 1) naming the joint that breaks it. Approximations and what\n"
       "the target cannot hold are noted on stderr. --out FILE is written atomically (default: stdout);\n"
       "--gravity and --fix apply to the written model. Details: docs/convert.md."},
      {Command::Equations,
       "equations",
       "the equations of motion in closed form: M(q), C(q, qd) qd, g(q) and tau (computer algebra)",
       {"--parameters", "--format", "--out", "--q", "--qd", "--qdd", "--progress"},
       "tau = M(q) qdd + C(q, qd) qd + g(q) with every entry an expression in q1.., qd1.., qdd1.. and the\n"
       "parameters: CRBA and RNEA run on GiNaC's expressions, each entry simplified into sines and cosines\n"
       "of sums of angles and grouped by mass (docs/symbolic.md). --parameters symbolic (default for a .dh):\n"
       "a standard-DH table (no base, tool or loops) with l_i (a), d_i, m_i, c_ix.. (centre of mass in DH\n"
       "frame i), I_ixx.. (about it) and g as symbols; numeric: any tree of revolute and prismatic joints\n"
       "with the model's numbers as exact decimals. --format text: M11 = ..., c1 = ..., g1 = ..., tau1 = ...\n"
       "(M's upper triangle), the Christoffel symbols of the first kind Gamma1_23 = ... (non-zero, j <= k)\n"
       "and the symbols with their meanings and values; latex: the matrices (pmatrix), each entry on its\n"
       "own line, the symbols; json: text_M, text_c, text_g, text_tau, the same as latex_*, christoffel,\n"
       "symbols and cost. With --q, --qd or --qdd also the entries' values there (default: neutral, zero).\n"
       "--format c|python|matlab: code computing M(q), c(q, qd) = C(q, qd) qd, g(q) and tau(q, qd, qdd)\n"
       "after common-subexpression elimination, the parameters as named constants with the model's values\n"
       "(C: one .c text with dynscope_M, dynscope_c, dynscope_g, dynscope_tau and math.h only; Python: one\n"
       "module with M, c, g, tau and a dict `parameters`, needing only math; MATLAB: dynscope_equations.m,\n"
       "eq = dynscope_equations(); eq.tau(q, qd, qdd)). Every format states the cost of the tau code\n"
       "(multiplications, additions, sines/cosines, as Hollerbach 1980 counts).\n"
       "Needs a build with GiNaC (apt-get install libginac-dev, then rebuild); without it the command\n"
       "exits with status 1 saying so."},
      {Command::Opcount,
       "opcount",
       "operation count of one call of a formulation, next to the seed paper's count",
       {"--algorithm", "--chain", "--problem"},
       "Runs the formulation once on an operation-counting scalar, on MODEL (nv = n) or on --chain N, the\n"
       "general N-link revolute chain that Hollerbach's and Saha's tables count (every DH parameter and\n"
       "inertia non-zero). Prints, per problem the name has (or only --problem): muls (multiplications\n"
       "and divisions) and adds (additions and subtractions) of the formulation itself, functions (sin,\n"
       "cos, sqrt, ... by kind), the joint transforms (jcalc: rotations from q, their sines and cosines)\n"
       "apart, the tabulation (the configuration-space method's tables G, J, C, computed off-line; the\n"
       "papers count only the evaluation; 0 for the others), the total of the three, and each seed\n"
       "paper's formula, its value at this n, its tabulated values and what the paper leaves out. The\n"
       "state is a fixed random one (the count does not depend on it)."},
      {Command::Assemble,
       "assemble",
       "closed loops: the assembled configuration nearest to --q (phi(q) = 0)",
       {"--q", "--hold", "--hold-independent"},
       "Gauss-Newton on the joint manifolds with minimum-norm steps from the rank-revealing QR of phi'\n"
       "(docs/loops.md), moving every coordinate except those held (--hold JOINT, or --hold-independent:\n"
       "the model's independent coordinates, as when a slider moves). Prints q, the largest |phi| left,\n"
       "the iterations and each loop joint's error. A mechanism that cannot close (e.g. a four-bar driven\n"
       "past its Grashof limit) is an error naming the loop joint, the gap and the misalignment left."},
  };
  return specs;
}

const CommandSpec* findCommand(std::string_view name) {
  for (const auto& c : commands())
    if (name == c.name) return &c;
  return nullptr;
}

const CommandSpec& specOf(Command c) {
  for (const auto& s : commands())
    if (s.command == c) return s;
  throw std::logic_error("command without a spec");
}

const OptionSpec* findOption(std::string_view name) {
  for (const auto& o : kOptions)
    if (name == o.name) return &o;
  return nullptr;
}

bool commandAccepts(const CommandSpec& c, std::string_view option) {
  if (option == "--help" || option == "--gravity" || option == "--floating-base" || option == "--fix" ||
      option == "--no-mimic")
    return true;
  return std::find(c.options.begin(), c.options.end(), option) != c.options.end();
}

std::string optionLine(const OptionSpec& o) {
  std::string head = std::string("  ") + o.name + (o.argument ? std::string(" ") + o.argument : "");
  if (head.size() < 30)
    head.resize(30, ' ');
  else
    head += "\n" + std::string(30, ' ');
  return head + o.help + "\n";
}

void setOnce(std::optional<std::vector<double>>& slot, std::string_view option, std::string_view value) {
  if (slot) throw UsageError(std::string(option) + " is given twice");
  slot = parseNumberList(value, option);
}

void setOnce(std::optional<std::string>& slot, std::string_view option, std::string_view value) {
  if (slot) throw UsageError(std::string(option) + " is given twice");
  if (value.empty()) throw UsageError(std::string(option) + " needs a non-empty value");
  slot = std::string(value);
}

// Stores one option with its value (nullptr for flags) into opts.
void applyOption(Options& opts, std::string_view name, const char* value) {
  const std::string_view v = value ? value : "";
  if (name == "--q")
    setOnce(opts.q, name, v);
  else if (name == "--qd")
    setOnce(opts.qd, name, v);
  else if (name == "--qdd")
    setOnce(opts.qdd, name, v);
  else if (name == "--tau")
    setOnce(opts.tau, name, v);
  else if (name == "--gravity") {
    setOnce(opts.gravity, name, v);
    if (opts.gravity->size() != 3)
      throw UsageError("--gravity needs 3 values x,y,z, got " + std::to_string(opts.gravity->size()));
  } else if (name == "--floating-base")
    opts.floatingBase = true;
  else if (name == "--no-mimic")
    opts.noMimic = true;
  else if (name == "--link")
    setOnce(opts.link, name, v);
  else if (name == "--frame") {
    if (v != "local" && v != "world" && v != "local-world-aligned")
      throw UsageError("--frame must be local, world or local-world-aligned, not '" + std::string(v) + "'");
    opts.frame = v;
  } else if (name == "--algorithm") {  // checked against the command in checkAlgorithm()
    if (!opts.algorithm.empty()) throw UsageError("--algorithm is given twice");
    if (v.empty()) throw UsageError("--algorithm needs a name");
    opts.algorithm = v;
  } else if (name == "--chain") {
    const std::vector<double> x = parseNumberList(v, name);
    if (x.size() != 1 || x[0] != std::floor(x[0]) || x[0] < 1 || x[0] > 64)
      throw UsageError("--chain needs one whole number of links from 1 to 64, not '" + std::string(v) + "'");
    opts.chain = int(x[0]);
  } else if (name == "--problem") {
    if (!dyn::problemByName(v)) throw UsageError("--problem must be id, mass or fd, not '" + std::string(v) + "'");
    setOnce(opts.problem, name, v);
  } else if (name == "--fext")
    opts.fext.emplace_back(v);
  else if (name == "--wrench")
    opts.wrench.emplace_back(v);
  else if (name == "--trajectory")
    setOnce(opts.trajectory, name, v);
  else if (name == "--out")
    setOnce(opts.out, name, v);
  else if (name == "--progress")
    opts.progress = true;
  else if (name == "--project")
    setOnce(opts.project, name, v);
  else if (name == "--decompose")
    opts.decompose = true;
  else if (name == "--demo") {
    if (v != "saha-stanford" && v != "saha-planar3")
      throw UsageError("--demo must be saha-stanford or saha-planar3, not '" + std::string(v) + "'");
    setOnce(opts.demo, name, v);
  } else if (name == "--ground" || name == "--friction" || name == "--contact-time" || name == "--contact-stiffness" ||
             name == "--contact-damping") {
    std::optional<double>& slot = name == "--ground"              ? opts.ground
                                  : name == "--friction"          ? opts.friction
                                  : name == "--contact-time"      ? opts.contactTime
                                  : name == "--contact-stiffness" ? opts.contactStiffness
                                                                  : opts.contactDamping;
    if (slot) throw UsageError(std::string(name) + " is given twice");
    const std::vector<double> x = parseNumberList(v, name);
    const bool anySign = name == "--ground", zeroOk = name == "--friction" || name == "--contact-damping";
    if (x.size() != 1 || (!anySign && (x[0] < 0 || (x[0] == 0 && !zeroOk))))
      throw UsageError(std::string(name) + " needs one " +
                       (anySign  ? "number"
                        : zeroOk ? "non-negative number"
                                 : "positive number"));
    slot = x[0];
  } else if (name == "--duration" || name == "--dt" || name == "--tolerance" || name == "--limit-stiffness" ||
             name == "--limit-damping" || name == "--velocity-bound") {
    std::optional<double>& slot = name == "--duration"          ? opts.duration
                                  : name == "--dt"              ? opts.dt
                                  : name == "--tolerance"       ? opts.tolerance
                                  : name == "--limit-stiffness" ? opts.limitStiffness
                                  : name == "--limit-damping"   ? opts.limitDamping
                                                                : opts.velocityBound;
    if (slot) throw UsageError(std::string(name) + " is given twice");
    const std::vector<double> x = parseNumberList(v, name);
    const bool zeroOk = name == "--limit-stiffness" || name == "--limit-damping" || name == "--duration";
    if (x.size() != 1 || x[0] < 0 || (x[0] == 0 && !zeroOk))
      throw UsageError(std::string(name) + " needs one " + (zeroOk ? "non-negative" : "positive") + " number");
    slot = x[0];
  } else if (name == "--record-every") {
    const std::vector<double> x = parseNumberList(v, name);
    if (x.size() != 1 || x[0] < 1 || x[0] != std::floor(x[0]) || x[0] > 1e9)
      throw UsageError("--record-every needs one whole number >= 1");
    opts.recordEvery = int(x[0]);
  } else if (name == "--integrator") {
    if (v != "euler" && v != "rk4" && v != "rk45")
      throw UsageError("--integrator must be euler, rk4 or rk45, not '" + std::string(v) + "'");
    opts.integrator = v;
  } else if (name == "--controller") {
    if (v != "passive" && v != "gravity" && v != "constant" && v != "pd" && v != "computed-torque" && v != "replay")
      throw UsageError("--controller must be passive, gravity, constant, pd, computed-torque or replay, not '" +
                       std::string(v) + "'");
    opts.controller = v;
  } else if (name == "--q0")
    setOnce(opts.q0, name, v);
  else if (name == "--target") {
    setOnce(opts.target, name, v);
    if (opts.target->size() != 3 && opts.target->size() != 7)
      throw UsageError("--target needs 3 values x,y,z or 7 values x,y,z,qx,qy,qz,qw, got " +
                       std::to_string(opts.target->size()));
  } else if (name == "--pin")
    opts.pins.emplace_back(v);
  else if (name == "--lock")
    opts.locks.emplace_back(v);
  else if (name == "--position-only")
    opts.positionOnly = true;
  else if (name == "--fix") {
    if (v != "all" && !dyn::fixupByName(v)) {
      std::string names;
      for (dyn::Fixup f : dyn::kAllFixups) names += std::string(dyn::fixupName(f)) + ", ";
      throw UsageError("--fix: unknown fix-up '" + std::string(v) + "' (" + names + "or all)");
    }
    if (std::find(opts.fixes.begin(), opts.fixes.end(), v) != opts.fixes.end())
      throw UsageError("--fix " + std::string(v) + " is given twice");
    opts.fixes.emplace_back(v);
  } else if (name == "--strict")
    opts.strict = true;
  else if (name == "--loop-method") {
    if (v != "1" && v != "2" && v != "3" && v != "global" && v != "global-26" && v != "global-28")
      throw UsageError("--loop-method must be 1, 2, 3, global, global-26 or global-28, not '" + std::string(v) + "'");
    setOnce(opts.loopMethod, name, v);
  } else if (name == "--baumgarte") {
    setOnce(opts.baumgarte, name, v);
    if (opts.baumgarte->size() != 2 || (*opts.baumgarte)[0] < 0 || (*opts.baumgarte)[1] < 0)
      throw UsageError("--baumgarte needs two numbers >= 0: alpha,beta (1/s)");
  } else if (name == "--to") {
    if (v != "urdf" && v != "dh") throw UsageError("--to must be urdf or dh, not '" + std::string(v) + "'");
    setOnce(opts.to, name, v);
  } else if (name == "--convention") {
    if (v != "standard" && v != "modified")
      throw UsageError("--convention must be standard or modified, not '" + std::string(v) + "'");
    setOnce(opts.convention, name, v);
  } else if (name == "--parameters") {
    if (v != "numeric" && v != "symbolic")
      throw UsageError("--parameters must be numeric or symbolic, not '" + std::string(v) + "'");
    setOnce(opts.parameters, name, v);
  } else if (name == "--format") {
    if (v != "text" && v != "latex" && v != "json" && v != "c" && v != "python" && v != "matlab")
      throw UsageError("--format must be text, latex, json, c, python or matlab, not '" + std::string(v) + "'");
    setOnce(opts.format, name, v);
  } else if (name == "--no-projection")
    opts.noProjection = true;
  else if (name == "--hold")
    opts.holds.emplace_back(v);
  else if (name == "--hold-independent")
    opts.holdIndependent = true;
  else if (name == "--qd0")
    setOnce(opts.qd0, name, v);
  else if (name == "--kp")
    setOnce(opts.kp, name, v);
  else if (name == "--kd")
    setOnce(opts.kd, name, v);
  else if (name == "--torques")
    setOnce(opts.torques, name, v);
  else if (name == "--compare")
    opts.compare = true;
  else if (name == "--rate") {
    if (opts.rate) throw UsageError("--rate is given twice");
    const std::vector<double> hz = parseNumberList(v, name);
    if (hz.size() != 1 || !(hz[0] > 0)) throw UsageError("--rate needs one positive number of samples per second");
    opts.rate = hz[0];
  }
}

std::string commandList() {
  std::string s;
  for (const auto& c : commands()) s += (s.empty() ? "" : ", ") + std::string(c.name);
  return s;
}

}  // namespace

const char* commandName(Command c) { return specOf(c).name; }

std::optional<Command> commandByName(std::string_view name) {
  const CommandSpec* c = findCommand(name);
  return c ? std::optional(c->command) : std::nullopt;
}

std::vector<double> parseNumberList(std::string_view text, std::string_view what) {
  std::vector<double> values;
  if (text.find_first_not_of(" \t") == std::string_view::npos) return values;
  size_t start = 0;
  for (int entry = 1;; ++entry) {
    const size_t comma = text.find(',', start);
    std::string item(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    const std::string where = std::string(what) + ": value " + std::to_string(entry);
    if (item.empty()) throw UsageError(where + " is empty (values are separated by single commas)");
    char* end = nullptr;
    errno = 0;
    const double x = std::strtod(item.c_str(), &end);
    if (end != item.c_str() + item.size()) throw UsageError(where + " '" + item + "' is not a number");
    if (!std::isfinite(x)) throw UsageError(where + " '" + item + "' is not a finite number");
    values.push_back(x);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return values;
}

std::string generalHelp() {
  std::string s =
      "Usage: dynscope-cli COMMAND MODEL [options]\n"
      "       dynscope-cli id|trajectory [MODEL] --project P.json [options]\n"
      "       dynscope-cli COMMAND --help\n"
      "       dynscope-cli --help | --version\n\n"
      "Rigid-body dynamics of a robot, headless. MODEL is a URDF file (.urdf, .xml), a MuJoCo MJCF file (.xml) or a DH "
      "table (.dh).\n"
      "Results are JSON on stdout (trajectories: CSV); errors go to stderr.\n\nCommands:\n";
  for (const auto& c : commands()) {
    std::string name = std::string("  ") + c.name;
    name.resize(14, ' ');  // "  trajectory" and two spaces
    s += name + c.summary + "\n";
  }
  s += "\nOptions of every command:\n";
  s += optionLine(*findOption("--gravity")) + optionLine(*findOption("--floating-base")) +
       optionLine(*findOption("--fix")) + optionLine(*findOption("--no-mimic"));
  s += "\nVectors are comma-separated numbers in model order ('dynscope-cli info MODEL' lists the names).\n"
       "Exit status: 0 success, 1 load or runtime error, 2 usage error.\n";
  return s;
}

std::string commandHelp(Command command) {
  const CommandSpec& c = specOf(command);
  const bool project = commandAccepts(c, "--project");
  std::string s = std::string("Usage: dynscope-cli ") + c.name +
                  (project                       ? " [MODEL]"
                   : command == Command::Opcount ? " MODEL|--chain N"
                                                 : " MODEL") +
                  " [options]\n\n" + c.summary + ".\n";
  if (command == Command::Id) s += algorithmHelp(dyn::Problem::InverseDynamics);
  if (command == Command::Mass) s += algorithmHelp(dyn::Problem::MassMatrix);
  if (command == Command::Fd) s += algorithmHelp(dyn::Problem::ForwardDynamics);
  if (command == Command::Opcount) s += "Algorithms: " + allAlgorithmNames() + ".\n";
  s += std::string(c.details) + "\n\nOptions:\n";
  for (const auto& o : kOptions)
    if (commandAccepts(c, o.name)) s += optionLine(o);
  return s;
}

std::optional<Options> parseArguments(int argc, const char* const* argv) {
  if (argc < 2) throw UsageError("no command given (commands: " + commandList() + ")");
  const std::string_view first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    const CommandSpec* c = argc > 2 ? findCommand(argv[2]) : nullptr;
    std::fputs(c ? commandHelp(c->command).c_str() : generalHelp().c_str(), stdout);
    return std::nullopt;
  }
  if (first == "--version") {
    std::printf("dynscope-cli %s\n", kVersion);
    return std::nullopt;
  }
  const CommandSpec* spec = findCommand(first);
  if (!spec) {
    if (first.starts_with("-")) throw UsageError("unknown option '" + std::string(first) + "' before the command");
    throw UsageError("unknown command '" + std::string(first) + "' (commands: " + commandList() + ")");
  }

  Options opts;
  opts.command = spec->command;
  std::vector<std::string> positional;
  for (int k = 2; k < argc; ++k) {
    const std::string_view arg = argv[k];
    if (arg == "--help" || arg == "-h") {
      std::fputs(commandHelp(spec->command).c_str(), stdout);
      return std::nullopt;
    }
    if (!arg.starts_with("--")) {  // note: negative numbers only ever appear as option values
      positional.emplace_back(arg);
      continue;
    }
    // --name=value or --name value
    const size_t eq = arg.find('=');
    const std::string name(arg.substr(0, eq));
    const OptionSpec* o = findOption(name);
    if (!o) throw UsageError("unknown option '" + name + "' for " + spec->name);
    if (!commandAccepts(*spec, name)) throw UsageError(name + " is not an option of " + spec->name);
    std::string value;
    if (o->argument) {
      if (eq != std::string_view::npos) {
        value = std::string(arg.substr(eq + 1));
      } else {
        // A following "--word" is the next option, not a value: the value is missing.
        if (k + 1 >= argc || std::string_view(argv[k + 1]).starts_with("--"))
          throw UsageError(name + " needs a value: " + name + " " + o->argument);
        value = argv[++k];
      }
    } else if (eq != std::string_view::npos) {
      throw UsageError(name + " takes no value");
    }
    applyOption(opts, name, o->argument ? value.c_str() : nullptr);
  }

  checkAlgorithm(opts);
  if (opts.command == Command::Opcount) {
    if (positional.empty() == !opts.chain) throw UsageError("opcount needs exactly one of MODEL or --chain N");
    if (positional.size() > 1)
      throw UsageError("unexpected argument '" + positional[1] + "' (opcount takes one MODEL file)");
    if (!positional.empty()) opts.modelPath = positional[0];
    return opts;
  }
  const bool external = !opts.fext.empty() || !opts.wrench.empty();
  const char* externalName = !opts.fext.empty() ? "--fext" : "--wrench";
  if (opts.algorithm != "rnea" && opts.command == Command::Id && (opts.decompose || external))
    throw UsageError(std::string(opts.decompose ? "--decompose" : externalName) + " is computed with rnea, not with '" +
                     opts.algorithm + "' (drop --algorithm)");
  if (opts.command == Command::Fd && opts.algorithm != "aba" && opts.algorithm != "crba" && external)
    throw UsageError(std::string(externalName) + " works with the aba and crba algorithms, not with '" +
                     opts.algorithm + "'");
  if (positional.empty() && !opts.project)
    throw UsageError(std::string(spec->name) + " needs a MODEL file (URDF or .dh)" +
                     (commandAccepts(*spec, "--project") ? " or --project" : ""));
  if (positional.size() > 1)
    throw UsageError("unexpected argument '" + positional[1] + "' (" + spec->name + " takes one MODEL file)");
  if (!positional.empty()) opts.modelPath = positional[0];

  if (opts.command == Command::Convert) {
    if (!opts.to) throw UsageError("convert needs --to urdf or --to dh");
    if (opts.convention && *opts.to != "dh") throw UsageError("--convention is only used with --to dh");
    if (opts.floatingBase || opts.noMimic)
      throw UsageError(std::string(opts.floatingBase ? "--floating-base" : "--no-mimic") +
                       " is not an option of convert (it changes the computation, not the file)");
    return opts;
  }
  if (opts.command == Command::Equations) return opts;  // its own output (text, LaTeX or JSON) and --out
  if (opts.command == Command::Ik && !opts.target) throw UsageError("ik needs --target x,y,z[,qx,qy,qz,qw]");
  if (opts.holdIndependent && !opts.holds.empty()) throw UsageError("--hold and --hold-independent cannot be combined");
  if (opts.command == Command::Check) return opts;  // JSON out; --project only gives the robot and its fix-ups
  if (opts.command == Command::Trace) {
    std::string names;
    for (const auto& a : dyn::traceableAlgorithms()) names += (names.empty() ? "" : ", ") + std::string(a.name);
    if (opts.algorithm.empty()) throw UsageError("trace needs --algorithm NAME (" + names + ")");
    const dyn::TraceableAlgorithm* a = dyn::findTraceableAlgorithm(opts.algorithm);
    if (!a) throw UsageError("--algorithm must be one of " + names + ", not '" + opts.algorithm + "'");
    const bool id = a->needs == dyn::TraceNeeds::Accelerations, fd = a->needs == dyn::TraceNeeds::Forces;
    if (opts.qdd && !id)
      throw UsageError(std::string("--qdd is not an input of ") + a->name +
                       (fd ? " (forward dynamics: give --tau)" : " (it needs only --q)"));
    if (opts.tau && !fd)
      throw UsageError(std::string("--tau is not an input of ") + a->name +
                       (id ? " (inverse dynamics: give --qdd)" : " (it needs only --q)"));
    if (opts.qd && !id && !fd)
      throw UsageError(std::string("--qd is not an input of ") + a->name + " (it needs only --q)");
    return opts;
  }
  const bool sampling = opts.command == Command::Trajectory;
  const bool simulate = opts.command == Command::Simulate;
  if (simulate) {  // CSV out; its own input rules
    if (!opts.duration) throw UsageError("simulate needs --duration T (seconds)");
    const std::string& c = opts.controller;
    const bool tracking = c == "pd" || c == "computed-torque";
    if (tracking != opts.trajectory.has_value())
      throw UsageError(tracking ? "--controller " + c + " needs --trajectory IN.csv (the reference)"
                                : std::string("--trajectory is the reference of --controller pd or computed-torque"));
    if ((c == "replay") != opts.torques.has_value())
      throw UsageError(c == "replay" ? "--controller replay needs --torques IN.csv"
                                     : "--torques is only used with --controller replay");
    if ((c == "constant") != opts.tau.has_value())
      throw UsageError(c == "constant" ? "--controller constant needs --tau a,b,..."
                                       : "--tau is only used with --controller constant");
    if (!tracking && (opts.kp || opts.kd)) throw UsageError("--kp and --kd are only used with pd or computed-torque");
    if (tracking && !(opts.kp && opts.kd)) throw UsageError("--controller " + c + " needs --kp and --kd");
    if (opts.tolerance && opts.integrator != "rk45")
      throw UsageError("--tolerance is only used with --integrator rk45");
    if (opts.loopMethod && opts.loopMethod->starts_with("global"))
      throw UsageError("simulate --loop-method is 1, 2 or 3 (the global forms are for fd)");
    return opts;
  }
  const bool series = opts.trajectory || opts.project || sampling;  // CSV out
  if (sampling && opts.project.has_value() == opts.demo.has_value())
    throw UsageError("trajectory needs exactly one of --project P.json or --demo NAME");
  if (sampling && opts.demo && opts.modelPath.empty())
    throw UsageError("trajectory --demo needs the MODEL it moves (robots/stanford_arm.dh or robots/planar3.dh)");
  if (opts.out && !series) throw UsageError("--out is only used with --trajectory, --project or trace");
  if (opts.progress && !series) throw UsageError("--progress is only used with --trajectory or --project");
  if (opts.decompose && !series) throw UsageError("--decompose is only used with --trajectory or --project");
  if (opts.decompose && !opts.fext.empty())
    throw UsageError("--decompose cannot be combined with --fext (the decomposition is defined without them)");
  if (series && !opts.wrench.empty())
    throw UsageError(
        "--wrench acts at one state (its world axes turn with the pose); along a trajectory give the "
        "force in the link's coordinates with --fext");
  if (series) {
    for (const auto& [given, name] : {std::pair{opts.q.has_value(), "--q"},
                                      {opts.qd.has_value(), "--qd"},
                                      {opts.qdd.has_value(), "--qdd"},
                                      {opts.tau.has_value(), "--tau"}})
      if (given)
        throw UsageError(std::string(name) + " cannot be combined with a trajectory (" +
                         (opts.trajectory ? "the CSV" : "the project") + " gives it)");
  }
  return opts;
}

}  // namespace cli
