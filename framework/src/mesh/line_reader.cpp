// SPDX-License-Identifier: GPL-3.0-or-later
#include "detail/line_reader.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/input_file.hpp"

namespace substruct::mesh_detail {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view s) {
  std::size_t begin = 0;
  std::size_t end = s.size();
  while (begin < end && is_space(s[begin])) ++begin;
  while (end > begin && is_space(s[end - 1])) --end;
  return s.substr(begin, end - begin);
}

// from_chars takes no leading '+'; a file may write one.
std::string_view without_plus(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+')
    return token.substr(1);
  return token;
}

}  // namespace

std::string quoted(std::string_view token) {
  constexpr std::size_t kMaxShown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < token.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c < 0x20 || c == 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
  }
  if (token.size() > kMaxShown) out += "…";
  out += "'";
  return out;
}

bool parse_double(std::string_view token, double& value) {
  token = without_plus(token);
  if (token.empty()) return false;
  double parsed = 0.0;
  const char* last = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), last, parsed);
  if (ptr != last) return false;
  if (ec == std::errc::result_out_of_range) {
    // Underflow to a subnormal or zero is a valid number; overflow is not finite.
    parsed = std::strtod(std::string(token).c_str(), nullptr);
  } else if (ec != std::errc()) {
    return false;
  }
  if (!std::isfinite(parsed)) return false;
  value = parsed;
  return true;
}

bool parse_integer(std::string_view token, long long& value) {
  token = without_plus(token);
  if (token.empty()) return false;
  long long parsed = 0;
  const char* last = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), last, parsed);
  if (ec != std::errc() || ptr != last) return false;
  value = parsed;
  return true;
}

LineReader::LineReader(std::filesystem::path file, char comment, std::string_view what)
    : file_(std::move(file)), comment_(comment) {
  text_ = read_input_file(file_, what);
  for (const char c : text_)
    if (c == '\n') ++last_line_;
  if (!text_.empty() && text_.back() != '\n') ++last_line_;
}

bool LineReader::next() {
  if (unread_) {
    unread_ = false;
    return true;
  }
  if (next_start_ >= text_.size()) return false;
  std::size_t end = text_.find('\n', next_start_);
  if (end == std::string::npos) end = text_.size();
  std::string_view raw(text_.data() + next_start_, end - next_start_);
  next_start_ = end + 1;
  ++line_number_;
  raw_blank_ = trim(raw).empty();
  if (comment_ != '\0') {
    const std::size_t c = raw.find(comment_);
    if (c != std::string_view::npos) raw = raw.substr(0, c);
  }
  line_ = trim(raw);
  return true;
}

bool LineReader::next_content() {
  while (next())
    if (!line_.empty()) return true;
  return false;
}

void LineReader::require_content(std::string_view expected) {
  if (!next_content()) fail_end_of_file(expected);
}

void LineReader::fail(std::string_view expected, std::string_view found) const {
  fail_at(line_number(), expected, found);
}

void LineReader::fail_token(std::string_view expected, std::string_view token) const {
  fail(expected, quoted(token));
}

void LineReader::fail_end_of_file(std::string_view expected) const {
  fail_at(last_line_ > 0 ? last_line_ : 1, expected, "end of file");
}

void LineReader::fail_at(long line, std::string_view expected, std::string_view found) const {
  throw ParseError(file_, line, fmt::format("expected {}, found {}", expected, found));
}

Fields::Fields(const LineReader& reader, std::string_view text, bool commas)
    : reader_(reader), text_(text), commas_(commas) {
  skip_separators();
}

bool Fields::is_separator(char c) const {
  return is_space(c) || (commas_ && c == ',');
}

void Fields::skip_separators() {
  while (pos_ < text_.size() && is_separator(text_[pos_])) ++pos_;
}

std::string_view Fields::next(std::string_view what) {
  if (done()) reader_.fail(what, "end of line");
  const std::size_t begin = pos_;
  while (pos_ < text_.size() && !is_separator(text_[pos_])) ++pos_;
  const std::string_view field = text_.substr(begin, pos_ - begin);
  skip_separators();
  return field;
}

double Fields::next_double(std::string_view what) {
  const std::string_view field = next(what);
  double value = 0.0;
  if (!parse_double(field, value))
    reader_.fail_token(fmt::format("{} (a finite number)", what), field);
  return value;
}

long long Fields::next_integer(std::string_view what) {
  const std::string_view field = next(what);
  long long value = 0;
  if (!parse_integer(field, value)) reader_.fail_token(fmt::format("{} (an integer)", what), field);
  return value;
}

long long Fields::next_integer(std::string_view what, long long lo, long long hi) {
  const std::string_view field = next(what);
  long long value = 0;
  if (!parse_integer(field, value)) reader_.fail_token(fmt::format("{} (an integer)", what), field);
  if (value < lo || value > hi) reader_.fail(fmt::format("{} in [{}, {}]", what, lo, hi), field);
  return value;
}

void Fields::expect_end(std::string_view after) {
  if (!done()) {
    std::size_t end = pos_;
    while (end < text_.size() && !is_separator(text_[end])) ++end;
    reader_.fail_token(fmt::format("end of line after {}", after), text_.substr(pos_, end - pos_));
  }
}

}  // namespace substruct::mesh_detail
