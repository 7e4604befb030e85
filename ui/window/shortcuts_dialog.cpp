#include "window/shortcuts_dialog.hpp"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <vector>

namespace {

// The mouse has no QAction: its gestures are listed by hand (ui/viewport, ui/simulation/perturbation_drag).
const std::vector<std::pair<const char*, const char*>> kMouse = {
    {"Turn the view", "Left drag in the 3D view"},
    {"Pan", "Middle drag (or Shift + left drag)"},
    {"Zoom", "Wheel, or right drag"},
    {"Select a link", "Click it"},
    {"Pull a link (Simulate)", "Ctrl + right drag"},
    {"Twist a link (Simulate)", "Ctrl + left drag"},
};

QString actionLabel(QString text) { return text.remove('&').remove(QStringLiteral("…")).trimmed(); }

}  // namespace

ShortcutsDialog::ShortcutsDialog(QWidget* window) : QDialog(window) {
  setObjectName("shortcutsDialog");
  setWindowTitle(tr("Keyboard and mouse"));
  auto* layout = new QVBoxLayout(this);
  auto* guide =
      new QLabel(tr("<b>The first minutes.</b> File &gt; Open a URDF, MJCF or .dh file (the sample robots are in the "
                    "Open dialog's folder). The workspaces (Ctrl+1 … Ctrl+5) arrange the docks for a task: Trajectory "
                    "scrubs a motion and plots its torques, Simulate runs it forward with the ground, Lecture steps "
                    "through an algorithm (→ and ←). F11 presents full screen, larger, for a lecture hall."),
                 this);
  guide->setWordWrap(true);
  layout->addWidget(guide);

  struct Row {
    QString what, keys;
  };
  std::vector<Row> rows;
  QSet<QString> seen;
  for (QAction* a : window->findChildren<QAction*>()) {
    if (a->shortcut().isEmpty() || a->text().isEmpty()) continue;
    const QString what = actionLabel(a->text());
    const QString keys = a->shortcut().toString(QKeySequence::NativeText);
    if (seen.contains(what + keys)) continue;
    seen.insert(what + keys);
    rows.push_back({what, keys});
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.what.localeAwareCompare(b.what) < 0; });
  for (const auto& [what, how] : kMouse) rows.push_back({tr(what), tr(how)});

  m_table = new QTableWidget(int(rows.size()), 2, this);
  m_table->setHorizontalHeaderLabels({tr("What"), tr("Keys or mouse")});
  for (int r = 0; r < int(rows.size()); ++r) {
    m_table->setItem(r, 0, new QTableWidgetItem(rows[size_t(r)].what));
    m_table->setItem(r, 1, new QTableWidgetItem(rows[size_t(r)].keys));
  }
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  layout->addWidget(m_table, 1);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 80, fontMetrics().height() * 32);
}
