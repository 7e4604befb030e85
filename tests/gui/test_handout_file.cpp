// The lecture handout's file (ui/lecture/handout.cpp) is written atomically, like every file the
// window writes: HTML and PDF are complete documents, and a write that fails (a file-size limit
// standing in for a full disk) leaves the previous file byte for byte, names the file and leaves
// no temporary behind. Both typeset the equations with KaTeX: the page carries KaTeX and its
// fonts inside it (it opens from any folder) and the equations as TeX; the PDF, printed by Qt
// WebEngine from the same page, uses KaTeX's fonts, and DeNOC's θ̇ and θ̈ go in as \dot and \ddot.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <string>
#include <tuple>

#include "dynscope/dynscope.hpp"
#include "file_size_limit.hpp"
#include "lecture/handout.hpp"

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

}  // namespace

class TestHandoutFile : public QObject {
  Q_OBJECT
  dyn::Model m_model;
  dyn::AlgorithmTrace m_trace;

  handout::Content content() const {
    handout::Content c;
    c.robotName = QStringLiteral("planar3");
    c.model = &m_model;
    c.trace = &m_trace;
    return c;
  }

 private slots:
  void initTestCase() {
    m_model = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/planar3.dh");
    dyn::TraceInput in;
    in.q = Eigen::Vector3d(0.3, -0.7, 1.1);
    in.qd = Eigen::Vector3d(0.5, -0.2, 0.1);
    in.qdd = Eigen::Vector3d(1, 0, -1);
    m_trace = dyn::traceAlgorithm(m_model, "rnea", in);
    QCOMPARE(int(m_trace.steps.size()), 6);
  }

  void writesHtmlAndPdf() {
    QTemporaryDir dir;
    const QString html = dir.filePath("h.html"), pdf = dir.filePath("h.pdf");
    QString error;
    QVERIFY2(handout::write(html, content(), &error), qPrintable(error));
    const QString page = QString::fromUtf8(readAll(html));
    QVERIFY(page.startsWith("<!DOCTYPE html>") && page.endsWith("</html>\n"));
    QCOMPARE(page.count("<section"), 7);                                           // the start and 6 steps
    QVERIFY(page.contains("katex.render("));                                       // KaTeX itself ...
    QVERIFY(page.count("url(data:font/woff2;base64,") >= 10);                      // ... its fonts ...
    QVERIFY(!page.contains("file://") && !page.contains("url(fonts/"));            // ... nothing outside
    QVERIFY(page.contains("<span class=\"tex\">\\displaystyle \\mathbf{v}_{i}"));  // the equations as TeX
    QVERIFY2(handout::write(pdf, content(), &error), qPrintable(error));
    const QByteArray bytes = readAll(pdf);
    QVERIFY(bytes.startsWith("%PDF-"));
    QVERIFY(bytes.trimmed().endsWith("%%EOF"));
    QVERIFY(bytes.contains("KaTeX_Main") && bytes.contains("KaTeX_Math"));  // typeset by KaTeX
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), (QStringList{"h.html", "h.pdf"}));
  }

  // DeNOC on the Stanford arm: the handout's TeX has the paper's accents; the PDF is typeset.
  void denocHandoutHasTheAccents() {
    const dyn::Model m = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/stanford_arm.dh");
    dyn::TraceInput in;
    in.q = Eigen::VectorXd::LinSpaced(m.nq, -0.5, 0.5);
    in.qd = Eigen::VectorXd::LinSpaced(m.nv, 0.5, -0.2);
    in.qdd = Eigen::VectorXd::LinSpaced(m.nv, 1, -1);
    const dyn::AlgorithmTrace t = dyn::traceAlgorithm(m, "denoc-id", in);
    handout::Content c;
    c.robotName = QStringLiteral("stanford_arm");
    c.model = &m;
    c.trace = &t;
    const QString page = handout::html(c);
    QVERIFY(page.contains("\\mathbf{p}_{i} \\dot{\\theta}_{i}"));
    QVERIFY(page.contains("\\ddot{\\theta}_{i}"));
    QVERIFY(page.contains("<span class=\"tex\">\\dot{\\theta}_{1}</span>"));  // the value's label
    const QString body = page.mid(page.indexOf("<div id=\"dyn-body\">"));     // after KaTeX's own tables
    QVERIFY(!body.isEmpty() && !body.contains(QChar(0x0307)) && !body.contains(QChar(0x0308)));  // no combining dot
    QTemporaryDir dir;
    QString error;
    QVERIFY2(handout::write(dir.filePath("denoc.pdf"), c, &error), qPrintable(error));
    const QByteArray pdf = readAll(dir.filePath("denoc.pdf"));
    QVERIFY(pdf.startsWith("%PDF-") && pdf.contains("KaTeX_Main"));
    const QString keep = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (!keep.isEmpty()) {
      QFile::remove(QDir(keep).filePath("denoc_handout.pdf"));
      QFile::copy(dir.filePath("denoc.pdf"), QDir(keep).filePath("denoc_handout.pdf"));
      QFile out(QDir(keep).filePath("denoc_handout.html"));
      if (out.open(QIODevice::WriteOnly)) out.write(page.toUtf8());
    }
  }

  // `dynscope MODEL --algorithm NAME --handout out.pdf|out.html` (issue 37), headless: the PDF is a
  // PDF; the page has the start and every step, the hint for the screen ("→ takes the first step")
  // left out, Hollerbach's "Appendix B" upright; a wrong suffix or algorithm is refused, named.
  void headlessHandoutFromTheCommandLine() {
    QTemporaryDir dir;
    const QString robot = QString::fromStdString(std::string(DYNSCOPE_ROBOTS_DIR) + "/stanford_arm.dh");
    const auto run = [&](const QStringList& args) {
      QProcess p;
      p.start(DYNSCOPE_GUI, args);
      const bool finished = p.waitForFinished(240000);
      return std::pair{finished ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardError())};
    };
    const QString pdf = dir.filePath("lagrange.pdf"), html = dir.filePath("lagrange.html");
    auto [status, err] = run({robot, "--algorithm", "lagrange-3x3", "--handout", pdf, "--size", "320x240"});
    QVERIFY2(status == 0, qPrintable(err));
    QVERIFY(readAll(pdf).startsWith("%PDF-"));
    std::tie(status, err) = run({robot, "--algorithm", "lagrange-3x3", "--handout", html, "--size", "320x240"});
    QVERIFY2(status == 0, qPrintable(err));
    const QString page = QString::fromUtf8(readAll(html));
    const dyn::Model arm = dyn::loadModel(robot.toStdString());
    dyn::TraceInput in;
    in.q = arm.neutral();
    in.qd = in.qdd = in.tau = Eigen::VectorXd::Zero(arm.nv);
    const dyn::AlgorithmTrace t = dyn::traceAlgorithm(arm, "lagrange-3x3", in);
    QCOMPARE(page.count("<section id=\"step"), int(t.steps.size()) + 1);
    QCOMPARE(page.count("data:image/png;base64,"), int(t.steps.size()) + 1);  // a picture per step
    QVERIFY(!page.contains("takes the first step"));
    QVERIFY(page.contains("Appendix B, eq. B5"));  // words, not a math italic B
    std::tie(status, err) = run({robot, "--handout", dir.filePath("x.txt")});
    QVERIFY(status == 1 && err.contains("--handout") && err.contains(".pdf"));
    std::tie(status, err) = run({robot, "--algorithm", "nope", "--handout", html});
    QVERIFY(status == 1 && err.contains("'nope'"));
  }

  void aFailedWriteKeepsTheOldFile() {
    QTemporaryDir dir;
    const QString html = dir.filePath("h.html"), pdf = dir.filePath("h.pdf");
    for (const QString& path : {html, pdf}) writeFile(path, "the previous handout\n");
    QVERIFY(handout::html(content()).toUtf8().size() > 4096);  // both documents are over the limit
    QString htmlError, pdfError;
    bool htmlWritten = true, pdfWritten = true;
    dyn::testing::withFileSizeLimit(1024, [&] {
      htmlWritten = handout::write(html, content(), &htmlError);
      pdfWritten = handout::write(pdf, content(), &pdfError);
    });
    QVERIFY(!htmlWritten);
    QVERIFY(!pdfWritten);
    QVERIFY2(htmlError.startsWith("Cannot write " + html), qPrintable(htmlError));
    QVERIFY2(pdfError.startsWith("Cannot write " + pdf), qPrintable(pdfError));
    for (const QString& path : {html, pdf}) QCOMPARE(readAll(path), QByteArray("the previous handout\n"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);  // no temporary left behind
    QString error;
    QVERIFY(!handout::write(dir.filePath("no/such/folder/h.html"), content(), &error));
    QVERIFY2(error.contains("no/such/folder/h.html"), qPrintable(error));
  }
};

QTEST_MAIN(TestHandoutFile)
#include "test_handout_file.moc"
