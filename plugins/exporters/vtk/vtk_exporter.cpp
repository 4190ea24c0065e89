// SPDX-License-Identifier: GPL-3.0-or-later
// vtk: writes the trajectory as a ParaView series, OUT.pvd (a VTK Collection) and one
// UnstructuredGrid file per frame, OUT/STEM_NNNNNN.vtu (NNNNNN the step), for [run] output OUT.pvd.
//
// Nothing that looks complete appears before finish(): frames go to the staging folder STEM.tmp
// beside the .pvd (each file through a StagedFile, io/staged_file.hpp, flushed to disk together
// by one sync of the file system at finish()). finish() then writes the .pvd
// to a temporary file, removes the previous STEM.pvd and the previous series' frames (files
// STEM_<digits>.vtu in OUT/STEM; other files there are left alone), moves the new frames in and
// renames the .pvd into place last. An interrupted run thus leaves the previous series intact
// (and at worst a staging folder, which the next run of the same output removes); abort()
// removes everything this run wrote.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/io/exporter.hpp"
#include "substruct/io/output_target.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/io/vtk_writer.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"
#include "vtk_xml.hpp"

namespace substruct::vtk {

namespace {

namespace fs = std::filesystem;
// The [vtk] section.
struct VtkSettings {
  long every = 1;
  VtkEncoding format = VtkEncoding::binary;
};

const OptionSet<VtkSettings>& vtk_options() {
  static const auto options =
      OptionSet<VtkSettings>("vtk", "ParaView series: OUT.pvd and one .vtu per frame in OUT/")
          .integer("every", &VtkSettings::every, "",
                   "write every k-th frame the run passes (the run passes every [run] "
                   "output_every-th step)",
                   at_least(1))
          .choice("format", &VtkSettings::format,
                  {{"binary", VtkEncoding::binary}, {"ascii", VtkEncoding::ascii}},
                  "binary (base64 inline, UInt32 headers) or ascii");
  return options;
}

const OptionTable& options() {
  return vtk_options().table();
}

/// Whether `name` is STEM_<digits>.vtu: a frame of the series STEM.
bool is_frame_of(const std::string& name, const std::string& stem) {
  const std::string prefix = stem + "_";
  if (!name.starts_with(prefix) || !name.ends_with(".vtu")) return false;
  const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - 4);
  return !digits.empty() &&
         std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(c) != 0; });
}

/// The series' frames folder and its staging folder are folders of ours: nothing else may be
/// in their place (they are emptied and removed).
void check_series_folder(const fs::path& dir) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(dir, ec);
  if (fs::exists(status) && !fs::is_directory(status))
    throw Error(
        fmt::format("vtk: cannot write the series' folder '{}': something other than a "
                    "folder is there",
                    dir.string()));
}

class VtkExporter final : public Exporter {
 public:
  explicit VtkExporter(const VtkSettings& settings)
      : every_(settings.every), encoding_(settings.format) {}

  ~VtkExporter() override {
    if (state_ == State::writing) abort();
  }

  std::vector<fs::path> targets(const ExportSetup& setup) const override {
    fs::path pvd = setup.output;
    return {pvd.replace_extension(".pvd")};
  }

  void begin(const ExportSetup& setup) override {
    scene_ = &setup.scene;
    pvd_ = targets(setup).front();
    stem_ = pvd_.stem().string();
    if (stem_.empty())
      throw Error(fmt::format("vtk: [run] output '{}' names no file", setup.output.string()));
    const fs::path dir = pvd_.parent_path();
    frames_dir_ = dir / stem_;
    staging_ = dir / (stem_ + ".tmp");
    create_output_folder(pvd_, "[run] output");
    check_series_folder(staging_);
    check_series_folder(frames_dir_);
    fs::remove_all(staging_);  // left by an interrupted run of the same series
    fs::create_directory(staging_);
    frames_.clear();
    published_.clear();
    passed_ = 0;
    state_ = State::writing;
    writer_.emplace(frame_writer(*scene_, encoding_));
  }

  void write(const ExportFrame& frame) override {
    if (state_ != State::writing) throw Error("vtk: write() outside begin()…finish()");
    if (passed_++ % every_ != 0) return;
    const TetMesh& mesh = scene_->mesh;
    const Index n = mesh.num_vertices();
    if (frame.positions.rows() != n)
      throw Error(fmt::format("vtk: frame of step {} has {} positions for {} vertices", frame.step,
                              frame.positions.rows(), n));
    if (frame.velocities.rows() != 0 && frame.velocities.rows() != n)
      throw Error(fmt::format("vtk: frame of step {} has {} velocities for {} vertices", frame.step,
                              frame.velocities.rows(), n));

    const std::string name = fmt::format("{}_{:06d}.vtu", stem_, frame.step);
    if (std::any_of(frames_.begin(), frames_.end(), [&](const Frame& f) { return f.file == name; }))
      throw Error(fmt::format("vtk: step {} was passed twice", frame.step));

    // Staged frames reach the disk together, at finish() (one sync of the file system).
    write_frame(*writer_, staging_ / name, *scene_, frame, Durability::deferred);
    frames_.push_back({frame.time, name});
  }

  void finish() override {
    if (state_ != State::writing) throw Error("vtk: finish() without begin()");
    std::vector<VtkTimeStep> steps;
    for (const Frame& f : frames_)
      steps.push_back({f.time, (fs::path(stem_) / f.file).generic_string()});
    sync_file_system(staging_);  // the frames are on the disk before they are published
    StagedFile pvd(pvd_);
    write_vtk_collection(pvd.stream(), steps);
    pvd.close();  // complete (and on disk) before anything of the previous series goes

    // The previous series disappears before the new one is published.
    remove_output_file(pvd_);
    if (fs::is_directory(frames_dir_)) {
      for (const auto& entry : fs::directory_iterator(frames_dir_))
        if (entry.is_regular_file() && is_frame_of(entry.path().filename().string(), stem_))
          fs::remove(entry.path());
    }
    fs::create_directories(frames_dir_);
    for (const Frame& f : frames_) {
      fs::rename(staging_ / f.file, frames_dir_ / f.file);
      published_.push_back(frames_dir_ / f.file);
    }
    fs::remove_all(staging_);
    pvd.commit();
    published_.push_back(pvd_);
    state_ = State::finished;
    log::debug("vtk: wrote {} frames to {}", frames_.size(), pvd_.string());
  }

  void abort() noexcept override {
    if (state_ == State::idle) return;
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
    // After finish(): the run failed later on; what it published goes too.
    for (const fs::path& file : published_) remove_output_file(file);
    if (!published_.empty() && fs::is_empty(frames_dir_, ignored)) fs::remove(frames_dir_, ignored);
    published_.clear();
    frames_.clear();
    state_ = State::idle;
  }

  std::vector<fs::path> outputs() const override {
    if (state_ != State::finished) return {};
    return {pvd_};
  }

  std::vector<fs::path> published_files() const override {
    if (state_ != State::finished) return {};
    return published_;  // the frames, then the .pvd
  }

 private:
  enum class State { idle, writing, finished };
  struct Frame {
    double time;
    std::string file;  // name inside the frames folder
  };

  long every_ = 1;
  VtkEncoding encoding_ = VtkEncoding::binary;
  State state_ = State::idle;
  const Scene* scene_ = nullptr;
  fs::path pvd_;
  fs::path frames_dir_;
  fs::path staging_;
  std::string stem_;
  std::optional<VtuWriter> writer_;  // the scene's cells, encoded once in begin()
  std::vector<Frame> frames_;
  std::vector<fs::path> published_;
  long passed_ = 0;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<VtkExporter>(vtk_options().read(context.config));
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "vtk",
      PluginKind::exporter,
      SUBSTRUCT_VERSION,
      "ParaView series: a .pvd collection and one .vtu per frame (displacement, velocity, domain)",
      &options,
      &create};
  return d;
}

}  // namespace substruct::vtk

SUBSTRUCT_PLUGIN(substruct::vtk::descriptor)
