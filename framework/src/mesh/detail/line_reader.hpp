// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Line-oriented reading of text mesh files: 1-based line numbers, comment stripping, field
// parsing, and ParseErrors of the form "FILE:LINE: expected …, found …".
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace substruct::mesh_detail {

/// 'token' for an error message, shortened to a readable length, non-printable bytes escaped.
std::string quoted(std::string_view token);

/// Parses a whole token as a finite double (a leading '+' is accepted). False otherwise.
bool parse_double(std::string_view token, double& value);
/// Parses a whole token as a decimal integer (a leading '+' is accepted). False otherwise.
bool parse_integer(std::string_view token, long long& value);

/// The lines of one file, read whole at construction.
class LineReader {
 public:
  /// A file that cannot be read is an Error naming its path and `what` it is ("mesh file").
  /// `comment` starts a comment that runs to the end of the line; '\0' means no comments.
  LineReader(std::filesystem::path file, char comment, std::string_view what = "mesh file");

  const std::filesystem::path& file() const { return file_; }

  /// Advances to the next line; false at end of file. line() is the line without its comment
  /// and without leading and trailing whitespace (a trailing '\r' included).
  bool next();
  /// Advances to the next line that has content once the comment is stripped.
  bool next_content();
  /// next_content(), where end of file is the ParseError "expected <expected>, found end of file".
  void require_content(std::string_view expected);
  /// Makes the next call to next() or next_content() return the current line again.
  void unread() { unread_ = true; }

  std::string_view line() const { return line_; }
  long line_number() const { return line_number_ > 0 ? line_number_ : 1; }
  /// True when the current line had nothing but whitespace (a comment-only line is not blank).
  bool blank() const { return raw_blank_; }

  /// Throws ParseError(file, current line, "expected <expected>, found <found>").
  [[noreturn]] void fail(std::string_view expected, std::string_view found) const;
  /// As fail(), with the found token quoted.
  [[noreturn]] void fail_token(std::string_view expected, std::string_view token) const;
  /// "expected <expected>, found end of file" on the last line of the file.
  [[noreturn]] void fail_end_of_file(std::string_view expected) const;
  /// As fail(), on an earlier line.
  [[noreturn]] void fail_at(long line, std::string_view expected, std::string_view found) const;

 private:
  std::filesystem::path file_;
  std::string text_;
  std::size_t next_start_ = 0;  // offset of the line after the current one
  std::string_view line_;
  long line_number_ = 0;
  long last_line_ = 0;  // number of lines in the file
  bool raw_blank_ = true;
  bool unread_ = false;
  char comment_;
};

/// The fields of one line (or part of one), separated by whitespace, and by commas too when
/// `commas` is set. Every failure is a ParseError on the reader's current line.
class Fields {
 public:
  explicit Fields(const LineReader& reader, bool commas = false)
      : Fields(reader, reader.line(), commas) {}
  Fields(const LineReader& reader, std::string_view text, bool commas);

  bool done() const { return pos_ >= text_.size(); }
  /// The unread text of the line, without leading separators.
  std::string_view rest() const { return text_.substr(pos_); }

  /// The next field; "expected <what>, found end of line" when there is none.
  std::string_view next(std::string_view what);
  /// The next field as a finite number.
  double next_double(std::string_view what);
  /// The next field as an integer, optionally within [lo, hi].
  long long next_integer(std::string_view what);
  long long next_integer(std::string_view what, long long lo, long long hi);
  /// "expected end of line after <after>, found 'field'" when fields remain.
  void expect_end(std::string_view after);

 private:
  void skip_separators();
  bool is_separator(char c) const;

  const LineReader& reader_;
  std::string_view text_;
  std::size_t pos_ = 0;
  bool commas_;
};

}  // namespace substruct::mesh_detail
