// The robot the window shows: the engine's Model and Data, the configuration q and the selected
// body. Every change of q runs forwardKinematics + updateFrames before poseChanged() is emitted,
// so listeners can read data().oMf directly. Files are parsed and built on a worker thread.
//
// Closed kinematic loops (docs/loops.md): q is always an assembled configuration, phi(q) = 0. A
// mechanism opens in the model's assembled reference pose; every change of q goes through the
// engine's assembly (dynscope/loops/assembly.hpp) with the independent coordinates held at their
// new values, so the dependent ones follow. Dependent coordinates cannot be set directly. A value
// at which the loops cannot close leaves the last assembled pose and reports why
// (loopClosureFailed), never a torn-apart mechanism.
//
// Mimic joints (docs/mimic.md; a model without closed loops): every q set here is put on the
// relations, q_f = a q_master + b, from its independent entries (sanitize), so a follower moves
// with its master wherever q comes from (sliders, IK, playback, simulation). A follower's own value
// cannot be set (setJointValue refuses it; the joints dock shows it read-only).
#pragma once
#include <Eigen/Core>
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "dynscope/io/fixups.hpp"
#include "dynscope/io/robot_edit.hpp"
#include "dynscope/model/data.hpp"

namespace dyn {
class Assembler;
struct DhTable;
template <class S>
struct MimicCouplingTpl;
using MimicCoupling = MimicCouplingTpl<double>;
}  // namespace dyn

class MeshLibrary;
class QThread;
struct RobotLoadResult;

class RobotDocument : public QObject {
  Q_OBJECT

 public:
  explicit RobotDocument(QObject* parent = nullptr);
  ~RobotDocument() override;

  bool hasModel() const { return static_cast<bool>(m_model); }
  // model() and data() are an empty model (N = 0) before the first load; references stay valid
  // until the next successful load replaces them.
  const dyn::Model& model() const { return *m_model; }
  const dyn::Data& data() const { return m_data; }
  const Eigen::VectorXd& q() const { return m_q; }
  QString sourceFile() const { return m_sourceFile; }  // absolute path of the loaded file
  QString robotName() const;
  int selectedBody() const { return m_selectedBody; }
  double lastKinematicsMs() const { return m_lastKinematicsMs; }
  double lastLoadMs() const { return m_lastLoadMs; }
  bool lastLoadWasReload() const { return m_lastLoadWasReload; }
  // The last modelChanged was an edit that kept the tree: the same bodies, joints (names, types, q
  // and v layout), frames, mimic relations, no loops; only other numbers (a mass, an origin, an
  // axis, a limit) and the same meshes. Listeners may then update in place instead of rebuilding
  // (the scene keeps its actors, the joints dock its rows), so that an edit of a 1,000-body robot
  // does not stall the window. False after a load or reload (the files may have changed).
  bool modelKeptTree() const { return m_keptTree; }

  // Meshes read by the loading thread (for RobotScene::setModel); null unless setReadMeshes(true).
  const MeshLibrary* meshes() const { return m_meshes.get(); }
  void setReadMeshes(bool on) { m_readMeshes = on; }

  // Used by the next load / reload: a 6-DOF free joint above the root link.
  bool floatingBase() const { return m_floatingBase; }
  void setFloatingBase(bool on) {
    m_floatingBase = on;
    m_floatingBaseAsked = true;
  }
  bool loadedFloatingBase() const { return m_loadedFloatingBase; }         // what the current robot was loaded with
  bool floatingBaseAskedSinceLoad() const { return m_floatingBaseAsked; }  // setFloatingBase since the last load
  // Used by the next load / reload: the fix-ups applied to the robot (dynscope/io/fixups.hpp), in order.
  const std::vector<dyn::Fixup>& fixups() const { return m_fixups; }
  void setFixups(const std::vector<dyn::Fixup>& fixups);
  // The fix-ups of the robot shown (those of its load; setFixups changes the next one).
  const std::vector<dyn::Fixup>& loadedFixups() const { return m_loadedFixups; }
  // Edits of the robot's parameters (issue 24; dynscope/io/robot_edit.hpp), applied over the file as
  // read, so the file itself is never touched. setEdits rebuilds the model at once from the
  // description kept since the load (no file is read again), keeping the joint values, the home
  // pose, the selection and the meshes; an edit that does not fit is refused with the reason and
  // changes nothing. A reload keeps the edits; another file starts without them, unless
  // setEditsForNextLoad gave some (a project).
  const std::vector<dyn::RobotEdit>& edits() const { return m_edits; }
  bool setEdits(const std::vector<dyn::RobotEdit>& edits, QString* error = nullptr);
  void setEditsForNextLoad(const std::vector<dyn::RobotEdit>& edits) { m_nextEdits = edits; }
  // The file's description as read (no edits, no fix-ups); null before the first load.
  const dyn::RobotDescription* description() const { return m_description.get(); }
  // The edits the last load left out because they no longer fit the file, with the reasons.
  const QStringList& skippedEdits() const { return m_skippedEdits; }
  // DH robots (issue 24): the table the robot is made from (a .dh file, or one made in the window);
  // null for URDF and MJCF. setDhTable rebuilds the robot from a changed table (the property edits
  // applied over it, joint values kept by name); a table the engine refuses (a row named twice, a
  // NaN) is refused with the reason and changes nothing. newFromDhTable opens a robot that has no
  // file yet: sourceFile() stays empty until it is saved (File > Save robot as).
  const dyn::DhTable* dhTable() const { return m_dhTable.get(); }
  bool setDhTable(const dyn::DhTable& table, QString* error = nullptr);
  // The table as the next load's (a project's edited table, as .dh text); a .dh file only.
  void setDhTableForNextLoad(const std::optional<std::string>& text) { m_nextDhText = text; }
  // The table shown differs from its file's (or there is no file yet).
  bool dhTableEdited() const;
  bool newFromDhTable(const dyn::DhTable& table, QString* error = nullptr);
  // After File > Save robot as: the robot shown now comes from `path` (its edits are in the file).
  void adoptSavedFile(const QString& path, const dyn::RobotDescription& saved,
                      std::shared_ptr<const dyn::DhTable> table);
  // The model checker's findings about the robot shown (model().findings).
  const std::vector<dyn::Finding>& findings() const { return m_model->findings; }

  // Loading. startLoad returns at once (false if a load is already running) and reports through
  // loadingFinished; load/reload wait for the worker in a local event loop. A failed load keeps
  // the previous robot.
  bool startLoad(const QString& path, bool keepJointValues = false);
  bool load(const QString& path, QString* error = nullptr);
  bool reload(QString* error = nullptr);  // same file; joint values kept where names match
  bool isLoading() const { return m_worker != nullptr; }

  // Posing. Values are SI (rad, m). setQ normalises quaternions and wraps continuous joints;
  // setJointValue also clamps to the joint limits. Both return false on a bad size/index.
  bool setQ(const Eigen::VectorXd& q);
  bool setJointValue(int qIndex, double value);
  // Orientation of a spherical or floating joint of body `body` as URDF roll-pitch-yaw.
  bool setJointRpy(int body, const Eigen::Vector3d& rpy);
  void setZero();                  // neutral configuration, clamped into the limits
  void goHome() { setQ(m_home); }  // the pose at load time unless setHome() changed it
  void setHome() { m_home = m_q; }
  const Eigen::VectorXd& home() const { return m_home; }
  void randomize();  // uniform within limits; spherical joints get a random orientation

  void setSelectedBody(int body);  // -1: none

  // Closed loops. isDependentDof: a dof (index into v) the assembly solves for; false for trees.
  bool hasLoops() const { return m_model->hasLoops(); }
  bool isDependentDof(int dof) const;  // closed loops: solved by the assembly; mimic: a follower's dof

  // Mimic joints: the coupling (null when no joint follows another, or the model has loops).
  const dyn::MimicCoupling* mimic() const { return m_mimic.get(); }
  bool isMimicFollower(int body) const;
  double loopResidual() const { return m_loopResidual; }           // max |phi(q)| of the pose shown (0: tree)
  QString loopMessage() const { return m_loopMessage; }            // why the last change was refused; "" when it closed
  int assemblyIterations() const { return m_assemblyIterations; }  // Newton steps of the last assembly

  // The simulation's "constant per joint" torques (issue 5), one per dof (size nv; N·m or N):
  // typed in the joints dock, read by the simulation dock. Zero after a load; a reload keeps
  // them where joint name and type are unchanged.
  const Eigen::VectorXd& constantTorques() const { return m_constantTorques; }
  bool setConstantTorque(int dof, double tau);  // false on a bad index or a non-finite value

 signals:
  void loadingStarted(const QString& path);
  void loadingProgress(int done, int total);  // mesh files read so far
  void loadingFinished(bool ok, const QString& error, bool wasReload);
  void modelChanged();  // after a successful load; pose already computed
  void poseChanged();
  void selectedBodyChanged(int body);
  void constantTorquesChanged();
  void fixupsChanged();   // setFixups changed the list (the next load uses it)
  void editsChanged();    // the edits of the robot shown changed (setEdits, or a load)
  void dhTableChanged();  // the DH table of the robot shown changed (or a robot with none loaded)
  // A change of q was refused because the loops cannot close there; q is unchanged.
  void loopClosureFailed(const QString& message);

 private:
  void finishLoad(const RobotLoadResult& result, const QString& path, bool keepJointValues);
  void sanitize(Eigen::VectorXd& q) const;
  void updateKinematics();
  bool waitForLoad(QString* error);
  // Closed loops: assembles `q` in place with the independent coordinates held (first on q's
  // branch; then, when `restarts`, from perturbed starts). False with m_loopMessage set.
  bool assemble(Eigen::VectorXd& q, bool restarts, const QString& what);
  bool commitQ(Eigen::VectorXd q, bool restarts, const QString& what);  // sanitize, assemble, pose

  std::shared_ptr<const dyn::Model> m_model;
  std::unique_ptr<dyn::Assembler> m_assembler;  // closed loops only; refers to *m_model (declared after it)
  std::unique_ptr<const dyn::MimicCoupling> m_mimic;
  double m_loopResidual = 0;
  QString m_loopMessage;
  int m_assemblyIterations = 0;
  std::shared_ptr<const MeshLibrary> m_meshes;
  dyn::Data m_data;
  Eigen::VectorXd m_q, m_home;
  Eigen::VectorXd m_constantTorques;
  QString m_sourceFile;
  int m_selectedBody = -1;
  bool m_floatingBase = false;
  std::vector<dyn::Fixup> m_fixups, m_loadedFixups;
  std::shared_ptr<const dyn::RobotDescription> m_description;
  std::shared_ptr<const dyn::DhTable> m_dhTable;
  std::string m_fileDhText;                 // the .dh file's table as written out ("" for a new table)
  std::optional<std::string> m_nextDhText;  // setDhTableForNextLoad
  std::vector<dyn::RobotEdit> m_edits, m_nextEdits;
  QStringList m_skippedEdits;
  bool m_loadedFloatingBase = false;
  bool m_floatingBaseAsked = false;
  bool m_applyingEdits = false;  // finishLoad installs an edited model: no loadingFinished
  // Installs a rebuilt robot (edits, a changed DH table) as finishLoad does for a reload.
  bool installRebuilt(std::shared_ptr<const dyn::RobotDescription> description,
                      std::shared_ptr<const dyn::DhTable> table, const std::vector<dyn::RobotEdit>& edits,
                      QString* error);
  double m_lastKinematicsMs = 0, m_lastLoadMs = 0;
  bool m_lastLoadWasReload = false;
  bool m_keptTree = false;
  bool m_readMeshes = false;
  QThread* m_worker = nullptr;
  std::mt19937 m_rng{std::random_device{}()};
};
