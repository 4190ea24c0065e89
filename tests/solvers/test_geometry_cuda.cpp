// SPDX-License-Identifier: GPL-3.0-or-later
// geometry-cuda: its CPU twin (the kernels' per-vertex functions run on the host) against the
// framework's kernel that geometry-cpu runs, on random layouts with instances, rigid (r = 0),
// warped and uncovered vertices, to 1e-12 of the object's size; the render surface against
// embedded_positions + vertex_normals; float precision's cost; the plugin through the solver
// interface (on the GPU where one is usable, on the twin with fallback = cpu otherwise); and the
// clear error without a device.
#include <filesystem>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "flatten.hpp"
#include "host_geometry.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/geometry/render_embedding.hpp"
#include "substruct/geometry/render_surface.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"
#include "substruct/solvers/geometry_solver.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/bimaterial_box_beam.hpp"
#include "support/random_reduced_geometry.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct::geometry_cuda {
namespace {

using testing::RandomLayoutOptions;

double size_of(const Points& x) {
  return (x.colwise().maxCoeff() - x.colwise().minCoeff()).norm();
}

// The twin's x and v in precision T, as doubles.
template <class T>
void twin_world_state(const ReducedGeometry& g, const std::vector<DomainPose>& poses, Points& x,
                      Points& v) {
  const FlatLayout<T> flat = flatten_layout<T>(g);
  std::vector<T> input(std::size_t(kFrameSize) * g.domains.size() + 2 * flat.num_q);
  pack_step(flat, std::span<const DomainPose>(poses), true, input.data());
  std::vector<T> xt(3 * std::size_t(flat.num_vertices)), vt(xt.size());
  host_world_state(flat, input.data(), true, xt.data(), vt.data());
  x.resize(flat.num_vertices, 3);
  v.resize(flat.num_vertices, 3);
  for (std::size_t i = 0; i < xt.size(); ++i) {
    x.data()[i] = double(xt[i]);
    v.data()[i] = double(vt[i]);
  }
}

RandomLayoutOptions mixed_layout(int seed) {
  RandomLayoutOptions o;
  o.domains = 6 + seed % 5;
  o.vertices_per_domain = 12 + 3 * (seed % 4);
  o.r = 1 + seed % 7;
  return o;
}

TEST(GeometryCudaTwin, MatchesTheFrameworkKernelOnRandomLayouts) {
  int instances = 0, rigid = 0, warped = 0;
  for (int seed = 0; seed < 20; ++seed) {
    std::mt19937 random(seed);
    const ReducedGeometry g = testing::random_reduced_geometry(mixed_layout(seed), random);
    const std::vector<DomainPose> poses = testing::random_poses(g, random);
    for (std::size_t d = 0; d < g.domains.size(); ++d) {
      instances += g.domains[d].instance_of >= 0;
      rigid += g.r(d) == 0;
      warped += g.source(d).Psi.size() > 0;
    }
    Points x0, v0, x, v;
    reduced_world_state(g, poses, &x0, &v0);
    twin_world_state<double>(g, poses, x, v);
    const double size = size_of(x0);
    EXPECT_LT((x - x0).cwiseAbs().maxCoeff(), 1e-12 * size) << "seed " << seed;
    EXPECT_LT((v - v0).cwiseAbs().maxCoeff(), 1e-12 * v0.cwiseAbs().maxCoeff()) << "seed " << seed;
    // Uncovered vertices: at rest, still.
    for (Index i = 0; i < g.num_vertices(); ++i)
      if (g.inverse_count[i] == 0) {
        EXPECT_EQ(x.row(i), g.rest_positions.row(i));
        EXPECT_EQ(v.row(i).norm(), 0.0);
      }
  }
  // The layouts did mix every kind of domain.
  EXPECT_GT(instances, 10);
  EXPECT_GT(rigid, 10);
  EXPECT_GT(warped, 10);
}

TEST(GeometryCudaTwin, LargeRotationsOfWarpedDomainsMatchToo) {
  // Ψ q up to several radians: the closed-form branch of R̃ (θ ≥ 1) as well as the series.
  RandomLayoutOptions o;
  o.warped_fraction = 1;
  o.rigid_fraction = 0;
  o.psi_scale = 2;
  std::mt19937 random(3);
  const ReducedGeometry g = testing::random_reduced_geometry(o, random);
  const std::vector<DomainPose> poses = testing::random_poses(g, random);
  Points x0, v0, x, v;
  reduced_world_state(g, poses, &x0, &v0);
  twin_world_state<double>(g, poses, x, v);
  EXPECT_LT((x - x0).cwiseAbs().maxCoeff(), 1e-12 * size_of(x0));
  EXPECT_LT((v - v0).cwiseAbs().maxCoeff(), 1e-12 * v0.cwiseAbs().maxCoeff());
}

TEST(GeometryCudaTwin, SameNumbersEveryRun) {
  std::mt19937 random(5);
  const ReducedGeometry g = testing::random_reduced_geometry(mixed_layout(5), random);
  const std::vector<DomainPose> poses = testing::random_poses(g, random);
  Points x1, v1, x2, v2;
  twin_world_state<double>(g, poses, x1, v1);
  twin_world_state<double>(g, poses, x2, v2);
  EXPECT_EQ(x1, x2);
  EXPECT_EQ(v1, v2);
}

TEST(GeometryCudaTwin, FloatPrecisionCostsAboutSevenDigits) {
  double worst = 0;
  for (int seed = 0; seed < 10; ++seed) {
    std::mt19937 random(seed);
    const ReducedGeometry g = testing::random_reduced_geometry(mixed_layout(seed), random);
    const std::vector<DomainPose> poses = testing::random_poses(g, random);
    Points x0, v0, x, v;
    reduced_world_state(g, poses, &x0, &v0);
    twin_world_state<float>(g, poses, x, v);
    worst = std::max(worst, (x - x0).cwiseAbs().maxCoeff() / size_of(x0));
  }
  std::printf("float precision: largest position error %.2e of the object's size\n", worst);
  EXPECT_LT(worst, 1e-5);
  EXPECT_GT(worst, 1e-9) << "float arithmetic should show";
}

TEST(GeometryCudaTwin, AWrongPoseIsAnErrorNamingTheDomain) {
  std::mt19937 random(2);
  RandomLayoutOptions o;
  o.rigid_fraction = 0;
  o.instance_fraction = 0;
  const ReducedGeometry g = testing::random_reduced_geometry(o, random);
  std::vector<DomainPose> poses = testing::random_poses(g, random);
  const FlatLayout<double> flat = flatten_layout<double>(g);
  std::vector<double> input(std::size_t(kFrameSize) * g.domains.size() + 2 * flat.num_q);
  poses[2].q.resize(1);
  std::string m = testing::error_message(
      [&] { pack_step(flat, std::span<const DomainPose>(poses), false, input.data()); });
  EXPECT_NE(m.find("domain 2 has r = 5"), std::string::npos) << m;
  poses.pop_back();
  m = testing::error_message(
      [&] { pack_step(flat, std::span<const DomainPose>(poses), false, input.data()); });
  EXPECT_NE(m.find("7 poses for 8 domains"), std::string::npos) << m;
}

// The box beam's boundary (weights 1) plus points embedded inside its tets (barycentric
// weights), with triangles over all of them.
RenderSurface test_surface(const TetMesh& mesh, std::mt19937& random) {
  RenderSurface s = render_surface(mesh, nullptr);
  std::uniform_real_distribution<double> u(0, 1);
  const Points inside =
      Points::NullaryExpr(50, 3, [&] { return u(random); }) * Eigen::Vector3d(4, 1, 1).asDiagonal();
  const RenderEmbedding extra = embed_points(mesh, inside);
  const Index n0 = s.embedding.size(), n = n0 + extra.size();
  s.embedding.vertices.conservativeResize(n, 4);
  s.embedding.weights.conservativeResize(n, 4);
  s.embedding.vertices.bottomRows(extra.size()) = extra.vertices;
  s.embedding.weights.bottomRows(extra.size()) = extra.weights;
  const Index t0 = s.triangles.rows();
  s.triangles.conservativeResize(t0 + 40, 3);
  for (Index t = t0; t < t0 + 40; ++t)
    for (int c = 0; c < 3; ++c) s.triangles(t, c) = n0 + Index(random() % extra.size());
  return s;
}

TEST(GeometryCudaTwin, RenderSurfaceMatchesTheEmbeddingAndNormalsOfTheFramework) {
  const TetMesh mesh = testing::bimaterial_box_beam(1);
  std::mt19937 random(9);
  const RenderSurface surface = test_surface(mesh, random);
  // A deformed state: the rest positions bent and turned.
  Points x = mesh.vertices;
  for (Index i = 0; i < x.rows(); ++i) x(i, 1) += 0.1 * x(i, 0) * x(i, 0);
  x = (x * testing::random_rotation(random).transpose()).eval();
  Points y0, n0;
  embedded_positions(surface.embedding, x, y0);
  vertex_normals(y0, surface.triangles, n0);
  const FlatSurface<double> flat = flatten_surface<double>(surface);
  std::vector<double> y(3 * std::size_t(flat.num_render)), n(y.size()),
      faces(3 * std::size_t(flat.num_triangles()));
  host_render(flat, x.data(), y.data(), faces.data(), n.data());
  const Eigen::Map<const Points> Y(y.data(), flat.num_render, 3), N(n.data(), flat.num_render, 3);
  EXPECT_LT((Y - y0).cwiseAbs().maxCoeff(), 1e-12 * size_of(y0));
  EXPECT_LT((N - n0).cwiseAbs().maxCoeff(), 1e-12);
}

class GeometryCudaPlugin : public testing::TempDirTest {
 protected:
  void SetUp() override {
    testing::TempDirTest::SetUp();
    if (host_.try_find("geometry-cuda") == nullptr)
      GTEST_SKIP() << "the geometry-cuda plugin is not built here (no CUDA compiler found)";
  }
  // A geometry solver alone: no other solver is named, so only the geometry plugins and the
  // default coupling plugin need to be installed.
  std::unique_ptr<GeometrySolver> geometry(std::vector<Setting> settings) {
    for (const char* key :
         {"solvers.linear", "solvers.coupled", "solvers.eigen", "run.loads", "run.exporters"})
      settings.push_back({key, "", "test"});
    const Config config = Config::from_settings(settings, dir(), host_);
    return SolverProvider(host_, config).geometry();
  }
  std::unique_ptr<GeometrySolver> solver(const std::string& fallback) {
    return geometry(
        {{"solvers.geometry", "cuda", "test"}, {"geometry-cuda.fallback", fallback, "test"}});
  }
  // Empty when geometry-cuda runs on a device here; else the error it stops with.
  std::string device_error() {
    try {
      (void)solver("none");
      return "";
    } catch (const Error& e) {
      return e.what();
    }
  }
  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TEST_F(GeometryCudaPlugin, GivesGeometryCpusValuesOnTheDeviceOrItsTwin) {
  const bool device = device_error().empty();
  std::printf("geometry-cuda runs on %s\n", device ? "the GPU" : "its CPU twin (fallback = cpu)");
  std::unique_ptr<GeometrySolver> cuda = solver("cpu");
  std::unique_ptr<GeometrySolver> cpu = geometry({{"solvers.geometry", "cpu", "test"}});
  for (int seed = 0; seed < 5; ++seed) {
    std::mt19937 random(100 + seed);
    const ReducedGeometry g = testing::random_reduced_geometry(mixed_layout(seed), random);
    const std::vector<DomainPose> poses = testing::random_poses(g, random);
    cuda->set_layout(g);
    cpu->set_layout(g);
    Points x0, v0, x, v, x_only;
    cpu->world_state(poses, x0, &v0);
    cuda->world_state(poses, x, &v);
    cuda->world_state(poses, x_only, nullptr);
    EXPECT_LT((x - x0).cwiseAbs().maxCoeff(), 1e-12 * size_of(x0)) << "seed " << seed;
    EXPECT_LT((v - v0).cwiseAbs().maxCoeff(), 1e-12 * v0.cwiseAbs().maxCoeff()) << "seed " << seed;
    EXPECT_EQ(x_only, x) << "positions alone are the same numbers";
  }
  const TetMesh mesh = testing::bimaterial_box_beam(1);
  std::mt19937 random(4);
  const RenderSurface surface = test_surface(mesh, random);
  cuda->set_surface(surface);
  cpu->set_surface(surface);
  Points y0, n0, y, n;
  cpu->render(mesh.vertices, y0, n0);
  cuda->render(mesh.vertices, y, n);
  EXPECT_LT((y - y0).cwiseAbs().maxCoeff(), 1e-12 * size_of(y0));
  EXPECT_LT((n - n0).cwiseAbs().maxCoeff(), 1e-12);
  Points too_few = mesh.vertices.topRows(10);
  EXPECT_NE(testing::error_message([&] { cuda->render(too_few, y, n); }).find("render() got 10"),
            std::string::npos);
}

TEST_F(GeometryCudaPlugin, ASimulationsPositionsThroughItEqualTheMethodsOwn) {
  // What `substruct run … --solvers.geometry=cuda` does: the spectral-hybrid bar (modal
  // warping, r = 100 per region), positions and velocities through the plugin every step.
  const std::filesystem::path scene =
      std::filesystem::path(SUBSTRUCT_SOURCE_DIR) / "share/scenes/hybrid_bar.ini";
  const Config config = Config::load(
      scene,
      {"--coupling.plugin=spectral-hybrid", "--run.exporters=", "--solvers.geometry=cuda",
       "--geometry-cuda.fallback=cpu", "--run.cache_dir=" + (dir() / "cache").string()},
      host_);
  Simulation sim(config, host_);
  sim.reset();
  StepStats stats;
  for (int s = 0; s < 10; ++s) sim.step(stats);
  Points x, v;
  sim.method().positions(x);
  sim.method().velocities(v);
  EXPECT_LT((sim.positions() - x).cwiseAbs().maxCoeff(), 1e-12 * size_of(x));
  EXPECT_LT((sim.velocities() - v).cwiseAbs().maxCoeff(), 1e-12 * v.cwiseAbs().maxCoeff());
  EXPECT_GT((x - sim.scene().mesh.vertices).cwiseAbs().maxCoeff(), 1e-3 * size_of(x)) << "it moved";
}

TEST_F(GeometryCudaPlugin, WithoutAUsableDeviceItStopsWithCudasReason) {
  const std::string m = device_error();
  if (m.empty()) GTEST_SKIP() << "a CUDA device is usable here";
  std::printf("%s\n", m.c_str());
  EXPECT_NE(m.find("geometry-cuda: no usable CUDA device: "), std::string::npos) << m;
  EXPECT_NE(m.find("fallback = cpu"), std::string::npos) << m;
  EXPECT_NE(m.find("(cuda"), std::string::npos) << "quotes CUDA's error name: " << m;
}

TEST_F(GeometryCudaPlugin, OnTheDeviceEveryRunGivesTheSameNumbers) {
  if (const std::string m = device_error(); !m.empty()) GTEST_SKIP() << m;
  std::unique_ptr<GeometrySolver> cuda = solver("none");
  std::mt19937 random(8);
  const ReducedGeometry g = testing::random_reduced_geometry(mixed_layout(3), random);
  const std::vector<DomainPose> poses = testing::random_poses(g, random);
  cuda->set_layout(g);
  Points x1, v1, x2, v2;
  cuda->world_state(poses, x1, &v1);
  for (int k = 0; k < 10; ++k) {
    cuda->world_state(poses, x2, &v2);
    ASSERT_EQ(x1, x2);
    ASSERT_EQ(v1, v2);
  }
}

}  // namespace
}  // namespace substruct::geometry_cuda
