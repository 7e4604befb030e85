#include "lecture/handout.hpp"

#include <QBuffer>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>
#include <map>

#include "document/save_file.hpp"
#include "lecture/equation_html.hpp"

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

// The page; pictures either embedded (data URIs) or named step<p>.png and collected in `images`.
QString build(const Content& c, bool embed, std::map<int, QImage>* images) {
  const dyn::AlgorithmTrace& t = *c.trace;
  const dyn::TraceableAlgorithm* a = dyn::findTraceableAlgorithm(t.algorithm);
  const lecture_html::Style style = lecture_html::Style::handout();
  const int n = int(t.steps.size());
  QString h =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
      "<title>" +
      QObject::tr("%1 on %2 — Dynscope handout").arg(a ? a->name : "", c.robotName).toHtmlEscaped() +
      "</title><style>body{font-family:'DejaVu Serif','Liberation "
      "Serif',serif;max-width:1100px;margin:auto;color:#1c2230;}"
      "section{page-break-inside:avoid;border-top:1px solid #ccd;margin-top:18px;padding-top:6px;}"
      "img{max-width:100%;border:1px solid #ccd;}td{font-variant-numeric:tabular-nums;}"
      ".legend{white-space:pre-line;color:#404858;font-size:9pt;}</style></head><body>\n";
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
    if (p > 0) h += "<p style=\"font-size:8pt;color:#5a6270;\">" + lecture_html::countsLine(t, p) + "</p>";
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
  return h + "</body></html>\n";
}

}  // namespace

QString html(const Content& content, bool embedImages) {
  std::map<int, QImage> images;
  return build(content, embedImages, &images);
}

bool write(const QString& path, const Content& content, QString* error) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "pdf") {
    std::map<int, QImage> images;
    const QString page = build(content, false, &images);
    if (page.isEmpty()) {
      if (error) *error = QObject::tr("Cancelled");
      return false;
    }
    QTextDocument doc;
    for (const auto& [p, image] : images) doc.addResource(QTextDocument::ImageResource, QUrl(imageUrl(p)), image);
    doc.setHtml(page);
    QByteArray bytes;  // printed in memory, then written atomically: a failed write keeps the old file
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
      QPdfWriter pdf(&buffer);
      pdf.setPageSize(QPageSize(QPageSize::A4));
      pdf.setResolution(150);
      pdf.setTitle(QObject::tr("Dynscope handout: %1").arg(content.robotName));
      pdf.setCreator("Dynscope");
      doc.print(&pdf);
    }  // the writer finishes the PDF when it goes
    if (bytes.isEmpty()) {
      if (error) *error = QObject::tr("Could not write %1: the PDF is empty").arg(path);
      return false;
    }
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
