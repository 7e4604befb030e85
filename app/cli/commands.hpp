// The commands: each writes the body of one JSON result object (after writeHeader), or, for
// trajectories, CSV. Grouped by file: info, kinematics (fk, jacobian, energy), dynamics (id,
// mass, bias, fd), trajectory_csv (id/fd over a CSV).
#pragma once
#include "json_writer.hpp"
#include "session.hpp"

namespace cli {

void writeInfo(const Session& s, JsonWriter& json);
void writeForwardKinematics(const Session& s, JsonWriter& json);
void writeJacobian(const Session& s, JsonWriter& json);
void writeEnergy(const Session& s, JsonWriter& json);
void writeInverseDynamics(const Session& s, JsonWriter& json);
void writeMassMatrix(const Session& s, JsonWriter& json);
void writeBias(const Session& s, JsonWriter& json);
void writeForwardDynamics(const Session& s, JsonWriter& json);

// id / fd with --trajectory: reads the CSV, writes CSV to --out or stdout.
void runTrajectory(const Session& s);

}  // namespace cli
