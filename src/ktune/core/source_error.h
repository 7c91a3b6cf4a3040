#pragma once
// An error about user input that points at a place: file, line (1-based), column (1-based).
// Every parser of user input throws this so the CLI can print "file:line:col: message".

#include <stdexcept>
#include <string>

namespace ktune {

class SourceError : public std::runtime_error {
 public:
  SourceError(std::string file, int line, int column, std::string message)
      : std::runtime_error(format(file, line, column, message)),
        file_(std::move(file)), line_(line), column_(column), message_(std::move(message)) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  static std::string format(const std::string& file, int line, int column, const std::string& message) {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) s += ":" + std::to_string(line);
    if (line > 0 && column > 0) s += ":" + std::to_string(column);
    return s + ": " + message;
  }
  std::string file_;
  int line_;
  int column_;
  std::string message_;
};

}  // namespace ktune
