// The commands: each writes the body of one JSON result object (after writeHeader), or, for
// trajectories, CSV. Grouped by file: info, check, kinematics (fk, jacobian, energy), dynamics (id,
// mass, bias, fd; each with --algorithm from the engine's formulation registry), opcount, trace_command (trace),
// trajectory_command (id/fd over a trajectory, the trajectory command).
#pragma once
#include "json_writer.hpp"
#include "session.hpp"

namespace cli {

void writeInfo(const Session& s, JsonWriter& json);
// "counts" and "findings" (check_command.cpp): the model checker's findings, as check and info print them.
void writeFindings(const dyn::Model& model, const std::vector<dyn::Finding>& findings, JsonWriter& json);
// check: opens the session itself (a file that does not load is a finding too), prints JSON and
// returns the exit status: 1 on errors (and on warnings with --strict), else 0.
int runCheck(const Options& options);
void writeForwardKinematics(const Session& s, JsonWriter& json);
void writeJacobian(const Session& s, JsonWriter& json);
void writeEnergy(const Session& s, JsonWriter& json);
void writeInverseDynamics(const Session& s, JsonWriter& json);
void writeMassMatrix(const Session& s, JsonWriter& json);
void writeBias(const Session& s, JsonWriter& json);
void writeForwardDynamics(const Session& s, JsonWriter& json);
// opcount: operation counts of a formulation next to the seed papers' (opcount_command.cpp).
void writeOperationCounts(const Session& s, JsonWriter& json);
// trace: an algorithm step by step (trace_command.cpp).
void writeTrace(const Session& s, JsonWriter& json);
// ik: IkSolver from --q0 to --target (ik_command.cpp).
void writeInverseKinematics(const Session& s, JsonWriter& json);

// Closed loops (loop_commands.cpp): info's loop section; fd and id of a closed-loop mechanism;
// assemble.
void writeLoopInfo(const Session& s, JsonWriter& json);
void writeLoopForwardDynamics(const Session& s, JsonWriter& json);
void writeLoopInverseDynamics(const Session& s, JsonWriter& json);
void writeAssembly(const Session& s, JsonWriter& json);

// Mimic joints enforced (mimic_commands.cpp): info's section; id, mass, bias and fd at one state on the
// independent coordinates (Session::mimic set).
void writeMimicInfo(const Session& s, JsonWriter& json);
void writeMimicInverseDynamics(const Session& s, JsonWriter& json);
void writeMimicMassMatrix(const Session& s, JsonWriter& json);
void writeMimicForwardDynamics(const Session& s, JsonWriter& json);
void writeMimicBias(const Session& s, JsonWriter& json);

// id / fd with --trajectory (or id with --project): reads the CSV or the project's trajectory,
// writes CSV to --out or stdout.
void runTrajectory(const Session& s);
// trajectory --project | --demo: the sampled trajectory as CSV (t, q, qd_, qdd_).
void runSampling(const Session& s);
// simulate: forward-dynamics simulation (simulate_command.cpp), CSV to --out or stdout. Returns the
// exit status: 1 when the run diverged (the CSV then ends at the last good state).
int runSimulation(const Session& s);
// convert: MODEL as a URDF or a DH table (convert_command.cpp), to --out or stdout. Loads the model
// itself; a model the target cannot express throws std::invalid_argument naming the joint.
int runConvert(const Options& options);
// equations: M(q), C(q, qd) qd, g(q) and tau in closed form (equations_command.cpp; GiNaC builds only,
// else an error saying how to get it), as text, LaTeX or JSON to --out or stdout. Loads the model itself.
int runEquations(const Options& options);

}  // namespace cli
