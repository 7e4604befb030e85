// No number cut, wrapped or elided anywhere in the window (issue 22, "the lecture hall"): every
// workspace at 1920x1080 and 1366x768, at the desk and in presentation mode, with a robot and a
// demonstration trajectory loaded. In every table, tree and header on screen, each cell whose
// text holds a number fits its column (its text's advance plus the delegate's margins, every line
// of it), and each header section holding a number fits its section; every label on screen that
// shows a number is at least as wide as its text; every chart on screen is readable (no "too
// small" hint). DYNSCOPE_GRAB_DIR keeps a picture of each layout.
#include <QtTest>

#include <QAbstractItemView>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStyle>
#include <QTableView>
#include <QTextDocument>
#include <QTreeView>

#include "dynscope/trajectory/demo_trajectories.hpp"
#include "lecture/algorithm_inspector_dock.hpp"
#include "lecture/lecture_document.hpp"
#include "lecture_hall_sizes.hpp"
#include "plots/plot_canvas.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/main_window.hpp"
#include "window/workspaces.hpp"
#include "window_loading.hpp"

namespace {

using dyn::testing::robotFile;

bool onScreen(const QWidget* w) { return w->isVisible() && !w->visibleRegion().isEmpty(); }

// A value: digits standing alone ("0.0015", "−9.81", "1.2e+04", "36 of 36"), not part of a name
// ("link5", "lagrange-4x4", "newton-euler-3").
bool hasNumber(const QString& s) {
  static const QRegularExpression number(
      QStringLiteral("(?<![\\w.\\-])[-\u2212+]?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?(?![\\w\\-])"));
  return s.contains(number);
}

int g_checked = 0;  // cells, sections and labels with a number looked at: the test is not vacuous

QString plain(const QString& text) {
  if (!Qt::mightBeRichText(text)) return text;
  QTextDocument d;
  d.setHtml(text);
  return d.toPlainText();
}

// The widest line of `text` in `fm`.
int advance(const QFontMetrics& fm, const QString& text) {
  int w = 0;
  for (const QString& line : text.split('\n')) w = std::max(w, fm.horizontalAdvance(line));
  return w;
}

// Cells of one view: each visible cell with a number fits its column (and row, for its lines).
void checkView(QAbstractItemView* view, const QString& where, QStringList* problems) {
  const QAbstractItemModel* model = view->model();
  if (!model) return;
  // QStyledItemDelegate's text margin: PM_FocusFrameHMargin + 1 on each side.
  const int margin = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
  const QRect port = view->viewport()->rect();
  auto* tree = qobject_cast<QTreeView*>(view);
  std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
    const int rows = model->rowCount(parent), columns = model->columnCount(parent);
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < columns; ++c) {
        const QModelIndex index = model->index(r, c, parent);
        const QRect rect = view->visualRect(index);
        if (!rect.isValid() || !rect.intersects(port)) continue;
        const QString text = index.data(Qt::DisplayRole).toString();
        if (text.isEmpty() || !hasNumber(text)) continue;
        QFont font = view->font();
        if (const QVariant f = index.data(Qt::FontRole); f.isValid()) font = f.value<QFont>().resolve(font);
        const QFontMetrics fm(font);
        ++g_checked;
        int need = advance(fm, text) + margin;
        if (!index.data(Qt::DecorationRole).isNull())
          need += view->iconSize().isValid() ? view->iconSize().width() + 4 : 20;
        const int lines = int(text.count('\n')) + 1;
        if (need > rect.width() + 1 || lines * fm.height() > rect.height() + 2)
          *problems << QString("%1: cell (%2, %3) '%4' needs %5 x %6 px, has %7 x %8")
                           .arg(where)
                           .arg(r)
                           .arg(c)
                           .arg(text)
                           .arg(need)
                           .arg(lines * fm.height())
                           .arg(rect.width())
                           .arg(rect.height());
      }
      if (tree && tree->isExpanded(model->index(r, 0, parent))) walk(model->index(r, 0, parent));
    }
  };
  walk(view->rootIndex());
}

void checkHeader(QHeaderView* header, const QString& where, QStringList* problems) {
  const QAbstractItemModel* model = header->model();
  if (!model) return;
  const int margin = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
  const QRect port = header->viewport()->rect();
  const bool horizontal = header->orientation() == Qt::Horizontal;
  for (int logical = 0; logical < header->count(); ++logical) {
    if (header->isSectionHidden(logical)) continue;
    const int pos = header->sectionViewportPosition(logical), size = header->sectionSize(logical);
    const QRect rect = horizontal ? QRect(pos, 0, size, header->height()) : QRect(0, pos, header->width(), size);
    if (!rect.intersects(port)) continue;
    const QString text = model->headerData(logical, header->orientation(), Qt::DisplayRole).toString();
    if (text.isEmpty() || !hasNumber(text)) continue;
    QFont font = header->font();
    if (const QVariant f = model->headerData(logical, header->orientation(), Qt::FontRole); f.isValid())
      font = f.value<QFont>().resolve(font);
    const QFontMetrics fm(font);
    ++g_checked;
    const int need = advance(fm, text) + margin;
    if (need > rect.width() + 1)
      *problems << QString("%1: header section %2 '%3' needs %4 px, has %5")
                       .arg(where)
                       .arg(logical)
                       .arg(text)
                       .arg(need)
                       .arg(rect.width());
  }
}

void checkLabel(QLabel* label, const QString& where, QStringList* problems) {
  if (label->wordWrap() || !label->pixmap().isNull()) return;
  const QString text = plain(label->text());
  if (text.isEmpty() || !hasNumber(text)) return;
  ++g_checked;
  const int need = label->minimumSizeHint().width();
  if (label->width() < need)
    *problems << QString("%1: label %2 '%3' is %4 px wide, its text needs %5")
                     .arg(where, label->objectName(), text)
                     .arg(label->width())
                     .arg(need);
}

// A spin box's number (with its prefix and suffix) fits its edit field.
void checkSpinBox(QAbstractSpinBox* box, const QString& where, QStringList* problems) {
  const QString text = box->text();
  if (text.isEmpty() || !hasNumber(text)) return;
  ++g_checked;
  const QLineEdit* edit = box->findChild<QLineEdit*>();
  if (!edit) return;
  const int need = box->fontMetrics().horizontalAdvance(text) + 4;  // QLineEdit's own text margins
  const int room = edit->contentsRect().width() - edit->textMargins().left() - edit->textMargins().right();
  if (need > room)
    *problems << QString("%1: spin box %2 '%3' needs %4 px, its field has %5")
                     .arg(where, box->objectName(), text)
                     .arg(need)
                     .arg(room);
}

// A widget with a number that a scroll area shows only in part (scrolled sideways or clipped).
void checkClipped(QWidget* w, const QString& text, const QString& where, QStringList* problems) {
  if (text.isEmpty() || !hasNumber(text)) return;
  const QRect shown = w->visibleRegion().boundingRect();
  if (shown.width() < w->width() - 1)
    *problems << QString("%1: '%2' (%3) shows %4 of its %5 px: clipped by its scroll area")
                     .arg(where, text, w->metaObject()->className())
                     .arg(shown.width())
                     .arg(w->width());
}

// What shows a number in the window, checked.
QStringList problemsIn(MainWindow& w, const QString& where) {
  QStringList problems;
  for (QAbstractItemView* view : w.findChildren<QAbstractItemView*>()) {
    if (!onScreen(view) || qobject_cast<QHeaderView*>(view)) continue;
    checkView(view, where + " " + view->objectName(), &problems);
  }
  for (QHeaderView* header : w.findChildren<QHeaderView*>())
    if (onScreen(header)) checkHeader(header, where + " " + header->parentWidget()->objectName(), &problems);
  for (QLabel* label : w.findChildren<QLabel*>())
    if (onScreen(label)) {
      checkLabel(label, where, &problems);
      checkClipped(label, plain(label->text()), where, &problems);
    }
  for (QAbstractSpinBox* box : w.findChildren<QAbstractSpinBox*>())
    if (onScreen(box)) {
      checkSpinBox(box, where, &problems);
      checkClipped(box, box->text(), where, &problems);
    }
  // Every chart on screen drawn, not the "too small to read" hint in its place.
  // (isVisible: its tab and dock in front. Its visibleRegion is empty: the chart's viewport covers it.)
  for (PlotCanvas* plot : w.findChildren<PlotCanvas*>())
    if (plot->isVisible() && !plot->isReadable())
      problems << QString("%1: a chart %2x%3 shows 'too small to read' (%4 in %5)")
                      .arg(where)
                      .arg(plot->width())
                      .arg(plot->height())
                      .arg(plot->objectName(), plot->parentWidget() ? plot->parentWidget()->objectName() : QString());
  problems.removeDuplicates();
  return problems;
}

}  // namespace

class TestNoCutNumbers : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void everyWorkspace_data() { dyn::testing::addLectureHallRows(true); }
  void everyWorkspace() {
    QFETCH(QSize, size);
    QFETCH(bool, present);
    DYNSCOPE_SKIP_UNLESS_SCREEN_HOLDS(size);
    MainWindow w(MainWindow::Settings::Ephemeral);
    w.setErrorHandler([](const QString&, const QString&) {});
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(dyn::testing::openAndWait(w, robotFile("stanford_arm.dh")));
    const auto demo = dyn::demoTrajectoryByName("saha-stanford");
    QVERIFY(demo);
    QString error;
    QVERIFY2(w.trajectory()->loadDemo(*demo, &error), qPrintable(error));
    const auto leave = qScopeGuard([&w] { w.setPresentationMode(false); });
    if (present) {
      w.presentOnScreenOfSize(size);  // this test's "screen"
    }
    QStringList problems;
    g_checked = 0;
    const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    for (const workspaces::Workspace& ws : workspaces::all()) {
      QVERIFY(w.setWorkspace(QString::fromLatin1(ws.id)));
      w.resetLayout();
      if (QLatin1String(ws.id) == QLatin1String("lecture")) {  // a step with numbers in the per-body table
        w.lectureDocument()->setAlgorithm("rnea");
        w.inspectorDock()->show();
        dyn::testing::settle(200);
        w.lectureDocument()->setPosition(4);
      }
      dyn::testing::settle(present ? 600 : 350);
      const QString where =
          QString("%1 %2x%3%4").arg(ws.id).arg(size.width()).arg(size.height()).arg(present ? " F11" : "");
      if (!dir.isEmpty()) w.grab().save(QDir(dir).filePath(QString(where).replace(' ', '_') + ".png"));
      problems << problemsIn(w, where);
    }
    QVERIFY2(problems.isEmpty(), qPrintable("\n" + problems.join("\n")));
    QVERIFY2(g_checked >= 20, qPrintable(QString("only %1 numbers on screen").arg(g_checked)));
  }
};

QTEST_MAIN(TestNoCutNumbers)
#include "test_no_cut_numbers.moc"
