#include "xml_error_text.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

namespace dyn {
namespace {

constexpr const char* kPrefix = "malformed XML: ";

struct Open {
  std::string tag, name;  // name: its name attribute, if any
  int line = 0;
};

bool nameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':' || (c & 0x80); }
bool nameChar(char c) { return nameStart(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.'; }
bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The value of the name attribute among a tag's attributes, as written ("" when none).
std::string nameAttribute(const std::string& attrs) {
  for (size_t i = 0; i < attrs.size();) {
    while (i < attrs.size() && (space(attrs[i]) || attrs[i] == '/')) ++i;
    const size_t start = i;
    while (i < attrs.size() && !space(attrs[i]) && attrs[i] != '=') ++i;
    const std::string key = attrs.substr(start, i - start);
    while (i < attrs.size() && space(attrs[i])) ++i;
    if (i >= attrs.size() || attrs[i] != '=') {
      if (i == start) ++i;
      continue;
    }
    ++i;
    while (i < attrs.size() && space(attrs[i])) ++i;
    if (i >= attrs.size() || (attrs[i] != '"' && attrs[i] != '\'')) continue;
    const size_t end = attrs.find(attrs[i], i + 1);
    if (end == std::string::npos) return {};
    if (key == "name") return attrs.substr(i + 1, end - i - 1);
    i = end + 1;
  }
  return {};
}

std::string shown(const Open& o) {
  std::string name = o.name.size() > 60 ? o.name.substr(0, 57) + "..." : o.name;
  return "<" + o.tag + (name.empty() ? "" : " name='" + name + "'") + "> opened on line " + std::to_string(o.line);
}

// The innermost open element, and the nearest named one around it when it has no name itself.
std::string where(const std::vector<Open>& stack) {
  std::string s = shown(stack.back());
  if (stack.back().name.empty())
    for (size_t k = stack.size() - 1; k-- > 0;)
      if (!stack[k].name.empty()) return s + ", in " + shown(stack[k]);
  return s;
}

struct Scanner {
  const std::string& t;
  size_t i = 0;
  int line = 1;
  std::vector<Open> stack;

  void advance(size_t to) {
    line += int(std::count(t.begin() + long(i), t.begin() + long(std::min(to, t.size())), '\n'));
    i = to;
  }
  int lineAt(size_t pos) const {  // pos may lie before i (the end of the file, seen from past its last tag)
    pos = std::min(pos, t.size());
    if (pos < i) return line - int(std::count(t.begin() + long(pos), t.begin() + long(i), '\n'));
    return line + int(std::count(t.begin() + long(i), t.begin() + long(pos), '\n'));
  }
  // The line of the last character that is not white space: where the file visibly ends.
  int lastLine() const {
    size_t end = t.size();
    while (end > i && space(t[end - 1])) --end;
    return lineAt(end == 0 ? 0 : end - 1);
  }
  std::string inside() const { return stack.empty() ? "" : ", inside " + where(stack); }

  // A structural error (the first one) as line and words; nothing when the structure is sound.
  std::optional<XmlErrorText> run() {
    while (true) {
      const size_t lt = t.find('<', i);
      if (lt == std::string::npos) break;
      advance(lt);
      const int start = line;
      const auto skipTo = [&](const char* end, const char* what) -> std::optional<XmlErrorText> {
        const size_t e = t.find(end, i + 2);
        if (e == std::string::npos)
          return XmlErrorText{lastLine(), "the file ends inside " + std::string(what) + " opened on line " +
                                              std::to_string(start) + " (it is never closed with " + end + ")"};
        advance(e + std::char_traits<char>::length(end));
        return std::nullopt;
      };
      std::optional<XmlErrorText> skipped;
      if (t.compare(i, 4, "<!--") == 0) {
        if ((skipped = skipTo("-->", "a comment <!--"))) return skipped;
        continue;
      }
      if (t.compare(i, 9, "<![CDATA[") == 0) {
        if ((skipped = skipTo("]]>", "a <![CDATA[ section"))) return skipped;
        continue;
      }
      if (t.compare(i, 2, "<?") == 0) {
        if ((skipped = skipTo("?>", "a <? ... ?> declaration"))) return skipped;
        continue;
      }
      if (t.compare(i, 2, "<!") == 0) {
        if ((skipped = skipTo(">", "a <! ... > declaration"))) return skipped;
        continue;
      }
      const bool closing = i + 1 < t.size() && t[i + 1] == '/';
      const size_t nameBegin = i + 1 + (closing ? 1 : 0);
      size_t nameEnd = nameBegin;
      while (nameEnd < t.size() && nameChar(t[nameEnd])) ++nameEnd;
      if (nameBegin >= t.size())
        return XmlErrorText{lastLine(), "the file ends with a '<' on line " + std::to_string(start) + inside()};
      if (nameEnd == nameBegin || !nameStart(t[nameBegin])) {
        size_t wordEnd = nameBegin;
        while (wordEnd < t.size() && wordEnd - nameBegin < 20 && !space(t[wordEnd]) && t[wordEnd] != '>') ++wordEnd;
        std::string message(1, '\'');  // not "'" + substr: GCC 12 warns falsely (-Wrestrict) on that
        message.append(t, i, wordEnd - i);
        return XmlErrorText{start, message + "' on line " + std::to_string(start) +
                                       " is not a tag: an element name starts with a letter (a '<' in text is "
                                       "written &lt;)" +
                                       inside()};
      }
      const std::string tag = t.substr(nameBegin, nameEnd - nameBegin);
      const std::string written = closing ? "</" + tag + ">" : "<" + tag + ">";
      size_t q = nameEnd;
      char quote = 0;
      for (; q < t.size(); ++q) {
        const char c = t[q];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '>' || c == '<') {
          break;
        }
      }
      if (q >= t.size())
        return XmlErrorText{lastLine(),
                            "the file ends inside the tag " + written + " opened on line " + std::to_string(start) +
                                (quote ? " (in a quoted attribute value that never closes)" : "") + inside()};
      if (t[q] == '<')
        return XmlErrorText{lineAt(q), "the tag " + written + " opened on line " + std::to_string(start) +
                                           " has no '>' before the next '<' on line " + std::to_string(lineAt(q))};
      const std::string attrs = t.substr(nameEnd, q - nameEnd);
      const bool selfClosing = !closing && q > nameEnd && t[q - 1] == '/';
      if (closing) {
        if (stack.empty())
          return XmlErrorText{start,
                              written + " on line " + std::to_string(start) + " closes nothing: no element is open"};
        if (stack.back().tag != tag) {
          const bool deeper = std::any_of(stack.begin(), stack.end(), [&](const Open& o) { return o.tag == tag; });
          return XmlErrorText{start, written + " on line " + std::to_string(start) + " closes " + shown(stack.back()) +
                                         (deeper ? " (which needs its own </" + stack.back().tag + "> first)"
                                                 : " (no <" + tag + "> is open)")};
        }
        stack.pop_back();
      } else if (!selfClosing) {
        stack.push_back(Open{tag, nameAttribute(attrs), start});
      }
      advance(q + 1);
    }
    if (!stack.empty()) return XmlErrorText{lastLine(), "the file ends inside " + where(stack)};
    return std::nullopt;
  }
};

// tinyxml2's "XMLElement name=link" detail: the element's name.
std::string elementOf(const tinyxml2::XMLDocument& doc) {
  const std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
  const size_t at = detail.rfind("name=");
  return at == std::string::npos ? "" : detail.substr(at + 5);
}

std::string tinyxmlInWords(const tinyxml2::XMLDocument& doc) {
  const std::string line = " on line " + std::to_string(doc.ErrorLineNum());
  const std::string element = elementOf(doc);
  switch (doc.ErrorID()) {
    case tinyxml2::XML_ERROR_EMPTY_DOCUMENT:
      return "the file is empty (no element at all)";
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE:
      return "an attribute of " + (element.empty() ? std::string("the element") : "<" + element + ">") + line +
             " is malformed: write each attribute once, as name=\"value\" with the value in quotes";
    case tinyxml2::XML_ERROR_PARSING_ELEMENT:
      return "the tag " + (element.empty() ? std::string("") : "<" + element + "> ") + "on" + line.substr(3) +
             " is malformed";
    case tinyxml2::XML_ERROR_PARSING_TEXT:
      return "text" + line + " lies outside the root element (after its end, or before it)";
    case tinyxml2::XML_ERROR_PARSING_COMMENT:
      return "a comment" + line + " is not closed with -->";
    case tinyxml2::XML_ERROR_PARSING_CDATA:
      return "a <![CDATA[ section" + line + " is not closed with ]]>";
    case tinyxml2::XML_ERROR_PARSING_DECLARATION:
    case tinyxml2::XML_ERROR_PARSING_UNKNOWN:
      return "a <? ... ?> or <! ... > declaration" + line + " is malformed";
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
      return "the closing tag of " + (element.empty() ? std::string("an element") : "<" + element + ">") + line +
             " does not match it";
    case tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED:
      return "elements are nested too deeply" + line;
    default:
      return "the text" + line + " is not well-formed XML";
  }
}

}  // namespace

XmlErrorText describeXmlError(const std::string& text, const tinyxml2::XMLDocument& doc) {
  // The scanner's structural error when it is the first one; an attribute or text error before it
  // (or in a sound structure) is tinyxml2's to place.
  const tinyxml2::XMLError id = doc.ErrorID();
  const bool structural = id != tinyxml2::XML_ERROR_PARSING_ATTRIBUTE && id != tinyxml2::XML_ERROR_PARSING_TEXT;
  if (id != tinyxml2::XML_ERROR_EMPTY_DOCUMENT && id != tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED)
    if (std::optional<XmlErrorText> found = Scanner{text}.run();
        found && (structural || found->line <= doc.ErrorLineNum())) {
      found->message = kPrefix + found->message;
      return *found;
    }
  return XmlErrorText{doc.ErrorLineNum(), kPrefix + tinyxmlInWords(doc)};
}

}  // namespace dyn
