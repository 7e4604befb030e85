// The architecture's rules, read from the sources' #include lines so that a change that breaks one
// fails here rather than in a review: the engine uses neither Qt nor VTK; docks include documents
// and the engine, never each other; nothing outside the window's own files and the applications
// includes the window; the session (documents, projects, autosave) uses no widgets.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

namespace {

QDir sourceRoot() {
  QDir d(QStringLiteral(DYNSCOPE_ROBOTS_DIR));
  d.cdUp();
  return d;
}

struct Include {
  QString file;  // relative to the source root
  int line;
  QString target;  // "QWidget" for <QWidget>, "window/main_window.hpp" for "window/main_window.hpp"
  QString text() const { return QString("%1:%2 includes %3").arg(file).arg(line).arg(target); }
};

// Every #include of the C++ sources below `dir`.
std::vector<Include> includesUnder(const QString& dir) {
  // Not a raw string literal: moc's tokenizer would read the quote in it as a string's start.
  static const QRegularExpression re(QStringLiteral("^\\s*#\\s*include\\s*[<\"]([^>\"]+)[>\"]"));
  std::vector<Include> out;
  const QDir root = sourceRoot();
  QDirIterator it(root.filePath(dir), {"*.hpp", "*.cpp", "*.h"}, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString path = it.next();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) continue;
    int line = 0;
    while (!f.atEnd()) {
      ++line;
      const auto m = re.match(QString::fromUtf8(f.readLine()));
      if (m.hasMatch()) out.push_back({root.relativeFilePath(path), line, m.captured(1)});
    }
  }
  return out;
}

QString join(const QStringList& l) { return l.join("\n"); }

}  // namespace

class TestIncludeRules : public QObject {
  Q_OBJECT

 private slots:
  void sourcesAreFound() {
    // The rules below pass vacuously if the walk finds nothing: it must see the known files.
    const auto engine = includesUnder("engine");
    const auto ui = includesUnder("ui");
    QVERIFY(engine.size() > 100);
    QVERIFY(ui.size() > 100);
    QVERIFY(std::any_of(ui.begin(), ui.end(), [](const Include& i) { return i.file.endsWith("_dock.cpp"); }));
  }

  void engineUsesNeitherQtNorVtk() {
    QStringList bad;
    for (const Include& i : includesUnder("engine"))
      if (i.target.startsWith('Q') || i.target.startsWith("vtk") || i.target.startsWith("Qt")) bad << i.text();
    QVERIFY2(bad.isEmpty(), qPrintable(join(bad)));
  }

  // GiNaC is optional (dynscope_symbolic, built only when it is found): only engine/symbolic and the
  // headers it compiles (engine/include/dynscope/symbolic) may include it or them.
  void engineCoreHasNoComputerAlgebra() {
    QStringList bad;
    for (const Include& i : includesUnder("engine")) {
      const bool symbolic =
          i.file.startsWith("engine/symbolic/") || i.file.startsWith("engine/include/dynscope/symbolic/");
      if (!symbolic && (i.target.startsWith("ginac") || i.target.contains("symbolic/"))) bad << i.text();
    }
    QVERIFY2(bad.isEmpty(), qPrintable(join(bad)));
  }

  void docksNeverIncludeEachOther() {
    QStringList bad;
    for (const Include& i : includesUnder("ui")) {
      const QString base = QFileInfo(i.file).completeBaseName();
      if (!base.endsWith("_dock")) continue;
      const QString target = QFileInfo(i.target).completeBaseName();
      if (target.endsWith("_dock") && target != base) bad << i.text();
    }
    QVERIFY2(bad.isEmpty(), qPrintable(join(bad)));
  }

  void nothingIncludesTheWindow() {
    QStringList bad;
    for (const Include& i : includesUnder("ui"))
      if (i.target == "window/main_window.hpp" && !i.file.startsWith("ui/window/")) bad << i.text();
    QVERIFY2(bad.isEmpty(), qPrintable(join(bad)));
  }

  void sessionUsesNoWidgets() {
    // QtWidgets' classes and the widget trees of ui/ (the window, docks' folders are named by what
    // they show; the session may include documents, projects, the engine and QtCore / QUndoStack).
    static const QRegularExpression widget(
        "^(QWidget|QMainWindow|QDockWidget|QMessageBox|QDialog|QFileDialog|QApplication|QLabel|QPushButton|"
        "QAbstractButton|QAction|QMenu|QToolBar|QStatusBar|QTableView|QTreeView)$");
    static const QRegularExpression uiTree("^(window|viewport|scene|plots|massmatrix|algorithms|ik|timeline)/");
    QStringList bad;
    const auto includes = includesUnder("ui/session");
    QVERIFY(!includes.empty());
    for (const Include& i : includes)
      if (widget.match(i.target).hasMatch() || uiTree.match(i.target).hasMatch() || i.target.endsWith("_dock.hpp"))
        bad << i.text();
    QVERIFY2(bad.isEmpty(), qPrintable(join(bad)));
  }
};

QTEST_GUILESS_MAIN(TestIncludeRules)
#include "test_include_rules.moc"
