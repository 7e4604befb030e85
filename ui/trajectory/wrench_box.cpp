#include "trajectory/wrench_box.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

#include "document/robot_document.hpp"
#include "trajectory/trajectory_document.hpp"
#include "widgets/link_box.hpp"

WrenchBox::WrenchBox(TrajectoryDocument* doc, QWidget* parent) : QGroupBox(tr("External wrench"), parent), m_doc(doc) {
  setObjectName("wrenchBox");
  setToolTip(
      tr("A steady push on a link from outside (a hand, a cable): the joints give τ = ID − Jᵀf,\n"
         "drawn as an arrow in the 3D view and taken by the simulation"));
  auto* form = new QFormLayout(this);
  m_on = new QCheckBox(tr("Force and moment on a link"), this);
  m_on->setObjectName("wrenchOn");
  form->addRow(m_on);
  m_link = new QComboBox(this);
  m_link->setObjectName("wrenchLink");
  form->addRow(tr("Link"), m_link);
  const auto row = [&](QDoubleSpinBox*(&boxes)[3], double range, int decimals, const QString& unit,
                       const QString& label, const QString& tip, const char* name) {
    auto* line = new QHBoxLayout;
    for (int k = 0; k < 3; ++k) {
      boxes[k] = numberBox(-range, range, decimals, unit, this);
      boxes[k]->setObjectName(QString("%1%2").arg(name).arg(QChar('x' + k)));
      boxes[k]->setToolTip(tip.arg(QChar('x' + k)));
      line->addWidget(boxes[k]);
      connect(boxes[k], &QDoubleSpinBox::valueChanged, this, &WrenchBox::apply);
    }
    form->addRow(label, line);
  };
  row(m_force, 1e6, 2, tr(" N"), tr("Force"), tr("Force along the world's %1 axis"), "wrenchForce");
  row(m_moment, 1e6, 3, tr(" N·m"), tr("Moment"), tr("Moment about the world's %1 axis (besides the force's own)"),
      "wrenchMoment");
  row(m_point, 100, 3, tr(" m"), tr("At"), tr("Where the force acts: %1 in the link's coordinates"), "wrenchPoint");
  m_problem = new QLabel(this);
  m_problem->setWordWrap(true);
  m_problem->setStyleSheet("color: #b00020;");
  m_problem->hide();
  form->addRow(m_problem);
  connect(m_on, &QCheckBox::toggled, this, &WrenchBox::apply);
  connect(m_link, &QComboBox::currentIndexChanged, this, &WrenchBox::apply);
  connect(m_doc->robot(), &RobotDocument::modelChanged, this, &WrenchBox::refreshLinks);
  connect(m_doc, &TrajectoryDocument::dynamicsChanged, this, &WrenchBox::refresh);  // a project, a new robot
  refreshLinks();
}

void WrenchBox::refreshLinks() {
  fillLinkBox(m_link, m_doc->robot()->model());
  refresh();
}

void WrenchBox::refresh() {
  m_refreshing = true;
  const std::optional<dyn::LinkWrench>& w = m_doc->wrench();
  const QSignalBlocker b(m_on), l(m_link);
  m_on->setChecked(w.has_value());
  if (w) {
    if (const int link = m_link->findText(QString::fromStdString(w->link)); link >= 0) m_link->setCurrentIndex(link);
    for (int k = 0; k < 3; ++k) {
      const QSignalBlocker bf(m_force[k]), bm(m_moment[k]), bp(m_point[k]);
      m_force[k]->setValue(w->force[k]);
      m_moment[k]->setValue(w->moment[k]);
      m_point[k]->setValue(w->point[k]);
    }
  }
  m_refreshing = false;
}

void WrenchBox::apply() {
  if (m_refreshing) return;
  QString error;
  std::optional<dyn::LinkWrench> w;
  if (m_on->isChecked() && m_link->currentIndex() >= 0) {
    w.emplace();
    w->link = m_link->currentText().toStdString();
    for (int k = 0; k < 3; ++k) {
      w->force[k] = m_force[k]->value();
      w->moment[k] = m_moment[k]->value();
      w->point[k] = m_point[k]->value();
    }
  }
  const bool ok = m_doc->setWrench(w, &error);
  m_problem->setText(error);
  m_problem->setVisible(!ok);
}
