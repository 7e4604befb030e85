#include "dynscope/io/utf8.hpp"

#include <algorithm>
#include <cstdio>

namespace dyn {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes there are not one.
std::size_t sequenceLength(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte (RFC 3629, table 3-7)
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong three-byte forms
    if (c == 0xED) hi = 0x9F;  // no surrogates U+D800..U+DFFF
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // no overlong four-byte forms
    if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;  // a continuation byte, an overlong lead (C0, C1) or F5..FF
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

}  // namespace

bool isValidUtf8(std::string_view text, std::size_t* badOffset) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = sequenceLength(text, i);
    if (n == 0) {
      if (badOffset) *badOffset = i;
      return false;
    }
    i += n;
  }
  return true;
}

std::string sanitizeUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = sequenceLength(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD, one per offending byte
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string utf8Problem(std::string_view what, std::string_view text) {
  std::size_t bad = 0;
  if (isValidUtf8(text, &bad)) return {};
  char detail[64];
  std::snprintf(detail, sizeof detail, " is not valid UTF-8 (byte 0x%02X at position %zu)",
                static_cast<unsigned>(static_cast<unsigned char>(text[bad])), bad + 1);
  return std::string(what) + " '" + sanitizeUtf8(text) + "'" + detail + "; save the file as UTF-8";
}

std::string binaryFileProblem(std::string_view bytes) {
  if (bytes.starts_with("\xFF\xFE") || bytes.starts_with("\xFE\xFF"))
    return "this is a UTF-16 text file: robot files are read as UTF-8; save the file as UTF-8";
  const std::size_t n = std::min<std::size_t>(bytes.size(), 65536);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(bytes[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7F) {
      char detail[64];
      std::snprintf(detail, sizeof detail, " (byte 0x%02X at position %zu)", unsigned(c), i + 1);
      return std::string("this is not a text file") + detail +
             ": robot files are text (URDF, MJCF, a DH table); is it a mesh, an archive or a program?";
    }
  }
  return {};
}

std::string jsonString(std::string_view raw) {
  // JSON text is UTF-8: a byte that is not part of a valid sequence would make every parser
  // reject the whole document, so such bytes become U+FFFD.
  std::string sanitized;
  if (!dyn::isValidUtf8(raw)) sanitized = dyn::sanitizeUtf8(raw);
  const std::string_view s = sanitized.empty() ? raw : std::string_view(sanitized);
  std::string q = "\"";
  q.reserve(s.size() + 2);
  for (const char c : s) {
    switch (c) {
      case '"':
        q += "\\\"";
        break;
      case '\\':
        q += "\\\\";
        break;
      case '\n':
        q += "\\n";
        break;
      case '\r':
        q += "\\r";
        break;
      case '\t':
        q += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
          q += buf;
        } else {
          q += c;  // valid UTF-8 passes through unchanged
        }
    }
  }
  return q + "\"";
}

}  // namespace dyn
