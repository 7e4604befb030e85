// The steady external wrench on a link (a hand holding the tool down, a cable pulling): on/off, the
// link, the force and moment in world axes and the point of the link where the force acts, in the
// link's coordinates. It edits TrajectoryDocument::setWrench, which puts −Jᵀf into τ along the
// trajectory and at the current time, the simulation (Simulator::setWrenches) and the 3D view's
// arrows (docs/external-forces.md). A refused value is said under the box.
#pragma once
#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class TrajectoryDocument;

class WrenchBox : public QGroupBox {
  Q_OBJECT

 public:
  explicit WrenchBox(TrajectoryDocument* doc, QWidget* parent = nullptr);

  QCheckBox* onBox() const { return m_on; }
  QComboBox* linkBox() const { return m_link; }
  QDoubleSpinBox* forceBox(int axis) const { return m_force[axis]; }
  QDoubleSpinBox* momentBox(int axis) const { return m_moment[axis]; }
  QDoubleSpinBox* pointBox(int axis) const { return m_point[axis]; }

 private:
  void refreshLinks();  // a new robot: its links
  void refresh();       // the document's wrench into the boxes
  void apply();         // the boxes into the document

  TrajectoryDocument* m_doc;
  QCheckBox* m_on;
  QComboBox* m_link;
  QDoubleSpinBox* m_force[3];
  QDoubleSpinBox* m_moment[3];
  QDoubleSpinBox* m_point[3];
  QLabel* m_problem;
  bool m_refreshing = false;
};
