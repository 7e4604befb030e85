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
  out_ << dyn::jsonString(k) << ": ";
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
  out_ << dyn::jsonString(s);
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
    line += dyn::jsonString(xs[k]);
  }
  line += ']';
  out_ << line;
}

}  // namespace cli
