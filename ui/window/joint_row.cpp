#include "window/joint_row.hpp"

#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "window/icons.hpp"

namespace {
constexpr int kSliderSteps = 2000;  // resolution of the slider; the spin box carries the exact value
constexpr double kMaxTorque = 1e9;  // N·m or N: beyond any robot, but lets a user provoke divergence
constexpr int kSliderMinWidth = 80, kSliderMinWidthWithTorque = 40;

// The τ box is as wide as an everyday value ("τ -9999.99 N·m"), not its ±1e9 range, and the same
// for N and N·m, so the column lines up and fits a laptop's dock; larger values scroll in the box.
class TorqueBox : public QDoubleSpinBox {
 public:
  using QDoubleSpinBox::QDoubleSpinBox;
  QSize sizeHint() const override {
    QSize s = QDoubleSpinBox::sizeHint();
    // Qt sizes for the longer of minimum and maximum with prefix, suffix and a space; swap that text.
    const QFontMetrics fm(font());
    const auto textWidth = [&](const QString& value, const QString& suffix) {
      return fm.horizontalAdvance(prefix() + value.left(18) + suffix + ' ');
    };
    const int ranged = std::max(textWidth(textFromValue(minimum()), this->suffix()),
                                textWidth(textFromValue(maximum()), this->suffix()));
    s.setWidth(s.width() - ranged + textWidth(textFromValue(-9999.99), " N·m"));
    return s;
  }
  QSize minimumSizeHint() const override { return sizeHint(); }

 protected:
  // Scrolling the list over a τ box must not change a running simulation's torque: the wheel
  // steps only a box the user has clicked into.
  void wheelEvent(QWheelEvent* event) override {
    if (hasFocus())
      QDoubleSpinBox::wheelEvent(event);
    else
      event->ignore();
  }
};

// Closed padlock when checked, a faint open one when not.
QIcon lockIcon() {
  // Built once and shared (QIcon is implicitly shared): parsing the SVGs per row was a tenth of
  // loading a 1,000-joint chain.
  static const QIcon icon = [] {
    QIcon i = dynscopeIcon("lock_open");  // Normal, Off; also registers the icon resources
    i.addFile(":/icons/lock_open.svg", QSize(), QIcon::Active, QIcon::Off);
    for (QIcon::Mode mode : {QIcon::Normal, QIcon::Active}) i.addFile(":/icons/lock.svg", QSize(), mode, QIcon::On);
    return i;
  }();
  return icon;
}
}  // namespace

JointRow::JointRow(const JointCoordinate& c, QWidget* parent) : QWidget(parent), m_c(c) {
  const QString id = c.label.isEmpty() ? c.jointName : c.jointName + "/" + c.label;
  setObjectName("jointRow:" + id);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 1, 4, 1);
  m_name = new QLabel(c.label.isEmpty() ? c.jointName : "  " + c.label, this);
  QString tip = QString("%1 (%2)").arg(c.jointName, c.jointType);
  if (c.limited && c.upper == c.lower)
    tip += QString("\nlimits [%1, %2] %3: the joint cannot move (see the Model check panel)")
               .arg(c.lower, 0, 'g', 4)
               .arg(c.upper, 0, 'g', 4)
               .arg(c.angular ? "rad" : "m");
  else if (c.limited)
    tip += QString("\nlimits [%1, %2] %3").arg(c.lower, 0, 'g', 4).arg(c.upper, 0, 'g', 4).arg(c.angular ? "rad" : "m");
  else if (c.wraps)
    tip += "\ncontinuous (wraps at ±180°)";
  else
    tip += "\nno limits in the file; editing range shown";
  m_name->setToolTip(tip);
  m_roleLabel = new QLabel(this);
  m_roleLabel->setObjectName("loopRole:" + id);
  m_roleLabel->setVisible(false);
  m_slider = new QSlider(Qt::Horizontal, this);
  m_slider->setObjectName("slider:" + id);
  m_slider->setRange(0, kSliderSteps);
  m_slider->setMinimumWidth(kSliderMinWidth);
  m_spin = new QDoubleSpinBox(this);
  m_spin->setObjectName("spin:" + id);
  m_spin->setWrapping(c.wraps);
  m_spin->setKeyboardTracking(false);  // typing "1.5" must not pose the robot at 1 first
  m_spin->setAccelerated(true);
  m_spin->setMinimumWidth(95);
  m_spin->setAlignment(Qt::AlignRight);

  m_lock = new QToolButton(this);
  m_lock->setObjectName("lock:" + id);
  m_lock->setCheckable(true);
  m_lock->setAutoRaise(true);
  m_lock->setIcon(lockIcon());
  m_lock->setIconSize(QSize(16, 16));
  m_lock->setText(tr("Lock"));  // for accessibility; the icon is what shows
  m_lock->setToolTip((c.label.isEmpty()
                          ? tr("Lock this joint for IK dragging")
                          : tr("Lock this joint (%1, all its coordinates) for IK dragging").arg(c.jointName)) +
                     tr("\nIK then keeps its value; the slider still moves it by hand."));

  m_torque = new TorqueBox(this);
  m_torque->setObjectName("torque:" + id);
  m_torque->setRange(-kMaxTorque, kMaxTorque);
  m_torque->setDecimals(2);
  m_torque->setSingleStep(c.angular ? 0.5 : 1.0);
  m_torque->setPrefix("τ ");
  m_torque->setSuffix(c.angular ? " N·m" : " N");
  m_torque->setKeyboardTracking(false);  // "12" must not apply 1 N·m to a running simulation first
  m_torque->setAlignment(Qt::AlignRight);
  m_torque->setButtonSymbols(QAbstractSpinBox::NoButtons);  // typed; arrow keys step; room for the slider
  m_torque->setFocusPolicy(Qt::StrongFocus);                // no focus by the wheel (see TorqueBox)
  m_torque->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
  m_torque->setVisible(false);

  // Limits of no width: nothing to slide (the spin box shows the one value).
  m_slider->setEnabled(!(c.limited && c.upper == c.lower));
  layout->addWidget(m_name);
  layout->addWidget(m_roleLabel);
  layout->addWidget(m_slider, 1);
  layout->addWidget(m_spin);
  layout->addWidget(m_torque);
  layout->addWidget(m_lock);
  connect(m_spin, &QDoubleSpinBox::valueChanged, this, &JointRow::onSpin);
  connect(m_slider, &QSlider::valueChanged, this, &JointRow::onSlider);
  connect(m_lock, &QToolButton::toggled, this, &JointRow::lockToggled);
  connect(m_torque, &QDoubleSpinBox::valueChanged, this, &JointRow::torqueEdited);
  setDegrees(false);
}

double JointRow::scale() const { return m_c.angular && m_degrees ? 180.0 / std::numbers::pi : 1.0; }

void JointRow::setNameWidth(int pixels) { m_name->setFixedWidth(pixels); }

void JointRow::setDegrees(bool degrees) {
  m_degrees = degrees;
  const QSignalBlocker block(m_spin);
  const double k = scale();
  m_spin->setDecimals(m_c.angular && degrees ? 2 : 4);
  m_spin->setSingleStep(m_c.angular ? (degrees ? 1.0 : 0.01) : 0.005);
  m_spin->setSuffix(m_c.angular ? (degrees ? " °" : " rad") : " m");
  m_spin->setRange(m_c.lower * k, m_c.upper * k);
  showValue();
}

void JointRow::setValue(double si) {
  m_value = si;
  showValue();
}

void JointRow::showValue() {
  const QSignalBlocker b1(m_spin), b2(m_slider);
  m_spin->setValue(m_value * scale());
  const double t = m_c.upper > m_c.lower ? (m_value - m_c.lower) / (m_c.upper - m_c.lower) : 0.5;
  m_slider->setValue(int(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps)));
}

void JointRow::onSpin(double shown) {
  m_value = shown / scale();
  const QSignalBlocker block(m_slider);
  const double t = m_c.upper > m_c.lower ? (m_value - m_c.lower) / (m_c.upper - m_c.lower) : 0.5;
  m_slider->setValue(int(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps)));
  emit valueEdited(m_value);
}

void JointRow::onSlider(int position) {
  m_value = m_c.lower + (m_c.upper - m_c.lower) * position / double(kSliderSteps);
  const QSignalBlocker block(m_spin);
  m_spin->setValue(m_value * scale());
  emit valueEdited(m_value);
}

bool JointRow::isLocked() const { return m_lock->isChecked(); }

void JointRow::setLocked(bool locked) {
  const QSignalBlocker block(m_lock);
  m_lock->setChecked(locked);
}

void JointRow::setTorqueDof(int dof, const QString& dofName) {
  m_dof = dof;
  const QString what = m_c.angular ? tr("torque (N·m)") : tr("force (N)");
  QString tip = tr("Constant %1 on %2 for the simulation\n(Simulation dock, Joint torques: “Constant per joint”)")
                    .arg(what, dofName);
  if (m_c.kind != JointCoordinate::Kind::Scalar || m_c.jointType == "floating")
    tip += tr("\nIn the link's coordinates, %1 its %2 axis")
               .arg(m_c.angular ? tr("about") : tr("along"))
               .arg(dofName.right(1));
  m_torque->setToolTip(tip);
}

void JointRow::setTorque(double tau) {
  const QSignalBlocker block(m_torque);
  m_torque->setValue(tau);
}

double JointRow::torque() const { return m_torque->value(); }

void JointRow::setTorqueVisible(bool visible) {
  m_torque->setVisible(visible);
  m_slider->setMinimumWidth(visible ? kSliderMinWidthWithTorque : kSliderMinWidth);  // the τ column takes room
}

void JointRow::setReadOnly(bool readOnly) {
  const bool movable = !readOnly && !(m_c.limited && m_c.upper == m_c.lower);
  m_slider->setEnabled(movable);
  m_spin->setReadOnly(readOnly);
  m_spin->setButtonSymbols(readOnly ? QAbstractSpinBox::NoButtons : QAbstractSpinBox::UpDownArrows);
  m_spin->setFocusPolicy(readOnly ? Qt::NoFocus : Qt::StrongFocus);
  m_spin->setEnabled(!readOnly);
  QFont f = m_name->font();
  f.setItalic(readOnly);
  m_name->setFont(f);
}

void JointRow::setFollows(const QString& master, double multiplier, double offset) {
  m_role = LoopRole::Dependent;
  setReadOnly(true);
  m_roleLabel->setVisible(true);
  m_roleLabel->setText(QStringLiteral("<span style='color:#777'>mim</span>"));
  const bool angular = m_c.angular;
  const QString b = offset == 0 ? QString()
                    : angular
                        ? QString(" %1 %2°").arg(offset < 0 ? "−" : "+").arg(std::abs(offset) * 180 / M_PI, 0, 'g', 4)
                        : QString(" %1 %2 m").arg(offset < 0 ? "−" : "+").arg(std::abs(offset), 0, 'g', 4);
  const QString relation =
      QString("q = %1 · q<sub>%2</sub>%3").arg(multiplier, 0, 'g', 6).arg(master.toHtmlEscaped(), b);
  m_roleLabel->setToolTip(tr("Mimic joint: %1. It follows %2 and cannot be set here; move %2 (sliders, IK, "
                             "playback and simulation all keep the relation).")
                              .arg(relation, master.toHtmlEscaped()));
  m_name->setToolTip(m_roleLabel->toolTip());
}

void JointRow::setLoopRole(LoopRole role, bool actuated) {
  m_role = role;
  m_roleLabel->setVisible(role != LoopRole::None);
  const bool dependent = role == LoopRole::Dependent;
  // A dependent coordinate is solved for by the assembly: shown, never edited.
  setReadOnly(dependent);
  if (role == LoopRole::None) return;
  const QString power = actuated ? tr("actuated") : tr("passive");
  if (dependent) {
    m_roleLabel->setText(QStringLiteral("<span style='color:#777'>dep</span>"));
    m_roleLabel->setToolTip(tr("Dependent coordinate (%1): the loop-closure assembly solves for it from the "
                               "independent ones; it follows them and cannot be set here.")
                                .arg(power));
  } else {
    m_roleLabel->setText(QStringLiteral("<b style='color:#1f5fbf'>ind</b>"));
    m_roleLabel->setToolTip(tr("Independent coordinate (%1): moving it re-assembles the closed loops, the "
                               "dependent joints follow.")
                                .arg(power));
  }
}
