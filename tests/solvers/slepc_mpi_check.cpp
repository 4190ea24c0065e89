// SPDX-License-Identifier: GPL-3.0-or-later
// The slepc plugin over MPI: one clamped 40×8×8 box beam (9,720 free DOFs) solved on two ranks
// (rows split between them, MUMPS) gives the eigenvalues of serial solves on one rank (CHOLMOD's
// and MUMPS's factorizations) to 1e-8, and every rank receives the same, complete, M-orthonormal
// eigenpairs.
//
//   solvers_slepc_mpi_check --mpiexec mpirun --ranks 2
//       starts `mpirun --oversubscribe -n 2` on itself and reports its result; exits 77 (skipped)
//       when mpirun is missing or cannot start the ranks, saying why.
//   mpirun -n 2 solvers_slepc_mpi_check
//       the check itself (at least 2 ranks).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <mpi.h>
#include <slepcsys.h>

#include "generalized_eigensolve.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/solvers/automatic_shift.hpp"
#include "substruct/solvers/eigen_solver.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace {

constexpr int kSkipped = 77;
constexpr int kCount = 10;

/// Runs `mpiexec --oversubscribe -n ranks <this program> --started DIR` and returns its exit
/// code, or kSkipped when mpirun is absent or none of the ranks got to MPI_Init.
int launch(const std::string& mpiexec, int ranks) {
  const fs::path self = fs::read_symlink("/proc/self/exe");
  const fs::path started =
      fs::temp_directory_path() / fmt::format("substruct_slepc_mpi_{}", ::getpid());
  fs::remove_all(started);
  fs::create_directories(started);
  std::vector<std::string> words = {
      mpiexec,     "--oversubscribe", "-n", std::to_string(ranks), self.string(),
      "--started", started.string()};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::printf("running: %s\n", fmt::format("{}", fmt::join(words, " ")).c_str());
  std::fflush(stdout);
  pid_t pid = 0;
  const int spawn_error =
      posix_spawnp(&pid, mpiexec.c_str(), nullptr, nullptr, argv.data(), environ);
  if (spawn_error != 0) {
    std::printf("SKIPPED: cannot run '%s': %s (install Open MPI or MPICH to run this check)\n",
                mpiexec.c_str(), std::strerror(spawn_error));
    fs::remove_all(started);
    return kSkipped;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  int started_ranks = 0;
  for (const auto& entry : fs::directory_iterator(started))
    started_ranks += entry.is_regular_file();
  fs::remove_all(started);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (code != 0 && started_ranks < ranks) {
    std::printf(
        "SKIPPED: %s could not start %d ranks (%d started, exit code %d); see its "
        "message above\n",
        mpiexec.c_str(), ranks, started_ranks, code);
    return kSkipped;
  }
  std::printf("%s exited with %d: %s\n", mpiexec.c_str(), code, code == 0 ? "passed" : "FAILED");
  return code;
}

double max_relative_difference(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  double worst = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]) / std::abs(b[i]));
  return worst;
}

/// The check on every rank of MPI_COMM_WORLD; true when it passed (the verdict of rank 0).
bool check(int rank, int size) {
  using namespace substruct;
  Material material;
  material.youngs_modulus = 2e6;
  material.poisson_ratio = 0.3;
  material.density = 1100;
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 0.2, 0.2), 40, 8, 8, material);
  const DofMap dofs = DofMap::for_fixed_vertices(mesh.num_vertices(), mesh.vertex_sets.at("xmin"));
  const ElasticForceModel model(mesh, MaterialModel::linear);
  const SparseMatrix K =
      dofs.restrict_matrix(model.stiffness(Eigen::VectorXd::Zero(3 * mesh.num_vertices())));
  const SparseMatrix M = dofs.restrict_matrix(consistent_mass(mesh));
  const double shift = automatic_shift(K, M, "slepc");

  // On every rank through the plugin: the problem distributed over PETSC_COMM_WORLD.
  PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const Config config = Config::from_settings(
      {{"solvers.eigen", "slepc", "check"}, {"slepc.factorization", "mumps", "check"}},
      fs::temp_directory_path(), host);
  auto solver = host.create<EigenSolver>("slepc", PluginKind::eigen_solver, PluginContext{config});
  MPI_Barrier(MPI_COMM_WORLD);
  auto start = std::chrono::steady_clock::now();
  const EigenPairs parallel = solver->solve(K, M, kCount, shift);
  const double parallel_seconds = seconds_since(start);

  // Every rank holds the same complete result: compare with rank 0's.
  Eigen::VectorXd rank0_values = parallel.values;
  Eigen::MatrixXd rank0_vectors = parallel.vectors;
  MPI_Bcast(rank0_values.data(), kCount, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(rank0_vectors.data(), int(rank0_vectors.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int differs = parallel.vectors.rows() != K.rows() || parallel.values != rank0_values ||
                parallel.vectors != rank0_vectors;
  int ranks_differing = 0;
  MPI_Reduce(&differs, &ranks_differing, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);

  int passed = 0;
  if (rank == 0) {
    std::printf("clamped box 40×8×8: %ld free DOFs, σ = %.6g, %d ranks\n", long(K.rows()), shift,
                size);
    bool ok = ranks_differing == 0;
    if (!ok)
      std::printf("FAILED: %d ranks hold results that differ from rank 0's\n", ranks_differing);
    // Serial references on this rank alone.
    slepc_plugin::SlepcSettings settings;
    std::vector<substruct::EigenPairs> serial;
    std::vector<double> serial_seconds;
    for (const auto f :
         {slepc_plugin::Factorization::cholmod, slepc_plugin::Factorization::mumps}) {
      settings.factorization = f;
      start = std::chrono::steady_clock::now();
      serial.push_back(
          slepc_plugin::solve_generalized(PETSC_COMM_SELF, K, M, kCount, shift, settings));
      serial_seconds.push_back(seconds_since(start));
    }
    std::printf("%5s %22s %22s %12s\n", "index", "λ serial (CHOLMOD)", "λ MPI (MUMPS)",
                "rel. diff");
    for (int i = 0; i < kCount; ++i)
      std::printf("%5d %22.15g %22.15g %12.3g\n", i, serial[0].values[i], parallel.values[i],
                  std::abs(parallel.values[i] - serial[0].values[i]) / serial[0].values[i]);
    const double diff_cholmod = max_relative_difference(parallel.values, serial[0].values);
    const double diff_mumps = max_relative_difference(parallel.values, serial[1].values);
    std::printf("max relative difference MPI vs serial: %.3g (CHOLMOD), %.3g (MUMPS); limit 1e-8\n",
                diff_cholmod, diff_mumps);
    ok = ok && diff_cholmod <= 1e-8 && diff_mumps <= 1e-8;
    // The gathered vectors: M-orthonormal eigenvectors of the whole problem.
    const Eigen::MatrixXd& X = parallel.vectors;
    const double orthonormality =
        (X.transpose() * (M * X) - Eigen::MatrixXd::Identity(kCount, kCount)).cwiseAbs().maxCoeff();
    double residual = 0;
    for (int i = 0; i < kCount; ++i) {
      const Eigen::VectorXd Kx = K * X.col(i);
      residual = std::max(residual, (Kx - parallel.values[i] * (M * X.col(i))).norm() / Kx.norm());
    }
    std::printf(
        "MPI eigenvectors: max |XᵀMX − I| = %.3g (limit 1e-8), max ‖Kx − λMx‖/‖Kx‖ = %.3g "
        "(limit 1e-8)\n",
        orthonormality, residual);
    ok = ok && orthonormality <= 1e-8 && residual <= 1e-8;
    std::printf("solve time: %.3f s on %d ranks (MUMPS), serial %.3f s (CHOLMOD), %.3f s (MUMPS)\n",
                parallel_seconds, size, serial_seconds[0], serial_seconds[1]);
    passed = ok;
    std::printf("%s\n", ok ? "passed" : "FAILED");
  }
  MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return passed != 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mpiexec, started;
  int ranks = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--mpiexec" && i + 1 < argc)
      mpiexec = argv[++i];
    else if (a == "--ranks" && i + 1 < argc)
      ranks = std::atoi(argv[++i]);
    else if (a == "--started" && i + 1 < argc)
      started = argv[++i];
    else {
      std::fprintf(
          stderr, "usage: %s --mpiexec MPIRUN [--ranks N]   or, under mpirun, %s [--started DIR]\n",
          argv[0], argv[0]);
      return 2;
    }
  }
  if (!mpiexec.empty()) return launch(mpiexec, ranks);

  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!started.empty())
    std::fclose(std::fopen((fs::path(started) / std::to_string(rank)).c_str(), "w"));
  int code = 0;
  if (size < 2) {
    std::printf("this check needs at least 2 MPI ranks (run it with --mpiexec mpirun)\n");
    code = 1;
  } else if (SlepcInitializeNoArguments() != 0) {
    std::printf("SlepcInitialize failed\n");
    code = 1;
  } else {
    try {
      code = check(rank, size) ? 0 : 1;
    } catch (const substruct::Error& e) {
      std::printf("rank %d: error: %s\n", rank, e.what());
      std::fflush(stdout);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    SlepcFinalize();
  }
  MPI_Finalize();
  return code;
}
