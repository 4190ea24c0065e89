// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/domain_models.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/reduction/cubature.hpp"
#include "substruct/reduction/mode_count.hpp"
#include "support/temp_dir_test.hpp"

using namespace substruct;
namespace fs = std::filesystem;

namespace {

using substruct::testing::error_message;

constexpr int kCells = 7;  // along x: domain 0 = cells 0–2, domain 1 = cells 3–4, domain 2 = 5–6

/// A cantilever of 7 × 2 × 2 cells (1.4 × 0.2 × 0.15 m), clamped at x = 0, in three domains along
/// x; domain 2 is a translated copy of domain 1 (same local numbering and clamped face).
Scene beam_scene(double youngs_modulus = 2e6) {
  Scene s;
  s.name = "beam";
  s.mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1.4, 0.2, 0.15), kCells, 2, 2,
                         Material{"rubber", 1100.0, youngs_modulus, 0.43});
  s.fixed_vertices = s.mesh.vertex_sets.at("xmin");
  ElementPartition partition;
  partition.num_domains = 3;
  for (Index e = 0; e < s.mesh.num_elements(); ++e) {
    const int cell_x = (e / 6) % kCells;
    partition.domain_of_element.push_back(cell_x < 3 ? 0 : cell_x < 5 ? 1 : 2);
  }
  s.decomposition = decompose(s.mesh, partition);
  s.graph = DomainGraph(3, s.decomposition.interfaces);
  s.root = s.graph.choose_root(s.fixed_vertices, s.decomposition);
  return s;
}

class DomainModelsTest : public substruct::testing::TempDirTest {
 protected:
  Config config(const std::vector<Setting>& extra = {}) const {
    std::vector<Setting> settings = {{"solvers.eigen", "slepc", "test"},
                                     {"solvers.linear", "cholmod", "test"},
                                     {"reduction.modes", "8", "test"},
                                     {"reduction.linear_modes", "5", "test"}};
    settings.insert(settings.end(), extra.begin(), extra.end());
    return Config::from_settings(settings, dir(), host_);
  }

  /// build_domain_models with the given config, its log on stderr returned in `log`.
  std::vector<DomainModel> build(const Scene& scene, const Config& c, ModelCache& cache,
                                 std::string* log = nullptr) const {
    const SolverProvider solvers(host_, c);
    ::testing::internal::CaptureStderr();
    std::vector<DomainModel> models;
    try {
      models = build_domain_models(scene, ReductionSettings::from_config(c), solvers, cache);
    } catch (...) {
      ::testing::internal::GetCapturedStderr();
      throw;
    }
    const std::string text = ::testing::internal::GetCapturedStderr();
    if (log != nullptr) *log = text;
    return models;
  }

  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

std::vector<ModelOrigin> origins(const std::vector<DomainModel>& models) {
  std::vector<ModelOrigin> o;
  for (const DomainModel& m : models) o.push_back(m.origin);
  return o;
}

bool bit_equal(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())) == 0;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_F(DomainModelsTest, ReductionSectionDefaults) {
  const ReductionSettings s = ReductionSettings::from_config(
      Config::from_settings({{"scene.mesh", "beam.veg", "test"}}, dir(), host_));
  EXPECT_EQ(s.modes, 20);
  EXPECT_EQ(s.linear_modes, 10);
  EXPECT_TRUE(s.modal_derivatives);
  EXPECT_EQ(s.mode_count, ModeCountPolicy::fixed);
  EXPECT_EQ(s.r_max, 20);
  EXPECT_EQ(s.force_model, ForceModelKind::polynomial);
  EXPECT_EQ(s.cubature_elements, 200);
  EXPECT_EQ(s.cubature_poses, 100);
  EXPECT_DOUBLE_EQ(s.cubature_tolerance, 0.01);
  EXPECT_EQ(s.cubature_seed, 1u);
  EXPECT_EQ(s.boundary, BoundaryPolicy::parent_interface);
  EXPECT_TRUE(s.cache);
  EXPECT_TRUE(s.instancing);
  // The eigen and linear solvers and every option of their sections are part of the model key;
  // the eigen solver is the one `auto` chose (spectra: this test runs without mpirun), so that
  // models from slepc and from spectra are not confused.
  EXPECT_TRUE(contains(s.solver_signature, "solvers.eigen=spectra;")) << s.solver_signature;
  EXPECT_TRUE(contains(s.solver_signature, "spectra.tolerance=1e-10;")) << s.solver_signature;
  EXPECT_TRUE(contains(s.solver_signature, "solvers.linear=cholmod;")) << s.solver_signature;
}

TEST_F(DomainModelsTest, ReductionSectionValuesAndErrors) {
  const ReductionSettings s =
      ReductionSettings::from_config(config({{"reduction.mode_count", "adaptive", "t"},
                                             {"reduction.r_max", "12", "t"},
                                             {"reduction.modal_derivatives", "false", "t"},
                                             {"reduction.linear_modes", "12", "t"},
                                             {"reduction.force_model", "cubature", "t"},
                                             {"reduction.cubature_elements", "40", "t"},
                                             {"reduction.cubature_poses", "30", "t"},
                                             {"reduction.cubature_tolerance", "0.05", "t"},
                                             {"reduction.cubature_seed", "9", "t"},
                                             {"reduction.boundary", "fixed-vertices", "t"},
                                             {"reduction.cache", "no", "t"},
                                             {"reduction.instancing", "off", "t"},
                                             {"slepc.tolerance", "1e-9", "t"}}));
  EXPECT_EQ(s.mode_count, ModeCountPolicy::adaptive);
  EXPECT_EQ(s.r_max, 12);
  EXPECT_FALSE(s.modal_derivatives);
  EXPECT_EQ(s.force_model, ForceModelKind::cubature);
  EXPECT_EQ(s.cubature_elements, 40);
  EXPECT_EQ(s.cubature_poses, 30);
  EXPECT_DOUBLE_EQ(s.cubature_tolerance, 0.05);
  EXPECT_EQ(s.cubature_seed, 9u);
  EXPECT_EQ(s.boundary, BoundaryPolicy::fixed_vertices);
  EXPECT_FALSE(s.cache);
  EXPECT_FALSE(s.instancing);
  EXPECT_TRUE(contains(s.solver_signature, "slepc.tolerance=1e-09;")) << s.solver_signature;

  auto message = [&](const std::string& key, const std::string& value) {
    return error_message([&] { ReductionSettings::from_config(config({{key, value, "t"}})); });
  };
  EXPECT_TRUE(contains(message("reduction.mode_count", "sometimes"),
                       "t: [reduction] mode_count = 'sometimes': expected one of fixed, adaptive"));
  EXPECT_TRUE(
      contains(message("reduction.force_model", "spline"), "expected one of polynomial, cubature"));
  EXPECT_TRUE(contains(message("reduction.boundary", "clamped"),
                       "expected one of parent-interface, free, fixed-vertices"));
  EXPECT_TRUE(contains(message("reduction.modes", "-1"),
                       "t: [reduction] modes = '-1': expected an integer ≥ 0"));
  EXPECT_TRUE(contains(message("reduction.modal_derivatives", "false"),
                       "needs modal_derivatives = true or linear_modes ≥ 8"));
  EXPECT_TRUE(contains(message("reduction.modes", "30"), "raise linear_modes"));  // 5 + 15 < 30
  EXPECT_TRUE(contains(message("reduction.cubature_tolerance", "0"),
                       "[reduction] cubature_tolerance = '0': expected a finite number > 0"));
  // Not a number: the config names the key.
  EXPECT_TRUE(contains(message("reduction.modes", "many"), "[reduction] modes = 'many'"));
}

TEST_F(DomainModelsTest, BoundaryPolicies) {
  const Scene scene = beam_scene();
  ASSERT_EQ(scene.root, 0);
  const TreeView tree = scene.graph.rooted_at(scene.root);
  // parent-interface: the clamp (x = 0) in the root, each child's interface to its parent (the
  // 3 × 3 vertices of its plane x = 0.6 or x = 1.0).
  for (int d = 0; d < 3; ++d) {
    const DomainBoundary b = domain_boundary(scene, &tree, d, BoundaryPolicy::parent_interface);
    EXPECT_FALSE(b.remove_rigid_modes);
    ASSERT_EQ(b.fixed_vertices.size(), 9u) << d;
    const SubMesh& sub = scene.decomposition.domains[std::size_t(d)];
    const double x = d == 0 ? 0.0 : d == 1 ? 0.6 : 1.0;
    for (Index v : b.fixed_vertices) EXPECT_NEAR(sub.mesh.vertices(v, 0), x, 1e-12) << d;
    EXPECT_TRUE(std::is_sorted(b.fixed_vertices.begin(), b.fixed_vertices.end()));
  }
  for (int d = 0; d < 3; ++d) {
    const DomainBoundary b = domain_boundary(scene, nullptr, d, BoundaryPolicy::free);
    EXPECT_TRUE(b.remove_rigid_modes);
    EXPECT_TRUE(b.fixed_vertices.empty());
  }
  const DomainBoundary clamped = domain_boundary(scene, nullptr, 0, BoundaryPolicy::fixed_vertices);
  EXPECT_EQ(clamped.fixed_vertices.size(), 9u);
  EXPECT_FALSE(clamped.remove_rigid_modes);
  const DomainBoundary loose = domain_boundary(scene, nullptr, 1, BoundaryPolicy::fixed_vertices);
  EXPECT_TRUE(loose.fixed_vertices.empty());
  EXPECT_TRUE(loose.remove_rigid_modes);
  // A root without fixed vertices is free-flying.
  Scene floating = beam_scene();
  floating.fixed_vertices.clear();
  EXPECT_TRUE(
      domain_boundary(floating, &tree, 0, BoundaryPolicy::parent_interface).remove_rigid_modes);
  EXPECT_NE(error_message([&] {
              domain_boundary(scene, nullptr, 1, BoundaryPolicy::parent_interface);
            }).find("domain tree"),
            std::string::npos);
}

TEST_F(DomainModelsTest, ModeCounts) {
  const Scene scene = beam_scene();
  const TreeView tree = scene.graph.rooted_at(0);
  std::vector<DomainBoundary> boundaries;
  for (int d = 0; d < 3; ++d)
    boundaries.push_back(domain_boundary(scene, &tree, d, BoundaryPolicy::parent_interface));
  ReductionSettings s;
  s.modes = 9;
  EXPECT_EQ(domain_mode_counts(scene, s, boundaries), (std::vector<int>{9, 9, 9}));
  // Adaptive: 72 and 48 elements; r = max(5, ⌊12 log 48 / log 72⌋) = ⌊10.86⌋ = 10.
  s.mode_count = ModeCountPolicy::adaptive;
  s.r_max = 12;
  EXPECT_EQ(domain_mode_counts(scene, s, boundaries), (std::vector<int>{12, 10, 10}));
  // Every vertex of domain 2 fixed: rigid.
  boundaries[2].fixed_vertices.clear();
  for (Index v = 0; v < scene.decomposition.domains[2].mesh.num_vertices(); ++v)
    boundaries[2].fixed_vertices.push_back(v);
  EXPECT_EQ(domain_mode_counts(scene, s, boundaries)[2], 0);
}

TEST_F(DomainModelsTest, ColdThenWarmCacheGivesTheSameModels) {
  const Scene scene = beam_scene();
  const Config c = config();
  ModelCache cache(dir() / "cache");
  std::string log;
  const std::vector<DomainModel> cold = build(scene, c, cache, &log);
  ASSERT_EQ(cold.size(), 3u);
  EXPECT_EQ(origins(cold), (std::vector<ModelOrigin>{ModelOrigin::computed, ModelOrigin::computed,
                                                     ModelOrigin::instance}));
  EXPECT_TRUE(contains(log, "domain 0: computed in")) << log;
  EXPECT_TRUE(contains(log, "), cached")) << log;
  EXPECT_TRUE(contains(log, "domain 2: instance of domain 1 (computed; translation (0.4, 0, 0))"))
      << log;
  EXPECT_TRUE(contains(log, "reduced models of 3 domains in")) << log;
  EXPECT_EQ(files().size(), 2u);  // one file per computed model
  EXPECT_EQ(cold[2].representative, 1);
  EXPECT_EQ(cold[2].model, cold[1].model);  // a translated copy shares the model object
  for (const DomainModel& m : cold) {
    EXPECT_EQ(m.model->r(), 8);
    EXPECT_EQ(m.model->basis.linear_eigenvalues.size(), 5);
    // UᵀMU = I in the domain's own mesh.
    const SparseMatrix M = consistent_mass(scene.decomposition.domains[std::size_t(m.domain)].mesh);
    const Eigen::MatrixXd& U = m.model->basis.U;
    EXPECT_LT((U.transpose() * (M * U) - Eigen::MatrixXd::Identity(8, 8)).norm(), 1e-10);
  }

  const std::vector<DomainModel> warm = build(scene, c, cache, &log);
  EXPECT_EQ(origins(warm), (std::vector<ModelOrigin>{ModelOrigin::cache, ModelOrigin::cache,
                                                     ModelOrigin::instance}));
  EXPECT_TRUE(
      contains(log, "domain 0: loaded from cache (" + cache.file(cold[0].inputs_hash).string()))
      << log;
  EXPECT_TRUE(contains(log, "domain 2: instance of domain 1 (loaded from cache;")) << log;
  EXPECT_FALSE(contains(log, "computed")) << log;
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(8, 0.02, -0.03);
  for (std::size_t d = 0; d < 3; ++d) {
    EXPECT_EQ(warm[d].inputs_hash, cold[d].inputs_hash);
    EXPECT_TRUE(bit_equal(warm[d].model->basis.U, cold[d].model->basis.U)) << d;
    EXPECT_EQ(warm[d].model->forces->force(q), cold[d].model->forces->force(q)) << d;
    EXPECT_LT(warm[d].seconds, cold[d].seconds + 1e-3);
  }
  // Without instancing, domain 2 is reduced on its own: the same spectrum as its instance.
  ModelCache none{fs::path()};
  const std::vector<DomainModel> separate =
      build(scene, config({{"reduction.instancing", "false", "t"}}), none);
  EXPECT_EQ(separate[2].origin, ModelOrigin::computed);
  const Eigen::VectorXd& own = separate[2].model->basis.linear_eigenvalues;
  const Eigen::VectorXd& shared = cold[2].model->basis.linear_eigenvalues;
  EXPECT_LT((own - shared).cwiseAbs().maxCoeff(), 1e-9 * shared.maxCoeff());
}

TEST_F(DomainModelsTest, StaleOrCorruptModelsAreRecomputed) {
  ModelCache cache(dir() / "cache");
  const std::vector<DomainModel> first = build(beam_scene(), config(), cache);
  // Another Young's modulus: every model is recomputed, eigenvalues scale with E.
  const std::vector<DomainModel> stiffer = build(beam_scene(4e6), config(), cache);
  EXPECT_EQ(origins(stiffer),
            (std::vector<ModelOrigin>{ModelOrigin::computed, ModelOrigin::computed,
                                      ModelOrigin::instance}));
  EXPECT_NEAR(
      stiffer[0].model->basis.linear_eigenvalues[0] / first[0].model->basis.linear_eigenvalues[0],
      2.0, 1e-8);
  // Another r: recomputed.
  const std::vector<DomainModel> bigger =
      build(beam_scene(), config({{"reduction.modes", "9", "t"}}), cache);
  EXPECT_EQ(bigger[0].origin, ModelOrigin::computed);
  EXPECT_EQ(bigger[0].model->r(), 9);
  // A damaged file is reported and recomputed; the other is still trusted.
  const fs::path file = cache.file(first[0].inputs_hash);
  std::string bytes = read(file);
  bytes[bytes.size() / 2] ^= 0x01;
  write(file, bytes);
  std::string log;
  const std::vector<DomainModel> again = build(beam_scene(), config(), cache, &log);
  EXPECT_EQ(origins(again), (std::vector<ModelOrigin>{ModelOrigin::computed, ModelOrigin::cache,
                                                      ModelOrigin::instance}));
  EXPECT_TRUE(contains(log, "cache: ignoring " + file.string() + ": corrupt")) << log;
  EXPECT_TRUE(bit_equal(again[0].model->basis.U, first[0].model->basis.U));
  // … and the file is whole again.
  EXPECT_EQ(build(beam_scene(), config(), cache)[0].origin, ModelOrigin::cache);
}

TEST_F(DomainModelsTest, RigidFreeAndAdaptiveDomains) {
  ModelCache none{fs::path()};
  // modes = 0: every domain rigid, nothing solved.
  const std::vector<DomainModel> rigid =
      build(beam_scene(), config({{"reduction.modes", "0", "t"}}), none);
  for (const DomainModel& m : rigid) {
    EXPECT_EQ(m.origin, ModelOrigin::rigid);
    EXPECT_EQ(m.model->r(), 0);
    EXPECT_EQ(m.model->forces, nullptr);
    EXPECT_EQ(m.model->basis.U.rows(),
              3 * beam_scene().decomposition.domains[std::size_t(m.domain)].mesh.num_vertices());
  }
  // free: free-flying bases, M-orthogonal to the rigid-body modes; no instances across different
  // boundary conditions, but domain 2 is still domain 1's copy.
  const Scene scene = beam_scene();
  const std::vector<DomainModel> free =
      build(scene, config({{"reduction.boundary", "free", "t"}}), none);
  for (const DomainModel& m : free) {
    EXPECT_TRUE(m.model->boundary.remove_rigid_modes);
    const TetMesh& mesh = scene.decomposition.domains[std::size_t(m.domain)].mesh;
    const SparseMatrix M = consistent_mass(mesh);
    const Eigen::MatrixXd R = rigid_body_modes(mesh.vertices, M);
    EXPECT_LT((R.transpose() * (M * m.model->basis.U)).cwiseAbs().maxCoeff(), 1e-8);
    EXPECT_GT(m.model->basis.linear_eigenvalues.minCoeff(), 1.0);  // no zero-energy mode left
  }
  EXPECT_EQ(free[2].origin, ModelOrigin::instance);
  // adaptive: r = 12 for the largest domain, 10 for the others.
  const std::vector<DomainModel> adaptive = build(
      beam_scene(),
      config({{"reduction.mode_count", "adaptive", "t"}, {"reduction.r_max", "12", "t"}}), none);
  EXPECT_EQ(adaptive[0].model->r(), 12);
  EXPECT_EQ(adaptive[1].model->r(), mode_count(48, 72, 12));
  EXPECT_EQ(adaptive[1].model->r(), 10);
}

TEST_F(DomainModelsTest, FixedVerticesOnALineAreAnError) {
  Scene scene = beam_scene();
  scene.fixed_vertices = {0, 1};  // two neighbours along the edge y = z = 0
  ModelCache none{fs::path()};
  const std::string m = error_message([&] {
    build(scene, config({{"reduction.boundary", "fixed-vertices", "t"}}), none);
  });
  EXPECT_TRUE(contains(m, "domain 0: its 2 fixed vertices lie on a line")) << m;
}

TEST_F(DomainModelsTest, CubatureModelsAreCachedAndServeOtherMaterials) {
  Scene scene = beam_scene();
  scene.material_model = MaterialModel::corotational;
  ModelCache cache(dir() / "cache");
  // Reduced StVK polynomials are for StVK only.
  EXPECT_TRUE(contains(error_message([&] { build(scene, config(), cache); }),
                       "domain 0: reduced StVK polynomials need [material] model = stvk"));
  const Config c = config({{"reduction.force_model", "cubature", "t"},
                           {"reduction.cubature_elements", "12", "t"},
                           {"reduction.cubature_poses", "16", "t"}});
  std::string log;
  const std::vector<DomainModel> cold = build(scene, c, cache, &log);
  EXPECT_TRUE(contains(log, "cubature")) << log;
  const std::vector<DomainModel> warm = build(scene, c, cache);
  EXPECT_EQ(origins(warm), (std::vector<ModelOrigin>{ModelOrigin::cache, ModelOrigin::cache,
                                                     ModelOrigin::instance}));
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(8, 0.3, -0.2);
  for (std::size_t d = 0; d < 3; ++d) {
    const auto* cubature = dynamic_cast<const CubatureForceModel*>(warm[d].model->forces.get());
    ASSERT_NE(cubature, nullptr) << d;
    EXPECT_LE(cubature->elements().size(), 12u);
    EXPECT_EQ(cubature->material(), MaterialModel::corotational);
    EXPECT_EQ(warm[d].model->forces->force(q), cold[d].model->forces->force(q)) << d;
  }
}
