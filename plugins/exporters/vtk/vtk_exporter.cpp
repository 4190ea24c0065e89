// vtk: writes the trajectory as a ParaView series, OUT.pvd (a VTK Collection) and one
// UnstructuredGrid file per frame, OUT/STEM_NNNNNN.vtu (NNNNNN the step), for [run] output OUT.pvd.
//
// Nothing that looks complete appears before finish(): frames go to the staging folder STEM.tmp
// beside the .pvd (each file first written as NAME.tmp, then renamed). finish() writes the .pvd
// as STEM.pvd.tmp, removes the previous STEM.pvd and the previous series' frames (files
// STEM_<digits>.vtu in OUT/STEM; other files there are left alone), moves the new frames in and
// renames the .pvd into place last. An interrupted run thus leaves the previous series intact
// (and at worst a staging folder, which the next run of the same output removes); abort()
// removes everything this run wrote.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/io/exporter.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"
#include "vtk_xml.hpp"

namespace substruct::vtk {

namespace {

namespace fs = std::filesystem;
namespace po = boost::program_options;

constexpr std::uint8_t kVtkTetra = 10;

po::options_description options() {
  po::options_description d("[vtk] ParaView series: OUT.pvd and one .vtu per frame in OUT/");
  d.add_options()("vtk.every", po::value<long>()->default_value(1),
                  "write every k-th frame the run passes (the run passes every [run] "
                  "output_every-th step)")("vtk.format",
                                           po::value<std::string>()->default_value("binary"),
                                           "binary (base64 inline, UInt32 headers) | ascii");
  return d;
}

/// Writes `text` to FILE.tmp, then renames it to FILE.
void write_file(const fs::path& file, const std::string& text) {
  fs::path temporary = file;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(fmt::format("vtk: cannot create '{}'", temporary.string()));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw Error(fmt::format("vtk: cannot write '{}' (disk full?)", temporary.string()));
    }
  }
  fs::rename(temporary, file);
}

/// Whether `name` is STEM_<digits>.vtu: a frame of the series STEM.
bool is_frame_of(const std::string& name, const std::string& stem) {
  const std::string prefix = stem + "_";
  if (!name.starts_with(prefix) || !name.ends_with(".vtu")) return false;
  const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - 4);
  return !digits.empty() &&
         std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(c) != 0; });
}

class VtkExporter final : public Exporter {
 public:
  explicit VtkExporter(const Config& config) : every_(config.get<long>("vtk.every")) {
    const std::string format = config.get<std::string>("vtk.format");
    if (format == "binary")
      encoding_ = Encoding::binary;
    else if (format == "ascii")
      encoding_ = Encoding::ascii;
    else
      throw Error(fmt::format("[vtk] format: expected 'binary' or 'ascii', found '{}'", format));
    if (every_ < 1) throw Error(fmt::format("[vtk] every must be ≥ 1, found {}", every_));
  }

  ~VtkExporter() override {
    if (state_ == State::writing) abort();
  }

  void begin(const ExportSetup& setup) override {
    scene_ = &setup.scene;
    pvd_ = setup.output;
    pvd_.replace_extension(".pvd");
    stem_ = pvd_.stem().string();
    if (stem_.empty())
      throw Error(fmt::format("vtk: [run] output '{}' names no file", setup.output.string()));
    const fs::path dir = pvd_.parent_path();
    frames_dir_ = dir / stem_;
    staging_ = dir / (stem_ + ".tmp");
    if (!dir.empty()) fs::create_directories(dir);
    fs::remove_all(staging_);  // left by an interrupted run of the same series
    fs::create_directory(staging_);
    frames_.clear();
    published_.clear();
    passed_ = 0;
    state_ = State::writing;
    encode_topology();
  }

  void write(const ExportFrame& frame) override {
    if (state_ != State::writing) throw Error("vtk: write() outside begin()…finish()");
    if (passed_++ % every_ != 0) return;
    const TetMesh& mesh = scene_->mesh;
    const Index n = mesh.num_vertices();
    if (frame.positions.rows() != n)
      throw Error(fmt::format("vtk: frame of step {} has {} positions for {} vertices", frame.step,
                              frame.positions.rows(), n));
    const bool with_velocity = frame.velocities.rows() == n;
    if (!with_velocity && frame.velocities.rows() != 0)
      throw Error(fmt::format("vtk: frame of step {} has {} velocities for {} vertices", frame.step,
                              frame.velocities.rows(), n));

    const std::string name = fmt::format("{}_{:06d}.vtu", stem_, frame.step);
    if (std::any_of(frames_.begin(), frames_.end(), [&](const Frame& f) { return f.file == name; }))
      throw Error(fmt::format("vtk: step {} was passed twice", frame.step));

    const Points displacement = frame.positions - mesh.vertices;
    const auto flat_span = [](const Points& p) {
      return std::span<const double>(p.data(), static_cast<std::size_t>(p.size()));
    };
    std::string xml;
    xml.reserve(topology_.size() + static_cast<std::size_t>(n) * 3 * 3 * 24);
    xml += fmt::format(
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"{}\" "
        "header_type=\"UInt32\">\n"
        "  <UnstructuredGrid>\n"
        "    <FieldData>\n",
        byte_order());
    const double time[] = {frame.time};
    const std::int64_t step[] = {frame.step};
    append_data_array(xml, "TimeValue", 1, std::span<const double>(time), encoding_, 6);
    append_data_array(xml, "Step", 1, std::span<const std::int64_t>(step), encoding_, 6);
    xml += fmt::format(
        "    </FieldData>\n"
        "    <Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">\n"
        "      <PointData Vectors=\"displacement\">\n",
        n, mesh.num_elements());
    append_data_array(xml, "displacement", 3, flat_span(displacement), encoding_, 8);
    if (with_velocity)
      append_data_array(xml, "velocity", 3, flat_span(frame.velocities), encoding_, 8);
    xml += "      </PointData>\n";
    xml += cell_data_;
    xml += "      <Points>\n";
    append_data_array(xml, "Points", 3, flat_span(frame.positions), encoding_, 8);
    xml += "      </Points>\n";
    xml += topology_;
    xml +=
        "    </Piece>\n"
        "  </UnstructuredGrid>\n"
        "</VTKFile>\n";
    write_file(staging_ / name, xml);
    frames_.push_back({frame.time, name});
  }

  void finish() override {
    if (state_ != State::writing) throw Error("vtk: finish() without begin()");
    std::string pvd = fmt::format(
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"{}\">\n"
        "  <Collection>\n",
        byte_order());
    for (const Frame& f : frames_)
      pvd += fmt::format("    <DataSet timestep=\"{}\" group=\"\" part=\"0\" file=\"{}\"/>\n",
                         f.time, xml_escape((fs::path(stem_) / f.file).generic_string()));
    pvd +=
        "  </Collection>\n"
        "</VTKFile>\n";
    fs::path pvd_temporary = pvd_;
    pvd_temporary += ".tmp";
    write_file(pvd_temporary, pvd);  // lands as OUT.pvd.tmp; renamed into place last

    // The previous series disappears before the new one is published.
    fs::remove(pvd_);
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
    fs::rename(pvd_temporary, pvd_);
    published_.push_back(pvd_);
    state_ = State::finished;
    log::debug("vtk: wrote {} frames to {}", frames_.size(), pvd_.string());
  }

  void abort() noexcept override {
    if (state_ == State::idle) return;
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
    fs::path pvd_temporary = pvd_;
    pvd_temporary += ".tmp";
    fs::remove(pvd_temporary, ignored);
    // After finish(): the run failed later on; what it published goes too.
    for (const fs::path& file : published_) fs::remove(file, ignored);
    if (!published_.empty() && fs::is_empty(frames_dir_, ignored)) fs::remove(frames_dir_, ignored);
    published_.clear();
    frames_.clear();
    state_ = State::idle;
  }

  std::vector<fs::path> outputs() const override {
    if (state_ != State::finished) return {};
    return {pvd_};
  }

 private:
  enum class State { idle, writing, finished };
  struct Frame {
    double time;
    std::string file;  // name inside the frames folder
  };

  /// The parts of every frame that do not change: cells and cell data.
  void encode_topology() {
    const TetMesh& mesh = scene_->mesh;
    const Index m = mesh.num_elements();
    std::vector<std::int32_t> connectivity(static_cast<std::size_t>(m) * 4);
    std::vector<std::int32_t> offsets(static_cast<std::size_t>(m));
    for (Index e = 0; e < m; ++e) {
      for (int k = 0; k < 4; ++k)
        connectivity[static_cast<std::size_t>(4 * e + k)] = mesh.tets(e, k);
      offsets[static_cast<std::size_t>(e)] = 4 * (e + 1);
    }
    const std::vector<std::uint8_t> types(static_cast<std::size_t>(m), kVtkTetra);
    topology_ = "      <Cells>\n";
    append_data_array(topology_, "connectivity", 1, std::span<const std::int32_t>(connectivity),
                      encoding_, 8);
    append_data_array(topology_, "offsets", 1, std::span<const std::int32_t>(offsets), encoding_,
                      8);
    append_data_array(topology_, "types", 1, std::span<const std::uint8_t>(types), encoding_, 8);
    topology_ += "      </Cells>\n";

    // Domain ids (0 everywhere for a scene without a partition) and material ids.
    const std::vector<int>& partition = scene_->decomposition.partition.domain_of_element;
    std::vector<std::int32_t> domain(static_cast<std::size_t>(m), 0);
    if (!partition.empty()) {
      if (partition.size() != domain.size())
        throw Error(fmt::format("vtk: the domain partition has {} entries for {} elements",
                                partition.size(), m));
      std::copy(partition.begin(), partition.end(), domain.begin());
    }
    std::vector<std::int32_t> material(static_cast<std::size_t>(m), 0);
    if (mesh.element_material.size() == material.size())
      std::copy(mesh.element_material.begin(), mesh.element_material.end(), material.begin());
    cell_data_ = "      <CellData Scalars=\"domain\">\n";
    append_data_array(cell_data_, "domain", 1, std::span<const std::int32_t>(domain), encoding_, 8);
    append_data_array(cell_data_, "material", 1, std::span<const std::int32_t>(material), encoding_,
                      8);
    cell_data_ += "      </CellData>\n";
  }

  long every_ = 1;
  Encoding encoding_ = Encoding::binary;
  State state_ = State::idle;
  const Scene* scene_ = nullptr;
  fs::path pvd_;
  fs::path frames_dir_;
  fs::path staging_;
  std::string stem_;
  std::string topology_;
  std::string cell_data_;
  std::vector<Frame> frames_;
  std::vector<fs::path> published_;
  long passed_ = 0;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<VtkExporter>(context.config);
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
