// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A config section declared once. Its settings are a plain struct; each option is bound to one
/// field with its key, unit, help and, where the code relies on them, its choices and bounds, and
/// the field's initial value is its default. From that declaration come the validation of a scene
/// (unknown keys with the nearest known one, bad values in one message format), the parsed
/// struct, `substruct help` and the reference page framework/docs/options.md.
///
///   struct InertiaSettings {
///     Lumping lumping = Lumping::interface;
///     double frequency_scale = 1;
///   };
///   const OptionSet<InertiaSettings>& inertia_options() {
///     static const auto options =
///         OptionSet<InertiaSettings>("inertia", "multidomain reduced dynamics in moving frames")
///             .choice("lumping", &InertiaSettings::lumping,
///                     {{"interface", Lumping::interface}, {"center-of-mass", Lumping::com}},
///                     "where a child subtree's mass is lumped")
///             .number("frequency_scale", &InertiaSettings::frequency_scale, "",
///                     "global frequency scale α", positive);
///     return options;
///   }
///   settings_ = inertia_options().read(config);                        // in the plugin
///   const OptionTable& options() { return inertia_options().table(); }  // for its descriptor
///
/// A bad value reads "scene.ini:7: [inertia] lumping = 'x': expected one of interface,
/// center-of-mass"; Config checks every value it is given against its option when it loads.
#include <algorithm>
#include <concepts>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/options/detail/option_value.hpp"
#include "substruct/options/option_source.hpp"
#include "substruct/options/option_table.hpp"

namespace substruct {

/// One allowed value of a choice option: its name in a scene and the value it stands for.
template <class E>
struct Choice {
  std::string_view name;
  E value;
};

/// A field of a member struct of S, for options on a nested struct:
/// member(&Settings::material, &Material::density).
template <class C, class M, class T>
struct MemberField {
  M C::*outer;
  T M::*inner;
};
template <class C, class M, class T>
constexpr MemberField<C, M, T> member(M C::*outer, T M::*inner) {
  return {outer, inner};
}

namespace detail {

/// The untyped part of an OptionSet: the table, and per option how a parsed value is stored.
class OptionBinder {
 public:
  using Store = std::function<void(void* settings, const OptionValue& value)>;

  OptionBinder(std::string section, std::string caption);
  /// Adds `option` with `initial` as its default (none when null). Throws std::logic_error for a
  /// key declared twice or a default its own option would refuse (a programming error).
  void add(OptionInfo option, const OptionValue* initial, Store store);
  /// Stores every option `source` has a value for into `settings`; throws Error in the one
  /// message format for a value its option refuses.
  void read(const OptionSource& source, void* settings) const;
  /// Stores `text` as the value of option `key` into `settings`; returns why its option refused
  /// it (refusal()), empty when stored. Throws std::logic_error for a key not declared.
  std::string assign(void* settings, std::string_view key, const std::string& text) const;
  const OptionTable& table() const { return table_; }

 private:
  OptionTable table_;
  std::vector<Store> stores_;
};

OptionInfo option_info(std::string key, OptionType type, std::string unit, std::string help,
                       Range range = any_value);

/// C is S or a base of S: a field of C is a field of S.
template <class C, class S>
concept BaseOf = std::derived_from<S, C>;
template <class E>
concept Enumeration = std::is_enum_v<E>;

}  // namespace detail

/// The options of section `[section]`, bound to the fields of S (default-constructible).
template <class S>
class OptionSet {
 public:
  OptionSet(std::string section, std::string caption)
      : binder_(std::move(section), std::move(caption)) {}

  OptionSet& flag(std::string key, bool S::*field, std::string help) {
    return bind(detail::option_info(std::move(key), OptionType::flag, "", std::move(help)), field,
                &detail::OptionValue::flag);
  }
  /// A finite real number in `range`; `unit` as "s", "Pa", "m/s²" or "" (none).
  OptionSet& number(std::string key, double S::*field, std::string unit, std::string help,
                    Range range = any_value) {
    return bind(detail::option_info(std::move(key), OptionType::number, std::move(unit),
                                    std::move(help), range),
                field, &detail::OptionValue::number);
  }
  /// A number in a field of a member struct of S (see member()).
  template <detail::BaseOf<S> C, class M>
  OptionSet& number(std::string key, MemberField<C, M, double> field, std::string unit,
                    std::string help, Range range = any_value) {
    OptionInfo option = detail::option_info(std::move(key), OptionType::number, std::move(unit),
                                            std::move(help), range);
    detail::OptionValue initial;
    initial.number = S{}.*field.outer.*field.inner;
    binder_.add(std::move(option), &initial, [field](void* s, const detail::OptionValue& v) {
      static_cast<S*>(s)->*field.outer.*field.inner = v.number;
    });
    return *this;
  }
  /// A number without default: the field stays empty unless a scene sets it.
  OptionSet& number(std::string key, std::optional<double> S::*field, std::string unit,
                    std::string help, Range range = any_value) {
    OptionInfo option = detail::option_info(std::move(key), OptionType::number, std::move(unit),
                                            std::move(help), range);
    detail::OptionValue initial;
    const std::optional<double> value = S{}.*field;
    if (value) initial.number = *value;
    binder_.add(
        std::move(option), value ? &initial : nullptr,
        [field](void* s, const detail::OptionValue& v) { static_cast<S*>(s)->*field = v.number; });
    return *this;
  }
  /// An integer in `range` that the field's type holds.
  template <std::integral T, detail::BaseOf<S> C>
  OptionSet& integer(std::string key, T C::*field, std::string unit, std::string help,
                     Range range = any_value) {
    static_assert(!std::same_as<T, bool>, "a bool option is a flag()");
    if constexpr (std::is_unsigned_v<T>)
      if (range.lowest < 0) range.lowest = 0;
    OptionInfo option = detail::option_info(std::move(key), OptionType::integer, std::move(unit),
                                            std::move(help), range);
    if constexpr (std::is_signed_v<T>) option.lowest_integer = std::numeric_limits<T>::min();
    if constexpr (std::cmp_less(std::numeric_limits<T>::max(), std::numeric_limits<long>::max()))
      option.highest_integer = std::numeric_limits<T>::max();
    detail::OptionValue initial;
    initial.integer = static_cast<long>(S{}.*field);
    binder_.add(std::move(option), &initial, [field](void* s, const detail::OptionValue& v) {
      static_cast<S*>(s)->*field = static_cast<T>(v.integer);
    });
    return *this;
  }
  OptionSet& text(std::string key, std::string S::*field, std::string help) {
    return bind(detail::option_info(std::move(key), OptionType::text, "", std::move(help)), field,
                &detail::OptionValue::text);
  }
  /// A file or folder; relative paths are taken from the scene file's folder.
  OptionSet& path(std::string key, std::filesystem::path S::*field, std::string help) {
    return bind(detail::option_info(std::move(key), OptionType::path, "", std::move(help)), field,
                &detail::OptionValue::text);
  }
  /// Names separated by blanks and/or commas ("gravity pull").
  OptionSet& list(std::string key, std::vector<std::string> S::*field, std::string help) {
    return bind(detail::option_info(std::move(key), OptionType::list, "", std::move(help)), field,
                &detail::OptionValue::items);
  }
  /// Non-negative indices separated by blanks and/or commas ("2 5").
  OptionSet& indices(std::string key, std::vector<Index> S::*field, std::string help) {
    return bind(detail::option_info(std::move(key), OptionType::indices, "", std::move(help)),
                field, &detail::OptionValue::indices);
  }
  /// Numbers in `range` separated by blanks and/or commas ("10 5 1").
  OptionSet& numbers(std::string key, std::vector<double> S::*field, std::string unit,
                     std::string help, Range range = any_value) {
    return bind(detail::option_info(std::move(key), OptionType::numbers, std::move(unit),
                                    std::move(help), range),
                field, &detail::OptionValue::numbers);
  }
  /// A map from indices to numbers in `range`: "INDEX:NUMBER" items separated by blanks and/or
  /// commas ("3:0.5 7:2"), INDEX an index or a range A-B (each of A … B); an index given twice is
  /// refused. `item` names the parts in help and messages, e.g. "DOMAIN:FACTOR".
  OptionSet& index_map(std::string key, std::map<Index, double> S::*field, std::string item,
                       std::string unit, std::string help, Range range = any_value) {
    OptionInfo option = detail::option_info(std::move(key), OptionType::index_map, std::move(unit),
                                            std::move(help), range);
    option.item = std::move(item);
    return bind(std::move(option), field, &detail::OptionValue::map);
  }
  /// Three finite numbers "x y z".
  OptionSet& vec3(std::string key, Vec3 S::*field, std::string unit, std::string help) {
    return bind(
        detail::option_info(std::move(key), OptionType::vec3, std::move(unit), std::move(help)),
        field, &detail::OptionValue::vec3);
  }
  /// One of `choices`, each a name and the value of E it stands for.
  template <class E, detail::BaseOf<S> C>
  OptionSet& choice(std::string key, E C::*field,
                    std::type_identity_t<std::initializer_list<Choice<E>>> choices,
                    std::string help) {
    return choice_of<E>(std::move(key), field, std::vector<Choice<E>>(choices), std::move(help));
  }
  /// One of `values`, each named by its to_string(E).
  template <detail::Enumeration E, detail::BaseOf<S> C>
  OptionSet& choice(std::string key, E C::*field,
                    std::type_identity_t<std::initializer_list<E>> values, std::string help) {
    std::vector<std::string> names;
    for (E value : values) names.emplace_back(to_string(value));
    std::vector<Choice<E>> choices;
    for (std::size_t i = 0; i < names.size(); ++i) choices.push_back({names[i], values.begin()[i]});
    return choice_of<E>(std::move(key), field, choices, std::move(help));
  }

  /// One of `names`, kept as the name.
  OptionSet& choice(std::string key, std::string S::*field,
                    std::initializer_list<std::string_view> names, std::string help) {
    std::vector<Choice<std::string>> choices;
    for (std::string_view name : names) choices.push_back({name, std::string(name)});
    return choice_of<std::string>(std::move(key), field, choices, std::move(help));
  }

  /// The settings `source` (the run's Config) holds for this section; options it has no value
  /// for keep the struct's initial values. Throws Error naming where a bad value was set.
  S read(const OptionSource& source) const {
    S settings{};
    binder_.read(source, &settings);
    return settings;
  }
  /// Sets option `key` (one of table()'s) of `settings` from `text`, as a command line gives
  /// it; returns why the option refused it ("expected …"), empty when it was stored.
  std::string assign(S& settings, std::string_view key, const std::string& text) const {
    return binder_.assign(&settings, key, text);
  }
  const OptionTable& table() const { return binder_.table(); }

 private:
  template <class T, class V>
  OptionSet& bind(OptionInfo option, T S::*field, V detail::OptionValue::*member) {
    detail::OptionValue initial;
    initial.*member = S{}.*field;
    binder_.add(std::move(option), &initial,
                [field, member](void* s, const detail::OptionValue& v) {
                  static_cast<S*>(s)->*field = v.*member;
                });
    return *this;
  }
  template <class E>
  OptionSet& choice_of(std::string key, E S::*field, const std::vector<Choice<E>>& choices,
                       std::string help) {  // a field of a base of S converts to E S::*
    OptionInfo option =
        detail::option_info(std::move(key), OptionType::choice, "", std::move(help));
    std::vector<E> values;
    for (const Choice<E>& c : choices) {
      option.choices.emplace_back(c.name);
      values.push_back(c.value);
    }
    detail::OptionValue initial;
    initial.choice = static_cast<std::size_t>(std::find(values.begin(), values.end(), S{}.*field) -
                                              values.begin());
    binder_.add(std::move(option), &initial,
                [field, values](void* s, const detail::OptionValue& v) {
                  static_cast<S*>(s)->*field = values[v.choice];
                });
    return *this;
  }

  detail::OptionBinder binder_;
};

}  // namespace substruct
