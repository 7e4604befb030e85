// One editable coordinate in the joints dock: name, slider and spin box within the limits, a lock
// toggle (the joint keeps its value while IK dragging) and, when the simulation uses constant
// joint torques, the τ of the dof this row drives. Values in and out are SI (rad, m; N·m, N);
// the row shows degrees when asked. Continuous joints wrap. In a closed-loop mechanism a row is
// marked independent (moving it re-assembles the loops) or dependent (read-only: it follows); a
// mimic joint's row is read-only too and says whom it follows.
#pragma once
#include <QWidget>

#include "document/joint_coordinates.hpp"

class QDoubleSpinBox;
class QLabel;
class QSlider;
class QToolButton;

class JointRow : public QWidget {
  Q_OBJECT

 public:
  JointRow(const JointCoordinate& coordinate, QWidget* parent = nullptr);

  enum class LoopRole { None, Independent, Dependent };
  void setLoopRole(LoopRole role, bool actuated);
  LoopRole loopRole() const { return m_role; }
  QLabel* roleLabel() const { return m_roleLabel; }
  // A mimic joint: q = multiplier · q_master + offset (read-only, marked "mim"; loopRole() Dependent).
  void setFollows(const QString& master, double multiplier, double offset);

  const JointCoordinate& coordinate() const { return m_c; }
  void setDegrees(bool degrees);
  void setNameWidth(int pixels);
  void setValue(double si);  // no valueEdited
  double value() const { return m_value; }
  QDoubleSpinBox* spinBox() const { return m_spin; }
  QSlider* slider() const { return m_slider; }

  // IK lock of the row's joint (all rows of a multi-dof joint show the same state).
  bool isLocked() const;
  void setLocked(bool locked);  // no lockToggled
  QToolButton* lockButton() const { return m_lock; }

  // Constant torque of dof `dof` (index into v), with the dof's name for the tooltip.
  void setTorqueDof(int dof, const QString& dofName);
  int torqueDof() const { return m_dof; }
  void setTorque(double tau);  // no torqueEdited
  double torque() const;
  void setTorqueVisible(bool visible);
  QDoubleSpinBox* torqueBox() const { return m_torque; }

 signals:
  void valueEdited(double si);
  void lockToggled(bool locked);
  void torqueEdited(double tau);

 private:
  double scale() const;  // displayed units per SI unit
  void setReadOnly(bool readOnly);
  void showValue();
  void onSpin(double shown);
  void onSlider(int position);

  JointCoordinate m_c;
  QLabel* m_name;
  QLabel* m_roleLabel;
  LoopRole m_role = LoopRole::None;
  QSlider* m_slider;
  QDoubleSpinBox* m_spin;
  QToolButton* m_lock;
  QDoubleSpinBox* m_torque;
  int m_dof = -1;
  double m_value = 0;
  bool m_degrees = false;
};
