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
#include "substruct/io/staged_file.hpp"
#include "substruct/reduction/cubature.hpp"
#include "substruct/reduction/linear_modes.hpp"
#include "substruct/reduction/modal_derivatives.hpp"
#include "substruct/reduction/reduced_stvk.hpp"

namespace substruct {

namespace {

constexpr char kMagic[8] = {'S', 'U', 'B', 'S', 'T', 'M', 'D', 'L'};
constexpr std::size_t kHeaderSize = 40;

enum class StoredForces : std::uint32_t { none = 0, polynomial = 1, cubature = 2 };

/// Appends little-endian numbers to a byte string.
class Writer {
 public:
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<char>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<char>(v >> (8 * i)));
  }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
  void f64s(const double* v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) f64(v[i]);
  }
  void string(std::string_view s) {
    u64(s.size());
    bytes_.append(s);
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

/// Reads what Writer wrote; any read past the end throws Error ("malformed").
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  std::uint32_t u32() {
    const unsigned char* p = take(4);
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t{p[i]} << (8 * i);
    return v;
  }
  std::uint64_t u64() {
    const unsigned char* p = take(8);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{p[i]} << (8 * i);
    return v;
  }
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  double f64() { return std::bit_cast<double>(u64()); }
  /// A count of items of `item_bytes` each that must fit in what is left.
  std::size_t count(std::size_t item_bytes) {
    const std::uint64_t n = u64();
    if (item_bytes > 0 && n > left() / item_bytes)
      throw Error(fmt::format("malformed: a count of {} items does not fit the file", n));
    return static_cast<std::size_t>(n);
  }
  void f64s(double* v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) v[i] = f64();
  }
  std::string string() {
    const std::size_t n = count(1);
    return std::string(reinterpret_cast<const char*>(take(n)), n);
  }
  std::size_t left() const { return bytes_.size() - at_; }

 private:
  const unsigned char* take(std::size_t n) {
    if (n > left()) throw Error("malformed: the payload ends inside a record");
    const auto* p = reinterpret_cast<const unsigned char*>(bytes_.data() + at_);
    at_ += n;
    return p;
  }
  std::string_view bytes_;
  std::size_t at_ = 0;
};

std::uint64_t checksum(std::string_view bytes) {
  Fnv1a h;
  h.add_bytes(bytes.data(), bytes.size());
  return h.digest();
}

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
  for (double s : {b.seconds_assembly, b.seconds_linear_modes, b.seconds_derivatives, b.seconds_pca,
                   m.seconds_force_model})
    w.f64(s);
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
  ReducedBasis& b = m.basis;
  b.seconds_assembly = in.f64();
  b.seconds_linear_modes = in.f64();
  b.seconds_derivatives = in.f64();
  b.seconds_pca = in.f64();
  m.seconds_force_model = in.f64();
  const std::int64_t rows = in.i64();
  const std::int64_t cols = in.i64();
  if (rows != 3 * std::int64_t{m.vertices} || cols < 0 ||
      (cols > 0 && std::uint64_t(rows) * std::uint64_t(cols) > in.left() / 8))
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
    m.forces = std::make_shared<ReducedStVKPolynomial>(mesh, m.basis.U, &progress);
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

void Fnv1a::add_bytes(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    h_ ^= bytes[i];
    h_ *= 1099511628211ull;
  }
}

void Fnv1a::add_u64(std::uint64_t value) {
  unsigned char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(value >> (8 * i));
  add_bytes(bytes, 8);
}

void Fnv1a::add_f64(double value) {
  add_u64(std::bit_cast<std::uint64_t>(value));
}

void Fnv1a::add_string(std::string_view text) {
  add_u64(text.size());
  add_bytes(text.data(), text.size());
}

std::uint64_t model_inputs_hash(const TetMesh& mesh, MaterialModel material_model,
                                const DomainBoundary& boundary, int r,
                                const ReductionSettings& settings) {
  Fnv1a h;
  h.add_string("substruct reduced model");
  h.add_u64(kModelFormatVersion);
  h.add_i64(mesh.num_vertices());
  for (Eigen::Index i = 0; i < mesh.vertices.size(); ++i) h.add_f64(mesh.vertices.data()[i]);
  h.add_i64(mesh.num_elements());
  for (Eigen::Index i = 0; i < mesh.tets.size(); ++i) h.add_i64(mesh.tets.data()[i]);
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const Material& material = mesh.material_of(e);
    h.add_f64(material.density);
    h.add_f64(material.youngs_modulus);
    h.add_f64(material.poisson_ratio);
  }
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
  const std::string payload = encode_payload(model);
  Writer w;
  w.bytes().append(kMagic, sizeof kMagic);
  w.u32(kModelFormatVersion);
  w.u32(static_cast<std::uint32_t>(kHeaderSize));
  w.u64(inputs_hash);
  w.u64(payload.size());
  w.u64(checksum(payload));
  w.bytes() += payload;
  return std::move(w.bytes());
}

ReducedModel decode_reduced_model(std::string_view bytes, std::uint64_t expected_hash,
                                  const TetMesh* mesh) {
  const std::size_t magic_bytes = std::min(bytes.size(), sizeof kMagic);
  if (!std::equal(kMagic, kMagic + magic_bytes, bytes.begin()))
    throw Error("not a substruct model file (wrong magic)");
  if (bytes.size() < kHeaderSize)
    throw Error(fmt::format("truncated: {} bytes, shorter than the {}-byte header", bytes.size(),
                            kHeaderSize));
  Reader header(bytes.substr(sizeof kMagic, kHeaderSize - sizeof kMagic));
  const std::uint32_t version = header.u32();
  const std::uint32_t header_size = header.u32();
  const std::uint64_t hash = header.u64();
  const std::uint64_t payload_size = header.u64();
  const std::uint64_t payload_checksum = header.u64();
  if (version != kModelFormatVersion)
    throw Error(fmt::format("format version {}, expected {}", version, kModelFormatVersion));
  if (header_size != kHeaderSize)
    throw Error(fmt::format("corrupt: header size {}, expected {}", header_size, kHeaderSize));
  if (hash != expected_hash)
    throw Error(fmt::format("built from other inputs (hash {:016x}, expected {:016x})", hash,
                            expected_hash));
  const std::string_view payload = bytes.substr(kHeaderSize);
  if (payload.size() < payload_size)
    throw Error(fmt::format("truncated: {} of {} payload bytes", payload.size(), payload_size));
  if (payload.size() > payload_size)
    throw Error(fmt::format("corrupt: {} trailing bytes after the {}-byte payload",
                            payload.size() - payload_size, payload_size));
  if (checksum(payload) != payload_checksum)
    throw Error("corrupt: the payload checksum does not match");
  return decode_payload(payload, mesh);
}

void write_reduced_model(const std::filesystem::path& file, const ReducedModel& model,
                         std::uint64_t inputs_hash) {
  write_file_atomically(file, encode_reduced_model(model, inputs_hash));
}

ReducedModel read_reduced_model(const std::filesystem::path& file, std::uint64_t expected_hash,
                                const TetMesh* mesh) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot open the model file {}", file.string()));
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw Error(fmt::format("cannot read the model file {}", file.string()));
  return decode_reduced_model(bytes, expected_hash, mesh);
}

}  // namespace substruct
