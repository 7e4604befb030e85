#include "window/log_dock.hpp"

#include <QEvent>
#include <QFontDatabase>
#include <QMenu>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTime>

LogDock::LogDock(QWidget* parent) : QDockWidget(tr("Log"), parent) {
  setObjectName("logDock");
  m_text = new QPlainTextEdit(this);
  m_text->setObjectName("logText");
  m_text->setReadOnly(true);
  m_text->setMaximumBlockCount(5000);  // a long session must not grow without bound
  applyFixedFont();
  m_text->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_text, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
    QMenu* menu = m_text->createStandardContextMenu();
    menu->addSeparator();
    menu->addAction(tr("Clear log"), m_text, &QPlainTextEdit::clear);
    menu->exec(m_text->mapToGlobal(pos));
    delete menu;
  });
  setWidget(m_text);
}

void LogDock::applyFixedFont() {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  if (this->font().pointSizeF() > 0) font.setPointSizeF(this->font().pointSizeF());  // follows the dock's size
  m_text->setFont(font);
}

void LogDock::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange) applyFixedFont();  // presentation mode
  QDockWidget::changeEvent(event);
}

void LogDock::append(const QString& text, Level level) {
  const QString stamp = QTime::currentTime().toString("HH:mm:ss.zzz");
  const char* color = level == Level::Error ? "#c62828" : level == Level::Warning ? "#b26a00" : nullptr;
  QString line = "<span style='color:#777'>" + stamp + "</span> ";
  const QString escaped = text.toHtmlEscaped().replace('\n', "<br>");
  line += color ? QString("<span style='color:%1'>%2</span>").arg(color, escaped) : escaped;
  // Follow new lines unless the user scrolled up to read older ones.
  QScrollBar* bar = m_text->verticalScrollBar();
  const bool following = bar->value() >= bar->maximum() - 2;
  m_text->appendHtml(line);
  if (following) bar->setValue(bar->maximum());
}

QString LogDock::plainText() const { return m_text->toPlainText(); }
