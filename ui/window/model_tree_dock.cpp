#include "window/model_tree_dock.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <algorithm>

#include "document/robot_document.hpp"

namespace {
constexpr int kBodyRole = Qt::UserRole + 1;
}

ModelTreeDock::ModelTreeDock(RobotDocument* document, QWidget* parent)
    : QDockWidget(tr("Model"), parent), m_doc(document) {
  setObjectName("modelTreeDock");
  m_tree = new QTreeWidget(this);
  m_tree->setObjectName("modelTree");
  m_tree->setColumnCount(ColumnCount);
  m_tree->setHeaderLabels({tr("Body"), tr("Type"), tr("Mass [kg]"), tr("Joint"), tr("Parent")});
  m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
  m_tree->setUniformRowHeights(true);
  m_tree->setAlternatingRowColors(true);
  m_tree->setIndentation(12);  // a 30-body humanoid is ten levels deep
  m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
  m_tree->header()->setStretchLastSection(false);
  setWidget(m_tree);

  connect(m_doc, &RobotDocument::modelChanged, this, &ModelTreeDock::rebuild);
  connect(m_doc, &RobotDocument::selectedBodyChanged, this, &ModelTreeDock::showSelection);
  connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &ModelTreeDock::onItemSelectionChanged);
  rebuild();
}

QTreeWidgetItem* ModelTreeDock::itemForBody(int body) const {
  return body >= 0 && body < int(m_bodyItems.size()) ? m_bodyItems[body] : nullptr;
}

void ModelTreeDock::rebuild() {
  if (m_doc->modelKeptTree() && int(m_bodyItems.size()) == m_doc->model().N + 1) {  // an edit: masses change
    const dyn::Model& m = m_doc->model();
    for (int i = 1; i <= m.N; ++i) m_bodyItems[size_t(i)]->setText(Mass, QString::number(m.I[i].m, 'f', 3));
    return;
  }
  const QSignalBlocker block(m_tree);
  m_tree->clear();
  m_bodyItems.clear();
  const dyn::Model& m = m_doc->model();
  if (!m_doc->hasModel()) return;
  const auto name = [](const std::string& s) { return QString::fromStdString(s); };
  m_bodyItems.resize(m.N + 1, nullptr);
  for (int i = 0; i <= m.N; ++i) {
    QTreeWidgetItem* item =
        i == 0 ? new QTreeWidgetItem(m_tree) : new QTreeWidgetItem(m_bodyItems[m.parent[i]]);  // parent[i] < i
    item->setText(Name, name(m.bodyNames[i]));
    item->setData(Name, kBodyRole, i);
    if (i == 0) {
      item->setText(Type, tr("fixed base"));
    } else {
      const auto& J = m.joints[i];
      item->setText(Joint, name(m.jointNames[i]));
      QString type = dyn::jointTypeName(J.type);
      if (J.type == dyn::JointType::Revolute && J.continuous) type = "continuous";
      item->setText(Type, type);
      item->setText(Parent, name(m.bodyNames[m.parent[i]]));
      item->setText(Mass, QString::number(m.I[i].m, 'f', 3));
      item->setTextAlignment(Mass, Qt::AlignRight | Qt::AlignVCenter);
      item->setToolTip(Name, QString("body %1, q[%2..%3], v[%4..%5]")
                                 .arg(i)
                                 .arg(J.idx_q)
                                 .arg(J.idx_q + J.nq - 1)
                                 .arg(J.idx_v)
                                 .arg(J.idx_v + J.nv - 1));
    }
    m_bodyItems[i] = item;
  }
  // Links merged into a body by fixed joints (and tool/DH frames): shown, selecting them selects the body.
  for (const auto& f : m.frames) {
    if (f.body < 0 || f.body > m.N || f.name == m.bodyNames[f.body]) continue;
    auto* item = new QTreeWidgetItem(m_bodyItems[f.body]);
    item->setText(Name, name(f.name));
    item->setText(Type, tr("fixed frame"));
    item->setText(Parent, name(m.bodyNames[f.body]));
    item->setData(Name, kBodyRole, f.body);
    item->setForeground(Name, m_tree->palette().brush(QPalette::Disabled, QPalette::Text));
    item->setToolTip(Name, tr("frame fixed to body %1").arg(name(m.bodyNames[f.body])));
  }
  m_tree->expandAll();
  fitColumns();
  showSelection(m_doc->selectedBody());
}

void ModelTreeDock::fitColumns() {
  // Every name in full (a truncated "left_shou…" says nothing); the columns after it scroll into
  // view. Only the joint column is capped: its names repeat the link names and the tooltip has it.
  for (int c = 0; c < ColumnCount; ++c) m_tree->resizeColumnToContents(c);
  const int em = m_tree->fontMetrics().horizontalAdvance('M');
  m_tree->setColumnWidth(Joint, std::min(m_tree->columnWidth(Joint), 12 * em));
}

void ModelTreeDock::changeEvent(QEvent* event) {
  QDockWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange) fitColumns();
}

void ModelTreeDock::showSelection(int body) {
  const QSignalBlocker block(m_tree);
  QTreeWidgetItem* item = itemForBody(body);
  m_tree->clearSelection();
  if (item) {
    item->setSelected(true);
    m_tree->setCurrentItem(item);
    m_tree->scrollToItem(item);
  }
}

void ModelTreeDock::onItemSelectionChanged() {
  const QList<QTreeWidgetItem*> items = m_tree->selectedItems();
  m_doc->setSelectedBody(items.isEmpty() ? -1 : items.first()->data(Name, kBodyRole).toInt());
}
