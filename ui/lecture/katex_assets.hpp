// KaTeX (Debian's libjs-katex: katex.min.js, katex.min.css and its fonts) for the pages of the
// equation panel and the handout: linked from its folder (the panel, the PDF) or inlined into the
// page, fonts as data URIs, so that a handout opens anywhere without the folder. Qt Core only.
//
// The folder is /usr/share/javascript/katex, or $DYNSCOPE_KATEX_DIR.
#pragma once
#include <QString>

namespace katex_assets {

QString directory();
// katex.min.js and katex.min.css are there.
bool available();
// The <head> part that loads KaTeX: by absolute file:// URLs, or inlined (about 600 kB).
QString linkedHead();
QString inlinedHead();
// The script that typesets every element of class "tex" (its text is TeX) and defines
// dynShow(html, css), which replaces the page's body and style and returns the number of
// formulas KaTeX refused (0 when all are typeset).
QString renderScript();

}  // namespace katex_assets
