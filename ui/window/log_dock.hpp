// The messages dock: loader results, scene messages (missing meshes), errors; each line timestamped.
#pragma once
#include <QDockWidget>

class QPlainTextEdit;

class LogDock : public QDockWidget {
  Q_OBJECT

 public:
  enum class Level { Info, Warning, Error };
  explicit LogDock(QWidget* parent = nullptr);

  void append(const QString& text, Level level = Level::Info);
  QString plainText() const;  // for tests and copy/paste

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyFixedFont();
  QPlainTextEdit* m_text;
};
