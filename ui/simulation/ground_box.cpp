#include "simulation/ground_box.hpp"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <algorithm>
#include <cmath>

#include "dynscope/algorithms/kinematics.hpp"
#include "dynscope/simulation/ground_contact.hpp"

namespace {

QDoubleSpinBox* spin(double lo, double hi, int decimals, double step, double value, const QString& suffix,
                     QWidget* parent) {
  auto* s = new QDoubleSpinBox(parent);
  s->setRange(lo, hi);
  s->setDecimals(decimals);
  s->setSingleStep(step);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setKeyboardTracking(false);
  return s;
}

}  // namespace

GroundBox::GroundBox(QWidget* parent) : QGroupBox(tr("Ground"), parent) {
  setObjectName("simulationGround");
  setCheckable(true);
  setChecked(false);
  setToolTip(tr("A ground plane the robot's collision geometry touches: soft contact with Coulomb friction"));
  const dyn::GroundSettings defaults;
  auto* form = new QFormLayout(this);
  m_height = spin(-100, 100, 3, 0.05, defaults.height, tr(" m"), this);
  m_height->setObjectName("simulationGroundHeight");
  m_height->setToolTip(tr("The plane z = height (world). Lower it to drop the robot onto it"));
  form->addRow(tr("Height"), m_height);
  m_friction = spin(0, 5, 2, 0.1, defaults.friction, QString(), this);
  m_friction->setObjectName("simulationGroundFriction");
  m_friction->setToolTip(tr("Coulomb friction coefficient μ: a point sticks while |Fₜ| < μ Fₙ"));
  form->addRow(tr("Friction μ"), m_friction);
  m_time = spin(1, 200, 1, 1, defaults.timeConstant * 1e3, tr(" ms"), this);
  m_time->setObjectName("simulationGroundTime");
  m_time->setToolTip(
      tr("Contact time constant (MuJoCo's solref): each contact point is a critically damped\n"
         "spring-damper this fast for its mass. Smaller is harder (at least two time steps)"));
  form->addRow(tr("Contact time"), m_time);
  // Or a spring and a damper of one's own, per shape (the contact time's rule then does not
  // apply); one row, so that the dock's charts keep their room.
  m_stiffness = spin(0, 1e9, 0, 1000, 0, tr(" N/m"), this);
  m_stiffness->setObjectName("simulationGroundStiffness");
  m_stiffness->setSpecialValueText(tr("from the time"));
  m_stiffness->setToolTip(
      tr("Stiffness of each shape's spring (its points in contact share it); 0: from the contact time and "
         "the points' masses"));
  m_damping = spin(0, 1e7, 1, 10, 0, tr(" N·s/m"), this);
  m_damping->setObjectName("simulationGroundDamping");
  m_damping->setToolTip(tr("Damping of each shape, with a stiffness of one's own"));
  m_damping->setEnabled(false);
  auto* spring = new QHBoxLayout;
  spring->addWidget(m_stiffness);
  spring->addWidget(m_damping);
  form->addRow(tr("Spring, damper"), spring);
  connect(m_stiffness, &QDoubleSpinBox::valueChanged, this, [this](double k) {
    m_damping->setEnabled(k > 0);
    m_time->setEnabled(k <= 0);
  });
  m_summary = new QLabel(this);
  m_summary->setObjectName("simulationGroundSummary");
  m_summary->setWordWrap(true);
  m_summary->hide();
  form->addRow(m_summary);
  connect(this, &QGroupBox::toggled, this, &GroundBox::changed);
  for (QDoubleSpinBox* s : {m_height, m_friction, m_time, m_stiffness, m_damping})
    connect(s, &QDoubleSpinBox::valueChanged, this, &GroundBox::changed);
}

dyn::GroundSettings GroundBox::settings() const {
  dyn::GroundSettings g;
  g.enabled = isChecked();
  g.height = m_height->value();
  g.friction = m_friction->value();
  g.timeConstant = m_time->value() * 1e-3;
  g.stiffness = m_stiffness->value();
  g.damping = g.stiffness > 0 ? m_damping->value() : 0;
  return g;
}

void GroundBox::setDefaultsFor(const dyn::Model& model) {
  // The lowest contact point at the home pose (a sphere by its radius).
  const dyn::ContactPointSet set = dyn::contactPoints(model);
  dyn::Data data(model);
  dyn::forwardKinematics(model, data, model.home());
  double lowest = 0;
  for (const dyn::ContactPoint& c : set.points)
    lowest = std::min(lowest, data.X0[c.body].pointToA(c.point).z() - c.radius);
  {
    const QSignalBlocker blockHeight(m_height), blockBox(this);  // one changed() for both
    m_height->setValue(std::floor(lowest * 1e3) / 1e3);  // at (a hair below) the lowest point: no start inside it
    setChecked(model.floatingBase && !set.points.empty());
  }
  setContactSummary(int(set.points.size()), [&] {
    QStringList notes;
    for (const std::string& n : set.notes) notes << QString::fromStdString(n);
    return notes;
  }());
  emit changed();
}

void GroundBox::setContactSummary(int points, const QStringList& notes) {
  QString text = tr("%n contact point(s) from the collision geometry", nullptr, points);
  for (const QString& n : notes) text += "\n" + n;
  m_summary->setText(text);
  m_summary->setVisible(true);
}
