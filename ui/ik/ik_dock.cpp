#include "ik/ik_dock.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

#include "document/robot_document.hpp"
#include "ik/ik_drag_controller.hpp"

namespace {

// A checkbox that mirrors a checkable action both ways.
QCheckBox* checkFor(QAction* action, QWidget* parent) {
  auto* box = new QCheckBox(action->text().remove('&'), parent);
  box->setToolTip(action->toolTip());
  box->setChecked(action->isChecked());
  QObject::connect(box, &QCheckBox::toggled, action, &QAction::setChecked);
  QObject::connect(action, &QAction::toggled, box, &QCheckBox::setChecked);
  QObject::connect(action, &QAction::changed, box, [box, action] { box->setEnabled(action->isEnabled()); });
  return box;
}

QToolButton* buttonFor(QAction* action, QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setDefaultAction(action);
  b->setToolButtonStyle(Qt::ToolButtonTextOnly);
  return b;
}

}  // namespace

IkDock::IkDock(IkDragController* controller, RobotDocument* document, QWidget* parent)
    : QDockWidget(tr("IK"), parent), m_ik(controller), m_doc(document) {
  setObjectName("ikDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);

  layout->addWidget(checkFor(m_ik->dragModeAction(), body));
  layout->addWidget(checkFor(m_ik->positionOnlyAction(), body));
  layout->addWidget(checkFor(m_ik->localAxesAction(), body));
  auto* form = new QFormLayout;
  m_link = new QComboBox(body);
  m_link->setObjectName("ikLinkCombo");
  m_link->setToolTip(tr("The link the handle drags (follows the selection)"));
  form->addRow(tr("Dragged link"), m_link);
  layout->addLayout(form);

  auto* pinsBox = new QGroupBox(tr("Pinned links"), body);
  auto* pinsLayout = new QVBoxLayout(pinsBox);
  m_pins = new QListWidget(pinsBox);
  m_pins->setObjectName("ikPinList");
  m_pins->setMaximumHeight(90);
  pinsLayout->addWidget(m_pins);
  auto* pinButtons = new QHBoxLayout;
  pinButtons->addWidget(buttonFor(m_ik->pinSelectedAction(), pinsBox));
  pinButtons->addWidget(buttonFor(m_ik->clearPinsAction(), pinsBox));
  pinButtons->addStretch();
  pinsLayout->addLayout(pinButtons);
  layout->addWidget(pinsBox);

  auto* locksBox = new QGroupBox(tr("Locked joints"), body);
  auto* locksLayout = new QVBoxLayout(locksBox);
  m_locks = new QListWidget(locksBox);
  m_locks->setObjectName("ikLockList");
  m_locks->setToolTip(tr("Checked joints keep their value while dragging"));
  locksLayout->addWidget(m_locks);
  layout->addWidget(locksBox, 1);

  auto* overlays = new QGroupBox(tr("Overlays"), body);
  auto* overlaysLayout = new QVBoxLayout(overlays);
  overlaysLayout->addWidget(checkFor(m_ik->ellipsoidAction(), overlays));
  overlaysLayout->addWidget(checkFor(m_ik->forceEllipsoidAction(), overlays));
  overlaysLayout->addWidget(checkFor(m_ik->singularityAction(), overlays));
  layout->addWidget(overlays);

  m_readout = new QLabel(body);
  m_readout->setObjectName("ikReadout");
  m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_readout->setWordWrap(true);
  layout->addWidget(m_readout);
  auto* scroll = new QScrollArea(this);  // scrolls instead of forcing the window taller on a laptop
  scroll->setWidgetResizable(true);
  scroll->setWidget(body);
  setWidget(scroll);

  connect(m_link, &QComboBox::activated, this,
          [this](int index) { m_ik->setDraggedFrame(m_link->itemData(index).toInt()); });
  connect(m_ik, &IkDragController::draggedFrameChanged, this, [this](int frame) {
    const QSignalBlocker block(m_link);
    m_link->setCurrentIndex(m_link->findData(frame));
  });
  connect(m_locks, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
    m_ik->setJointLocked(item->data(Qt::UserRole).toInt(), item->checkState() == Qt::Checked);
  });
  connect(m_ik, &IkDragController::pinsChanged, this, &IkDock::refreshPins);
  connect(m_ik, &IkDragController::locksChanged, this, &IkDock::refreshLocks);
  connect(m_ik, &IkDragController::readoutChanged, this, &IkDock::refreshReadout);
  connect(m_doc, &RobotDocument::modelChanged, this, &IkDock::rebuild);
  rebuild();
}

void IkDock::rebuild() {
  const dyn::Model& m = m_doc->model();
  {
    const QSignalBlocker block(m_link);
    m_link->clear();
    if (m_doc->hasModel())
      for (int f = 0; f < int(m.frames.size()); ++f) m_link->addItem(QString::fromStdString(m.frames[f].name), f);
    m_link->setCurrentIndex(m_link->findData(m_ik->draggedFrame()));
  }
  {
    const QSignalBlocker block(m_locks);
    m_locks->clear();
    if (m_doc->hasModel())
      for (int j = 1; j <= m.N; ++j) {
        auto* item = new QListWidgetItem(QString::fromStdString(m.jointNames[j]), m_locks);
        item->setData(Qt::UserRole, j);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
      }
  }
  refreshPins();
  refreshLocks();
  refreshReadout();
}

void IkDock::refreshPins() {
  m_pins->clear();
  const dyn::Model& m = m_doc->model();
  for (int f : m_ik->pinnedFrames()) m_pins->addItem(QString::fromStdString(m.frames[f].name));
}

void IkDock::refreshLocks() {
  const QSignalBlocker block(m_locks);
  for (int i = 0; i < m_locks->count(); ++i) {
    QListWidgetItem* item = m_locks->item(i);
    item->setCheckState(m_ik->isJointLocked(item->data(Qt::UserRole).toInt()) ? Qt::Checked : Qt::Unchecked);
  }
}

void IkDock::refreshReadout() {
  const IkDragController::Readout& r = m_ik->readout();
  if (!r.valid && r.minSingularValue == 0) {
    m_readout->setText(tr("Grab the handle (drag mode, G) to move the link."));
    return;
  }
  QString text;
  if (r.valid)
    text = tr("residual %1 m, %2°  ·  pins %3  ·  %4 iterations  ·  %5")
               .arg(r.positionError, 0, 'g', 3)
               .arg(r.rotationError * 57.29577951308232, 0, 'g', 3)
               .arg(r.pinError, 0, 'g', 3)
               .arg(r.iterations)
               .arg(r.reachable ? tr("reachable") : tr("<b style='color:#c00'>out of reach</b>"));
  if (r.minSingularValue > 0 || m_ik->singularityAction()->isChecked())
    text += tr("<br>smallest singular value σ_min = %1").arg(r.minSingularValue, 0, 'g', 3);
  m_readout->setText(text);
}
