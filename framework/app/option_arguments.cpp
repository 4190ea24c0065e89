// SPDX-License-Identifier: GPL-3.0-or-later
// OptionArguments: the `--name value` / `--name=value` walk every command's parser shares.
#include <algorithm>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"

namespace substruct::cli {

bool close_to_one_of(const std::string& name, const std::vector<std::string>& known) {
  const std::string nearest = nearest_key(name, known);
  return !nearest.empty() &&
         levenshtein(name, nearest) <= std::max<std::size_t>(2, nearest.size() / 3);
}

Error unknown_option(const char* command, const std::string& option,
                     const std::vector<std::string>& known, const std::string& note) {
  // Compare the option's name without its value (--cuont=3 → --cuont).
  const std::string name = option.substr(0, option.find('='));
  const std::string nearest = nearest_key(name, known);
  const bool close = close_to_one_of(name, known);
  return Error(fmt::format("{}: unknown option '{}'{} ({}see substruct {} --help)", command, option,
                           close ? fmt::format("; did you mean '{}'?", nearest) : "",
                           note.empty() ? "" : note + "; ", command));
}

bool OptionArguments::is(const std::string& name) const {
  if (std::find(asked_.begin(), asked_.end(), name) == asked_.end()) asked_.push_back(name);
  const std::string& a = current();
  return a == name || a.starts_with(name + "=");
}

std::string OptionArguments::value(const std::string& name) {
  const std::string& a = current();
  if (a.size() > name.size() && a.compare(0, name.size() + 1, name + "=") == 0)
    return a.substr(name.size() + 1);
  if (i_ + 1 == args_.size())
    throw Error(
        fmt::format("{}: {} needs a value (see substruct {} --help)", command_, name, command_));
  return args_[++i_];
}

}  // namespace substruct::cli
