// SPDX-License-Identifier: GPL-3.0-or-later
#include "ordering.hpp"

namespace substruct::cholmod_plugin {

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
