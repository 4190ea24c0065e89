// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/options/options.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::detail {

OptionInfo option_info(std::string key, OptionType type, std::string unit, std::string help,
                       Range range) {
  OptionInfo option;
  option.key = std::move(key);
  option.type = type;
  option.unit = std::move(unit);
  option.help = std::move(help);
  option.range = range;
  return option;
}

OptionBinder::OptionBinder(std::string section, std::string caption) {
  table_.section = std::move(section);
  table_.caption = std::move(caption);
}

void OptionBinder::add(OptionInfo option, const OptionValue* initial, Store store) {
  if (table_.find(option.key) != nullptr)
    throw std::logic_error(fmt::format("[{}] {} is declared twice", table_.section, option.key));
  option.has_default = initial != nullptr;
  if (option.type == OptionType::index_map && option.item.find(':') == std::string::npos)
    throw std::logic_error(fmt::format("[{}] {}: a map's items are named KEY:VALUE, found '{}'",
                                       table_.section, option.key, option.item));
  if (initial != nullptr) {
    option.default_text = option_text(option, *initial);
    if (option.type == OptionType::choice && initial->choice >= option.choices.size())
      throw std::logic_error(fmt::format(
          "[{}] {}: the field's initial value is none of the choices", table_.section, option.key));
    if (!parse_option_value(option, option.default_text))
      throw std::logic_error(fmt::format("[{}] {}: the default '{}' is not {}", table_.section,
                                         option.key, option.default_text, expectation(option)));
  }
  table_.options.push_back(std::move(option));
  stores_.push_back(std::move(store));
}

void OptionBinder::read(const OptionSource& source, void* settings) const {
  for (std::size_t i = 0; i < table_.options.size(); ++i) {
    const OptionInfo& option = table_.options[i];
    const std::string key = fmt::format("{}.{}", table_.section, option.key);
    if (!source.has(key)) continue;
    const std::string& text = source.text(key);
    std::optional<OptionValue> value = parse_option_value(option, text);
    if (!value)
      throw Error(option_message(source.origin(key), table_.section, option.key, text,
                                 refusal(option, text)));
    if (option.type == OptionType::path) value->text = source.resolve(value->text).string();
    stores_[i](settings, *value);
  }
}

std::string OptionBinder::assign(void* settings, std::string_view key,
                                 const std::string& text) const {
  for (std::size_t i = 0; i < table_.options.size(); ++i) {
    const OptionInfo& option = table_.options[i];
    if (option.key != key) continue;
    const std::optional<OptionValue> value = parse_option_value(option, text);
    if (!value) return refusal(option, text);
    stores_[i](settings, *value);
    return "";
  }
  throw std::logic_error(fmt::format("[{}] has no option {}", table_.section, key));
}

}  // namespace substruct::detail
