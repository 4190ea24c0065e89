// SPDX-License-Identifier: GPL-3.0-or-later
// Geometry update (DESIGN: coupling.step → geometry plugin → viewer/writers): world positions
// and velocities of every volumetric vertex from a method's reduced layout and poses, shared
// vertices averaged, and the render surface (positions, smooth normals).
//
//   world_state/SCENE, world_velocity…   geometry-cpu on one thread (flower: 12 domains; tree:
//   render/SCENE/SOLVER                  313 domains, 33k tets), as before
//   update/LAYOUT/SOLVER                 x and v of every vertex, end to end (poses in, x and v
//                                        out in host memory), SOLVER = cpu-1 | cpu-all (one
//                                        thread per core) | cuda | cuda-float | cuda-1copy
//                                        (one host thread copying results out)
//   kernel/LAYOUT/PRECISION              the CUDA kernel alone (CUDA events), its effective GB/s
//                                        and its time over the memory-bandwidth bound; the
//                                        results' download time and bus GB/s
// Layouts: oak (substruct generate tree --branches 40 --leaves-per-branch 35: ≈1,400 instanced
// domains, inertia, 20 steps under gravity), warped (the spectral-hybrid large bar of
// bench_spectral_hybrid, 34,560 tets, r = 50 with modal warping, 20 steps), large (a random
// chain of 1,000 domains of 1,000 vertices, r = 20, no instances: 10⁶ vertices;
// SUBSTRUCT_BENCH_LARGE_VERTICES changes the count).
//
// A scene's layout and poses are saved once as $SUBSTRUCT_BENCH_GEOMETRY_DIR/NAME.layout
// (default $TMPDIR/substruct-bench-geometry), so a machine without the eigen-solver plugins
// (a GPU machine the build is copied to) replays them. Effective bytes per update: every source
// domain's U, Ψ and X̄ read once, the per-vertex lists and weights, x and v written. At the end
// the medians over repetitions give the ratios the goals are stated in.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "generated_scene.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/geometry/render_surface.hpp"
#include "substruct/io/checked_record.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"
#include "substruct/solvers/geometry_solver.hpp"
#include "substruct/solvers/solver_provider.hpp"
#include "support/random_reduced_geometry.hpp"
#if SUBSTRUCT_BENCH_CUDA
#include "device_geometry.hpp"
#include "flatten.hpp"
#endif

namespace {

using namespace substruct;
namespace fs = std::filesystem;

fs::path work_dir() {
  if (const char* dir = std::getenv("SUBSTRUCT_BENCH_GEOMETRY_DIR")) return dir;
  return fs::temp_directory_path() / "substruct-bench-geometry";
}

const PluginHost& host() {
  static const PluginHost h({SUBSTRUCT_PLUGIN_DIR});
  return h;
}

struct Layout {
  ReducedGeometry geometry;
  std::vector<DomainPose> poses;
  RenderSurface surface;
  Points x, v;  // the framework's kernel's values (reference())
};

// The framework's kernel's x and v (what geometry-cpu computes), once.
const Layout& reference(Layout& l) {
  if (l.x.rows() == 0) reduced_world_state(l.geometry, l.poses, &l.x, &l.v);
  return l;
}

// The counters x_error (largest difference from the reference over the object's size) and,
// when v is given, v_error (over the largest speed).
void error_counters(benchmark::State& state, Layout& l, const Points& x, const Points* v) {
  const Layout& r = reference(l);
  const double size = (r.x.colwise().maxCoeff() - r.x.colwise().minCoeff()).norm();
  state.counters["x_error"] = (x - r.x).cwiseAbs().maxCoeff() / size;
  if (v != nullptr)
    state.counters["v_error"] = (*v - r.v).cwiseAbs().maxCoeff() / r.v.cwiseAbs().maxCoeff();
}

// --- The .layout files: a cache record (io/checked_record.hpp) written in one step. -----------

// One field order for both directions: Saving appends each field to the record, Loading reads it
// back (a size that does not fit what is left is Error "malformed").
struct Saving {
  RecordWriter out;
  std::int64_t integer(std::int64_t value) {
    out.i64(value);
    return value;
  }
  template <class M>
  void matrix(M& m) {
    out.i64(m.rows());
    out.i64(m.cols());
    for (Eigen::Index i = 0; i < m.size(); ++i) {
      if constexpr (std::is_floating_point_v<typename M::Scalar>)
        out.f64(m.data()[i]);
      else
        out.i64(m.data()[i]);
    }
  }
};

struct Loading {
  RecordReader in;
  std::int64_t integer(std::int64_t) { return in.i64(); }
  template <class M>
  void matrix(M& m) {
    const std::int64_t rows = in.i64(), cols = in.i64();
    constexpr auto fixed_rows = M::RowsAtCompileTime, fixed_cols = M::ColsAtCompileTime;
    if ((fixed_rows != Eigen::Dynamic && rows != fixed_rows) ||
        (fixed_cols != Eigen::Dynamic && cols != fixed_cols))
      throw Error("malformed: a matrix of another shape");
    if (rows < 0 || cols < 0 ||
        (cols > 0 && std::uint64_t(rows) > in.left() / 8 / std::uint64_t(cols)))
      throw Error("malformed: a matrix does not fit the file");
    m.resize(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) {
      if constexpr (std::is_floating_point_v<typename M::Scalar>)
        m.data()[i] = in.f64();
      else
        m.data()[i] = static_cast<typename M::Scalar>(in.i64());
    }
  }
};

template <class Io>
void transfer(Io& io, Layout& l) {
  io.matrix(l.geometry.rest_positions);
  const auto domains = std::size_t(io.integer(std::int64_t(l.geometry.domains.size())));
  l.geometry.domains.resize(domains);
  l.poses.resize(domains);
  for (std::size_t d = 0; d < domains; ++d) {
    DomainLayout& dom = l.geometry.domains[d];
    dom.instance_of = int(io.integer(dom.instance_of));
    io.matrix(dom.rotation);
    io.matrix(dom.offset);
    Eigen::Matrix<Index, Eigen::Dynamic, 1> ids =
        Eigen::Map<Eigen::Matrix<Index, Eigen::Dynamic, 1>>(dom.global_vertex.data(),
                                                            Eigen::Index(dom.global_vertex.size()));
    io.matrix(ids);
    dom.global_vertex.assign(ids.data(), ids.data() + ids.size());
    io.matrix(dom.rest);
    io.matrix(dom.U);
    io.matrix(dom.Psi);
    DomainPose& p = l.poses[d];
    for (auto* m : {&p.p, &p.nu, &p.omega}) io.matrix(*m);
    io.matrix(p.R);
    io.matrix(p.q);
    io.matrix(p.qdot);
  }
  io.matrix(l.surface.triangles);
  io.matrix(l.surface.embedding.vertices);
  io.matrix(l.surface.embedding.weights);
}

constexpr std::string_view kLayoutMagic = "SSBGLAYT";
constexpr std::uint32_t kLayoutVersion = 2;

void save(Layout& l, const fs::path& file) {
  Saving saving;
  transfer(saving, l);
  write_file_atomically(file,
                        encode_checked_record(kLayoutMagic, kLayoutVersion, 0, saving.out.bytes()));
}

// False (after saying why) when the file is missing, of an older version or damaged.
bool load(const fs::path& file, Layout& l) {
  if (!fs::exists(file)) return false;
  try {
    const std::string bytes = read_file_bytes(file, "bench layout");
    Loading loading{RecordReader(
        decode_checked_record(bytes, kLayoutMagic, "bench layout", kLayoutVersion, 0))};
    transfer(loading, l);
    if (loading.in.left() != 0) throw Error("malformed: bytes after the render surface");
    l.geometry.finalize();
    return true;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: %s; making it again\n", file.c_str(), e.what());
    l = Layout();
    return false;
  }
}

// --- Where the layouts come from. ------------------------------------------------------------

fs::path generated(const std::string& name, const std::string& arguments) {
  return bench::generated_scene(work_dir(), name, arguments);
}

// The scene run by `method` for 20 steps: its layout, poses and render surface.
Layout simulated(const fs::path& ini, const std::string& method, const std::string& name) {
  const std::string cache = (work_dir() / ("cache-" + name)).string();
  const Config config =
      Config::load(ini,
                   {"--coupling.plugin=" + method, "--run.exporters=", "--run.cache_dir=" + cache,
                    "--solvers.geometry=cpu"},
                   host());
  Simulation sim(config, host());
  sim.reset();
  StepStats stats;
  for (int k = 0; k < 20; ++k) sim.step(stats);
  Layout l;
  l.geometry = *sim.method().reduced_geometry();
  sim.method().domain_poses(l.poses);
  l.surface = render_surface(sim.scene().mesh,
                             sim.scene().render_mesh ? &*sim.scene().render_mesh : nullptr);
  return l;
}

Layout make_layout(const std::string& name) {
  if (name == "flower" || name == "tree")
    return simulated(fs::path(SUBSTRUCT_SOURCE_DIR) / "share/scenes" / (name + ".ini"), "inertia",
                     name);
  if (name == "oak")
    return simulated(generated("oak", "tree --branches 40 --leaves-per-branch 35"), "inertia",
                     name);
  if (name == "warped")
    return simulated(generated("warped",
                               "hybrid-bar --cells 60 12 8 --length 3 --height 0.6 "
                               "--width 0.4 --modes 50"),
                     "spectral-hybrid", name);
  if (name == "large") {
    long vertices = 1000000;
    if (const char* v = std::getenv("SUBSTRUCT_BENCH_LARGE_VERTICES")) vertices = std::atol(v);
    testing::RandomLayoutOptions o;
    o.vertices_per_domain = 1000;
    o.shared = 0;
    o.domains = int(std::max(1L, vertices / 1000));
    o.r = 20;
    o.rigid_fraction = o.warped_fraction = o.instance_fraction = 0;
    o.uncovered = 0;
    std::mt19937 random(1);
    Layout l;
    l.geometry = testing::random_reduced_geometry(o, random);
    l.poses = testing::random_poses(l.geometry, random, 0.1);
    return l;
  }
  throw Error("unknown layout " + name);
}

Layout& layout(const std::string& name) {
  static std::map<std::string, Layout> layouts;
  if (auto it = layouts.find(name); it != layouts.end()) return it->second;
  Layout& l = layouts[name];
  const fs::path file = work_dir() / (name + ".layout");
  if (name != "large" && load(file, l)) return l;
  l = make_layout(name);
  if (name != "large") {
    fs::create_directories(work_dir());
    save(l, file);
    std::fprintf(stderr, "saved %s\n", file.c_str());
  }
  return l;
}

// Bytes an update must move at least: every source domain's U, Ψ and X̄ once, per vertex its
// slot list, count and weight, per slot two indices, and x and v written.
double minimal_bytes(const ReducedGeometry& g, std::size_t scalar) {
  double bytes = 0;
  std::size_t slots = 0;
  for (std::size_t d = 0; d < g.domains.size(); ++d) {
    const DomainLayout& dom = g.domains[d];
    slots += dom.global_vertex.size();
    if (dom.instance_of >= 0) continue;
    bytes += double(scalar) * double(dom.U.size() + dom.Psi.size() + dom.rest.size());
  }
  const auto n = double(g.num_vertices());
  return bytes + double(slots) * 8 + n * (4 + double(scalar) + 6 * double(scalar));
}

// --- Solvers. ----------------------------------------------------------------------------------

std::unique_ptr<GeometrySolver> make_solver(const std::string& solver) {
  std::vector<Setting> settings;
  if (solver == "cpu-1" || solver == "cpu-all") {
    settings = {{"solvers.geometry", "cpu", "bench"},
                {"geometry-cpu.threads", "0", "bench"},  // as [run] threads
                {"run.threads", solver == "cpu-1" ? "1" : "auto", "bench"}};
  } else {
    settings = {{"solvers.geometry", "cuda", "bench"},
                {"geometry-cuda.precision", solver == "cuda-float" ? "float" : "double", "bench"},
                {"geometry-cuda.copy_threads", solver == "cuda-1copy" ? "1" : "0", "bench"}};
  }
  // No other solver named: only the geometry plugins and the default coupling plugin are needed.
  for (const char* key :
       {"solvers.linear", "solvers.coupled", "solvers.eigen", "run.loads", "run.exporters"})
    settings.push_back({key, "", "bench"});
  const Config config = Config::from_settings(settings, work_dir(), host());
  return SolverProvider(host(), config).geometry();
}

// The seconds per update of every reported run (each repetition), by benchmark name.
std::map<std::string, std::vector<double>>& g_seconds() {
  static std::map<std::string, std::vector<double>> s;
  return s;
}

// The console's report, and each run's time kept for the ratios printed at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  RatioReporter() : ConsoleReporter(isatty(STDOUT_FILENO) != 0 ? OO_ColorTabular : OO_Tabular) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs)
      if (run.run_type == Run::RT_Iteration && !run.error_occurred && run.iterations > 0)
        g_seconds()[run.run_name.function_name].push_back(run.real_accumulated_time /
                                                          double(run.iterations));
    ConsoleReporter::ReportRuns(runs);
  }
};

// One solver per layout and solver name, its layout set once (Google Benchmark calls a
// benchmark's function several times); null with the reason when it cannot be made.
GeometrySolver* solver_for(const std::string& name, const std::string& solver_name,
                           std::string& problem) {
  host();  // constructed first, destroyed last: the plugins outlive their objects
  static std::map<std::string, std::pair<std::unique_ptr<GeometrySolver>, std::string>> solvers;
  auto& [solver, why] = solvers[name + "/" + solver_name];
  if (!solver && why.empty()) {
    try {
      solver = make_solver(solver_name);
      solver->set_layout(layout(name).geometry);
    } catch (const Error& e) {
      solver.reset();
      why = e.what();
    }
  }
  problem = why;
  return solver.get();
}

void update(benchmark::State& state, const std::string& name, const std::string& solver_name) {
  std::string problem;
  GeometrySolver* solver = solver_for(name, solver_name, problem);
  if (solver == nullptr) {
    state.SkipWithError(problem.c_str());
    return;
  }
  const Layout& l = layout(name);
  Points x, v;
  solver->world_state(l.poses, x, &v);  // warm-up
  for (auto _ : state) {
    solver->world_state(l.poses, x, &v);
    benchmark::DoNotOptimize(x.data());
  }
  const std::size_t scalar = solver_name == "cuda-float" ? 4 : 8;
  error_counters(state, layout(name), x, &v);
  state.counters["vertices"] = double(x.rows());
  state.counters["domains"] = double(l.poses.size());
  state.counters["GBps"] = benchmark::Counter(minimal_bytes(l.geometry, scalar) / 1e9,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

void world_state(benchmark::State& state, const std::string& scene, bool velocity) {
  const Layout& l = layout(scene);
  std::unique_ptr<GeometrySolver> solver = make_solver("cpu-1");
  solver->set_layout(l.geometry);
  Points x, v;
  for (auto _ : state) {
    solver->world_state(l.poses, x, velocity ? &v : nullptr);
    benchmark::DoNotOptimize(x.data());
  }
  state.counters["vertices"] = double(x.rows());
  state.counters["domains"] = double(l.poses.size());
}

void render(benchmark::State& state, const std::string& scene, const std::string& solver_name) {
  std::unique_ptr<GeometrySolver> solver;
  try {
    solver = make_solver(solver_name);
  } catch (const Error& e) {
    state.SkipWithError(e.what());
    return;
  }
  const Layout& l = layout(scene);
  solver->set_layout(l.geometry);
  solver->set_surface(l.surface);
  Points x, y, n;
  solver->world_state(l.poses, x, nullptr);
  for (auto _ : state) {
    solver->render(x, y, n);
    benchmark::DoNotOptimize(n.data());
  }
  state.counters["render_vertices"] = double(y.rows());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

#if SUBSTRUCT_BENCH_CUDA
template <class T>
void kernel(benchmark::State& state, const std::string& name) {
  using geometry_cuda::DeviceGeometry;
  if (const std::string problem = geometry_cuda::device_problem(0); !problem.empty()) {
    state.SkipWithError(("no usable CUDA device: " + problem).c_str());
    return;
  }
  Layout& l = layout(name);
  DeviceGeometry<T> device(0);
  geometry_cuda::FlatLayout<T> flat = geometry_cuda::flatten_layout<T>(l.geometry);
  device.set_layout(flat);
  geometry_cuda::pack_step(flat, std::span<const DomainPose>(l.poses), true, device.step_input());
  device.world_state(true, true);  // warm-up
  double total = 0, download = 0;
  for (auto _ : state) {
    device.world_state(true, true);
    const double seconds = device.last_kernel_ms() / 1e3;
    state.SetIterationTime(seconds);
    total += seconds;
    download += device.last_download_ms() / 1e3;
  }
  const double seconds = total / double(state.iterations());
  download /= double(state.iterations());
  // The bus: x and v from device to pinned host memory after the kernel, the floor of an
  // update's time besides the kernel.
  const double result_bytes = 2.0 * 3.0 * double(l.geometry.num_vertices()) * sizeof(T);
  state.counters["download_us"] = download * 1e6;
  state.counters["bus_GBps"] = result_bytes / download / 1e9;
  // Where an untimed update's time goes, as the host sees it (medians of 50): packing the poses,
  // from the graph's launch until every chunk has arrived, and copying x and v out of the pinned
  // buffers on one thread.
  {
    std::vector<double> pack, arrive, copy;
    Points xs(l.geometry.num_vertices(), 3), vs(l.geometry.num_vertices(), 3);
    for (int k = 0; k < 50; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      geometry_cuda::pack_step(flat, std::span<const DomainPose>(l.poses), true,
                               device.step_input());
      const auto t1 = std::chrono::steady_clock::now();
      device.world_state(true);
      device.wait_chunk(device.chunks() - 1);
      const auto t2 = std::chrono::steady_clock::now();
      const T* px = device.positions_staging();
      const T* pv = device.velocities_staging();
      for (Eigen::Index i = 0; i < xs.size(); ++i) {
        xs.data()[i] = double(px[i]);
        vs.data()[i] = double(pv[i]);
      }
      benchmark::DoNotOptimize(xs.data());
      benchmark::DoNotOptimize(vs.data());
      const auto t3 = std::chrono::steady_clock::now();
      pack.push_back(std::chrono::duration<double>(t1 - t0).count());
      arrive.push_back(std::chrono::duration<double>(t2 - t1).count());
      copy.push_back(std::chrono::duration<double>(t3 - t2).count());
    }
    state.counters["host_pack_us"] = median(pack) * 1e6;
    state.counters["host_arrive_us"] = median(arrive) * 1e6;
    state.counters["host_copy1_us"] = median(copy) * 1e6;
  }
  const double bytes = minimal_bytes(l.geometry, sizeof(T));
  const double bound = bytes / geometry_cuda::device_peak_bandwidth(0);
  state.counters["GBps"] = bytes / seconds / 1e9;
  state.counters["over_bound"] = seconds / bound;
  Points x(l.geometry.num_vertices(), 3);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = double(device.positions()[i]);
  error_counters(state, l, x, nullptr);
  static bool described = false;
  if (!described) {
    std::fprintf(stderr, "device: %s\n", geometry_cuda::device_description(0).c_str());
    described = true;
  }
}
#endif

void register_all() {
  for (const char* scene : {"flower", "tree"}) {
    benchmark::RegisterBenchmark(fmt::format("world_state/{}", scene).c_str(), world_state,
                                 std::string(scene), false)
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("world_state/tree_with_velocity", world_state, std::string("tree"),
                               true)
      ->Unit(benchmark::kMicrosecond);
  for (const char* scene : {"flower", "tree"})
    for (const char* solver : {"cpu-1", "cuda"})
      benchmark::RegisterBenchmark(fmt::format("render/{}/{}", scene, solver).c_str(), render,
                                   std::string(scene), std::string(solver))
          ->Unit(benchmark::kMicrosecond);
  for (const char* name : {"oak", "warped", "large"}) {
    for (const char* solver : {"cpu-1", "cpu-all", "cuda", "cuda-float", "cuda-1copy"})
      benchmark::RegisterBenchmark(fmt::format("update/{}/{}", name, solver).c_str(), update,
                                   std::string(name), std::string(solver))
          ->Unit(benchmark::kMicrosecond)
          ->UseRealTime();
#if SUBSTRUCT_BENCH_CUDA
    benchmark::RegisterBenchmark(fmt::format("kernel/{}/double", name).c_str(), kernel<double>,
                                 std::string(name))
        ->Unit(benchmark::kMicrosecond)
        ->UseManualTime();
    benchmark::RegisterBenchmark(fmt::format("kernel/{}/float", name).c_str(), kernel<float>,
                                 std::string(name))
        ->Unit(benchmark::kMicrosecond)
        ->UseManualTime();
#endif
  }
}

void print_ratios() {
  const auto& s = g_seconds();
  const auto get = [&](const std::string& key) {
    const auto it = s.find(key);
    return it == s.end() || it->second.empty() ? 0.0 : median(it->second);
  };
  std::printf("\nper update, medians over repetitions (%u host threads):\n",
              std::max(1u, std::thread::hardware_concurrency()));
  for (const char* name : {"oak", "warped", "large"}) {
    const double cpu1 = get(fmt::format("update/{}/cpu-1", name)),
                 all = get(fmt::format("update/{}/cpu-all", name)),
                 cuda = get(fmt::format("update/{}/cuda", name)),
                 cuda_float = get(fmt::format("update/{}/cuda-float", name)),
                 kernel = get(fmt::format("kernel/{}/double", name));
    if (cpu1 == 0) continue;
    std::printf("  %-7s cpu-1 %9.1f us  cpu-all %9.1f us", name, cpu1 * 1e6, all * 1e6);
    if (cuda > 0)
      std::printf("  cuda %9.1f us (%.1fx cpu-all)  cuda-float %9.1f us  kernel %8.1f us",
                  cuda * 1e6, all / cuda, cuda_float * 1e6, kernel * 1e6);
    if (const double one = get(fmt::format("update/{}/cuda-1copy", name)); one > 0)
      std::printf("  cuda with one copy thread %9.1f us", one * 1e6);
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_all();
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  print_ratios();
  benchmark::Shutdown();
  return 0;
}
