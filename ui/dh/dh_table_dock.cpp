#include "dh/dh_table_dock.hpp"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QScrollBar>
#include <QTableView>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include "dh/dh_table_command.hpp"
#include "dh/dh_table_model.hpp"
#include "document/robot_document.hpp"
#include "dynscope/io/dh_from_urdf.hpp"

namespace {

struct Example {
  const char* id;
  const char* title;
  const char* file;
};
constexpr Example kExamples[] = {
    {"stanford", "Stanford arm (Saha 1999, Table 3)", "stanford_arm.dh"},
    {"planar3", "3-link planar arm (Saha 1999, §6.1)", "planar3.dh"},
    {"puma560", "PUMA 560 (Armstrong, Khatib and Burdick 1986)", "puma560.dh"},
};

// A fresh row: revolute, every parameter 0 (a massless link at the previous frame) until typed in.
dyn::DhRow freshRow(const dyn::DhTable& t) {
  dyn::DhRow r;
  for (int k = int(t.rows.size()) + 1;; ++k) {  // a name no row has
    r.name = "j" + std::to_string(k);
    bool taken = false;
    for (const dyn::DhRow& o : t.rows) taken = taken || o.name == r.name;
    if (!taken) break;
  }
  return r;
}

}  // namespace

DhTableDock::DhTableDock(RobotDocument* doc, QUndoStack* undo, QWidget* parent)
    : QDockWidget(tr("DH table"), parent), m_doc(doc), m_undo(undo) {
  setObjectName("dhTableDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  // A row of buttons (not a QToolBar, which would hide some behind » in a narrow dock).
  auto* barHost = new QWidget(body);
  auto* bar = new QHBoxLayout(barHost);
  bar->setContentsMargins(0, 0, 0, 0);
  const auto button = [&](QAction* a) {
    auto* b = new QToolButton(barHost);
    b->setDefaultAction(a);
    b->setAutoRaise(true);
    bar->addWidget(b);
    return a;
  };
  m_convention = new QComboBox(barHost);
  m_convention->setObjectName("dhConvention");
  m_convention->addItem(tr("Standard (Paul, Saha)"), int(dyn::DhConvention::Standard));
  m_convention->addItem(tr("Modified (Craig)"), int(dyn::DhConvention::Modified));
  m_convention->setToolTip(tr("Switching converts the table: the robot stays the same"));
  bar->addWidget(m_convention);
  m_addRow = button(new QAction(tr("Add row"), this));
  connect(m_addRow, &QAction::triggered, this, [this] { insertRow(m_model->rowCount()); });
  m_insertRow = button(new QAction(tr("Insert"), this));
  connect(m_insertRow, &QAction::triggered, this, [this] {
    const int at = m_view->currentIndex().isValid() ? m_view->currentIndex().row() : 0;
    insertRow(at);
  });
  m_deleteRow = button(new QAction(tr("Delete"), this));
  connect(m_deleteRow, &QAction::triggered, this, [this] {
    const int row = m_view->currentIndex().row();
    if (!m_doc->dhTable() || row < 0) return;
    dyn::DhTable next = *m_doc->dhTable();
    next.rows.erase(next.rows.begin() + row);
    apply(next, tr("Delete row %1").arg(row + 1));
  });
  m_up = button(new QAction(tr("Up"), this));
  connect(m_up, &QAction::triggered, this, [this] { moveRow(-1); });
  m_down = button(new QAction(tr("Down"), this));
  connect(m_down, &QAction::triggered, this, [this] { moveRow(+1); });
  // Keys while the table has the focus: a table built by keyboard alone.
  const std::pair<QAction*, QKeySequence> keys[] = {{m_addRow, QKeySequence(Qt::CTRL | Qt::Key_Return)},
                                                    {m_insertRow, QKeySequence(Qt::Key_Insert)},
                                                    {m_deleteRow, QKeySequence(Qt::CTRL | Qt::Key_Delete)},
                                                    {m_up, QKeySequence(Qt::CTRL | Qt::Key_Up)},
                                                    {m_down, QKeySequence(Qt::CTRL | Qt::Key_Down)}};
  for (const auto& [a, key] : keys) {
    a->setObjectName("dh:" + a->text());
    a->setShortcut(key);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    a->setToolTip(QString("%1 (%2)").arg(a->text(), key.toString(QKeySequence::NativeText)));
    addAction(a);
  }
  auto* newButton = new QToolButton(barHost);
  newButton->setText(tr("New robot"));
  newButton->setObjectName("dhNewRobot");
  newButton->setPopupMode(QToolButton::InstantPopup);
  auto* menu = new QMenu(newButton);
  menu->addAction(tr("Empty table"), this, [this] { newRobot("empty"); });
  for (const Example& e : kExamples) menu->addAction(tr(e.title), this, [this, id = QString(e.id)] { newRobot(id); });
  newButton->setMenu(menu);
  newButton->setAutoRaise(true);
  bar->addWidget(newButton);
  m_toDh = button(new QAction(tr("To DH table"), this));
  connect(m_toDh, &QAction::triggered, this, &DhTableDock::convertToDh);
  m_toDh->setObjectName("dhConvert");
  m_toDh->setToolTip(tr("This URDF/MJCF serial chain as a DH table (a new robot; docs/convert.md)"));
  bar->addStretch();
  layout->addWidget(barHost);

  m_none = new QLabel(body);
  m_none->setWordWrap(true);
  layout->addWidget(m_none);
  m_model = new DhTableModel(this);
  m_view = new QTableView(body);
  m_view->setObjectName("dhTableView");
  m_view->setModel(m_model);
  m_view->setSelectionBehavior(QAbstractItemView::SelectItems);
  // Typing in a cell edits it (F2 or a double click too); moving around does not open editors.
  m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                          QAbstractItemView::AnyKeyPressed);
  m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  layout->addWidget(m_view, 1);
  m_problem = new QLabel(body);
  m_problem->setObjectName("dhProblem");
  m_problem->setWordWrap(true);
  m_problem->setStyleSheet("color: #b00020");
  m_problem->setVisible(false);
  layout->addWidget(m_problem);
  m_degenerate = new QLabel(body);  // pairs of joints on one line (a row just added, not yet typed in)
  m_degenerate->setObjectName("dhDegenerate");
  m_degenerate->setWordWrap(true);
  m_degenerate->setStyleSheet("color: #8a4b00");
  m_degenerate->setVisible(false);
  layout->addWidget(m_degenerate);
  setWidget(body);

  connect(m_model, &DhTableModel::edited, this, &DhTableDock::apply);
  connect(m_model, &DhTableModel::refused, this, &DhTableDock::say);
  connect(m_convention, &QComboBox::activated, this, [this] {
    if (!m_doc->dhTable()) return;
    const auto c = dyn::DhConvention(m_convention->currentData().toInt());
    if (c == m_doc->dhTable()->convention) return;
    apply(dyn::toConvention(*m_doc->dhTable(), c), c == dyn::DhConvention::Modified
                                                       ? tr("Convert to the modified convention")
                                                       : tr("Convert to the standard convention"));
  });
  connect(m_doc, &RobotDocument::dhTableChanged, this, &DhTableDock::refresh);
  connect(m_doc, &RobotDocument::modelChanged, this, &DhTableDock::refresh);
  refresh();
}

bool DhTableDock::hasTable() const { return m_doc->dhTable() != nullptr; }

QSize DhTableDock::readableSize() const {
  if (!hasTable()) return {};
  const int rows = m_view->verticalHeader()->length() + m_view->horizontalHeader()->height() +
                   2 * m_view->frameWidth() + m_view->horizontalScrollBar()->sizeHint().height();
  return {0, rows + height() - m_view->height()};  // and everything around the view: title, buttons, notes
}

void DhTableDock::refresh() {
  const dyn::DhTable* t = m_doc->dhTable();
  const bool has = t != nullptr;
  m_view->setVisible(has);
  m_none->setVisible(!has);
  for (QAction* a : {m_addRow, m_insertRow, m_deleteRow, m_up, m_down}) a->setEnabled(has);
  m_convention->setEnabled(has);
  m_toDh->setEnabled(!has && m_doc->hasModel() && m_doc->description());
  if (!has) {
    m_none->setText(m_doc->hasModel()
                        ? tr("%1 is not a DH table. “To DH table” turns a serial chain into one; “New robot” "
                             "starts a table.")
                              .arg(m_doc->robotName())
                        : tr("“New robot” starts a DH table."));
    m_model->setTable({});
    m_degenerate->setVisible(false);
    return;
  }
  const QModelIndex current = m_view->currentIndex();
  m_model->setTable(*t);
  const QStringList degenerate = m_model->degeneracies();
  m_degenerate->setText(degenerate.join("\n"));
  m_degenerate->setVisible(!degenerate.isEmpty());
  m_convention->setCurrentIndex(m_convention->findData(int(t->convention)));
  if (current.isValid() && current.row() < m_model->rowCount())
    m_view->setCurrentIndex(m_model->index(current.row(), current.column()));
}

void DhTableDock::apply(const dyn::DhTable& next, const QString& what) {
  const dyn::DhTable* now = m_doc->dhTable();
  if (!now) return;
  const dyn::DhTable before = *now;
  QString error;
  if (!m_doc->setDhTable(next, &error)) {  // the whole table refused (a row named twice, ...)
    say(error);
    refresh();
    return;
  }
  m_undo->push(new DhTableCommand(m_doc, before, next, what));  // its redo finds the table in place
  m_problem->setVisible(false);
}

void DhTableDock::say(const QString& problem) {
  m_problem->setText(problem);
  m_problem->setVisible(!problem.isEmpty());
}

void DhTableDock::insertRow(int at) {
  if (!m_doc->dhTable()) return;
  dyn::DhTable next = *m_doc->dhTable();
  at = std::clamp(at, 0, int(next.rows.size()));
  next.rows.insert(next.rows.begin() + at, freshRow(next));
  apply(next, tr("Add row %1").arg(at + 1));
  m_view->setCurrentIndex(m_model->index(at, DhTableModel::A));
}

void DhTableDock::moveRow(int delta) {
  const int row = m_view->currentIndex().row(), to = row + delta;
  if (!m_doc->dhTable() || row < 0 || to < 0 || to >= m_model->rowCount()) return;
  dyn::DhTable next = *m_doc->dhTable();
  std::swap(next.rows[size_t(row)], next.rows[size_t(to)]);
  apply(next, tr("Move row %1").arg(row + 1));
  m_view->setCurrentIndex(m_model->index(to, m_view->currentIndex().column()));
}

bool DhTableDock::newRobot(const QString& example) {
  dyn::DhTable table;
  table.name = "new_robot";
  if (example == "empty") {
    table.rows.push_back(freshRow(table));  // one joint: a robot needs something to move
    table.degrees = true;
  } else {
    QString file;
    for (const Example& e : kExamples)
      if (example == e.id) file = QDir(m_examples).filePath(e.file);
    QFile f(file);
    if (file.isEmpty() || !f.open(QIODevice::ReadOnly)) {
      say(tr("The example table %1 was not found").arg(file.isEmpty() ? example : file));
      return false;
    }
    try {
      table = dyn::parseDhTable(f.readAll().toStdString(), file.toStdString());
    } catch (const std::exception& e) {
      say(QString::fromUtf8(e.what()));
      return false;
    }
  }
  QString error;
  if (!m_doc->newFromDhTable(table, &error)) {
    say(error);
    return false;
  }
  m_undo->clear();  // another robot: the steps of the last one do not apply
  say(QString());
  return true;
}

bool DhTableDock::convertToDh() {
  if (!m_doc->description()) return false;
  std::vector<std::string> notes;
  dyn::DhTable table;
  try {
    dyn::RobotDescription edited = *m_doc->description();
    dyn::applyEdits(edited, m_doc->edits());
    table = dyn::dhTableFromDescription(edited, dyn::DhConvention::Standard, &notes);
  } catch (const std::exception& e) {
    say(tr("Not a DH chain: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  table.degrees = true;
  QString error;
  if (!m_doc->newFromDhTable(table, &error)) {
    say(error);
    return false;
  }
  m_undo->clear();
  QStringList lines;
  for (const std::string& n : notes) lines << QString::fromStdString(n);
  say(lines.join("\n"));
  return true;
}
