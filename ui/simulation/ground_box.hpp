// The simulation dock's "Ground" box: a ground plane under the robot (dyn::GroundSettings; the
// contact model is described in docs/simulation.md): on/off, its height, Coulomb's friction
// coefficient and the contact's time constant. A robot that is loaded gets defaults that suit it:
// on for a floating base (legged robots stand on it), off for an arm bolted to the world, and the
// height of the robot's lowest contact point at its home pose (0 when that is above the origin), so a
// legged robot starts standing and an arm's base sits on the floor.
#pragma once
#include <QGroupBox>

#include "dynscope/simulation/simulation_settings.hpp"

namespace dyn {
template <class S>
struct ModelTpl;
using Model = ModelTpl<double>;
}  // namespace dyn
class QDoubleSpinBox;
class QLabel;

class GroundBox : public QGroupBox {
  Q_OBJECT

 public:
  explicit GroundBox(QWidget* parent = nullptr);

  dyn::GroundSettings settings() const;
  void setDefaultsFor(const dyn::Model& model);  // on/off and height as above; friction and time kept
  // The contact points of the last run, and the notes on geometry that gives none (shown under the box).
  void setContactSummary(int points, const QStringList& notes);

  QDoubleSpinBox* heightBox() const { return m_height; }
  QDoubleSpinBox* frictionBox() const { return m_friction; }
  QDoubleSpinBox* timeConstantBox() const { return m_time; }
  // Stiffness (N/m per point; 0: the contact time's rule) and damping (N s/m per point, with it).
  QDoubleSpinBox* stiffnessBox() const { return m_stiffness; }
  QDoubleSpinBox* dampingBox() const { return m_damping; }

 signals:
  void changed();  // any control, including on/off

 private:
  QDoubleSpinBox *m_height, *m_friction, *m_time, *m_stiffness, *m_damping;
  QLabel* m_summary;
};
