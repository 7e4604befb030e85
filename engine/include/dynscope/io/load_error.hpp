// The one error type of every loader and of model construction: it names the file,
// the line and the element, so a user can find the mistake.
#pragma once
#include <stdexcept>
#include <string>

namespace dyn {

class LoadError : public std::runtime_error {
 public:
  LoadError(std::string file, int line, std::string element, const std::string& message)
      : std::runtime_error(format(file, line, element, message)),
        file_(std::move(file)), line_(line), element_(std::move(element)), message_(message) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }                 // 0 when unknown
  const std::string& element() const { return element_; }
  const std::string& message() const { return message_; }

  // "file:line: element: message" (the line left out when 0, "<input>" for an empty file name).
  static std::string format(const std::string& file, int line, const std::string& element,
                            const std::string& message) {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
      s += ':';
      s += std::to_string(line);
    }
    s += ": ";
    if (!element.empty()) s += element + ": ";
    return s + message;
  }

 private:
  std::string file_;
  int line_;
  std::string element_, message_;
};

}  // namespace dyn
