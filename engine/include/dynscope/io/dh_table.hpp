// The DH table (docs/dh-format.md) as a value: what a `.dh` file says, in SI units and radians,
// before it becomes a RobotDescription. Standard (distal; Paul, Hollerbach, Saha 1999):
// ^{i-1}T_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i). Modified (proximal; Craig 2005 §3.4):
// ^{i-1}T_i = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i), row i holding a_{i-1}, alpha_{i-1}.
// The reader, the description it builds, the writer, a per-row validator for editors and the
// conversion between the two conventions (docs/convert.md).
#pragma once
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "load_error.hpp"
#include "robot_description.hpp"

namespace dyn {

enum class DhConvention { Standard, Modified };

struct DhRow {
  std::string name;
  bool prismatic = false;  // P: d is the joint variable; R: theta is
  // theta and d: constants; for the joint variable, the offset added to q (theta = q + theta, d = q + d).
  double a = 0, alpha = 0, d = 0, theta = 0;
  bool hasLimits = false;  // lower/upper given (else unlimited)
  double lower = 0, upper = 0;
  double velocity = 0, effort = 0;   // 0 = no limit
  double damping = 0, friction = 0;  // SI
  bool hasInertial = false;          // mass, com or inertia given (else a massless link)
  double mass = 0;
  Vec3<double> com = Vec3<double>::Zero();  // in the row's DH frame i
  std::array<double, 6> inertia{};          // about the COM, frame-i axes: Ixx Iyy Izz Ixy Ixz Iyz
  int line = 0;                             // source line (0: not from a file)
};

struct DhTable {
  std::string name;  // empty: the file name's stem
  DhConvention convention = DhConvention::Standard;
  bool degrees = false;  // the file wrote angles in degrees: writeDhTable keeps the unit
  Vec3<double> gravity = Vec3<double>(0, 0, -9.81);
  std::optional<Pose> base, tool;  // DH frame 0 in the world; `tool` in the last DH frame (radians)
  int baseLine = 0, toolLine = 0;
  std::vector<DhRow> rows;
  std::vector<LoopJointDesc> loops;                   // `loop` lines, rpy in radians
  std::vector<std::pair<std::string, int>> actuated;  // `actuated` lines: joint name, line
  std::string sourceName;                             // for messages and the default name
};

// Reads the text; LoadError "FILE:LINE: ELEMENT: what" on every mistake docs/dh-format.md lists.
DhTable parseDhTable(const std::string& text, const std::string& sourceName = "<string>");
// The URDF-shaped description (links link<i>, frame<i>, tool; docs/dh-format.md "What the loader
// builds"). LoadError for a row name that clashes with a generated joint or an unknown `actuated` joint.
RobotDescription dhTableToDescription(const DhTable& table);
// Text in the .dh format that parses back to the same table: numbers in their shortest exact form;
// angles in degrees when table.degrees (then exact whenever a decimal of <= 17 digits is).
std::string writeDhTable(const DhTable& table);

// "" when row `row` can be used, else why not, naming the field: a non-finite number, a negative
// mass/velocity/effort/damping/friction, lower > upper, an empty, malformed or duplicate name, a
// name reserved for the generated fixed joints. Cheap (one pass over the names): for editors.
std::string checkDhRow(const DhTable& table, int row);
// "" when the numeric key (a, alpha, d, theta, offset, lower, upper, velocity, effort, damping,
// friction, mass; SI units and radians) of row `row` may take `value`, else why not, naming the key.
// A cell editor's check before it changes anything; lower and upper are checked against each other.
std::string checkDhValue(const DhTable& table, int row, const std::string& key, double value);
// The first problem of the whole table (rows, base, tool, gravity), "" when there is none.
std::string checkDhTable(const DhTable& table);

// Successive joints that move along one line, so that the second adds no degree of freedom of its
// own (their Jacobian columns are equal at every pose): two revolute joints about the same axis (the
// common normal between the axes has length a = 0 and twist alpha = 0 or pi) or two prismatic joints
// along parallel axes (alpha = 0 or pi). `row` is the row whose a and alpha place the second axis
// (standard: the first joint's row; modified: the second's). Not an error of the table (a row just
// added has a = alpha = 0 until typed in): an editor refuses a value that makes a new one.
struct DhDegeneracy {
  int first = 0, second = 0;  // the two joints' rows (0-based), second = first + 1
  int row = 0;                // the row holding the a and alpha that make them one line
  std::string why;            // "joints 'j1' and 'j2' turn about the same line (a1 = 0, alpha1 = 0°): ..."
};
std::vector<DhDegeneracy> dhDegeneracies(const DhTable& table);

// The same robot in the other convention: every link moves as before (same FK of every body, same
// dynamics). Frames move between the distal and proximal ends of the links, so COM and inertia are
// re-expressed; row i's (a, alpha) moves to row i+1 (to modified) or i-1 (to standard). The ends
// (docs/convert.md): to modified, row 1 gets a = alpha = 0 unless the standard base is a pure
// x-screw Tx(a) Rx(alpha) (then it moves into row 1); the last standard row's a, alpha go into the
// tool. To standard, the modified row 1's a, alpha go into the base, and the last row takes a pure
// x-screw tool (else a = alpha = 0 and the tool stays). Loop frames are re-expressed too.
DhTable toConvention(const DhTable& table, DhConvention convention);

}  // namespace dyn
