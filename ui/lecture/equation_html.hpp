// The inspector's equation panel and the handout as HTML for a web engine with KaTeX: a step's
// equations typeset from the trace's markup (tex_markup.hpp: θ̇ is \dot{\theta}) with the seed and
// equation number, and below each the same equation with the numbers substituted: 6-vectors as
// columns, 6x6 inertias and transforms with their 3x3 blocks tinted, S as its columns, in tables
// whose numbers never wrap (a row of terms wraps between whole terms instead). The TeX is in
// elements of class "tex"; katex_assets::renderScript() typesets them in the page.
#pragma once
#include <QString>
#include <string>

#include "dynscope/trace/algorithm_trace.hpp"

namespace lecture_html {

struct Style {
  double equationPt = 13, numberPt = 10, captionPt = 9, headingPt = 12;
  // Step, body and direction on one line, the pass's name on a shorter line below: the equations
  // get the room.
  bool compactHeading = false;
  // A step's equations together at the top, their numbers below them (each substitution shows its
  // symbols under the values): the board's content stays on screen while the numbers may scroll.
  bool equationsFirst = false;
  // Hints for the screen ("→ takes the first step"): not on paper.
  bool screenHints = true;
  static Style normal() { return {}; }
  // Read from the back of a lecture hall: at 1920x1080 (scale 1), and the same size on the wall from a
  // smaller screen (scale = its height / 1080: widgets/presentation_scale.hpp).
  static Style presentation(double scale = 1) { return {30 * scale, 24 * scale, 24 * scale, 24 * scale, true, true}; }
  static Style handout() { return {12, 9, 8, 13, false, false, false}; }
};

// Markup (algorithm_trace.hpp) as an element that KaTeX typesets; `display`: \displaystyle, as
// the papers set their equations.
QString math(const std::string& markup, bool display = false);
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
// The stylesheet of stepBody at a style (font sizes, tints, no wrapping).
QString css(const Style& style);
// A whole page: <!DOCTYPE html> (KaTeX refuses quirks mode), KaTeX linked from its folder or
// inlined (katex_assets.hpp), the stylesheet in <style id="dyn-style">, the body in
// <div id="dyn-body">, and the script that typesets it.
// `extraCss` follows the stylesheet (the handout's sections and pictures).
QString page(const QString& body, const Style& style, bool inlineKatex = false, const QString& title = {},
             const QString& extraCss = {});

}  // namespace lecture_html
