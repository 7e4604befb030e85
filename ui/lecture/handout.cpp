#include "lecture/handout.hpp"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QMarginsF>
#include <QPageLayout>
#include <QPageSize>
#include <QTemporaryDir>
#include <QUrl>
#include <QWebEnginePage>
#include <map>
#include <memory>

#include "document/save_file.hpp"
#include "lecture/equation_html.hpp"
#include "lecture/equations_html.hpp"
#include "lecture/katex_assets.hpp"
#include "lecture/web_engine_environment.hpp"

namespace handout {
namespace {

QString imageUrl(int position) { return QString("step%1.png").arg(position); }

QByteArray png(const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return bytes;
}

const char* kHandoutCss =
    "body{max-width:1100px;margin:auto;padding:0 12px;}"
    "h1{font-size:20pt;}"
    "section{break-inside:avoid-page;border-top:1px solid #ccd;margin-top:18px;padding-top:6px;}"
    "img{max-width:100%;border:1px solid #ccd;}"
    ".legend{white-space:pre-line;color:#404858;font-size:9pt;}"
    ".counts{font-size:8pt;color:#5a6270;}"
    // On paper a matrix, a term with its superscript and an equation stay whole on their page.
    ".eq,.row,.term,.tsup,table.m,table.inputs tr,.vg,.result{break-inside:avoid;}"
    "@media print{body{max-width:none;}}";

// The page; pictures either embedded (data URIs) or named step<p>.png and collected in `images`;
// KaTeX inlined or linked from its folder.
QString build(const Content& c, bool embed, std::map<int, QImage>* images, bool inlineKatex) {
  const dyn::AlgorithmTrace& t = *c.trace;
  const dyn::TraceableAlgorithm* a = dyn::findTraceableAlgorithm(t.algorithm);
  const lecture_html::Style style = lecture_html::Style::handout();
  const int n = int(t.steps.size());
  QString h;
  h += QString("<h1>%1</h1>").arg(QString::fromUtf8(a ? a->title : t.algorithm.c_str()).toHtmlEscaped());
  h += QString("<p>%1 · %2 · %3</p>")
           .arg(c.robotName.toHtmlEscaped(), QString::fromUtf8(a ? a->source : ""),
                QString::fromUtf8(a ? a->coordinates : ""));
  h += QString("<p>%1</p>")
           .arg(QObject::tr("%1 steps in %2 passes; operation count of the whole run: %3 × and %4 +, "
                            "joint transforms %5 × and %6 +. Made with Dynscope's lecture mode.")
                    .arg(n)
                    .arg(t.passes.size())
                    .arg(t.total.algorithm.muls)
                    .arg(t.total.algorithm.adds)
                    .arg(t.total.jointTransforms.muls)
                    .arg(t.total.jointTransforms.adds));
  if (!c.arrowLegend.isEmpty()) h += "<p class=\"legend\">" + c.arrowLegend.toHtmlEscaped() + "</p>";
  for (int p = 0; p <= n; ++p) {
    if (c.progress && !c.progress(p, n + 1)) return {};
    h += QString("<section id=\"step%1\">").arg(p);
    h += lecture_html::stepBody(*c.model, t, p, style);
    if (p > 0) h += "<p class=\"counts\">" + lecture_html::countsLine(t, p) + "</p>";
    const QImage image = c.picture ? c.picture(p) : QImage();
    if (!image.isNull()) {
      if (embed) {
        h += QString("<p><img alt=\"%1\" src=\"data:image/png;base64,%2\"></p>")
                 .arg(QObject::tr("the robot after step %1").arg(p), QString::fromLatin1(png(image).toBase64()));
      } else {
        (*images)[p] = image;
        h += QString("<p><img src=\"%1\" width=\"600\"></p>").arg(imageUrl(p));
      }
    }
    h += "</section>\n";
  }
  QString css = kHandoutCss;
  if (c.equations) {
    h += "<section id=\"equations\">" + equations_html::body(*c.equations, equations_html::Section::All, false) +
         "</section>\n";
    css += equations_html::css(c.equations.get(), style) + ".entry{break-inside:avoid;}";
  }
  const QString title = QObject::tr("%1 on %2 — Dynscope handout").arg(a ? a->name : "", c.robotName);
  return lecture_html::page(h, style, inlineKatex, title, css);
}

// The page printed by Qt WebEngine once KaTeX has typeset it and its fonts are in; empty and a
// reason on failure.
QByteArray printPdf(const QString& file, const QString& title, QString* why) {
  web_engine::prepareEnvironment();
  // What the page's callbacks write, declared before the page: it may call back while it is
  // destroyed (Qt WebEngine 6.4 answers pending scripts then), and they must still exist.
  bool loaded = false, ok = false, ready = false, printed = false;
  QByteArray pdf;
  QWebEnginePage page;
  // Visible, though no view shows it: Chromium may run a hidden page's renderer at background
  // priority (one A/B on a busy machine: loading and printing 80 s hidden, 18 s visible).
  page.setVisible(true);
  QObject::connect(&page, &QWebEnginePage::loadFinished, [&](bool success) {
    loaded = true;
    ok = success;
  });
  page.load(QUrl::fromLocalFile(file));
  if (!web_engine::waitFor([&] { return loaded; }, 60000) || !ok) {
    *why = QObject::tr("the page for the PDF did not load");
    return {};
  }
  // The equations are typeset on DOMContentLoaded; the web fonts may still be on their way.
  const auto poll = [&] {
    page.runJavaScript(
        "document.fonts.status === 'loaded' && document.querySelectorAll('.tex:not([data-tex])').length === 0",
        [&](const QVariant& v) { ready = v.toBool(); });
  };
  for (int k = 0; k < 200 && !ready; ++k) {
    poll();
    web_engine::waitFor([&] { return ready; }, 50);
  }
  const QPageLayout layout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(12, 12, 12, 12),
                           QPageLayout::Millimeter);
  page.printToPdf(
      [&](const QByteArray& bytes) {
        pdf = bytes;
        printed = true;
      },
      layout);
  if (!web_engine::waitFor([&] { return printed; }, 120000) || pdf.isEmpty()) {
    *why = QObject::tr("printing %1 gave no PDF").arg(title);
    return {};
  }
  return pdf;
}

}  // namespace

QString html(const Content& content, bool embedImages) {
  std::map<int, QImage> images;
  return build(content, embedImages, &images, true);
}

bool write(const QString& path, const Content& content, QString* error) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  const auto fail = [&](const QString& why) {
    if (error) *error = QObject::tr("Cannot write %1: %2").arg(path, why);
    return false;
  };
  if (suffix == "pdf") {
    // The page and its pictures in a temporary folder (KaTeX linked from its own), loaded by a
    // web page and printed in memory, then written atomically: a failed write keeps the old file.
    std::map<int, QImage> images;
    const QString page = build(content, false, &images, false);
    if (page.isEmpty()) {
      if (error) *error = QObject::tr("Cancelled");
      return false;
    }
    QTemporaryDir dir;
    if (!dir.isValid()) return fail(QObject::tr("no temporary folder (%1)").arg(dir.errorString()));
    QString why;
    for (const auto& [p, image] : images)
      if (!saveFileAtomically(dir.filePath(imageUrl(p)), png(image), &why)) return fail(why);
    const QString file = dir.filePath("handout.html");
    if (!saveFileAtomically(file, page.toUtf8(), &why)) return fail(why);
    const QByteArray bytes = printPdf(file, content.robotName, &why);
    if (bytes.isEmpty()) return fail(why);
    return saveFileAtomically(path, bytes, error);
  }
  const QString page = html(content, true);
  if (page.isEmpty()) {
    if (error) *error = QObject::tr("Cancelled");
    return false;
  }
  return saveFileAtomically(path, page.toUtf8(), error);
}

}  // namespace handout
