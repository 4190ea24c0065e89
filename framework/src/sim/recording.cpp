// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/sim/recording.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/fnv1a.hpp"
#include "substruct/io/checked_record.hpp"
#include "substruct/io/record_stream.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct {

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t kVersion = 1;
constexpr const char* kHeaderMagic = "SSRECHDR";
constexpr const char* kFrameMagic = "SSRECFRM";
constexpr const char* kEndMagic = "SSRECEND";

template <class Matrix>
void put_doubles(RecordWriter& w, const Matrix& m) {
  w.u64(static_cast<std::uint64_t>(m.rows()));
  w.u64(static_cast<std::uint64_t>(m.cols()));
  w.f64s(m.data(), static_cast<std::size_t>(m.size()));
}

template <class Matrix>
void get_doubles(RecordReader& r, Matrix& m, const char* what) {
  const std::uint64_t rows = r.u64(), cols = r.u64();
  if ((Matrix::ColsAtCompileTime > 0 && cols != std::uint64_t(Matrix::ColsAtCompileTime)) ||
      (cols > 0 && rows > r.left() / 8 / cols))
    throw Error(
        fmt::format("malformed: {} of {}×{} values does not fit the file", what, rows, cols));
  m.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  r.f64s(m.data(), static_cast<std::size_t>(m.size()));
}

template <class Matrix>
void put_indices(RecordWriter& w, const Matrix& m) {
  w.u64(static_cast<std::uint64_t>(m.rows()));
  w.u64(static_cast<std::uint64_t>(m.cols()));
  for (Eigen::Index i = 0; i < m.size(); ++i) w.u32(static_cast<std::uint32_t>(m.data()[i]));
}

template <class Matrix>
void get_indices(RecordReader& r, Matrix& m, Index bound, const char* what) {
  const std::uint64_t rows = r.u64(), cols = r.u64();
  if (cols != std::uint64_t(Matrix::ColsAtCompileTime) || rows > r.left() / 4 / cols)
    throw Error(
        fmt::format("malformed: {} of {}×{} indices does not fit the file", what, rows, cols));
  m.resize(static_cast<Eigen::Index>(rows), Matrix::ColsAtCompileTime);
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const auto v = static_cast<std::int32_t>(r.u32());
    if (v < 0 || v >= bound)
      throw Error(fmt::format("malformed: {} refer to vertex {} of {}", what, v, bound));
    m.data()[i] = v;
  }
}

void put_ints(RecordWriter& w, const auto& values) {
  w.u64(values.size());
  for (auto v : values) w.u32(static_cast<std::uint32_t>(v));
}

template <class T>
std::vector<T> get_ints(RecordReader& r) {
  std::vector<T> values(r.count(4));
  for (T& v : values) v = static_cast<T>(static_cast<std::int32_t>(r.u32()));
  return values;
}

std::string encode_header(const Scene& scene, const std::string& method, double dt,
                          const ReducedGeometry* layout, const Vec3& up, bool velocities) {
  RecordWriter w;
  w.u32(layout != nullptr ? 1 : 0);
  w.u32(velocities ? 1 : 0);
  w.string(scene.name);
  w.string(method);
  w.f64(dt);
  w.f64s(up.data(), 3);
  put_doubles(w, scene.mesh.vertices);
  put_indices(w, scene.mesh.tets);
  put_ints(w, scene.mesh.element_material);
  put_ints(w, scene.decomposition.partition.domain_of_element);
  w.u32(scene.render_mesh ? 1 : 0);
  if (scene.render_mesh) {
    put_doubles(w, scene.render_mesh->vertices);
    put_indices(w, scene.render_mesh->triangles);
  }
  if (layout == nullptr) return std::move(w.bytes());
  const bool same_rest = layout->rest_positions.rows() == scene.mesh.vertices.rows() &&
                         layout->rest_positions == scene.mesh.vertices;
  w.u32(same_rest ? 1 : 0);
  if (!same_rest) put_doubles(w, layout->rest_positions);
  w.u64(layout->domains.size());
  for (const DomainLayout& d : layout->domains) {
    put_ints(w, d.global_vertex);
    w.u32(static_cast<std::uint32_t>(d.instance_of));
    w.f64s(d.rotation.data(), 9);
    w.f64s(d.offset.data(), 3);
    if (d.instance_of >= 0) continue;  // its model is its representative's, stored there
    put_doubles(w, d.rest);
    put_doubles(w, d.U);
    put_doubles(w, d.Psi);
  }
  return std::move(w.bytes());
}

RecordedRun decode_header(RecordReader& r) {
  RecordedRun run;
  const bool reduced = r.u32() != 0;
  run.velocities = r.u32() != 0;
  run.scene = r.string();
  run.method = r.string();
  run.dt = r.f64();
  r.f64s(run.up.data(), 3);
  get_doubles(r, run.mesh.vertices, "the rest vertices");
  const Index n = run.mesh.num_vertices();
  get_indices(r, run.mesh.tets, n, "the tets");
  run.mesh.element_material = get_ints<Index>(r);
  run.domain = get_ints<std::int32_t>(r);
  const auto m = static_cast<std::size_t>(run.mesh.num_elements());
  if (!run.mesh.element_material.empty() && run.mesh.element_material.size() != m)
    throw Error(fmt::format("malformed: {} element materials for {} tets",
                            run.mesh.element_material.size(), m));
  if (!run.domain.empty() && run.domain.size() != m)
    throw Error(fmt::format("malformed: {} element domains for {} tets", run.domain.size(), m));
  if (r.u32() != 0) {
    SurfaceMesh render;
    get_doubles(r, render.vertices, "the render vertices");
    get_indices(r, render.triangles, Index(render.vertices.rows()), "the render triangles");
    run.render_mesh = std::move(render);
  }
  if (reduced) {
    ReducedGeometry layout;
    if (r.u32() != 0)
      layout.rest_positions = run.mesh.vertices;
    else
      get_doubles(r, layout.rest_positions, "the layout's rest positions");
    layout.domains.resize(r.count(8));
    for (DomainLayout& d : layout.domains) {
      d.global_vertex = get_ints<Index>(r);
      d.instance_of = static_cast<int>(static_cast<std::int32_t>(r.u32()));
      r.f64s(d.rotation.data(), 9);
      r.f64s(d.offset.data(), 3);
      if (d.instance_of >= 0) continue;
      get_doubles(r, d.rest, "a domain's rest shape");
      get_doubles(r, d.U, "a domain's basis");
      get_doubles(r, d.Psi, "a domain's Ψ");
    }
    layout.finalize();  // checks ids, sizes and instances
    run.layout = std::move(layout);
  }
  if (r.left() != 0) throw Error(fmt::format("malformed: {} trailing bytes", r.left()));
  return run;
}

std::uint64_t hash_of(const std::string& header) {
  Fnv1a h;
  h.add_bytes(header.data(), header.size());
  return h.digest();
}

}  // namespace

int RecordedRun::num_domains() const {
  if (layout) return static_cast<int>(layout->domains.size());
  return domain.empty() ? 1 : *std::max_element(domain.begin(), domain.end()) + 1;
}

RecordingWriter::RecordingWriter(const fs::path& file, const Scene& scene,
                                 const std::string& method, double dt,
                                 const ReducedGeometry* layout, const Vec3& up, int level,
                                 bool velocities)
    : out_(std::make_unique<RecordStreamWriter>(file, kVersion, level)),
      layout_(layout),
      vertices_(scene.mesh.num_vertices()),
      velocities_(velocities) {
  const std::string header = encode_header(scene, method, dt, layout, up, velocities);
  hash_ = hash_of(header);
  header_bytes_ = out_->append(kHeaderMagic, 0, header);
}

RecordingWriter::~RecordingWriter() = default;

void RecordingWriter::append_frame(long step, double time, const std::string& bytes) {
  if (!out_) throw Error("recording: a frame written after commit()");
  frame_bytes_ += out_->append(kFrameMagic, hash_, bytes);
  steps_.push_back(step);
  times_.push_back(time);
}

void RecordingWriter::write(long step, double time, const std::vector<DomainPose>& poses) {
  if (layout_ == nullptr) throw Error("recording: poses given for a run without a reduced layout");
  if (poses.size() != layout_->domains.size())
    throw Error(
        fmt::format("recording: {} poses for {} domains", poses.size(), layout_->domains.size()));
  RecordWriter w;
  w.i64(step);
  w.f64(time);
  for (std::size_t d = 0; d < poses.size(); ++d) {
    const DomainPose& pose = poses[d];
    const auto r = static_cast<Eigen::Index>(layout_->r(d));
    if (pose.q.size() != r || (velocities_ && pose.qdot.size() != r))
      throw Error(fmt::format("recording: domain {} has {} reduced coordinates, {} expected", d,
                              pose.q.size(), r));
    w.f64s(pose.R.data(), 9);
    w.f64s(pose.p.data(), 3);
    w.f64s(pose.q.data(), std::size_t(r));
    if (!velocities_) continue;
    w.f64s(pose.nu.data(), 3);
    w.f64s(pose.omega.data(), 3);
    w.f64s(pose.qdot.data(), std::size_t(r));
  }
  append_frame(step, time, w.bytes());
}

void RecordingWriter::write(long step, double time, const Points& positions,
                            const Points& velocities) {
  if (layout_ != nullptr) throw Error("recording: positions given for a run with a reduced layout");
  if (positions.rows() != vertices_ || (velocities_ && velocities.rows() != vertices_))
    throw Error(fmt::format("recording: frame of step {} has {} positions for {} vertices", step,
                            positions.rows(), vertices_));
  RecordWriter w;
  w.i64(step);
  w.f64(time);
  w.f64s(positions.data(), std::size_t(positions.size()));
  if (velocities_) w.f64s(velocities.data(), std::size_t(velocities.size()));
  append_frame(step, time, w.bytes());
}

void RecordingWriter::commit() {
  if (!out_) return;
  RecordWriter w;
  w.u64(steps_.size());
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    w.i64(steps_[i]);
    w.f64(times_[i]);
  }
  out_->append(kEndMagic, hash_, w.bytes());
  out_->commit();
  out_.reset();
}

Recording::Recording(const fs::path& file)
    : in_(std::make_unique<RecordStreamReader>(file, "the recording")) {
  if (in_->entries().front().magic != kHeaderMagic)
    throw Error(
        fmt::format("{}not a recording (it does not start with {})", in_->where(), kHeaderMagic));
  if (in_->version() != kVersion)
    throw Error(fmt::format("{}format version {}, this program reads {}", in_->where(),
                            in_->version(), kVersion));
  const std::string header = in_->read(0, kHeaderMagic, 0);
  try {
    RecordReader r(header);
    run_ = decode_header(r);
  } catch (const Error& error) {
    throw Error(fmt::format("{}its header: {}", in_->where(), error.what()));
  }
  hash_ = hash_of(header);
  const std::size_t last = in_->entries().size() - 1;
  if (last == 0 || in_->entries()[last].magic != kEndMagic)
    throw Error(fmt::format("{}truncated: it ends after {} frame records, without its end record",
                            in_->where(), last));
  const std::string end = in_->read(last, kEndMagic, hash_);
  RecordReader r(end);
  try {
    const std::size_t frames = r.count(16);
    if (frames != last - 1)
      throw Error(fmt::format("lists {} frames, the file holds {}", frames, last - 1));
    for (std::size_t i = 0; i < frames; ++i) {
      steps_.push_back(r.i64());
      times_.push_back(r.f64());
    }
  } catch (const Error& error) {
    throw Error(fmt::format("{}its end record: {}", in_->where(), error.what()));
  }
  if (run_.layout) poses_.resize(run_.layout->domains.size());
}

Recording::~Recording() = default;

std::uint64_t Recording::header_bytes() const {
  return in_->entries().front().size;
}

std::uint64_t Recording::frame_bytes(std::size_t frame) const {
  return in_->entries().at(frame + 1).size;
}

void Recording::state(std::size_t frame, Points& x, Points* v) {
  if (frame >= frames())
    throw Error(fmt::format("{}has no frame {} ({} frames)", in_->where(), frame, frames()));
  const std::string bytes = in_->read(frame + 1, kFrameMagic, hash_);
  const bool with_v = v != nullptr && run_.velocities;
  try {
    RecordReader r(bytes);
    if (r.i64() != steps_[frame] || r.f64() != times_[frame])
      throw Error("its step and time are not those the end record lists");
    if (!run_.layout) {
      const Index n = run_.mesh.num_vertices();
      x.resize(n, 3);
      r.f64s(x.data(), std::size_t(x.size()));
      if (run_.velocities) {
        Points velocities(n, 3);
        r.f64s(velocities.data(), std::size_t(velocities.size()));
        if (with_v) *v = std::move(velocities);
      }
    } else {
      const ReducedGeometry& layout = *run_.layout;
      for (std::size_t d = 0; d < poses_.size(); ++d) {
        DomainPose& pose = poses_[d];
        const auto rd = static_cast<Eigen::Index>(layout.r(d));
        pose.q.resize(rd);
        pose.qdot.setZero(rd);
        r.f64s(pose.R.data(), 9);
        r.f64s(pose.p.data(), 3);
        r.f64s(pose.q.data(), std::size_t(rd));
        pose.nu.setZero();
        pose.omega.setZero();
        if (!run_.velocities) continue;
        r.f64s(pose.nu.data(), 3);
        r.f64s(pose.omega.data(), 3);
        r.f64s(pose.qdot.data(), std::size_t(rd));
      }
      reduced_world_state(layout, poses_, &x, with_v ? v : nullptr);
    }
    if (r.left() != 0) throw Error(fmt::format("malformed: {} trailing bytes", r.left()));
  } catch (const Error& error) {
    throw Error(
        fmt::format("{}frame {} (step {}): {}", in_->where(), frame, steps_[frame], error.what()));
  }
  if (!with_v && v != nullptr) v->resize(0, 3);
}

}  // namespace substruct
