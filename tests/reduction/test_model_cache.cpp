// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/model_cache.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/reduction/cubature.hpp"
#include "substruct/reduction/reduced_model.hpp"
#include "substruct/reduction/reduced_stvk.hpp"
#include "support/temp_dir_test.hpp"

using namespace substruct;
namespace fs = std::filesystem;

namespace {

using substruct::testing::error_message;

/// A beam and a model of it with a random basis (zero at the clamped end) and its exact reduced
/// StVK polynomials: everything a model file holds, without an eigen solve.
struct Fixture {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1.0, 0.2, 0.15), 6, 2, 2,
                               Material{"rubber", 1100.0, 2.0e6, 0.43});
  DomainBoundary boundary{mesh.vertex_sets.at("xmin"), false};
  ReductionSettings settings;

  ReducedModel model(int r) const {
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> uniform(-1e-2, 1e-2);
    ReducedModel m;
    m.basis.U =
        Eigen::MatrixXd::NullaryExpr(3 * mesh.num_vertices(), r, [&] { return uniform(random); });
    for (Index v : boundary.fixed_vertices) m.basis.U.middleRows(3 * v, 3).setZero();
    m.basis.linear_eigenvalues = Eigen::VectorXd::LinSpaced(r, 10.0, 400.0);
    m.basis.seconds_assembly = 0.001;
    m.basis.seconds_linear_modes = 0.25;
    m.basis.seconds_derivatives = 0.5;
    m.basis.seconds_pca = 0.125;
    m.forces = std::make_shared<ReducedStVKPolynomial>(mesh, m.basis.U);
    m.seconds_force_model = 0.0625;
    m.vertices = mesh.num_vertices();
    m.elements = mesh.num_elements();
    m.size = 1.05;
    m.materials = mesh.materials;
    m.boundary = boundary;
    return m;
  }

  std::uint64_t hash(int r) const {
    return model_inputs_hash(mesh, MaterialModel::stvk, boundary, r, settings);
  }
};

class ModelCacheTest : public substruct::testing::TempDirTest {
 protected:
  Fixture f_;
  ModelCache cache_{dir() / "cache"};

  /// Stores a 6-mode model, lets `damage` change the file's bytes, then loads it back.
  std::string load_after(const std::function<void(std::string&)>& damage) {
    const std::uint64_t h = f_.hash(6);
    const fs::path file = cache_.store(h, f_.model(6));
    std::string bytes = read(file);
    damage(bytes);
    write(file, bytes);
    std::string problem;
    ::testing::internal::CaptureStderr();
    const std::optional<ReducedModel> loaded = cache_.load(h, nullptr, &problem);
    const std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_FALSE(loaded.has_value());
    EXPECT_NE(log.find("cache: ignoring " + file.string()), std::string::npos) << log;
    EXPECT_NE(log.find("recomputing"), std::string::npos) << log;
    // Storing again replaces the rejected file, and it is trusted.
    cache_.store(h, f_.model(6));
    EXPECT_TRUE(cache_.load(h).has_value());
    return problem;
  }
};

void expect_same_model(const ReducedModel& a, const ReducedModel& b) {
  ASSERT_EQ(a.r(), b.r());
  EXPECT_EQ(a.basis.U.rows(), b.basis.U.rows());
  EXPECT_EQ(std::memcmp(a.basis.U.data(), b.basis.U.data(), sizeof(double) * a.basis.U.size()), 0);
  EXPECT_EQ(a.basis.linear_eigenvalues, b.basis.linear_eigenvalues);
  EXPECT_EQ(a.vertices, b.vertices);
  EXPECT_EQ(a.elements, b.elements);
  EXPECT_EQ(a.size, b.size);
  EXPECT_EQ(a.material_model, b.material_model);
  ASSERT_EQ(a.materials.size(), b.materials.size());
  EXPECT_EQ(a.materials[0].name, b.materials[0].name);
  EXPECT_EQ(a.materials[0].youngs_modulus, b.materials[0].youngs_modulus);
  EXPECT_EQ(a.boundary.fixed_vertices, b.boundary.fixed_vertices);
  EXPECT_EQ(a.force_kind, b.force_kind);
  ASSERT_NE(b.forces, nullptr);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(a.r(), -0.3, 0.4);
  double energy_a = 0, energy_b = 0;
  Eigen::VectorXd force_a, force_b;
  Eigen::MatrixXd stiffness_a, stiffness_b;
  a.forces->evaluate(q, &energy_a, &force_a, &stiffness_a);
  b.forces->evaluate(q, &energy_b, &force_b, &stiffness_b);
  EXPECT_EQ(energy_a, energy_b);
  EXPECT_EQ(force_a, force_b);
  EXPECT_EQ(stiffness_a, stiffness_b);
  EXPECT_GT(force_a.norm(), 0);
}

}  // namespace

TEST(ReducedModelFile, RoundTripIsBitExact) {
  const Fixture f;
  const ReducedModel model = f.model(6);
  const std::string bytes = encode_reduced_model(model, 0x0123456789abcdefull);
  EXPECT_EQ(bytes.substr(0, 8), "SUBSTMDL");
  // Header 40 bytes; U alone is 3N·r doubles.
  EXPECT_GT(bytes.size(), 40u + 8u * 3 * std::size_t(f.mesh.num_vertices()) * 6);
  const ReducedModel back = decode_reduced_model(bytes, 0x0123456789abcdefull);
  expect_same_model(model, back);
  EXPECT_EQ(encode_reduced_model(back, 0x0123456789abcdefull), bytes);
}

// Two computations of one model differ only in how long they took: their files must be the same
// bytes (caches compared or shipped between machines), so no timing is stored.
TEST(ReducedModelFile, HoldsNoTimingsSoEqualModelsGiveEqualBytes) {
  const Fixture f;
  ReducedModel a = f.model(4);
  ReducedModel b = f.model(4);
  b.basis.seconds_assembly = 7;
  b.basis.seconds_linear_modes = 3;
  b.basis.seconds_derivatives = 2;
  b.basis.seconds_pca = 1;
  b.seconds_force_model = 9;
  EXPECT_EQ(encode_reduced_model(a, 42), encode_reduced_model(b, 42));
  const ReducedModel read = decode_reduced_model(encode_reduced_model(b, 42), 42, &f.mesh);
  EXPECT_EQ(read.basis.seconds_linear_modes, 0.0);  // a loaded model was not computed here
  EXPECT_EQ(read.seconds_force_model, 0.0);
}

TEST(ReducedModelFile, ACubatureModelRoundTripsWithItsMesh) {
  const Fixture f;
  ReducedModel model = f.model(5);
  model.force_kind = ForceModelKind::cubature;
  model.material_model = MaterialModel::corotational;
  model.forces = std::make_shared<CubatureForceModel>(
      f.mesh, model.basis.U, std::vector<Index>{2, 41, 9}, std::vector<double>{1.5, 20.0, 0.25},
      MaterialModel::corotational);
  const std::string bytes = encode_reduced_model(model, 77);
  const ReducedModel back = decode_reduced_model(bytes, 77, &f.mesh);
  const auto* cubature = dynamic_cast<const CubatureForceModel*>(back.forces.get());
  ASSERT_NE(cubature, nullptr);
  EXPECT_EQ(cubature->elements(), (std::vector<Index>{2, 41, 9}));
  EXPECT_EQ(cubature->weights(), (std::vector<double>{1.5, 20.0, 0.25}));
  EXPECT_EQ(cubature->material(), MaterialModel::corotational);
  EXPECT_EQ(back.material_model, MaterialModel::corotational);
  EXPECT_EQ(back.force_kind, ForceModelKind::cubature);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(5, 0.5, -0.5);
  EXPECT_EQ(back.forces->force(q), model.forces->force(q));
  EXPECT_EQ(back.forces->stiffness(q), model.forces->stiffness(q));
  EXPECT_GT(model.forces->force(q).norm(), 0);
  EXPECT_EQ(encode_reduced_model(back, 77), bytes);
  // Its element forces need the mesh.
  EXPECT_NE(error_message([&] { decode_reduced_model(bytes, 77); }).find("needs its domain's mesh"),
            std::string::npos);
  const TetMesh other = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 2, 2, 2);
  EXPECT_NE(error_message([&] { decode_reduced_model(bytes, 77, &other); }).find("given a mesh"),
            std::string::npos);
}

TEST(ReducedModelFile, ARigidModelHasNoForces) {
  const Fixture f;
  ReducedModel rigid;
  rigid.basis.U.resize(3 * f.mesh.num_vertices(), 0);
  rigid.vertices = f.mesh.num_vertices();
  const ReducedModel back = decode_reduced_model(encode_reduced_model(rigid, 5), 5);
  EXPECT_EQ(back.r(), 0);
  EXPECT_EQ(back.basis.U.rows(), 3 * f.mesh.num_vertices());
  EXPECT_EQ(back.forces, nullptr);
}

TEST(ReducedModelFile, IsLittleEndianWithTheDocumentedHeader) {
  const Fixture f;
  const std::string bytes = encode_reduced_model(f.model(3), 0x1122334455667788ull);
  auto u64_at = [&](std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    return v;
  };
  EXPECT_EQ(static_cast<unsigned char>(bytes[8]), kModelFormatVersion);  // u32 version
  EXPECT_EQ(static_cast<unsigned char>(bytes[12]), 40);                  // u32 header size
  EXPECT_EQ(u64_at(16), 0x1122334455667788ull);
  EXPECT_EQ(u64_at(24), bytes.size() - 40);
  Fnv1a checksum;
  checksum.add_bytes(bytes.data() + 40, bytes.size() - 40);
  EXPECT_EQ(u64_at(32), checksum.digest());
}

TEST(Fnv1a, MatchesTheReferenceVectors) {
  // The published FNV-1a 64 test vectors: "" and "a" and "foobar".
  EXPECT_EQ(Fnv1a{}.digest(), 0xcbf29ce484222325ull);
  Fnv1a a;
  a.add_bytes("a", 1);
  EXPECT_EQ(a.digest(), 0xaf63dc4c8601ec8cull);
  Fnv1a foobar;
  foobar.add_bytes("foobar", 6);
  EXPECT_EQ(foobar.digest(), 0x85944171f73967e8ull);
}

TEST(ModelInputsHash, ChangesWithEveryInputAndOnlyThen) {
  Fixture f;
  const std::uint64_t h = f.hash(6);
  EXPECT_EQ(f.hash(6), h);
  EXPECT_NE(f.hash(7), h);  // r
  {
    Fixture g;
    g.mesh.materials[0].youngs_modulus *= 1.0 + 1e-15;  // E, one ulp-ish
    EXPECT_NE(g.hash(6), h);
  }
  {
    Fixture g;
    g.mesh.materials[0].poisson_ratio = 0.42;
    EXPECT_NE(g.hash(6), h);
  }
  {
    Fixture g;
    g.mesh.materials[0].density = 1000;
    EXPECT_NE(g.hash(6), h);
  }
  {
    Fixture g;
    g.mesh.vertices(10, 2) = std::nextafter(g.mesh.vertices(10, 2), 1.0);  // one bit of one vertex
    EXPECT_NE(g.hash(6), h);
  }
  {
    Fixture g;
    std::swap(g.mesh.tets(3, 1), g.mesh.tets(3, 2));
    EXPECT_NE(g.hash(6), h);
  }
  {
    Fixture g;
    g.boundary.fixed_vertices.pop_back();
    EXPECT_NE(g.hash(6), h);
    g.boundary.fixed_vertices.clear();
    const std::uint64_t clamped_nowhere = g.hash(6);
    g.boundary.remove_rigid_modes = true;
    EXPECT_NE(g.hash(6), clamped_nowhere);
  }
  {
    Fixture g;  // the same set of fixed vertices, listed differently: same inputs
    std::reverse(g.boundary.fixed_vertices.begin(), g.boundary.fixed_vertices.end());
    g.boundary.fixed_vertices.push_back(g.boundary.fixed_vertices.front());
    EXPECT_EQ(g.hash(6), h);
  }
  EXPECT_NE(model_inputs_hash(f.mesh, MaterialModel::corotational, f.boundary, 6, f.settings), h);
  for (auto change : std::vector<std::function<void(ReductionSettings&)>>{
           [](ReductionSettings& s) { s.linear_modes = 5; },
           [](ReductionSettings& s) { s.modal_derivatives = false; },
           [](ReductionSettings& s) { s.force_model = ForceModelKind::cubature; },
           [](ReductionSettings& s) { s.solver_signature = "solvers.eigen=slepc;"; }}) {
    Fixture g;
    change(g.settings);
    EXPECT_NE(g.hash(6), h);
  }
  {
    // Cubature settings matter only to cubature models.
    Fixture g;
    g.settings.cubature_poses = 3;
    EXPECT_EQ(g.hash(6), h);
    g.settings.force_model = ForceModelKind::cubature;
    const std::uint64_t cubature = g.hash(6);
    g.settings.cubature_seed = 2;
    EXPECT_NE(g.hash(6), cubature);
  }
}

TEST_F(ModelCacheTest, StoresAndLoadsBitExactlyUnderTheHash) {
  const std::uint64_t h = f_.hash(6);
  EXPECT_FALSE(cache_.load(h).has_value());  // nothing stored yet (the folder does not exist)
  const fs::path file = cache_.store(h, f_.model(6));
  EXPECT_EQ(file, cache_.file(h));
  EXPECT_EQ(file.filename().string(), fmt::format("model-{:016x}.ssrm", h));
  // Written under a temporary name and renamed: nothing else is left in the folder.
  EXPECT_EQ(files(), std::vector<std::string>{"cache/" + file.filename().string()});
  const std::optional<ReducedModel> loaded = cache_.load(h);
  ASSERT_TRUE(loaded.has_value());
  expect_same_model(f_.model(6), *loaded);
}

TEST_F(ModelCacheTest, StaleInputsAreNotFound) {
  cache_.store(f_.hash(6), f_.model(6));
  EXPECT_FALSE(cache_.load(f_.hash(7)).has_value());  // another r
  Fixture stiffer;
  stiffer.mesh.materials[0].youngs_modulus = 4e6;  // another E
  EXPECT_FALSE(cache_.load(stiffer.hash(6)).has_value());
}

TEST_F(ModelCacheTest, AFileOfOtherInputsIsRejected) {
  // A file copied under another key (or a hash collision of the name) is caught by its header.
  const std::uint64_t h6 = f_.hash(6), h7 = f_.hash(7);
  fs::create_directories(cache_.dir());
  fs::copy_file(cache_.store(h6, f_.model(6)), cache_.file(h7));
  std::string problem;
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(cache_.load(h7, nullptr, &problem).has_value());
  ::testing::internal::GetCapturedStderr();
  EXPECT_NE(problem.find("built from other inputs"), std::string::npos) << problem;
}

TEST_F(ModelCacheTest, AFolderWhereTheFileShouldBeIsIgnoredAndCannotBeStoredOver) {
  const std::uint64_t h = f_.hash(6);
  fs::create_directories(cache_.file(h));
  std::string problem;
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(cache_.load(h, nullptr, &problem).has_value());
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(problem, "not a regular file");
  EXPECT_THROW(cache_.store(h, f_.model(6)), Error);
  EXPECT_TRUE(files().empty());  // no temporary file is left beside the folder
}

TEST_F(ModelCacheTest, AFlippedByteAnywhereIsDetected) {
  const std::string bytes = encode_reduced_model(f_.model(6), f_.hash(6));
  struct Case {
    std::size_t at;
    const char* reason;
  };
  // Byte 24 is the payload size's lowest byte: flipping 0x10 makes the size 16 larger
  // ("truncated") or smaller ("trailing bytes"), depending on the size.
  const bool size_grows = (static_cast<unsigned char>(bytes[24]) & 0x10) == 0;
  for (const Case c :
       {Case{0, "wrong magic"}, Case{8, "format version"}, Case{12, "header size"},
        Case{16, "other inputs"}, Case{24, size_grows ? "truncated" : "trailing bytes"},
        Case{31, "truncated"}, Case{32, "checksum"}, Case{40, "checksum"},
        Case{bytes.size() / 2, "checksum"}, Case{bytes.size() - 1, "checksum"}}) {
    const std::string problem = load_after([&](std::string& b) { b[c.at] ^= 0x10; });
    EXPECT_NE(problem.find(c.reason), std::string::npos) << "byte " << c.at << ": " << problem;
  }
  // A larger payload size in the header than the file holds is "truncated"; a smaller one leaves
  // trailing bytes.
  const std::string smaller = load_after([](std::string& b) { b[24] = char(b[24] - 1); });
  EXPECT_NE(smaller.find("trailing bytes"), std::string::npos) << smaller;
}

TEST_F(ModelCacheTest, ATruncatedFileIsDetected) {
  const std::string bytes = encode_reduced_model(f_.model(6), f_.hash(6));
  for (const std::size_t length : {std::size_t{0}, std::size_t{5}, std::size_t{39}, std::size_t{40},
                                   bytes.size() / 3, bytes.size() - 1}) {
    const std::string problem = load_after([&](std::string& b) { b.resize(length); });
    EXPECT_NE(problem.find("truncated"), std::string::npos) << length << ": " << problem;
  }
}

TEST_F(ModelCacheTest, AnotherFormatVersionIsRejected) {
  const std::string problem =
      load_after([](std::string& b) { b[8] = char(kModelFormatVersion + 1); });
  EXPECT_NE(problem.find(fmt::format("format version {}, expected {}", kModelFormatVersion + 1,
                                     kModelFormatVersion)),
            std::string::npos)
      << problem;
}

TEST_F(ModelCacheTest, AnotherFileIsNotAModel) {
  const std::uint64_t h = f_.hash(6);
  write(cache_.file(h), "[scene]\nmesh = beam.veg\n");
  std::string problem;
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(cache_.load(h, nullptr, &problem).has_value());
  ::testing::internal::GetCapturedStderr();
  EXPECT_NE(problem.find("not a substruct model file"), std::string::npos) << problem;
}

TEST_F(ModelCacheTest, ADisabledCacheFindsAndStoresNothing) {
  const ModelCache off{fs::path()};
  EXPECT_FALSE(off.enabled());
  EXPECT_FALSE(off.load(f_.hash(6)).has_value());
  EXPECT_NE(error_message([&] { off.store(f_.hash(6), f_.model(6)); }).find("no cache folder"),
            std::string::npos);
}

TEST_F(ModelCacheTest, AnUnwritableFolderIsAnError) {
  write("occupied", "a file where the cache folder should be");
  const ModelCache blocked(dir() / "occupied");
  EXPECT_NE(error_message([&] { blocked.store(f_.hash(6), f_.model(6)); }).find("cannot create"),
            std::string::npos);
}
