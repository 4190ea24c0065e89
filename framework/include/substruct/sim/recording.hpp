// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A run recorded at plant scale (.ssrec; framework/docs/recording.md): what does not change once
/// (the tet mesh, the domain of each element, the render mesh, and for a reduced method its
/// layout: each distinct model's rest shape X̄, basis U and Ψ once, instances as a rotation and an
/// offset of their model), then per frame only what moves: each domain's pose (R, p, and with
/// velocities ν, ω) and reduced coordinates q (and q̇), as doubles. A method without a reduced
/// layout (full) has its vertices' positions (and velocities) per frame instead.
///
/// The world positions of a frame are those of the run bit for bit: x = p + R (X̄ + U q) through
/// the framework's kernel (geometry/reduced_geometry.hpp), which geometry-cpu computes too (a run
/// on another geometry plugin gets the kernel's numbers).
///
/// The file is a record stream (io/record_stream.hpp): a header record, one record per frame,
/// an end record listing every frame's step and time. It is written through a StagedFile, so an
/// interrupted run leaves no file looking complete; a truncated or corrupt one is refused with
/// the reason when it is opened or its frame read.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

class RecordStreamWriter;
class RecordStreamReader;
struct Scene;

/// What a recording holds besides its frames.
struct RecordedRun {
  std::string scene;
  std::string method;
  double dt = 0;
  Vec3 up = Vec3::UnitY();                 // against gravity, for a viewer's camera
  TetMesh mesh;                            // rest vertices, tets, element_material
  std::vector<std::int32_t> domain;        // of each element (empty: one domain)
  std::optional<SurfaceMesh> render_mesh;  // the scene's, if any
  std::optional<ReducedGeometry> layout;   // the method's reduced layout (finalized), if any
  bool velocities = true;                  // frames hold velocities too

  int num_domains() const;
};

class RecordingWriter {
 public:
  /// Starts `file` with what `scene` and the method's `layout` (null: positions per frame) hold;
  /// `up` the direction against gravity; zlib `level` 0–9; `velocities`: whether frames keep
  /// them.
  RecordingWriter(const std::filesystem::path& file, const Scene& scene, const std::string& method,
                  double dt, const ReducedGeometry* layout, const Vec3& up, int level,
                  bool velocities);
  ~RecordingWriter();

  /// One frame of a reduced method: every domain's pose (q sized by the layout).
  void write(long step, double time, const std::vector<DomainPose>& poses);
  /// One frame of a method without a layout: every vertex's position and velocity.
  void write(long step, double time, const Points& positions, const Points& velocities);
  /// The end record, then the file is published. Without it the destructor discards the file.
  void commit();

  std::size_t frames() const { return steps_.size(); }
  std::uint64_t header_bytes() const { return header_bytes_; }
  std::uint64_t frame_bytes() const { return frame_bytes_; }  // all frames

 private:
  void append_frame(long step, double time, const std::string& bytes);

  std::unique_ptr<RecordStreamWriter> out_;
  std::uint64_t hash_ = 0;
  const ReducedGeometry* layout_ = nullptr;
  Index vertices_ = 0;
  bool velocities_ = true;
  std::vector<std::int64_t> steps_;
  std::vector<double> times_;
  std::uint64_t header_bytes_ = 0, frame_bytes_ = 0;
};

class Recording {
 public:
  /// Opens `file`: reads its header and end record. Error naming the file when it is not a
  /// recording, of another format version, truncated or corrupt.
  explicit Recording(const std::filesystem::path& file);
  ~Recording();

  const RecordedRun& run() const { return run_; }
  std::size_t frames() const { return steps_.size(); }
  long step(std::size_t frame) const { return steps_[frame]; }
  double time(std::size_t frame) const { return times_[frame]; }
  const std::vector<double>& times() const { return times_; }  // ascending
  /// Bytes on disk of the header record and of frame `frame`'s record.
  std::uint64_t header_bytes() const;
  std::uint64_t frame_bytes(std::size_t frame) const;

  /// The world positions (and velocities, when `v` is given and the frames hold them; else v is
  /// emptied) of every vertex in frame `frame`. Error naming the file and the frame when its
  /// record is corrupt.
  void state(std::size_t frame, Points& x, Points* v);

 private:
  std::unique_ptr<RecordStreamReader> in_;
  RecordedRun run_;
  std::uint64_t hash_ = 0;
  std::vector<std::int64_t> steps_;
  std::vector<double> times_;
  std::vector<DomainPose> poses_;
};

}  // namespace substruct
