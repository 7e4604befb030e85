#include "trajectory/trajectory_dock.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "document/robot_document.hpp"
#include "trajectory/trajectory_document.hpp"
#include "trajectory/waypoint_commands.hpp"
#include "trajectory/wrench_box.hpp"
#include "widgets/link_box.hpp"
#include "widgets/vertical_scroll_area.hpp"

namespace {

QPushButton* button(const QString& text, const QString& tip, QWidget* parent) {
  auto* b = new QPushButton(text, parent);
  b->setToolTip(tip);
  b->setAutoDefault(false);
  return b;
}

}  // namespace

TrajectoryDock::TrajectoryDock(TrajectoryDocument* doc, QUndoStack* undo, QWidget* parent)
    : QDockWidget(tr("Trajectory"), parent), m_doc(doc), m_undo(undo) {
  setObjectName("trajectoryDock");
  auto* body = new QWidget;
  auto* col = new QVBoxLayout(body);

  m_source = new QLabel(body);
  m_source->setObjectName("trajectorySource");
  m_source->setWordWrap(true);
  m_problem = new QLabel(body);
  m_problem->setObjectName("trajectoryProblem");
  m_problem->setWordWrap(true);
  m_problem->setStyleSheet("color: #c62828");
  col->addWidget(m_source);
  col->addWidget(m_problem);

  // Waypoints: time (editable) and a summary of the pose.
  m_table = new QTableWidget(0, 2, body);
  m_table->setObjectName("waypointTable");
  m_table->setHorizontalHeaderLabels({tr("t [s]"), tr("pose")});
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setMinimumHeight(120);
  connect(m_table, &QTableWidget::cellChanged, this, &TrajectoryDock::onTimeEdited);
  connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int, int column) {
    if (column == 1) goToSelected();
  });
  col->addWidget(m_table, 1);

  auto* buttons = new QGridLayout;  // two rows: the dock stays narrow next to the 3D view
  auto* add = button(tr("Add pose"), tr("Append the robot's current pose as a waypoint (Ctrl+Shift+A)"), body);
  add->setObjectName("addWaypoint");
  auto* update = button(tr("Update"), tr("Replace the selected waypoint's pose by the current pose"), body);
  auto* go = button(tr("Go to"), tr("Pose the robot at the selected waypoint (or double-click its pose)"), body);
  auto* del = button(tr("Delete"), tr("Delete the selected waypoint"), body);
  auto* up = button(QStringLiteral("▲"), tr("Move the selected pose earlier (times stay in order)"), body);
  auto* down = button(QStringLiteral("▼"), tr("Move the selected pose later (times stay in order)"), body);
  connect(add, &QPushButton::clicked, this, &TrajectoryDock::addCurrentPose);
  connect(update, &QPushButton::clicked, this, &TrajectoryDock::updateSelected);
  connect(go, &QPushButton::clicked, this, &TrajectoryDock::goToSelected);
  connect(del, &QPushButton::clicked, this, &TrajectoryDock::deleteSelected);
  connect(up, &QPushButton::clicked, this, [this] { moveSelected(-1); });
  connect(down, &QPushButton::clicked, this, [this] { moveSelected(+1); });
  int cell = 0;
  for (QPushButton* b : {add, update, go, del, up, down}) buttons->addWidget(b, cell / 3, cell % 3), ++cell;
  for (QPushButton* b : {up, down}) b->setMaximumWidth(QWIDGETSIZE_MAX);
  col->addLayout(buttons);

  auto* form = new QFormLayout;
  m_interpolation = new QComboBox(body);
  m_interpolation->setObjectName("interpolationBox");
  m_interpolation->addItem(tr("Quintic (rest at every waypoint)"), int(dyn::Interpolation::Quintic));
  m_interpolation->addItem(tr("Cubic spline (C², rest at the ends)"), int(dyn::Interpolation::CubicSpline));
  m_interpolation->addItem(tr("Trapezoidal velocity"), int(dyn::Interpolation::Trapezoidal));
  connect(m_interpolation, &QComboBox::activated, this, [this](int i) {
    const auto kind = dyn::Interpolation(m_interpolation->itemData(i).toInt());
    if (kind != m_doc->interpolation()) m_undo->push(new SetInterpolationCommand(m_doc, kind));
  });
  form->addRow(tr("Interpolation"), m_interpolation);
  m_rate = numberBox(1, 100000, 0, tr(" Hz"), body);
  m_rate->setObjectName("rateBox");
  m_rate->setToolTip(tr("Samples per second of the interpolated trajectory"));
  connect(m_rate, &QDoubleSpinBox::valueChanged, m_doc, &TrajectoryDocument::setSampleRate);
  form->addRow(tr("Sample rate"), m_rate);
  col->addLayout(form);

  // Dynamics settings: what the torques are computed for.
  // What the torques act against: a payload, a steady wrench from outside, gravity. Tabs, so that the
  // waypoints keep the dock's height on a laptop; a tab whose load acts says so in its label.
  auto* loads = m_loads = new QTabWidget(body);
  loads->setObjectName("trajectoryLoads");
  auto* payload = new QWidget(loads);
  auto* pform = new QFormLayout(payload);
  m_payloadOn = new QCheckBox(tr("Point mass on a link"), payload);
  m_payloadOn->setObjectName("payloadOn");
  m_payloadLink = new QComboBox(payload);
  m_payloadLink->setObjectName("payloadLink");
  m_payloadMass = numberBox(0, 1e4, 3, tr(" kg"), payload);
  m_payloadMass->setObjectName("payloadMass");
  m_payloadMass->setValue(1.0);
  auto* com = new QHBoxLayout;
  for (int k = 0; k < 3; ++k) {
    m_payloadCom[k] = numberBox(-10, 10, 3, tr(" m"), payload);
    m_payloadCom[k]->setToolTip(tr("Offset of the mass from the link's frame, %1").arg(QChar('x' + k)));
    com->addWidget(m_payloadCom[k]);
    connect(m_payloadCom[k], &QDoubleSpinBox::valueChanged, this, &TrajectoryDock::applyPayload);
  }
  pform->addRow(m_payloadOn);
  pform->addRow(tr("Link"), m_payloadLink);
  pform->addRow(tr("Mass"), m_payloadMass);
  pform->addRow(tr("Offset"), com);
  connect(m_payloadOn, &QCheckBox::toggled, this, &TrajectoryDock::applyPayload);
  connect(m_payloadLink, &QComboBox::currentIndexChanged, this, &TrajectoryDock::applyPayload);
  connect(m_payloadMass, &QDoubleSpinBox::valueChanged, this, &TrajectoryDock::applyPayload);
  loads->addTab(payload, tr("Payload"));
  auto* wrench = new WrenchBox(m_doc, loads);  // a steady push from outside
  wrench->setTitle(QString());                 // the tab says it
  wrench->setFlat(true);
  loads->addTab(wrench, tr("External wrench"));

  auto* gravity = new QWidget(loads);
  auto* gcol = new QVBoxLayout(gravity);
  auto* grow = new QHBoxLayout;
  gcol->addLayout(grow);
  for (int k = 0; k < 3; ++k) {
    m_gravity[k] = numberBox(-1000, 1000, 3, QString(), gravity);
    m_gravity[k]->setObjectName(QString("gravity%1").arg(QChar('x' + k)));
    m_gravity[k]->setToolTip(tr("Gravity %1 [m/s²] in the world frame").arg(QChar('x' + k)));
    grow->addWidget(m_gravity[k]);
    connect(m_gravity[k], &QDoubleSpinBox::valueChanged, this, &TrajectoryDock::applyGravity);
  }
  grow->addWidget(new QLabel(tr("m/s²"), gravity));
  m_gravityReset = button(tr("Model's"), tr("Use the gravity the robot file gives"), gravity);
  connect(m_gravityReset, &QPushButton::clicked, this, [this] { m_doc->setGravity(std::nullopt); });
  gcol->addWidget(m_gravityReset, 0, Qt::AlignRight);  // below: the dock stays narrow
  loads->addTab(gravity, tr("Gravity"));
  col->addWidget(loads);
  connect(m_doc, &TrajectoryDocument::dynamicsChanged, this, &TrajectoryDock::labelLoads);
  labelLoads();

  auto* scroll = new VerticalScrollArea(this);  // never clips a number sideways
  scroll->setWidget(body);
  setWidget(scroll);

  connect(m_doc, &TrajectoryDocument::trajectoryChanged, this, &TrajectoryDock::refresh);
  connect(m_doc->robot(), &RobotDocument::modelChanged, this, &TrajectoryDock::refreshPayloadLinks);
  refreshPayloadLinks();
  refresh();
}

int TrajectoryDock::selectedRow() const {
  const auto rows = m_table->selectionModel()->selectedRows();
  return rows.isEmpty() ? -1 : rows.first().row();
}

QString TrajectoryDock::poseSummary(int w) const {
  // Joint values in degrees for revolute joints (what a lecturer reads), metres otherwise.
  const dyn::Model& m = m_doc->robot()->model();
  const Eigen::VectorXd& q = m_doc->waypoints()[w].q;
  QStringList parts;
  for (int i = 1; i <= m.N && parts.size() < 8; ++i) {
    const auto& J = m.joints[i];
    if (J.nq != 1) {
      parts << QString::fromStdString(m.jointNames[i]) + "=…";
      continue;
    }
    const bool angle = J.type == dyn::JointType::Revolute;
    const double v = angle ? q[J.idx_q] * 180 / std::numbers::pi : q[J.idx_q];
    parts << QString::number(v, 'f', angle ? 1 : 3) + (angle ? "°" : " m");
  }
  if (m.N > 8) parts << "…";
  return parts.join("  ");
}

void TrajectoryDock::refresh() {
  m_refreshing = true;
  m_source->setText(tr("Source: %1").arg(m_doc->sourceDescription()));
  m_problem->setText(m_doc->problem());
  m_problem->setVisible(!m_doc->problem().isEmpty());
  const int selected = selectedRow();
  const auto& w = m_doc->waypoints();
  m_table->setRowCount(int(w.size()));
  for (int r = 0; r < int(w.size()); ++r) {
    auto* t = new QTableWidgetItem(QString::number(w[r].t, 'g', 10));
    t->setData(Qt::UserRole, w[r].t);
    auto* pose = new QTableWidgetItem(poseSummary(r));
    pose->setFlags(pose->flags() & ~Qt::ItemIsEditable);
    pose->setToolTip(tr("Double-click to pose the robot here"));
    m_table->setItem(r, 0, t);
    m_table->setItem(r, 1, pose);
  }
  if (selected >= 0 && selected < m_table->rowCount()) m_table->selectRow(selected);
  {
    const QSignalBlocker b1(m_interpolation), b2(m_rate);
    m_interpolation->setCurrentIndex(m_interpolation->findData(int(m_doc->interpolation())));
    m_rate->setValue(m_doc->sampleRate());
  }
  const Eigen::Vector3d g = m_doc->gravity();
  for (int k = 0; k < 3; ++k) {
    const QSignalBlocker b(m_gravity[k]);
    m_gravity[k]->setValue(g[k]);
  }
  m_gravityReset->setEnabled(m_doc->gravityOverridden());
  // The payload as the document has it (set here, or by a project, or cleared by a new robot).
  const std::optional<dyn::Payload>& p = m_doc->payload();
  {
    const QSignalBlocker b1(m_payloadOn), b2(m_payloadLink), b3(m_payloadMass);
    m_payloadOn->setChecked(p.has_value());
    if (p) {
      const int link = m_payloadLink->findText(QString::fromStdString(p->link));
      if (link >= 0) m_payloadLink->setCurrentIndex(link);
      m_payloadMass->setValue(p->mass);
    }
    for (int k = 0; k < 3; ++k) {
      const QSignalBlocker b(m_payloadCom[k]);
      if (p) m_payloadCom[k]->setValue(p->com[k]);
    }
  }
  m_refreshing = false;
}

void TrajectoryDock::labelLoads() {
  const auto label = [](const QString& name, bool on) { return on ? tr("%1 · on").arg(name) : name; };
  m_loads->setTabText(0, label(tr("Payload"), m_doc->payload().has_value()));
  m_loads->setTabText(1, label(tr("External wrench"), m_doc->wrench().has_value()));
  m_loads->setTabText(2, label(tr("Gravity"), m_doc->gravityOverridden()));
}

void TrajectoryDock::refreshPayloadLinks() {
  fillLinkBox(m_payloadLink, m_doc->robot()->model());
  refresh();  // the payload widgets follow the document (which keeps a payload whose link still exists)
}

void TrajectoryDock::applyPayload() {
  if (!m_payloadOn->isChecked() || m_payloadLink->currentIndex() < 0) {
    m_doc->setPayload(std::nullopt);
    return;
  }
  dyn::Payload p;
  p.link = m_payloadLink->currentText().toStdString();
  p.mass = m_payloadMass->value();
  for (int k = 0; k < 3; ++k) p.com[k] = m_payloadCom[k]->value();
  QString error;
  if (!m_doc->setPayload(p, &error)) {
    m_problem->setText(error);
    m_problem->setVisible(true);
  }
}

void TrajectoryDock::applyGravity() {
  m_doc->setGravity(Eigen::Vector3d(m_gravity[0]->value(), m_gravity[1]->value(), m_gravity[2]->value()));
}

void TrajectoryDock::addCurrentPose() {
  auto w = m_doc->source() == TrajectoryDocument::Source::Waypoints ? m_doc->waypoints() : std::vector<dyn::Waypoint>{};
  const double t = w.empty() ? 0.0 : w.back().t + 1.0;
  w.push_back({t, m_doc->robot()->q()});
  m_undo->push(new SetWaypointsCommand(m_doc, std::move(w), tr("Add waypoint")));
  m_table->selectRow(m_table->rowCount() - 1);
  showTime(t);
}

void TrajectoryDock::showTime(double t) {
  // The robot shows the pose just stored: the time moves to its waypoint, so that the timeline,
  // the plots' cursor and τ are those of the pose on screen (the new samples first).
  m_doc->recomputeNow();
  m_doc->setTime(t);
}

void TrajectoryDock::updateSelected() {
  const int r = selectedRow();
  if (r < 0) return;
  auto w = m_doc->waypoints();
  w[r].q = m_doc->robot()->q();
  const double t = w[r].t;
  m_undo->push(new SetWaypointsCommand(m_doc, std::move(w), tr("Update waypoint %1").arg(r + 1)));
  showTime(t);
}

void TrajectoryDock::goToSelected() {
  const int r = selectedRow();
  if (r >= 0) m_doc->robot()->setQ(m_doc->waypoints()[r].q);
}

void TrajectoryDock::deleteSelected() {
  const int r = selectedRow();
  if (r < 0) return;
  auto w = m_doc->waypoints();
  w.erase(w.begin() + r);
  m_undo->push(new SetWaypointsCommand(m_doc, std::move(w), tr("Delete waypoint %1").arg(r + 1)));
}

void TrajectoryDock::moveSelected(int direction) {
  const int r = selectedRow(), s = r + direction;
  auto w = m_doc->waypoints();
  if (r < 0 || s < 0 || s >= int(w.size())) return;
  std::swap(w[r].q, w[s].q);
  m_undo->push(new SetWaypointsCommand(m_doc, std::move(w), tr("Reorder waypoints")));
  m_table->selectRow(s);
}

void TrajectoryDock::onTimeEdited(int row, int column) {
  if (m_refreshing || column != 0) return;
  auto w = m_doc->waypoints();
  if (row < 0 || row >= int(w.size())) return;
  bool ok = false;
  const double t = m_table->item(row, 0)->text().toDouble(&ok);
  if (!ok || !std::isfinite(t)) {
    refresh();  // not a number: restore the old time
    return;
  }
  w[row].t = t;
  // Times must increase: an edited time moves its waypoint to its place in the order.
  std::stable_sort(w.begin(), w.end(), [](const auto& a, const auto& b) { return a.t < b.t; });
  QMetaObject::invokeMethod(
      this,
      [this, w = std::move(w), row] {  // not from inside the table's signal
        m_undo->push(new SetWaypointsCommand(m_doc, w, tr("Retime waypoint %1").arg(row + 1)));
      },
      Qt::QueuedConnection);
}
