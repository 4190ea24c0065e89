// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Errors substruct reports to users. Every message says what went wrong and where.
#include <filesystem>
#include <stdexcept>
#include <string>

namespace substruct {

/// Any error substruct reports to the user; `what()` is a complete, human-readable message.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A malformed input file: the message is "FILE:LINE: expected …, found …".
class ParseError : public Error {
 public:
  ParseError(const std::filesystem::path& file, long line, const std::string& what);
  const std::filesystem::path& file() const { return file_; }
  long line() const { return line_; }

 private:
  std::filesystem::path file_;
  long line_;
};

/// A simulation that produced NaN/Inf or blew up: names the domain and the step.
class DivergenceError : public Error {
 public:
  DivergenceError(int domain, long step, const std::string& what);
  int domain() const { return domain_; }
  long step() const { return step_; }

 private:
  int domain_;
  long step_;
};

}  // namespace substruct
