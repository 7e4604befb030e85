#include "window/joint_row.hpp"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace {
constexpr int kSliderSteps = 2000;  // resolution of the slider; the spin box carries the exact value
}

JointRow::JointRow(const JointCoordinate& c, QWidget* parent) : QWidget(parent), m_c(c) {
  const QString id = c.label.isEmpty() ? c.jointName : c.jointName + "/" + c.label;
  setObjectName("jointRow:" + id);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 1, 4, 1);
  m_name = new QLabel(c.label.isEmpty() ? c.jointName : "  " + c.label, this);
  QString tip = QString("%1 (%2)").arg(c.jointName, c.jointType);
  if (c.limited)
    tip += QString("\nlimits [%1, %2] %3").arg(c.lower, 0, 'g', 4).arg(c.upper, 0, 'g', 4).arg(c.angular ? "rad" : "m");
  else if (c.wraps)
    tip += "\ncontinuous (wraps at ±180°)";
  else
    tip += "\nno limits in the file; editing range shown";
  m_name->setToolTip(tip);
  m_slider = new QSlider(Qt::Horizontal, this);
  m_slider->setObjectName("slider:" + id);
  m_slider->setRange(0, kSliderSteps);
  m_slider->setMinimumWidth(80);
  m_spin = new QDoubleSpinBox(this);
  m_spin->setObjectName("spin:" + id);
  m_spin->setWrapping(c.wraps);
  m_spin->setKeyboardTracking(false);  // typing "1.5" must not pose the robot at 1 first
  m_spin->setAccelerated(true);
  m_spin->setMinimumWidth(95);
  m_spin->setAlignment(Qt::AlignRight);
  layout->addWidget(m_name);
  layout->addWidget(m_slider, 1);
  layout->addWidget(m_spin);
  connect(m_spin, &QDoubleSpinBox::valueChanged, this, &JointRow::onSpin);
  connect(m_slider, &QSlider::valueChanged, this, &JointRow::onSlider);
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
  const double t = (m_value - m_c.lower) / (m_c.upper - m_c.lower);
  m_slider->setValue(int(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps)));
  emit valueEdited(m_value);
}

void JointRow::onSlider(int position) {
  m_value = m_c.lower + (m_c.upper - m_c.lower) * position / double(kSliderSteps);
  const QSignalBlocker block(m_spin);
  m_spin->setValue(m_value * scale());
  emit valueEdited(m_value);
}
