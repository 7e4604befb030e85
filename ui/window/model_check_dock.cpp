#include "window/model_check_dock.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QStyle>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

#include "document/robot_document.hpp"

namespace {

constexpr int kFindingRole = Qt::UserRole + 1;  // index into the document's findings

QString text(const std::string& s) { return QString::fromStdString(s); }

// Errors first, then warnings, then notes; within a severity, in file order (the checker's
// order for findings without a line).
int rank(dyn::Severity s) { return s == dyn::Severity::Error ? 0 : s == dyn::Severity::Warning ? 1 : 2; }

QString severityText(dyn::Severity s) {
  return s == dyn::Severity::Error     ? QObject::tr("error")
         : s == dyn::Severity::Warning ? QObject::tr("warning")
                                       : QObject::tr("note");
}

QIcon severityIcon(const QStyle* style, dyn::Severity s) {
  return style->standardIcon(s == dyn::Severity::Error     ? QStyle::SP_MessageBoxCritical
                             : s == dyn::Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                           : QStyle::SP_MessageBoxInformation);
}

QString plural(int n, const QString& one, const QString& many) {
  return QString("%1 %2").arg(n).arg(n == 1 ? one : many);
}

}  // namespace

ModelCheckDock::ModelCheckDock(RobotDocument* document, QWidget* parent)
    : QDockWidget(tr("Model check"), parent), m_doc(document) {
  setObjectName("modelCheckDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(4);

  auto* bar = new QHBoxLayout;
  m_summary = new QLabel(body);
  m_summary->setObjectName("modelCheckSummary");
  bar->addWidget(m_summary, 1);
  const dyn::Severity severities[] = {dyn::Severity::Error, dyn::Severity::Warning, dyn::Severity::Info};
  const char* names[] = {"showErrors", "showWarnings", "showNotes"};
  for (int k = 0; k < 3; ++k) {
    m_show[k] = new QToolButton(body);
    m_show[k]->setObjectName(names[k]);
    m_show[k]->setCheckable(true);
    m_show[k]->setChecked(true);
    m_show[k]->setIcon(severityIcon(style(), severities[k]));
    m_show[k]->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_show[k]->setAutoRaise(true);
    connect(m_show[k], &QToolButton::toggled, this, &ModelCheckDock::applyFilter);
    bar->addWidget(m_show[k]);
  }
  m_fixups = new QToolButton(body);
  m_fixups->setObjectName("fixupsButton");
  m_fixups->setText(tr("Fix-ups"));
  m_fixups->setToolTip(tr("Explicit repairs of the robot as loaded; listed in the log and saved with the project"));
  m_fixups->setPopupMode(QToolButton::InstantPopup);
  m_fixups->setMenu(new QMenu(m_fixups));
  bar->addWidget(m_fixups);
  layout->addLayout(bar);

  m_list = new QTreeWidget(body);
  m_list->setObjectName("modelCheckList");
  m_list->setColumnCount(ColumnCount);
  m_list->setHeaderLabels({tr("Severity"), tr("Location"), tr("Element"), tr("Message")});
  m_list->setRootIsDecorated(false);
  m_list->setUniformRowHeights(true);
  m_list->setAlternatingRowColors(true);
  m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_list->header()->setStretchLastSection(true);
  m_list->setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* copy = new QAction(tr("&Copy"), m_list);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetShortcut);
  connect(copy, &QAction::triggered, this, &ModelCheckDock::copySelected);
  m_list->addAction(copy);
  layout->addWidget(m_list, 1);

  m_details = new QLabel(body);
  m_details->setObjectName("modelCheckDetails");
  m_details->setWordWrap(true);
  m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_details->setTextFormat(Qt::RichText);
  m_details->setMinimumHeight(m_details->fontMetrics().height() * 3);
  m_details->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  layout->addWidget(m_details);
  setWidget(body);

  connect(m_doc, &RobotDocument::modelChanged, this, &ModelCheckDock::rebuild);
  connect(m_list, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    showDetails();
    if (!item) return;
    const std::vector<dyn::Finding>& all = m_doc->findings();
    const int index = item->data(SeverityColumn, kFindingRole).toInt();
    if (index >= 0 && index < int(all.size()) && all[index].body >= 0) m_doc->setSelectedBody(all[index].body);
  });
  rebuild();
}

QTreeWidgetItem* ModelCheckDock::itemForFinding(int index) const {
  for (int r = 0; r < m_list->topLevelItemCount(); ++r) {
    QTreeWidgetItem* item = m_list->topLevelItem(r);
    if (item->data(SeverityColumn, kFindingRole).toInt() == index) return item->isHidden() ? nullptr : item;
  }
  return nullptr;
}

int ModelCheckDock::visibleCount() const {
  int n = 0;
  for (int r = 0; r < m_list->topLevelItemCount(); ++r) n += m_list->topLevelItem(r)->isHidden() ? 0 : 1;
  return n;
}

QString ModelCheckDock::summary() const { return m_summary->text(); }

QString ModelCheckDock::details() const { return QTextDocumentFragment::fromHtml(m_details->text()).toPlainText(); }

void ModelCheckDock::setFixupActions(const QList<QAction*>& actions) {
  m_fixups->menu()->clear();
  m_fixups->menu()->addActions(actions);
}

bool ModelCheckDock::listedBefore(const dyn::Finding& a, const dyn::Finding& b) {
  // A line of 0 (unknown) sorts as if after every line of the file.
  const auto key = [](const dyn::Finding& f) {
    return std::pair(rank(f.severity), f.line > 0 ? f.line : std::numeric_limits<int>::max());
  };
  return key(a) < key(b);
}

void ModelCheckDock::rebuild() {
  m_list->clear();
  const std::vector<dyn::Finding>& all = m_doc->findings();  // none before the first load
  std::vector<int> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return listedBefore(all[a], all[b]); });
  for (int index : order) {
    const dyn::Finding& f = all[index];
    auto* item = new QTreeWidgetItem(m_list);
    item->setIcon(SeverityColumn, severityIcon(style(), f.severity));
    item->setText(SeverityColumn, severityText(f.severity));
    item->setData(SeverityColumn, kFindingRole, index);
    const QString file = QFileInfo(text(f.file)).fileName();
    item->setText(LocationColumn, f.line > 0 ? QString("%1:%2").arg(file).arg(f.line) : file);
    item->setToolTip(LocationColumn, text(f.file));
    item->setText(ElementColumn, text(f.element));
    item->setText(MessageColumn, text(f.message));
    const QString tip = "<p><b>" + text(f.code) + "</b></p><p>" + text(f.message).toHtmlEscaped() + "</p><p><i>" +
                        text(f.hint).toHtmlEscaped() + "</i></p>";
    for (int c = 0; c < ColumnCount; ++c)
      if (c != LocationColumn) item->setToolTip(c, tip);
  }
  const dyn::FindingCounts n = dyn::countFindings(all);
  m_show[0]->setText(QString::number(n.errors));
  m_show[0]->setToolTip(tr("Show the errors (%1)").arg(n.errors));
  m_show[1]->setText(QString::number(n.warnings));
  m_show[1]->setToolTip(tr("Show the warnings (%1)").arg(n.warnings));
  m_show[2]->setText(QString::number(n.infos));
  m_show[2]->setToolTip(tr("Show the notes (%1)").arg(n.infos));
  QStringList parts;
  if (n.errors) parts << plural(n.errors, tr("error"), tr("errors"));
  if (n.warnings) parts << plural(n.warnings, tr("warning"), tr("warnings"));
  if (n.infos) parts << plural(n.infos, tr("note"), tr("notes"));
  m_summary->setText(!m_doc->hasModel() ? tr("No robot loaded")
                     : parts.isEmpty()  ? tr("No findings")
                                        : parts.join(", "));
  for (int c = 0; c < MessageColumn; ++c) m_list->resizeColumnToContents(c);
  applyFilter();
  showDetails();
}

void ModelCheckDock::applyFilter() {
  const std::vector<dyn::Finding>& all = m_doc->findings();
  for (int r = 0; r < m_list->topLevelItemCount(); ++r) {
    QTreeWidgetItem* item = m_list->topLevelItem(r);
    const int index = item->data(SeverityColumn, kFindingRole).toInt();
    item->setHidden(index >= int(all.size()) || !m_show[rank(all[index].severity)]->isChecked());
  }
}

void ModelCheckDock::showDetails() {
  const QTreeWidgetItem* item = m_list->currentItem();
  const std::vector<dyn::Finding>& all = m_doc->findings();
  const int index = item ? item->data(SeverityColumn, kFindingRole).toInt() : -1;
  if (index < 0 || index >= int(all.size())) {
    m_details->setText(all.empty() ? QString() : tr("<i>Select a finding to see what it means and what to do.</i>"));
    return;
  }
  const dyn::Finding& f = all[index];
  QString where = text(f.element).toHtmlEscaped();
  if (f.line > 0) where = QString("%1:%2 %3").arg(QFileInfo(text(f.file)).fileName()).arg(f.line).arg(where);
  m_details->setText("<b>" + severityText(f.severity) + "</b> <code>" + text(f.code) + "</code> — " + where + "<br>" +
                     text(f.message).toHtmlEscaped() + "<br><i>" + text(f.hint).toHtmlEscaped() + "</i>");
}

void ModelCheckDock::copySelected() const {
  const std::vector<dyn::Finding>& all = m_doc->findings();
  QStringList lines;
  for (const QTreeWidgetItem* item : m_list->selectedItems()) {
    const int index = item->data(SeverityColumn, kFindingRole).toInt();
    if (index < 0 || index >= int(all.size())) continue;
    const dyn::Finding& f = all[index];
    lines << QString("%1: %2 [%3]").arg(severityText(f.severity), text(f.text()), text(f.code));
  }
  if (!lines.isEmpty()) QApplication::clipboard()->setText(lines.join('\n'));
}

void ModelCheckDock::changeEvent(QEvent* event) {
  QDockWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
    for (int c = 0; c < MessageColumn; ++c) m_list->resizeColumnToContents(c);
}
