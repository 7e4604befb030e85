#include "json_writer.hpp"

#include <cmath>
#include <cstdio>

namespace cli {

std::string formatJsonNumber(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string quoteJson(std::string_view s) {
  std::string q = "\"";
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
          q += c;  // UTF-8 passes through unchanged
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

void JsonWriter::writeInline(const std::vector<std::string>& tokens) {
  beforeValue();
  out_ << '[';
  for (size_t k = 0; k < tokens.size(); ++k) out_ << (k ? ", " : "") << tokens[k];
  out_ << ']';
}

void JsonWriter::inlineArray(const std::vector<double>& xs) {
  std::vector<std::string> tokens;
  for (const double x : xs) {
    tokens.push_back(formatJsonNumber(x));
    nonFinite_ += !std::isfinite(x);
  }
  writeInline(tokens);
}

void JsonWriter::inlineArray(const std::vector<bool>& xs) {
  std::vector<std::string> tokens;
  for (const bool x : xs) tokens.push_back(x ? "true" : "false");
  writeInline(tokens);
}

void JsonWriter::inlineArray(const std::vector<std::string>& xs) {
  std::vector<std::string> tokens;
  for (const auto& x : xs) tokens.push_back(quoteJson(x));
  writeInline(tokens);
}

}  // namespace cli
