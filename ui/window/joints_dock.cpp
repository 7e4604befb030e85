#include "window/joints_dock.hpp"

#include <QCheckBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "document/robot_document.hpp"
#include "dynscope/model/mimic_coupling.hpp"
#include "dynscope/model/names.hpp"
#include "window/app_settings.hpp"
#include "window/joint_row.hpp"

namespace {

// Hides the rows' host while many rows are added, removed, shown or hidden: each such change of a
// visible widget lays out all rows again (quadratic on a 1,000-joint chain); hidden, the host is laid
// out once when it is shown again.
class HiddenWhileChanging {
 public:
  explicit HiddenWhileChanging(QWidget* host) : m_host(host), m_wasVisible(host->isVisible()) {
    if (m_wasVisible) m_host->hide();
  }
  ~HiddenWhileChanging() {
    if (m_wasVisible) m_host->show();
  }
  HiddenWhileChanging(const HiddenWhileChanging&) = delete;
  HiddenWhileChanging& operator=(const HiddenWhileChanging&) = delete;

 private:
  QWidget* m_host;
  bool m_wasVisible;
};

}  // namespace

JointsDock::JointsDock(RobotDocument* document, QWidget* parent) : QDockWidget(tr("Joints"), parent), m_doc(document) {
  setObjectName("jointsDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(2, 2, 2, 2);

  auto* top = new QHBoxLayout;
  m_filter = new QLineEdit(body);
  m_filter->setObjectName("jointFilter");
  m_filter->setPlaceholderText(tr("Filter joints…"));
  m_filter->setClearButtonEnabled(true);
  m_degreesBox = new QCheckBox(tr("Degrees"), body);
  m_degreesBox->setObjectName("degreesBox");
  top->addWidget(m_filter, 1);
  top->addWidget(m_degreesBox);
  layout->addLayout(top);

  auto* buttons = new QHBoxLayout;
  auto* zero = new QPushButton(tr("Zero"), body);
  zero->setObjectName("zeroButton");
  zero->setToolTip(tr("All joints to zero (clamped into their limits)"));
  auto* home = new QToolButton(body);
  home->setObjectName("homeButton");
  home->setText(tr("Home"));
  home->setToolTip(
      tr("The pose at load time, or the one stored with “Set current pose as home”; the "
         "menu also has the poses the file names (MJCF keyframes)"));
  home->setPopupMode(QToolButton::MenuButtonPopup);
  m_homeMenu = new QMenu(home);
  m_homeMenu->setObjectName("homeMenu");
  home->setMenu(m_homeMenu);
  home->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  auto* randomize = new QPushButton(tr("Randomize"), body);
  randomize->setObjectName("randomizeButton");
  randomize->setToolTip(tr("Uniformly random joint values within the limits"));
  buttons->addWidget(zero);
  buttons->addWidget(home);
  buttons->addWidget(randomize);
  buttons->addStretch();
  m_summary = new QLabel(body);
  buttons->addWidget(m_summary);
  layout->addLayout(buttons);
  m_torqueHint = new QLabel(tr("τ: constant joint torques for the simulation"), body);
  m_torqueHint->setObjectName("jointTorqueHint");
  m_torqueHint->setToolTip(tr("Used while the Simulation dock's torque source is “Constant per joint”"));
  m_torqueHint->setVisible(false);
  layout->addWidget(m_torqueHint);
  m_loopLabel = new QLabel(body);
  m_loopLabel->setObjectName("jointLoopStatus");
  m_loopLabel->setWordWrap(true);
  m_loopLabel->setVisible(false);
  layout->addWidget(m_loopLabel);

  auto* scroll = new QScrollArea(body);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  m_rowsHost = new QWidget(scroll);
  m_rowsLayout = new QVBoxLayout(m_rowsHost);
  m_rowsLayout->setContentsMargins(0, 0, 0, 0);
  m_rowsLayout->setSpacing(0);
  m_rowsLayout->addStretch();
  scroll->setWidget(m_rowsHost);
  layout->addWidget(scroll, 1);
  setWidget(body);

  QSettings s(kSettingsOrganization, kSettingsApplication);
  m_degrees = s.value("joints/degrees", true).toBool();
  m_degreesBox->setChecked(m_degrees);

  connect(m_filter, &QLineEdit::textChanged, this, &JointsDock::setFilter);
  connect(m_degreesBox, &QCheckBox::toggled, this, &JointsDock::setDegrees);
  connect(zero, &QPushButton::clicked, m_doc, &RobotDocument::setZero);
  connect(home, &QToolButton::clicked, m_doc, &RobotDocument::goHome);
  connect(randomize, &QPushButton::clicked, m_doc, &RobotDocument::randomize);
  connect(m_doc, &RobotDocument::modelChanged, this, &JointsDock::rebuild);
  connect(m_doc, &RobotDocument::modelChanged, this, &JointsDock::rebuildHomeMenu);
  rebuildHomeMenu();
  connect(m_doc, &RobotDocument::poseChanged, this, &JointsDock::refresh);
  connect(m_doc, &RobotDocument::constantTorquesChanged, this, &JointsDock::refreshTorques);
  connect(m_doc, &RobotDocument::loopClosureFailed, this, [this](const QString& why) {
    m_loopLabel->setText(QStringLiteral("<span style='color:#b02020'>%1</span>").arg(why.toHtmlEscaped()));
    m_loopLabel->setToolTip(why);
  });
  rebuild();
}

JointRow* JointsDock::row(const QString& jointName, const QString& label) const {
  for (JointRow* r : m_rows)
    if (r->coordinate().jointName == jointName && r->coordinate().label == label) return r;
  return nullptr;
}

void JointsDock::setDegrees(bool on) {
  m_degrees = on;
  if (m_degreesBox->isChecked() != on) m_degreesBox->setChecked(on);
  for (JointRow* r : m_rows) r->setDegrees(on);
  QSettings s(kSettingsOrganization, kSettingsApplication);
  s.setValue("joints/degrees", on);
}

void JointsDock::setFilter(const QString& text) {
  if (m_filter->text() != text) m_filter->setText(text);
  const HiddenWhileChanging batch(m_rowsHost);
  int shown = 0;
  for (JointRow* r : m_rows) {
    const JointCoordinate& c = r->coordinate();
    const bool match = text.isEmpty() || c.jointName.contains(text, Qt::CaseInsensitive) ||
                       c.jointType.contains(text, Qt::CaseInsensitive);
    if (r->isHidden() == match) r->setVisible(match);
    shown += match;
  }
  for (QWidget* h : m_headers) {  // a joint's header follows its rows
    const QString joint = h->objectName().section(':', 1);
    h->setVisible(std::any_of(m_rows.begin(), m_rows.end(),
                              [&](JointRow* r) { return r->coordinate().jointName == joint && !r->isHidden(); }));
  }
  m_summary->setText(text.isEmpty() ? tr("%n coordinate(s)", "", int(m_rows.size()))
                                    : tr("%1 of %2").arg(shown).arg(m_rows.size()));
}

void JointsDock::rebuildHomeMenu() {
  m_homeMenu->clear();
  m_homeMenu->addAction(tr("Set current pose as home"), m_doc, &RobotDocument::setHome);
  const std::vector<dyn::NamedPose>& poses = m_doc->model().poses;
  if (poses.empty()) return;
  m_homeMenu->addSection(tr("Poses in the file"));
  for (const dyn::NamedPose& p : poses) {
    const QString name = QString::fromStdString(p.name);
    QAction* a = m_homeMenu->addAction(name, this, [this, q = p.q] { m_doc->setQ(q); });
    a->setObjectName("pose:" + name);
  }
}

void JointsDock::rebuild() {
  const dyn::Model& model = m_doc->model();
  const std::vector<JointCoordinate> coords = jointCoordinates(model);
  // An edit that kept the tree and every row's range (a mass, an origin): the rows stay.
  if (m_doc->modelKeptTree() && coords.size() == m_rows.size() &&
      std::equal(coords.begin(), coords.end(), m_rows.begin(),
                 [](const JointCoordinate& c, const JointRow* r) { return c == r->coordinate(); })) {
    refresh();
    refreshTorques();
    return;
  }
  const HiddenWhileChanging batch(m_rowsHost);
  for (JointRow* r : m_rows) delete r;
  for (QWidget* h : m_headers) delete h;
  m_rows.clear();
  m_headers.clear();
  const std::vector<std::string> dofNames = dyn::velocityNames(model);
  QString previousJoint;
  int insertAt = 0;
  for (const JointCoordinate& c : coords) {
    if (!c.label.isEmpty() && c.jointName != previousJoint) {  // multi-coordinate joint: a header line
      auto* header =
          new QLabel(QString("<b>%1</b> <i>(%2)</i>").arg(c.jointName.toHtmlEscaped(), c.jointType), m_rowsHost);
      header->setContentsMargins(4, 4, 4, 0);
      header->setObjectName("jointHeader:" + c.jointName);
      m_rowsLayout->insertWidget(insertAt++, header);
      m_headers.push_back(header);
    }
    previousJoint = c.jointName;
    auto* r = new JointRow(c, m_rowsHost);
    r->setDegrees(m_degrees);
    const int dof = coordinateDof(model, c);
    r->setTorqueDof(dof, QString::fromStdString(dofNames[size_t(dof)]));
    r->setTorqueVisible(m_showTorques);
    if (model.hasLoops())
      r->setLoopRole(m_doc->isDependentDof(dof) ? JointRow::LoopRole::Dependent : JointRow::LoopRole::Independent,
                     model.isActuated(dof));
    if (m_doc->isMimicFollower(c.body)) {  // the relation as enforced: to the root of a chain of mimics
      const dyn::MimicCoupling& mc = *m_doc->mimic();
      r->setFollows(QString::fromStdString(model.jointNames[size_t(mc.rootMaster[size_t(c.body)])]),
                    mc.qMultiplier[size_t(c.qIndex)], mc.qOffset[size_t(c.qIndex)]);
    }
    connect(r, &JointRow::valueEdited, this, [this, r](double v) { onRowEdited(r, v); });
    connect(r, &JointRow::lockToggled, this, [this, body = c.body](bool on) {
      setJointLocked(body, on);  // the joint's other rows
      emit jointLockToggled(body, on);
    });
    connect(r, &JointRow::torqueEdited, m_doc, [this, dof](double tau) { m_doc->setConstantTorque(dof, tau); });
    m_rowsLayout->insertWidget(insertAt++, r);
    m_rows.push_back(r);
  }
  fitNameWidth();
  setFilter(m_filter->text());
  refresh();
  refreshTorques();
}

void JointsDock::setJointLocked(int body, bool locked) {
  for (JointRow* r : m_rows)
    if (r->coordinate().body == body) r->setLocked(locked);
}

bool JointsDock::isJointLocked(int body) const {
  return std::any_of(m_rows.begin(), m_rows.end(),
                     [body](JointRow* r) { return r->coordinate().body == body && r->isLocked(); });
}

void JointsDock::setTorqueColumnVisible(bool visible) {
  m_showTorques = visible;
  m_torqueHint->setVisible(visible);
  for (JointRow* r : m_rows) r->setTorqueVisible(visible);
}

void JointsDock::refreshTorques() {
  const Eigen::VectorXd& tau = m_doc->constantTorques();
  for (JointRow* r : m_rows)
    if (r->torqueDof() >= 0 && r->torqueDof() < tau.size()) r->setTorque(tau[r->torqueDof()]);
}

void JointsDock::fitNameWidth() {
  const QFontMetrics fm(font());
  const int em = fm.horizontalAdvance('M');
  int nameWidth = 5 * em;
  for (JointRow* r : m_rows) {
    const JointCoordinate& c = r->coordinate();
    nameWidth = std::max(nameWidth, fm.horizontalAdvance(c.label.isEmpty() ? c.jointName : "  " + c.label) + em / 2);
  }
  nameWidth = std::min(nameWidth, 20 * em);  // very long names are elided by the label, full name in the tooltip
  for (JointRow* r : m_rows) r->setNameWidth(nameWidth);
}

int JointsDock::preferredWidth() const {
  const int scrollBar = style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  return std::max(m_rowsHost->sizeHint().width(), widget()->minimumSizeHint().width()) + scrollBar + 8;
}

void JointsDock::changeEvent(QEvent* event) {
  QDockWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange) fitNameWidth();  // presentation mode
}

void JointsDock::refresh() {
  refreshLoopStatus();
  const Eigen::VectorXd& q = m_doc->q();
  if (q.size() != m_doc->model().nq) return;
  for (JointRow* r : m_rows) {  // the joint being edited keeps what the user holds (no echo, no RPY round trip)
    if (m_editing && r->coordinate().body == m_editingRow->coordinate().body) continue;
    r->setValue(coordinateValue(r->coordinate(), q));
  }
}

void JointsDock::refreshLoopStatus() {
  const dyn::Model& m = m_doc->model();
  if (const dyn::MimicCoupling* mc = m_doc->mimic()) {
    m_loopLabel->setVisible(true);
    const int followers = mc->nv - mc->ny;
    m_loopLabel->setText((followers == 1 ? tr("Mimic joints: 1 joint (mim) follows its master")
                                         : tr("Mimic joints: %1 joints (mim) follow their masters").arg(followers)) +
                         tr(" · %1 independent coordinates").arg(mc->ny));
    m_loopLabel->setToolTip(
        tr("q = multiplier · q_master + offset holds everywhere: sliders, IK, trajectories, "
           "simulation and the dynamics (τ on the independent coordinates: Gᵀτ). "
           "Hover over a mim marker for its relation."));
    return;
  }
  m_loopLabel->setVisible(m.hasLoops());
  if (!m.hasLoops()) return;
  const int independent = m.nv - int(m.dependentDofs.size());
  const QString text = tr("Closed loops: %n loop joint(s); %1 independent coordinate(s) (ind), the dependent "
                          "ones (dep) follow by assembly · max |φ| = %2",
                          "", int(m.loops.size()))
                           .arg(independent)
                           .arg(m_doc->loopResidual(), 0, 'e', 1);
  m_loopLabel->setText(text.toHtmlEscaped());
  m_loopLabel->setToolTip(
      tr("φ(q): the loop-closure errors (m, rad). Dragging an independent slider solves "
         "φ(q) = 0 for the dependent joints; a value where a loop cannot close is refused."));
}

void JointsDock::onRowEdited(JointRow* row, double value) {
  const JointCoordinate& c = row->coordinate();
  m_editing = true;
  m_editingRow = row;
  if (c.kind == JointCoordinate::Kind::Scalar) {
    m_doc->setJointValue(c.qIndex, value);
  } else {  // the three RPY rows of this joint, as the user sees them (no round trip through the quaternion)
    Eigen::Vector3d rpy;
    for (JointRow* r : m_rows)
      if (r->coordinate().body == c.body && r->coordinate().kind != JointCoordinate::Kind::Scalar)
        rpy[int(r->coordinate().kind) - int(JointCoordinate::Kind::Roll)] = r->value();
    m_doc->setJointRpy(c.body, rpy);
  }
  m_editing = false;
  m_editingRow = nullptr;
  // Clamping (or a loop that cannot close there) may have changed the value (spin boxes already stay in range; kept for
  // safety).
  if (c.kind == JointCoordinate::Kind::Scalar && m_doc->q()[c.qIndex] != value) row->setValue(m_doc->q()[c.qIndex]);
}
