#include "substruct/reduction/reduction_settings.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <boost/any.hpp>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"

namespace substruct {

namespace {

/// A config value as text, whatever type its option has ("" for a type the framework does not
/// use). Doubles are written exactly (17 significant digits).
std::string value_text(const boost::any& value) {
  if (const auto* s = boost::any_cast<std::string>(&value)) return *s;
  if (const auto* d = boost::any_cast<double>(&value)) return fmt::format("{:.17g}", *d);
  if (const auto* i = boost::any_cast<int>(&value)) return std::to_string(*i);
  if (const auto* l = boost::any_cast<long>(&value)) return std::to_string(*l);
  if (const auto* u = boost::any_cast<unsigned long>(&value)) return std::to_string(*u);
  if (const auto* b = boost::any_cast<bool>(&value)) return *b ? "true" : "false";
  if (const auto* v = boost::any_cast<std::vector<std::string>>(&value)) {
    std::string joined;
    for (const std::string& item : *v) joined += (joined.empty() ? "" : ",") + item;
    return joined;
  }
  return "";
}

/// "solvers.K=NAME;NAME.a=…;NAME.b=…;" with the options of the solver's section in key order.
std::string solver_entry(const Config& config, const std::string& key) {
  if (!config.has(key)) return "";
  const std::string name = config.get<std::string>(key);
  std::string entry = fmt::format("{}={};", key, name);
  for (const auto& [option, value] : config.values())  // std::map: sorted by key
    if (option.starts_with(name + "."))
      entry += fmt::format("{}={};", option, value_text(value.value()));
  return entry;
}

int positive_or_zero(const Config& config, const std::string& key, int minimum) {
  const int value = config.get<int>(key);
  if (value < minimum)
    throw Error(fmt::format("[reduction] {} must be ≥ {}, found {}", key.substr(key.find('.') + 1),
                            minimum, value));
  return value;
}

}  // namespace

ModeCountPolicy parse_mode_count_policy(std::string_view name) {
  if (name == "fixed") return ModeCountPolicy::fixed;
  if (name == "adaptive") return ModeCountPolicy::adaptive;
  throw Error(fmt::format("[reduction] mode_count: expected fixed | adaptive, found '{}'", name));
}

ForceModelKind parse_force_model_kind(std::string_view name) {
  if (name == "polynomial") return ForceModelKind::polynomial;
  if (name == "cubature") return ForceModelKind::cubature;
  throw Error(
      fmt::format("[reduction] force_model: expected polynomial | cubature, found '{}'", name));
}

BoundaryPolicy parse_boundary_policy(std::string_view name) {
  if (name == "parent-interface") return BoundaryPolicy::parent_interface;
  if (name == "free") return BoundaryPolicy::free;
  if (name == "fixed-vertices") return BoundaryPolicy::fixed_vertices;
  throw Error(fmt::format(
      "[reduction] boundary: expected parent-interface | free | fixed-vertices, found '{}'", name));
}

std::string_view to_string(ModeCountPolicy policy) {
  return policy == ModeCountPolicy::fixed ? "fixed" : "adaptive";
}

std::string_view to_string(ForceModelKind kind) {
  return kind == ForceModelKind::polynomial ? "polynomial" : "cubature";
}

std::string_view to_string(BoundaryPolicy policy) {
  switch (policy) {
    case BoundaryPolicy::parent_interface:
      return "parent-interface";
    case BoundaryPolicy::free:
      return "free";
    case BoundaryPolicy::fixed_vertices:
      return "fixed-vertices";
  }
  return "parent-interface";
}

ReductionSettings ReductionSettings::from_config(const Config& config) {
  ReductionSettings s;
  s.modes = positive_or_zero(config, "reduction.modes", 0);
  s.linear_modes = positive_or_zero(config, "reduction.linear_modes", 1);
  s.modal_derivatives = config.get<bool>("reduction.modal_derivatives");
  s.mode_count = parse_mode_count_policy(config.get<std::string>("reduction.mode_count"));
  s.r_max = positive_or_zero(config, "reduction.r_max", 0);
  s.force_model = parse_force_model_kind(config.get<std::string>("reduction.force_model"));
  s.cubature_elements = positive_or_zero(config, "reduction.cubature_elements", 1);
  s.cubature_poses = positive_or_zero(config, "reduction.cubature_poses", 1);
  s.cubature_tolerance = config.get<double>("reduction.cubature_tolerance");
  if (!(s.cubature_tolerance > 0))
    throw Error(
        fmt::format("[reduction] cubature_tolerance must be > 0, found {}", s.cubature_tolerance));
  s.cubature_seed = config.get<unsigned long>("reduction.cubature_seed");
  s.boundary = parse_boundary_policy(config.get<std::string>("reduction.boundary"));
  s.cache = config.get<bool>("reduction.cache");
  s.instancing = config.get<bool>("reduction.instancing");
  const int r = s.mode_count == ModeCountPolicy::fixed ? s.modes : s.r_max;
  if (!s.modal_derivatives && r > s.linear_modes)
    throw Error(fmt::format(
        "[reduction] {} = {} needs modal_derivatives = true or linear_modes ≥ {} (found "
        "linear_modes = {}): without derivatives the basis is the linear modes",
        s.mode_count == ModeCountPolicy::fixed ? "modes" : "r_max", r, r, s.linear_modes));
  if (s.modal_derivatives && r > s.linear_modes + s.linear_modes * (s.linear_modes + 1) / 2)
    throw Error(fmt::format(
        "[reduction] {} = {} is more than the {} linear modes and their {} modal derivatives "
        "give; raise linear_modes",
        s.mode_count == ModeCountPolicy::fixed ? "modes" : "r_max", r, s.linear_modes,
        s.linear_modes * (s.linear_modes + 1) / 2));
  s.solver_signature =
      solver_entry(config, "solvers.eigen") + solver_entry(config, "solvers.linear");
  return s;
}

}  // namespace substruct
