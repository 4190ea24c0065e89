#include "ordering.hpp"

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::cholmod_plugin {

Ordering parse_ordering(std::string_view key, std::string_view name) {
  if (name == "amd") return Ordering::amd;
  if (name == "metis") return Ordering::metis;
  if (name == "natural") return Ordering::natural;
  throw Error(fmt::format("{}: unknown ordering '{}'; expected amd, metis or natural", key, name));
}

std::string_view to_string(Ordering ordering) {
  switch (ordering) {
    case Ordering::amd:
      return "AMD";
    case Ordering::metis:
      return "METIS";
    case Ordering::natural:
      return "natural";
  }
  return "?";
}

}  // namespace substruct::cholmod_plugin
