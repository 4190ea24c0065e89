// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The interface of exporter plugins (VTK series, CSV of tracked vertices and energies…).
#include <filesystem>
#include <string>
#include <vector>

#include "substruct/core/energies.hpp"
#include "substruct/core/types.hpp"
#include "substruct/plugin/component.hpp"

namespace substruct {

struct Scene;
struct ReducedGeometry;
struct DomainPose;

struct ExportSetup {
  const Scene& scene;
  std::string method;            // coupling plugin name
  std::filesystem::path output;  // [run] output, resolved (e.g. out/beam.pvd)
  double dt;
  /// The method's reduced layout (geometry/reduced_geometry.hpp), null for a method without one.
  const ReducedGeometry* layout = nullptr;
};

struct ExportFrame {
  long step;
  double time;
  const Points& positions;
  const Points& velocities;
  Energies energies;
  /// With a layout: the domain poses the positions were computed from (else null).
  const std::vector<DomainPose>* poses = nullptr;
};

/// Exporters never leave a partial file that looks complete: they write to temporary names
/// and publish in finish(); abort() removes what they wrote.
class Exporter : public Component {
 public:
  virtual void begin(const ExportSetup& setup) = 0;
  virtual void write(const ExportFrame& frame) = 0;
  virtual void finish() = 0;
  virtual void abort() noexcept = 0;
  /// The files this exporter produced (after finish()), for the run summary.
  virtual std::vector<std::filesystem::path> outputs() const = 0;
  /// Every file it published (after finish()), for the run's manifest (io/run_manifest.hpp):
  /// outputs() and the files they refer to, such as a series' frames.
  virtual std::vector<std::filesystem::path> published_files() const { return outputs(); }
  /// The files begin()…finish() will write for `setup`, resolved as begin() resolves them: the
  /// run checks them (io/output_target.hpp) before it precomputes anything.
  virtual std::vector<std::filesystem::path> targets(const ExportSetup& setup) const = 0;
};

}  // namespace substruct
