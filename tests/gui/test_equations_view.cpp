// The Equations of motion view (issue 40) in the workbench window: Lecture > Equations of motion
// derives the 2-link arm's equations (symbolic parameters from its DH table) and typesets every
// formula; hovering a joint lights exactly the terms its q, q̇ or q̈ appears in and fades the rest;
// presenting (F11) sets them at the back-of-the-hall size; Cancel stops a derivation in progress;
// what the estimate rules out is refused with its size; a new robot drops the equations; the
// exports write the formats asked for; the handout ends with the equations.
// With DYNSCOPE_GRAB_DIR set, screenshots for a human to judge.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

#include "document/robot_document.hpp"
#include "lecture/equations_dock.hpp"
#include "lecture/equations_document.hpp"
#include "lecture/katex_view.hpp"
#include "lecture/lecture_document.hpp"
#include "session/workbench_session.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

namespace {

QString robot(const char* file) { return QDir(DYNSCOPE_ROBOTS_DIR).filePath(file); }
QString data(const char* file) { return QDir(DYNSCOPE_TEST_DATA_DIR).filePath(file); }

// Runs a script in the view's page and waits for its answer.
QVariant evaluate(KatexView* view, const QString& script) {
  QVariant out;
  bool done = false;
  view->runScript(script, [&](const QVariant& v) {
    out = v;
    done = true;
  });
  if (!QTest::qWaitFor([&] { return done; }, 10000)) qWarning("the page did not answer: %s", qPrintable(script));
  return out;
}

// The joints of each term the view shows (all parts): the entries' terms (M's upper triangle), and
// tau as textbooks write it, tau_i = sum_j M_ij qdd_j + c_i + g_i (each with the joints of its
// entry, M_ij qdd_j also joint j).
std::vector<std::vector<int>> shownTerms(const dyn::EquationsReport& r) {
  std::vector<std::vector<int>> out;
  for (const auto* list : {&r.M, &r.c, &r.g, &r.christoffel})
    for (size_t k = 0; k < list->size(); ++k)
      if (list != &r.M || int(k) % r.n >= int(k) / r.n)
        for (const dyn::EquationTerm& t : (*list)[k].terms) out.push_back(t.dofs);
  for (int i = 0; i < r.n; ++i) {
    for (int j = 0; j < r.n; ++j)
      if (const dyn::EquationEntry& m = r.M[size_t(std::min(i, j) * r.n + std::max(i, j))]; !m.zero) {
        std::vector<int> d = m.dofs;
        if (std::find(d.begin(), d.end(), j) == d.end()) d.push_back(j);
        out.push_back(d);
      }
    for (const auto* e : {&r.c[size_t(i)], &r.g[size_t(i)]})
      if (!e->zero) out.push_back(e->dofs);
  }
  return out;
}

// The elements that reach beyond the page's right edge (KaTeX's hidden MathML for screen readers is
// clipped to a pixel, whatever its width), named with their class and where they end: "" when none.
// Inside a box scaled down to fit (CSS zoom), this Chromium reports positions in the box's own,
// unscaled pixels: scaled back here.
const QString kWideElements =
    "function dynRight(e) { var s = e.closest('.shrink'); var z = s && s.style.zoom ? parseFloat(s.style.zoom) : 1;"
    " return e.getBoundingClientRect().right * z; }"
    "Array.from(document.querySelectorAll('#dyn-body *')).filter(function (e) {"
    " return !e.closest('.katex-mathml') && dynRight(e) > window.innerWidth + 1; })"
    ".map(function (e) { return e.tagName + '.' + e.className + ' in ' + e.parentElement.className + ' at ' +"
    " Math.round(dynRight(e)) + ' of ' + window.innerWidth; }).slice(0, 5).join(' | ')";

}  // namespace

class TestEquationsView : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> w;
  QTemporaryDir tmp;

  EquationsDocument* doc() const { return w->session()->equations(); }
  EquationsDock* dock() const { return w->equationsDock(); }
  void open(const QString& path) {
    QString error;
    QVERIFY2(dyn::testing::openAndWait(*w, path, &error), qPrintable(error));
  }
  void waitDerived() {
    if (doc()->state() == EquationsDocument::State::Empty)
      doc()->compute();  // a view shown derives small robots itself
    QTRY_VERIFY_WITH_TIMEOUT(
        doc()->state() != EquationsDocument::State::Computing && doc()->state() != EquationsDocument::State::Empty,
        120000);
    QVERIFY2(doc()->state() == EquationsDocument::State::Ready, qPrintable(doc()->message()));
  }
  void grab(const QString& name) {
    const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (!dir.isEmpty()) w->grab().save(QDir(dir).filePath(name));
  }

 private slots:
  void init() {
    if (!EquationsDocument::available()) QSKIP("built without computer algebra (GiNaC)");
    w = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    w->setErrorHandler([](const QString&, const QString&) {});
    w->resize(1600, 1000);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
  }
  void cleanup() { w.reset(); }

  void lectureMenuDerivesAndTypesets() {
    open(data("arm2.dh"));
    QVERIFY(!dock()->isVisible());
    QAction* action = w->findChild<QAction*>("lectureEquationsAction");
    QVERIFY(action);
    action->trigger();
    QVERIFY(dock()->isVisible());
    // Small robots are derived as soon as the view is on screen, with symbolic parameters (a DH table).
    waitDerived();
    QCOMPARE(doc()->parameters(), dyn::EquationParameters::Symbolic);
    const dyn::EquationsReport& r = *doc()->report();
    QCOMPARE(r.n, 2);
    QVERIFY(QString::fromStdString(r.M[0].text).contains("cos(q2)"));
    QTRY_VERIFY_WITH_TIMEOUT(dock()->isRendered(), 60000);
    QCOMPARE(dock()->refusedFormulas(), 0);
    // Every entry of the upper triangle of M, c, g and tau is on the page, each term typeset on its own.
    for (const char* name : {"M_{11} =", "M_{12} =", "M_{22} =", "c_{1} =", "g_{2} =", "\\tau_{2} ="})
      QVERIFY2(dock()->body().contains(name), name);
    QVERIFY(!dock()->body().contains("M_{21} ="));  // symmetric: shown once
    QCOMPARE(evaluate(dock()->view(), "document.querySelectorAll('.entry .eqt').length").toInt(),
             int(shownTerms(r).size()));
    // tau as a textbook writes it: tau_1 = M_11 qdd_1 + M_12 qdd_2 + c_1 + g_1.
    QVERIFY(dock()->body().contains("M_{12}\\,\\ddot{q}_{2}"));
    // Nothing runs off the panel's right edge: entries wrap between terms.
    QCOMPARE(evaluate(dock()->view(), kWideElements).toString(), QString());
    grab("equations_arm2_desk.png");
  }

  void hoverLightsTheJointsTerms() {
    open(data("arm2.dh"));
    w->findChild<QAction*>("lectureEquationsAction")->trigger();
    waitDerived();
    QTRY_VERIFY_WITH_TIMEOUT(dock()->isRendered(), 60000);
    const dyn::EquationsReport& r = *doc()->report();
    for (int dof : {0, 1}) {
      int expected = 0, others = 0;
      for (const std::vector<int>& d : shownTerms(r))
        (std::find(d.begin(), d.end(), dof) != d.end() ? expected : others) += 1;
      QVERIFY(expected > 0);
      // Hovering the joint's chip (what its mouseenter does), then what the page draws.
      const QString chip = QString("document.querySelector('.joint.j%1')").arg(dof);
      evaluate(dock()->view(), chip + ".dispatchEvent(new MouseEvent('mouseenter'))");
      const QString lit = QString(
          "Array.from(document.querySelectorAll('.entry .eqt')).filter(function (e) {"
          " return getComputedStyle(e).backgroundColor !== 'rgba(0, 0, 0, 0)'; }).length");
      const QString faded = QString(
          "Array.from(document.querySelectorAll('.entry .eqt')).filter(function (e) {"
          " return parseFloat(getComputedStyle(e).opacity) < 0.5; }).length");
      QTRY_COMPARE(evaluate(dock()->view(), lit).toInt(), expected);
      QCOMPARE(evaluate(dock()->view(), faded).toInt(), others);
      evaluate(dock()->view(), chip + ".dispatchEvent(new MouseEvent('mouseleave'))");
      QTRY_COMPARE(evaluate(dock()->view(), faded).toInt(), 0);
    }
    // The window can light a joint too (as hovering does).
    dock()->setHighlightedDof(1);
    QTRY_COMPARE(evaluate(dock()->view(), "document.body.dataset.hl").toString(), QString("1"));
  }

  void presentingSetsTheEquationsLarge() {
    open(robot("stanford_arm.dh"));
    w->showEquations("M");
    waitDerived();
    w->setPresentationMode(true);
    QTRY_VERIFY_WITH_TIMEOUT(dock()->isRendered(), 60000);
    QCOMPARE(dock()->refusedFormulas(), 0);
    // The entries at the presentation size (30 pt at 1080 lines = 40 px), the Show box's part only.
    const double px =
        evaluate(dock()->view(), "parseFloat(getComputedStyle(document.querySelector('.entry')).fontSize)").toDouble();
    QVERIFY2(px >= 24 * 96.0 / 72 * w->height() / 1080.0 - 1, qPrintable(QString::number(px)));
    QVERIFY(!dock()->body().contains("g_{1} ="));
    // No term runs off the panel: the page is never wider than the view.
    grab("equations_stanford_present.png");
    QCOMPARE(evaluate(dock()->view(), kWideElements).toString(), QString());
    w->setPresentationMode(false);
  }

  void cancelStopsADerivation() {
    open(robot("ur5.urdf"));
    QCOMPARE(doc()->parameters(), dyn::EquationParameters::Numeric);  // no DH table
    doc()->compute();
    QCOMPARE(doc()->state(), EquationsDocument::State::Computing);
    QTest::qWait(200);
    doc()->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(doc()->state() != EquationsDocument::State::Computing, 30000);
    QCOMPARE(doc()->state(), EquationsDocument::State::Cancelled);
    QVERIFY(!doc()->report());
  }

  void tooLargeIsRefusedWithItsSize() {
    open(robot("humanoid.urdf"));
    const dyn::EquationsEstimate e = doc()->estimate();
    QVERIFY2(!e.feasible, e.explanation.c_str());
    doc()->compute();
    QCOMPARE(doc()->state(), EquationsDocument::State::Refused);
    QCOMPARE(doc()->message(), QString::fromStdString(e.explanation));
    QVERIFY(!doc()->message().isEmpty());
  }

  void newRobotDropsTheEquations() {
    open(data("arm2.dh"));
    doc()->compute();
    waitDerived();
    open(robot("planar3.dh"));
    QCOMPARE(doc()->state(), EquationsDocument::State::Empty);
    QVERIFY(!doc()->report());
  }

  void exportsWriteTheFormats() {
    open(data("arm2.dh"));
    doc()->compute();
    waitDerived();
    const struct {
      const char* suffix;
      const char* marker;
    } cases[] = {{"tex", "M_{11} ="}, {"c", "#include <math.h>"}, {"py", "def tau("}, {"m", "function"}};
    for (const auto& c : cases) {
      const auto format = EquationsDocument::formatForSuffix(c.suffix);
      QVERIFY(format);
      const QString path = tmp.filePath(QString("arm2.") + c.suffix);
      QString error;
      QVERIFY2(doc()->exportTo(path, *format, &error), qPrintable(error));
      QFile f(path);
      QVERIFY(f.open(QIODevice::ReadOnly));
      QVERIFY2(f.readAll().contains(c.marker), c.suffix);
    }
    QVERIFY(!EquationsDocument::formatForSuffix("docx"));
  }

  void handoutEndsWithTheEquations() {
    open(data("arm2.dh"));
    w->findChild<QAction*>("lectureInspectorAction")->trigger();  // the handout is the inspector's
    QTRY_VERIFY_WITH_TIMEOUT(w->lectureDocument()->hasTrace(), 30000);
    doc()->compute();
    waitDerived();
    const QString path = tmp.filePath("handout.html");
    QVERIFY(w->exportHandout(path, QSize(320, 200)));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString page = QString::fromUtf8(f.readAll());
    QVERIFY(page.contains("<section id=\"equations\">"));
    QVERIFY(page.contains("M_{11} ="));
    QVERIFY(!page.contains("class=\"joint"));  // no hover chips on paper
  }
};

QTEST_MAIN(TestEquationsView)
#include "test_equations_view.moc"
