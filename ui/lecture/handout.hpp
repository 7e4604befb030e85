// The lecture handout (issue 15): the whole walk-through of the algorithm stepped through, one
// section per step with its equations, the numbers substituted, the operation count and a picture
// of the robot with the arrows; as one self-contained HTML page (pictures embedded as data URIs,
// KaTeX and its fonts inlined: it typesets the equations when the page opens, in any browser,
// without a network or the KaTeX folder), or as a PDF printed by Qt WebEngine from the same page
// (QWebEnginePage::printToPdf), so the equations are typeset alike. The pictures come from the
// caller (the window renders its 3D view offscreen at each step).
#pragma once
#include <QImage>
#include <QString>
#include <functional>
#include <memory>

#include "dynscope/symbolic/equations_report.hpp"
#include "dynscope/trace/algorithm_trace.hpp"

namespace handout {

struct Content {
  QString robotName;
  const dyn::Model* model = nullptr;
  const dyn::AlgorithmTrace* trace = nullptr;
  QString arrowLegend;  // what the arrows mean and their scales (plain text, one per line)
  // The picture at position p (0: the start, 1..n: after step p); null: no picture.
  std::function<QImage(int position)> picture;
  // The robot's equations of motion in closed form (the Equations of motion view's), appended as a
  // last section when given.
  std::shared_ptr<const dyn::EquationsReport> equations;
  // Called after each picture: false cancels.
  std::function<bool(int done, int total)> progress;
};

// The HTML page (KaTeX inlined); empty if cancelled.
QString html(const Content& content, bool embedImages = true);
// Writes HTML (".html", ".htm") or PDF (".pdf") by the file's suffix. False and a message on failure.
bool write(const QString& path, const Content& content, QString* error = nullptr);

}  // namespace handout
