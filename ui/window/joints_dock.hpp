// The joints dock: one row per editable coordinate (see joint_coordinates.hpp), a filter box,
// radians/degrees, Zero / Home / Randomize. Rows write straight into the RobotDocument, their τ
// boxes into its constant torques (shown while the simulation uses them). The IK lock toggles
// only report (jointLockToggled); the window keeps them in sync with the IK controller.
#pragma once
#include <Eigen/Core>
#include <QDockWidget>
#include <vector>

class JointRow;
class QCheckBox;
class QLabel;
class QLineEdit;
class QMenu;
class QVBoxLayout;
class RobotDocument;

class JointsDock : public QDockWidget {
  Q_OBJECT
  // Read by the workspaces: the width that shows every row whole (no sideways scrolling).
  Q_PROPERTY(QSize readableSize READ readableSize)

 public:
  JointsDock(RobotDocument* document, QWidget* parent = nullptr);

  const std::vector<JointRow*>& rows() const { return m_rows; }
  JointRow* row(const QString& jointName, const QString& label = QString()) const;
  bool degrees() const { return m_degrees; }
  void setDegrees(bool on);
  void setFilter(const QString& text);
  // Width that shows every row without cutting off names or spin boxes (follows the font).
  int preferredWidth() const;
  QSize readableSize() const { return {preferredWidth(), 0}; }
  QLabel* loopStatusLabel() const { return m_loopLabel; }

  // IK locks by joint (body index 1..N); no jointLockToggled.
  void setJointLocked(int body, bool locked);
  bool isJointLocked(int body) const;
  // The τ column: the simulation's constant per-joint torques.
  void setTorqueColumnVisible(bool visible);
  bool torqueColumnVisible() const { return m_showTorques; }

 signals:
  void jointLockToggled(int body, bool locked);  // by the user, in a row

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuild();
  void fitNameWidth();       // the name column of the rows, for the current font
  void refresh();            // rows from the document's q
  void refreshTorques();     // τ boxes from the document
  void refreshLoopStatus();  // closed loops: the roles' legend and |phi|
  void rebuildHomeMenu();    // "Set current pose as home" and the file's named poses (MJCF keyframes)
  void onRowEdited(JointRow* row, double value);

  RobotDocument* m_doc;
  QWidget* m_rowsHost;
  QVBoxLayout* m_rowsLayout;
  QLineEdit* m_filter;
  QCheckBox* m_degreesBox;
  QLabel* m_summary;
  QMenu* m_homeMenu;
  QLabel* m_torqueHint;
  QLabel* m_loopLabel;  // closed loops: status, or why the last move was refused
  JointRow* m_editingRow = nullptr;
  std::vector<JointRow*> m_rows;
  std::vector<QWidget*> m_headers;  // "name (floating)" lines above multi-coordinate joints
  bool m_degrees = true;
  bool m_showTorques = false;
  bool m_editing = false;  // a row is writing to the document: do not echo back into the rows
};
