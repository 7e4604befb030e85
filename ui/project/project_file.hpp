// A Dynscope project: the robot file, how its trajectory is made (waypoints, a CSV file or a
// built-in demo), an optional payload and gravity override, and the view settings the GUI stores,
// in one JSON file so a lecture demo opens in one step. Paths are stored relative to the project
// file and resolved to absolute paths on reading. Waypoint configurations are stored per joint
// name, so a project survives a reordering of the robot's joints.
//
//   { "format": "dynscope-project", "version": 1,
//     "robot": { "path": "../robots/stanford_arm.dh", "floating_base": false,
//                "fixups": ["balance-inertias"],                    (optional: dyn::fixupName, in order)
//                "edits": [ { "link": "l1", "field": "mass", "values": [2.5] },
//                           { "joint": "j2", "field": "limits", "values": [null, null] } ] },
//                                       (optional: robot_edit.hpp's fields, in order; null = infinite)
//                "dh_table": "name planar3\njoint j1 R a=0.3 ..." },  (optional, a .dh robot: the table as
//                                                        edited in the window, read instead of the file's)
//     "gravity": [0, 0, -9.81],                                    (optional)
//     "payload": { "link": "tool", "mass": 2.0, "com": [0, 0, 0.1] },  (optional)
//     "wrench": { "link": "tool0", "force": [0, 0, -20], "moment": [0, 0, 0], "point": [0, 0, 0.05] },
//                                   (optional: a steady push; world axes, the point in the link's coordinates)
//     "trajectory": { "source": "waypoints", "interpolation": "quintic", "sample_rate": 100,
//                     "trapezoid_fraction": 0.3333,                (optional, trapezoidal only)
//                     "waypoints": [ { "t": 0, "q": { "j1": 0.0, "root": [x, y, z, qx, qy, qz, qw] } } ] }
//                 | { "source": "csv", "path": "traj.csv" }
//                 | { "source": "demo", "demo": "saha-stanford", "sample_rate": 100 }
//                 | { "source": "none" },
//     "view": { ... anything the GUI stores ... } }
#pragma once
#include <QJsonObject>
#include <QString>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dynscope/io/fixups.hpp"
#include "dynscope/io/robot_edit.hpp"
#include "dynscope/trajectory/payload.hpp"
#include "dynscope/trajectory/waypoint_trajectory.hpp"

namespace dyn {

// "file:line: key: message" (the line is left out when unknown).
class ProjectError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class TrajectorySource { None, Waypoints, Csv, Demo };
const char* trajectorySourceName(TrajectorySource source);  // "none", "waypoints", "csv", "demo"

struct ProjectWaypoint {
  double t = 0;
  // Joint name -> its q entries (one number for a 1-DOF joint, the joint's nq otherwise).
  std::map<std::string, std::vector<double>> joints;
  int line = 0;  // where it was read from, for messages (0 when built in memory)
};

struct ProjectTrajectory {
  TrajectorySource source = TrajectorySource::None;
  Interpolation interpolation = Interpolation::Quintic;
  double trapezoidFraction = 1.0 / 3.0;
  double sampleRate = 100;  // Hz, for waypoints and demos
  std::vector<ProjectWaypoint> waypoints;
  std::string csvPath;  // absolute in memory, relative to the project file on disk
  std::string demo;     // a demoTrajectoryName
};

// A steady wrench from outside on a link (a hand holding the tool down, a cable pulling): force
// (N) and moment (N m) in world axes, the force acting at `point` of the link, in its coordinates.
struct LinkWrench {
  std::string link;
  Eigen::Vector3d point = Eigen::Vector3d::Zero(), force = Eigen::Vector3d::Zero(), moment = Eigen::Vector3d::Zero();
  bool operator==(const LinkWrench& o) const {
    return link == o.link && point == o.point && force == o.force && moment == o.moment;
  }
};

struct ProjectFile {
  std::string file;       // the project file itself (set by read/write; for messages)
  std::string robotPath;  // absolute in memory, relative to the project file on disk
  bool floatingBase = false;
  std::vector<Fixup> fixups;               // applied to the robot when it is loaded (dynscope/io/fixups.hpp)
  std::vector<RobotEdit> edits;            // the window's edits of the robot's parameters, over the file
  std::optional<std::string> dhTable;      // a .dh robot's table as edited in the window (.dh text)
  std::optional<Eigen::Vector3d> gravity;  // overrides the model's
  std::optional<Payload> payload;
  std::optional<LinkWrench> wrench;
  ProjectTrajectory trajectory;
  QJsonObject view;  // opaque: the GUI's camera, toggles, ...
};

constexpr int kProjectVersion = 1;

// Throws ProjectError naming the file, line and key (a missing file, malformed JSON, a wrong
// format or version, an unknown key, a value of the wrong type or range).
ProjectFile readProjectFile(const QString& path);
// How file paths are stored: a project keeps them relative to its own directory, so a folder of
// project + robot can be moved or shared; an autosave keeps them absolute, because it lives in the
// user's data directory, far from the files it refers to.
enum class StoredPaths { RelativeToFile, Absolute };

// Writes atomically (QSaveFile). Throws ProjectError.
void writeProjectFile(const QString& path, const ProjectFile& project, StoredPaths paths = StoredPaths::RelativeToFile);

// The same on text: `path` names the file in messages and anchors relative paths.
ProjectFile parseProject(const QByteArray& json, const QString& path);
QByteArray serializeProject(const ProjectFile& project, const QString& path,
                            StoredPaths paths = StoredPaths::RelativeToFile);

}  // namespace dyn
