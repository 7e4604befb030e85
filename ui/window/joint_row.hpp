// One editable coordinate in the joints dock: name, slider and spin box within the limits.
// Values in and out are SI (rad, m); the row shows degrees when asked. Continuous joints wrap.
#pragma once
#include <QWidget>

#include "document/joint_coordinates.hpp"

class QDoubleSpinBox;
class QLabel;
class QSlider;

class JointRow : public QWidget {
  Q_OBJECT

 public:
  JointRow(const JointCoordinate& coordinate, QWidget* parent = nullptr);

  const JointCoordinate& coordinate() const { return m_c; }
  void setDegrees(bool degrees);
  void setNameWidth(int pixels);
  void setValue(double si);  // no valueEdited
  double value() const { return m_value; }
  QDoubleSpinBox* spinBox() const { return m_spin; }
  QSlider* slider() const { return m_slider; }

 signals:
  void valueEdited(double si);

 private:
  double scale() const;  // displayed units per SI unit
  void showValue();
  void onSpin(double shown);
  void onSlider(int position);

  JointCoordinate m_c;
  QLabel* m_name;
  QSlider* m_slider;
  QDoubleSpinBox* m_spin;
  double m_value = 0;
  bool m_degrees = false;
};
