// Why an XML file does not parse, in plain words and at the right line (issue 23): tinyxml2 says
// "XML_ERROR_PARSING" at the element it was reading, which for a truncated file is the <robot>
// line. On an error this re-reads the text with a small tag scanner that keeps the stack of open
// elements, so it can say "the file ends inside <link name='x'> opened on line 812" or "</visual>
// on line 40 closes <geometry> opened on line 37"; other errors get tinyxml2's line in words.
// Private to the engine.
#pragma once
#include <string>

namespace tinyxml2 {
class XMLDocument;
}

namespace dyn {

struct XmlErrorText {
  int line = 0;         // where to look (0: the file as a whole, e.g. an empty one)
  std::string message;  // "malformed XML: ..."
};

// `doc` has just failed to parse `text`.
XmlErrorText describeXmlError(const std::string& text, const tinyxml2::XMLDocument& doc);

}  // namespace dyn
