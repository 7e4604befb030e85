// The trajectory editor: the waypoint table (add the current pose, retime, update, go to,
// delete, reorder; all undoable), interpolation and sample rate, and the dynamics settings the
// torques depend on (payload on a link, a steady external wrench, gravity). A thin view of
// TrajectoryDocument.
#pragma once
#include <QDockWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QUndoStack;
class TrajectoryDocument;

class TrajectoryDock : public QDockWidget {
  Q_OBJECT

 public:
  TrajectoryDock(TrajectoryDocument* doc, QUndoStack* undo, QWidget* parent = nullptr);

  QTableWidget* table() const { return m_table; }
  QComboBox* interpolationBox() const { return m_interpolation; }
  QDoubleSpinBox* rateBox() const { return m_rate; }

 public slots:
  void addCurrentPose();  // the time moves to the new waypoint (the pose on screen)
  void updateSelected();  // the selected waypoint takes the robot's current pose; the time moves to it
  void goToSelected();    // the robot takes the selected waypoint's pose
  void deleteSelected();
  void moveSelected(int direction);  // swaps poses with the neighbour; the times stay in order

 private:
  void refresh();
  void refreshPayloadLinks();
  void labelLoads();  // "Payload · on" while a payload acts, and so on
  void applyPayload();
  void applyGravity();
  void onTimeEdited(int row, int column);
  void showTime(double t);  // the trajectory at t: the waypoint whose pose the robot shows
  int selectedRow() const;
  QString poseSummary(int waypoint) const;

  TrajectoryDocument* m_doc;
  QUndoStack* m_undo;
  QLabel* m_source;
  QLabel* m_problem;
  QTableWidget* m_table;
  QComboBox* m_interpolation;
  QDoubleSpinBox* m_rate;
  QTabWidget* m_loads;  // payload, external wrench, gravity
  QCheckBox* m_payloadOn;
  QComboBox* m_payloadLink;
  QDoubleSpinBox* m_payloadMass;
  QDoubleSpinBox* m_payloadCom[3];
  QDoubleSpinBox* m_gravity[3];
  QPushButton* m_gravityReset;
  bool m_refreshing = false;
};
