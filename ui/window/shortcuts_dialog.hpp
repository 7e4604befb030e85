// Help > Keyboard and mouse (F1): a short guide to the first minutes, then every shortcut of the
// window, read from its actions (so the list is never out of date), and the mouse gestures.
#pragma once
#include <QDialog>

class QTableWidget;

class ShortcutsDialog : public QDialog {
 public:
  // `window`: the widget whose actions (and their children's) carry the shortcuts.
  explicit ShortcutsDialog(QWidget* window);
  QTableWidget* table() const { return m_table; }

 private:
  QTableWidget* m_table = nullptr;
};
