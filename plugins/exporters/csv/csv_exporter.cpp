// SPDX-License-Identifier: GPL-3.0-or-later
// csv: one row per frame with the step, the time, the energies and the positions of the scene's
// tracked vertices:
//   step,time,kinetic,elastic,gravity,total,v51_x,v51_y,v51_z,…
// (v<id>: the 0-based vertex id of [scene] tracked_vertices). Numbers are written in their
// shortest form that reads back exactly. The file is written to a temporary file beside it and
// renamed to FILE in finish() (io/staged_file.hpp); abort() removes it.
#include <filesystem>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/io/exporter.hpp"
#include "substruct/io/output_target.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct::csv {

namespace {

namespace fs = std::filesystem;
// The [csv] section.
struct CsvSettings {
  std::string file;  // relative to the folder of [run] output; empty: [run] output with .csv
  long every = 1;
};

const OptionSet<CsvSettings>& csv_options() {
  static const auto options =
      OptionSet<CsvSettings>("csv", "energies and tracked vertices, one row per frame")
          .text("file", &CsvSettings::file,
                "the CSV file; relative to the folder of [run] output; default: [run] output "
                "with the extension .csv")
          .integer("every", &CsvSettings::every, "",
                   "write every k-th frame the run passes (the run passes every [run] "
                   "output_every-th step)",
                   at_least(1));
  return options;
}

const OptionTable& options() {
  return csv_options().table();
}

class CsvExporter final : public Exporter {
 public:
  explicit CsvExporter(const CsvSettings& settings)
      : file_option_(settings.file), every_(settings.every) {}

  ~CsvExporter() override {
    if (state_ == State::writing) abort();
  }

  std::vector<fs::path> targets(const ExportSetup& setup) const override {
    if (file_option_.empty()) {
      fs::path file = setup.output;
      return {file.replace_extension(".csv")};
    }
    const fs::path option = file_option_;
    return {option.is_absolute() ? option : setup.output.parent_path() / option};
  }

  void begin(const ExportSetup& setup) override {
    file_ = targets(setup).front();
    tracked_ = setup.scene.tracked_vertices;
    const Index n = setup.scene.mesh.num_vertices();
    for (Index v : tracked_)
      if (v < 0 || v >= n)
        throw Error(
            fmt::format("csv: tracked vertex {} does not exist (the mesh has {} "
                        "vertices, 0-based)",
                        v, n));
    create_output_folder(file_, "[csv] file");
    out_.emplace(file_);
    state_ = State::writing;
    passed_ = 0;
    std::string header = "step,time,kinetic,elastic,gravity,total";
    for (Index v : tracked_) header += fmt::format(",v{0}_x,v{0}_y,v{0}_z", v);
    out_->stream() << header << '\n';
  }

  void write(const ExportFrame& frame) override {
    if (state_ != State::writing) throw Error("csv: write() outside begin()…finish()");
    if (passed_++ % every_ != 0) return;
    const Energies& e = frame.energies;
    std::string row;
    auto sink = std::back_inserter(row);
    fmt::format_to(sink, "{},{},{},{},{},{}", frame.step, frame.time, e.kinetic, e.elastic,
                   e.gravity, e.total());
    for (Index v : tracked_) {
      if (v >= frame.positions.rows())
        throw Error(
            fmt::format("csv: frame of step {} has {} positions, tracked vertex {} is "
                        "missing",
                        frame.step, frame.positions.rows(), v));
      fmt::format_to(sink, ",{},{},{}", frame.positions(v, 0), frame.positions(v, 1),
                     frame.positions(v, 2));
    }
    out_->stream() << row << '\n';
  }

  void finish() override {
    if (state_ != State::writing) throw Error("csv: finish() without begin()");
    out_->commit();
    out_.reset();
    state_ = State::finished;
  }

  void abort() noexcept override {
    if (state_ == State::idle) return;
    out_.reset();  // removes the temporary file unless finish() published it
    if (state_ == State::finished) remove_output_file(file_);  // the run failed after finish()
    state_ = State::idle;
  }

  std::vector<fs::path> outputs() const override {
    if (state_ != State::finished) return {};
    return {file_};
  }

 private:
  enum class State { idle, writing, finished };

  std::string file_option_;
  long every_ = 1;
  State state_ = State::idle;
  fs::path file_;
  std::vector<Index> tracked_;
  std::optional<StagedFile> out_;  // from begin() to finish()
  long passed_ = 0;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<CsvExporter>(csv_options().read(context.config));
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{"csv",
                                  PluginKind::exporter,
                                  SUBSTRUCT_VERSION,
                                  "energies and tracked vertex positions per frame, as CSV",
                                  &options,
                                  &create};
  return d;
}

}  // namespace substruct::csv

SUBSTRUCT_PLUGIN(substruct::csv::descriptor)
