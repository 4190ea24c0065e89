// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/reduced_model.hpp"
#include "substruct/core/stopwatch.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/io/checked_record.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/mesh/mesh_hash.hpp"
#include "substruct/reduction/cubature.hpp"
#include "substruct/reduction/linear_modes.hpp"
#include "substruct/reduction/modal_derivatives.hpp"
#include "substruct/reduction/reduced_stvk.hpp"

namespace substruct {

namespace {

constexpr std::string_view kMagic = "SUBSTMDL";

enum class StoredForces : std::uint32_t { none = 0, polynomial = 1, cubature = 2 };

using Writer = RecordWriter;
using Reader = RecordReader;

std::vector<Index> sorted_unique(std::vector<Index> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

CubatureSettings cubature_settings(const ReductionSettings& settings, MaterialModel material) {
  CubatureSettings c;
  c.max_elements = settings.cubature_elements;
  c.training_poses = settings.cubature_poses;
  c.tolerance = settings.cubature_tolerance;
  c.seed = settings.cubature_seed;
  c.material = material;
  return c;
}

std::string encode_payload(const ReducedModel& m) {
  Writer w;
  w.i64(m.vertices);
  w.i64(m.elements);
  w.f64(m.size);
  w.string(to_string(m.material_model));
  w.u64(m.materials.size());
  for (const Material& material : m.materials) {
    w.string(material.name);
    w.f64(material.density);
    w.f64(material.youngs_modulus);
    w.f64(material.poisson_ratio);
  }
  w.u32(m.boundary.remove_rigid_modes ? 1 : 0);
  w.u64(m.boundary.fixed_vertices.size());
  for (Index v : m.boundary.fixed_vertices) w.i64(v);
  const ReducedBasis& b = m.basis;
  w.i64(b.U.rows());
  w.i64(b.U.cols());
  w.f64s(b.U.data(), static_cast<std::size_t>(b.U.size()));
  w.u64(static_cast<std::uint64_t>(b.linear_eigenvalues.size()));
  w.f64s(b.linear_eigenvalues.data(), static_cast<std::size_t>(b.linear_eigenvalues.size()));
  w.string(to_string(m.force_kind));
  if (m.forces == nullptr) {
    w.u32(static_cast<std::uint32_t>(StoredForces::none));
  } else if (const auto* p = dynamic_cast<const ReducedStVKPolynomial*>(m.forces.get())) {
    w.u32(static_cast<std::uint32_t>(StoredForces::polynomial));
    w.i64(p->r());
    w.u64(p->coefficients().size());
    w.f64s(p->coefficients().data(), p->coefficients().size());
  } else if (const auto* c = dynamic_cast<const CubatureForceModel*>(m.forces.get())) {
    w.u32(static_cast<std::uint32_t>(StoredForces::cubature));
    w.string(to_string(c->material()));
    w.u64(c->elements().size());
    for (Index e : c->elements()) w.i64(e);
    w.f64s(c->weights().data(), c->weights().size());
  } else {
    throw Error("reduced model: its force model has no file representation");
  }
  return std::move(w.bytes());
}

ReducedModel decode_payload(std::string_view payload, const TetMesh* mesh) {
  Reader in(payload);
  ReducedModel m;
  m.vertices = static_cast<Index>(in.i64());
  m.elements = static_cast<Index>(in.i64());
  m.size = in.f64();
  m.material_model = parse_material_model(in.string());
  m.materials.resize(in.count(3 * 8 + 8));
  for (Material& material : m.materials) {
    material.name = in.string();
    material.density = in.f64();
    material.youngs_modulus = in.f64();
    material.poisson_ratio = in.f64();
  }
  m.boundary.remove_rigid_modes = in.u32() != 0;
  m.boundary.fixed_vertices.resize(in.count(8));
  for (Index& v : m.boundary.fixed_vertices) v = static_cast<Index>(in.i64());
  ReducedBasis& b = m.basis;  // a loaded model's stage timings stay 0: it was not computed here
  const std::int64_t rows = in.i64();
  const std::int64_t cols = in.i64();
  if (rows != 3 * std::int64_t{m.vertices} || cols < 0 ||
      (cols > 0 && std::uint64_t(rows) > in.left() / 8 / std::uint64_t(cols)))  // no wrap
    throw Error(fmt::format("malformed: a {}×{} basis for {} vertices", rows, cols, m.vertices));
  b.U.resize(rows, cols);
  in.f64s(b.U.data(), static_cast<std::size_t>(b.U.size()));
  b.linear_eigenvalues.resize(static_cast<Eigen::Index>(in.count(8)));
  in.f64s(b.linear_eigenvalues.data(), static_cast<std::size_t>(b.linear_eigenvalues.size()));
  m.force_kind = parse_force_model_kind(in.string());
  const auto stored = static_cast<StoredForces>(in.u32());
  if (stored == StoredForces::polynomial) {
    const std::int64_t r = in.i64();
    if (r != cols) throw Error(fmt::format("malformed: r = {} forces for {} modes", r, cols));
    std::vector<double> coefficients(in.count(8));
    in.f64s(coefficients.data(), coefficients.size());
    m.forces =
        std::make_shared<ReducedStVKPolynomial>(static_cast<int>(r), std::move(coefficients));
  } else if (stored == StoredForces::cubature) {
    const MaterialModel material = parse_material_model(in.string());
    std::vector<Index> elements(in.count(16));
    for (Index& e : elements) e = static_cast<Index>(in.i64());
    std::vector<double> weights(elements.size());
    in.f64s(weights.data(), weights.size());
    if (mesh == nullptr) throw Error("a cubature model needs its domain's mesh to be read");
    if (mesh->num_vertices() != m.vertices || mesh->num_elements() != m.elements)
      throw Error(
          fmt::format("a cubature model of {} vertices and {} tets, given a mesh of {} and {}",
                      m.vertices, m.elements, mesh->num_vertices(), mesh->num_elements()));
    m.forces = std::make_shared<CubatureForceModel>(*mesh, b.U, std::move(elements),
                                                    std::move(weights), material);
  } else if (stored != StoredForces::none || cols != 0) {
    throw Error(fmt::format("malformed: force model tag {} for r = {}",
                            static_cast<std::uint32_t>(stored), cols));
  }
  if (in.left() != 0) throw Error(fmt::format("malformed: {} unread payload bytes", in.left()));
  return m;
}

}  // namespace

double ReducedModel::seconds_total() const {
  return basis.seconds_assembly + basis.seconds_linear_modes + basis.seconds_derivatives +
         basis.seconds_pca + seconds_force_model;
}

ReducedModel compute_reduced_model(const TetMesh& mesh, MaterialModel material_model,
                                   const DomainBoundary& boundary, int r,
                                   const ReductionSettings& settings, const SolverProvider& solvers,
                                   std::string_view label) {
  if (settings.force_model == ForceModelKind::polynomial && material_model != MaterialModel::stvk &&
      r > 0)
    throw Error(fmt::format(
        "{}: reduced StVK polynomials need [material] model = stvk, found {}; use [reduction] "
        "force_model = cubature",
        label, to_string(material_model)));
  ReducedModel m;
  m.force_kind = settings.force_model;
  m.vertices = mesh.num_vertices();
  m.elements = mesh.num_elements();
  if (mesh.num_vertices() > 0)
    m.size = (mesh.vertices.colwise().maxCoeff() - mesh.vertices.colwise().minCoeff()).norm();
  m.material_model = material_model;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const Material& material = mesh.material_of(e);
    const bool known = std::any_of(m.materials.begin(), m.materials.end(), [&](const Material& x) {
      return x.name == material.name && x.density == material.density &&
             x.youngs_modulus == material.youngs_modulus &&
             x.poisson_ratio == material.poisson_ratio;
    });
    if (!known) m.materials.push_back(material);
  }
  m.boundary.fixed_vertices = sorted_unique(boundary.fixed_vertices);
  m.boundary.remove_rigid_modes = boundary.remove_rigid_modes;

  BasisSettings basis;
  basis.modes = r;
  basis.linear_modes = settings.linear_modes;
  basis.modal_derivatives = settings.modal_derivatives;
  {
    const int k = std::min(settings.linear_modes, r);
    Progress progress(fmt::format("{}: modal derivatives", label),
                      static_cast<std::size_t>(derivative_count(k)));
    m.basis = build_basis(mesh, m.boundary, basis, solvers, &progress);
    progress.finish();
  }
  if (r == 0) return m;

  const auto start = Clock::now();
  if (settings.force_model == ForceModelKind::polynomial) {
    Progress progress(fmt::format("{}: reduced StVK polynomials", label),
                      static_cast<std::size_t>(mesh.num_elements()));
    // A large domain's terms shared by the ranks (as its eigen solve and derivatives).
    m.forces =
        std::make_shared<ReducedStVKPolynomial>(mesh, m.basis.U, &progress, solvers.shared_work());
    progress.finish();
  } else {
    const CubatureSettings cubature = cubature_settings(settings, material_model);
    Progress progress(fmt::format("{}: cubature training", label),
                      static_cast<std::size_t>(cubature.training_poses + cubature.max_elements));
    m.forces = std::make_shared<CubatureForceModel>(
        CubatureForceModel::train(mesh, m.basis.U, cubature, &progress));
    progress.finish();
  }
  m.seconds_force_model = seconds_since(start);
  return m;
}

std::uint64_t model_inputs_hash(const TetMesh& mesh, MaterialModel material_model,
                                const DomainBoundary& boundary, int r,
                                const ReductionSettings& settings) {
  Fnv1a h;
  h.add_string("substruct reduced model");
  h.add_u64(kModelFormatVersion);
  add_mesh_to_hash(h, mesh);
  h.add_string(to_string(material_model));
  const std::vector<Index> fixed = sorted_unique(boundary.fixed_vertices);
  h.add_u64(fixed.size());
  for (Index v : fixed) h.add_i64(v);
  h.add_u64(boundary.remove_rigid_modes ? 1 : 0);
  h.add_i64(r);
  h.add_i64(settings.linear_modes);
  h.add_u64(settings.modal_derivatives ? 1 : 0);
  h.add_f64(BasisSettings{}.shift);
  h.add_string(to_string(settings.force_model));
  if (settings.force_model == ForceModelKind::cubature) {
    h.add_i64(settings.cubature_elements);
    h.add_i64(settings.cubature_poses);
    h.add_f64(settings.cubature_tolerance);
    h.add_u64(settings.cubature_seed);
    const CubatureSettings defaults = cubature_settings(settings, material_model);
    h.add_f64(defaults.min_amplitude);
    h.add_f64(defaults.max_amplitude);
  }
  h.add_string(settings.solver_signature);
  return h.digest();
}

std::string encode_reduced_model(const ReducedModel& model, std::uint64_t inputs_hash) {
  return encode_checked_record(kMagic, kModelFormatVersion, inputs_hash, encode_payload(model));
}

ReducedModel decode_reduced_model(std::string_view bytes, std::uint64_t expected_hash,
                                  const TetMesh* mesh) {
  return decode_payload(decode_checked_record(bytes, kMagic, "substruct model file",
                                              kModelFormatVersion, expected_hash),
                        mesh);
}

void write_reduced_model(const std::filesystem::path& file, const ReducedModel& model,
                         std::uint64_t inputs_hash) {
  write_file_atomically(file, encode_reduced_model(model, inputs_hash));
}

ReducedModel read_reduced_model(const std::filesystem::path& file, std::uint64_t expected_hash,
                                const TetMesh* mesh) {
  return decode_reduced_model(read_file_bytes(file, "model file"), expected_hash, mesh);
}

}  // namespace substruct
