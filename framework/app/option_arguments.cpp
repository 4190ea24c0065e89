// OptionArguments: the `--name value` / `--name=value` walk every command's parser shares.
#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/core/error.hpp"

namespace substruct::cli {

bool OptionArguments::is(const std::string& name) const {
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
