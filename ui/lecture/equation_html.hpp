// The inspector's equation panel and the handout as rich text: a step's equations in the paper's
// notation with the seed and equation number, and below each the same equation with the numbers
// substituted (6-vectors as columns, 6x6 inertias and transforms with their 3x3 blocks tinted,
// S as its columns). Rendered by QTextBrowser (Qt's HTML subset) and by web browsers alike.
#pragma once
#include <QString>
#include <string>

#include "dynscope/trace/algorithm_trace.hpp"

namespace lecture_html {

struct Style {
  double equationPt = 13, numberPt = 10, captionPt = 9, headingPt = 12;
  static Style normal() { return {}; }
  static Style presentation() { return {30, 24, 24, 28}; }  // read from the back of a lecture hall
  static Style handout() { return {12, 9, 8, 13}; }
};

// Markup (algorithm_trace.hpp: **bold**, _{sub}, ^{sup}) as HTML, escaped.
QString markup(const std::string& text);
// A number as the panel prints it: 4 significant digits, a real minus sign, "·" for not computed,
// 0 for round-off (|x| < 1e-9).
QString number(double x);
// One value with its symbol below.
QString term(const dyn::TraceTerm& t, const Style& style);
// The body's name for headings: "3 (forearm_link)".
QString bodyLabel(const dyn::Model& model, int body);

// The panel at `position` (0: the start; see LectureDocument): heading, equations, substitutions.
QString stepBody(const dyn::Model& model, const dyn::AlgorithmTrace& trace, int position, const Style& style);
// The operation count after `position` steps, one line ("so far: 123 ×, 98 + …").
QString countsLine(const dyn::AlgorithmTrace& trace, int position);
// A whole page (html, head, body) around stepBody.
QString page(const QString& body, const Style& style);

}  // namespace lecture_html
