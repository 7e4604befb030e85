#include "project/json_lines.hpp"

#include <algorithm>

namespace dyn {
namespace {

class Scanner {
 public:
  explicit Scanner(const QByteArray& text) : s_(text) {}
  std::map<QString, int> run() {
    value(QString(), 0);
    return lines_;
  }

 private:
  bool more() const { return i_ < s_.size(); }
  void skipSpace() {
    while (more() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\n')) {
      if (s_[i_] == '\n') ++line_;
      ++i_;
    }
  }
  QString string() {  // at the opening quote
    QByteArray raw;
    ++i_;
    while (more() && s_[i_] != '"') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) raw += s_[i_++];
      raw += s_[i_++];
    }
    ++i_;  // closing quote
    return QString::fromUtf8(raw);
  }
  // Paths are recorded down to kDepth levels only: a project's keys are at most five deep, and a
  // path per value of a deeply nested file would cost its length times its depth (quadratic).
  static constexpr int kDepth = 12;
  void value(const QString& path, int depth) {
    skipSpace();
    if (!more()) return;
    const bool record = depth <= kDepth;
    if (record) lines_.emplace(path, line_);
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      for (;;) {
        skipSpace();
        if (!more() || s_[i_] == '}') break;
        if (s_[i_] == ',') {
          ++i_;
          continue;
        }
        const QString key = string();
        skipSpace();
        if (more() && s_[i_] == ':') ++i_;
        value(!record ? QString() : path.isEmpty() ? key : path + "." + key, depth + 1);
      }
      ++i_;
    } else if (c == '[') {
      ++i_;
      for (int index = 0;; ++index) {
        skipSpace();
        if (!more() || s_[i_] == ']') break;
        value(record ? path + "[" + QString::number(index) + "]" : QString(), depth + 1);
        skipSpace();
        if (more() && s_[i_] == ',') ++i_;
      }
      ++i_;
    } else if (c == '"') {
      string();
    } else {
      while (more() && !QByteArray(",}] \t\r\n").contains(s_[i_])) ++i_;
    }
  }

  const QByteArray& s_;
  qsizetype i_ = 0;
  int line_ = 1;
  std::map<QString, int> lines_;
};

}  // namespace

std::map<QString, int> jsonValueLines(const QByteArray& text) { return Scanner(text).run(); }

int lineOf(const std::map<QString, int>& lines, QString path) {
  for (;;) {
    const auto it = lines.find(path);
    if (it != lines.end()) return it->second;
    if (path.isEmpty()) return 0;
    const qsizetype cut = std::max(path.lastIndexOf('.'), path.lastIndexOf('['));
    path = cut < 0 ? QString() : path.left(cut);
  }
}

int lineAtOffset(const QByteArray& text, qsizetype offset) {
  return 1 + int(text.left(std::clamp<qsizetype>(offset, 0, text.size())).count('\n'));
}

}  // namespace dyn
