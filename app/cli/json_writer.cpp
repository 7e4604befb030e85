#include "json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "dynscope/io/utf8.hpp"

namespace cli {

namespace {

// Appends the shortest text that reads back as exactly x (std::to_chars without a precision):
// -9.81, not -9.8100000000000005, and still every bit of the double.
void appendNumber(std::string& out, double x) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  out.append(buf, ec == std::errc() ? end : buf);
}

}  // namespace

std::string formatJsonNumber(double x) {
  if (!std::isfinite(x)) return "null";
  std::string s;
  appendNumber(s, x);
  return s;
}

std::string quoteJson(std::string_view raw) {
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

void JsonWriter::newline() {
  out_ << '\n';
  for (size_t k = 0; k < stack_.size(); ++k) out_ << "  ";
}

void JsonWriter::beforeValue() {
  if (afterKey_) {  // the key already placed us
    afterKey_ = false;
    return;
  }
  if (stack_.empty()) return;
  if (stack_.back().count++ > 0) out_ << ',';
  newline();
}

void JsonWriter::key(std::string_view k) {
  if (stack_.back().count++ > 0) out_ << ',';
  newline();
  out_ << quoteJson(k) << ": ";
  afterKey_ = true;
}

void JsonWriter::beginObject() {
  beforeValue();
  out_ << '{';
  stack_.push_back({true});
}

void JsonWriter::beginArray() {
  beforeValue();
  out_ << '[';
  stack_.push_back({false});
}

void JsonWriter::endObject() {
  const bool empty = stack_.back().count == 0;
  stack_.pop_back();
  if (!empty) newline();
  out_ << '}';
}

void JsonWriter::endArray() {
  const bool empty = stack_.back().count == 0;
  stack_.pop_back();
  if (!empty) newline();
  out_ << ']';
}

void JsonWriter::value(double x) {
  beforeValue();
  nonFinite_ += !std::isfinite(x);
  out_ << formatJsonNumber(x);
}

void JsonWriter::value(int x) {
  beforeValue();
  out_ << x;
}

void JsonWriter::value(long long x) {
  beforeValue();
  out_ << x;
}

void JsonWriter::value(bool x) {
  beforeValue();
  out_ << (x ? "true" : "false");
}

void JsonWriter::value(std::string_view s) {
  beforeValue();
  out_ << quoteJson(s);
}

void JsonWriter::null() {
  beforeValue();
  out_ << "null";
}

// Each inline array is built in one string and written once: a 10,000 x 10,000 mass matrix is
// 10^8 numbers, so no per-number allocation or stream call.
void JsonWriter::inlineArray(const std::vector<double>& xs) {
  beforeValue();
  std::string line = "[";
  line.reserve(xs.size() * 24 + 2);
  for (size_t k = 0; k < xs.size(); ++k) {
    if (k) line += ", ";
    if (std::isfinite(xs[k])) {
      appendNumber(line, xs[k]);
    } else {
      line += "null";
      ++nonFinite_;
    }
  }
  line += ']';
  out_ << line;
}

void JsonWriter::inlineArray(const std::vector<bool>& xs) {
  beforeValue();
  std::string line = "[";
  line.reserve(xs.size() * 7 + 2);
  for (size_t k = 0; k < xs.size(); ++k) line += k ? (xs[k] ? ", true" : ", false") : (xs[k] ? "true" : "false");
  line += ']';
  out_ << line;
}

void JsonWriter::inlineArray(const std::vector<std::string>& xs) {
  beforeValue();
  std::string line = "[";
  for (size_t k = 0; k < xs.size(); ++k) {
    if (k) line += ", ";
    line += quoteJson(xs[k]);
  }
  line += ']';
  out_ << line;
}

}  // namespace cli
