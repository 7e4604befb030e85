// The Equations of motion view's page and the handout's section (issue 40): each entry of M(q),
// C(q, q̇)q̇, g(q), τ and the Christoffel symbols as "M_{11} = term + term ...", every term typeset
// by KaTeX on its own, so that a long entry wraps between whole terms (never inside one) and a
// term can be lit: hovering a joint's chip lights the terms its q, q̇ or q̈ appears in (pure CSS on
// body[data-hl], which the window can set too). Sizes from lecture_html::Style (the back of the
// hall in presentation mode).
#pragma once
#include <QString>
#include <optional>

#include "dynscope/symbolic/equations_report.hpp"
#include "lecture/equation_html.hpp"

namespace equations_html {

enum class Section { All, MassMatrix, Coriolis, Gravity, Torque, Christoffel, Symbols };
// By the names of the window's --equations option: all, M, c, g, tau, christoffel, symbols.
std::optional<Section> sectionNamed(const QString& name);

// The page's body for `section`; `hover`: the joint chips (not on paper).
QString body(const dyn::EquationsReport& report, Section section, bool hover = true);
// The stylesheet: the lecture pages' plus the entries, terms, chips and the lit terms.
QString css(const dyn::EquationsReport* report, const lecture_html::Style& style);
// A page with a message instead of equations (computing, refused, failed).
QString message(const QString& text);
// The script that lights joint `dof` (0-based; -1: none) in the page.
QString highlightScript(int dof);
// Maximum terms shown of one entry (the rest are in the exports).
constexpr int kMaxTermsShown = 48;

}  // namespace equations_html
