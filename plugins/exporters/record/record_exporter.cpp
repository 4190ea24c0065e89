// SPDX-License-Identifier: GPL-3.0-or-later
// record: writes the run as an instanced recording, OUT.ssrec (sim/recording.hpp,
// framework/docs/recording.md): the mesh and the method's reduced layout (each distinct model
// once) at begin(), then per frame the domains' poses and reduced coordinates, compressed. The
// file goes through a StagedFile: it appears at finish(), complete, or not at all.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/io/exporter.hpp"
#include "substruct/io/output_target.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/sim/recording.hpp"

namespace substruct::record {

namespace {

namespace fs = std::filesystem;

// The [record] section.
struct RecordSettings {
  std::string file;  // relative to the folder of [run] output; empty: [run] output with .ssrec
  long every = 1;
  long level = 1;
  bool velocities = true;
};

const OptionSet<RecordSettings>& record_options() {
  static const auto options =
      OptionSet<RecordSettings>(
          "record", "instanced recording: the models once, then per frame the poses and q")
          .text("file", &RecordSettings::file,
                "the recording; relative to the folder of [run] output; default: [run] output "
                "with the extension .ssrec")
          .integer("every", &RecordSettings::every, "",
                   "record every k-th frame the run passes (the run passes every [run] "
                   "output_every-th step)",
                   at_least(1))
          .integer("level", &RecordSettings::level, "",
                   "zlib compression level of each record, 0 (stored) to 9 (smallest, slowest)",
                   in_range(0, 9))
          .flag("velocities", &RecordSettings::velocities,
                "keep the velocities (ν, ω, q̇ per domain): without them the frames are smaller "
                "and replay has no velocity");
  return options;
}

const OptionTable& options() {
  return record_options().table();
}

class RecordExporter final : public Exporter {
 public:
  RecordExporter(const RecordSettings& settings, const Vec3& up) : settings_(settings), up_(up) {}

  std::vector<fs::path> targets(const ExportSetup& setup) const override {
    if (settings_.file.empty()) {
      fs::path file = setup.output;
      return {file.replace_extension(".ssrec")};
    }
    const fs::path option = settings_.file;
    return {option.is_absolute() ? option : setup.output.parent_path() / option};
  }

  void begin(const ExportSetup& setup) override {
    file_ = targets(setup).front();
    create_output_folder(file_, "[record] file");
    writer_ =
        std::make_unique<RecordingWriter>(file_, setup.scene, setup.method, setup.dt, setup.layout,
                                          up_, int(settings_.level), settings_.velocities);
    layout_ = setup.layout;
    passed_ = 0;
    seconds_ = 0;
    published_ = false;
  }

  void write(const ExportFrame& frame) override {
    if (!writer_) throw Error("record: write() outside begin()…finish()");
    if (passed_++ % settings_.every != 0) return;
    const auto start = Clock::now();
    if (layout_ != nullptr) {
      if (frame.poses == nullptr)
        throw Error(fmt::format("record: frame of step {} has no domain poses", frame.step));
      writer_->write(frame.step, frame.time, *frame.poses);
    } else {
      writer_->write(frame.step, frame.time, frame.positions, frame.velocities);
    }
    seconds_ += seconds_since(start);
  }

  void finish() override {
    if (!writer_) throw Error("record: finish() without begin()");
    writer_->commit();
    const double frames = double(std::max<std::size_t>(writer_->frames(), 1));
    log::debug("record: {} frames in {}: {} bytes of models, {:.0f} per frame, {:.3f} ms per frame",
               writer_->frames(), file_.string(), writer_->header_bytes(),
               double(writer_->frame_bytes()) / frames, 1e3 * seconds_ / frames);
    writer_.reset();
    published_ = true;
  }

  void abort() noexcept override {
    writer_.reset();  // the staged file goes with it
    if (published_) remove_output_file(file_);
    published_ = false;
  }

  std::vector<fs::path> outputs() const override {
    if (!published_) return {};
    return {file_};
  }

 private:
  RecordSettings settings_;
  Vec3 up_;
  fs::path file_;
  std::unique_ptr<RecordingWriter> writer_;
  const ReducedGeometry* layout_ = nullptr;
  long passed_ = 0;
  double seconds_ = 0;  // in write()
  bool published_ = false;
};

// Against gravity ([gravity] acceleration), else +y: where a viewer of the recording looks up.
Vec3 scene_up(const Config& config) {
  if (config.has("gravity.acceleration")) {
    try {
      const Vec3 g = config.vec3("gravity.acceleration");
      if (g.norm() > 0) return -g.normalized();
    } catch (const Error&) {
    }
  }
  return Vec3::UnitY();
}

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<RecordExporter>(record_options().read(context.config),
                                          scene_up(context.config));
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "record",
      PluginKind::exporter,
      SUBSTRUCT_VERSION,
      "instanced recording (.ssrec): the models once, then per frame the poses and reduced "
      "coordinates, compressed; for substruct replay and view --replay",
      &options,
      &create};
  return d;
}

}  // namespace substruct::record

SUBSTRUCT_PLUGIN(substruct::record::descriptor)
