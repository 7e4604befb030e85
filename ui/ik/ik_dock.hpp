// The IK dock: drag mode, position-only and handle-axes toggles, the dragged link, pins (list,
// pin selected, clear), locked joints (a checkbox per joint), overlay toggles and a live read-out
// of the last solve (residual, iterations, smallest singular value, reachable).
#pragma once
#include <QDockWidget>

class IkDragController;
class QComboBox;
class QLabel;
class QListWidget;
class RobotDocument;

class IkDock : public QDockWidget {
  Q_OBJECT
 public:
  IkDock(IkDragController* controller, RobotDocument* document, QWidget* parent = nullptr);

  QComboBox* linkCombo() const { return m_link; }
  QListWidget* pinList() const { return m_pins; }
  QListWidget* lockList() const { return m_locks; }
  QLabel* readoutLabel() const { return m_readout; }

 private:
  void rebuild();  // after a model change
  void refreshPins();
  void refreshLocks();
  void refreshReadout();

  IkDragController* m_ik;
  RobotDocument* m_doc;
  QComboBox* m_link;
  QListWidget* m_pins;
  QListWidget* m_locks;
  QLabel* m_readout;
};
