// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/error.hpp"

#include <fmt/format.h>

namespace substruct {

ParseError::ParseError(const std::filesystem::path& file, long line, const std::string& what)
    : Error(line > 0 ? fmt::format("{}:{}: {}", file.string(), line, what)
                     : fmt::format("{}: {}", file.string(), what)),
      file_(file),
      line_(line) {}

DivergenceError::DivergenceError(int domain, long step, const std::string& what)
    : Error(fmt::format("simulation diverged at step {} in domain {}: {}", step, domain, what)),
      domain_(domain),
      step_(step) {}

}  // namespace substruct
