// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Where an OptionSet reads the values of its section: the validated configuration of a run
/// (`Config`, in the config layer above) or any other store of "section.key" texts.
#include <filesystem>
#include <string>

namespace substruct {

class OptionSource {
 public:
  virtual ~OptionSource() = default;
  /// Whether "section.key" has a value (set by the user or with a default).
  virtual bool has(const std::string& key) const = 0;
  /// The value of "section.key" as text.
  virtual const std::string& text(const std::string& key) const = 0;
  /// Where the value of "section.key" was set ("scene.ini:12", "command line", "default"), for
  /// the one error format.
  virtual std::string origin(const std::string& key) const = 0;
  /// A path value taken relative to where the values came from (a scene file's folder).
  virtual std::filesystem::path resolve(const std::filesystem::path& p) const = 0;

 protected:
  OptionSource() = default;
  OptionSource(const OptionSource&) = default;
  OptionSource& operator=(const OptionSource&) = default;
  OptionSource(OptionSource&&) = default;
  OptionSource& operator=(OptionSource&&) = default;
};

}  // namespace substruct
