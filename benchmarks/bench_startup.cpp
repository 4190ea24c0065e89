// SPDX-License-Identifier: GPL-3.0-or-later
// Start-up of the command line, launch to exit, each iteration a new process:
//   version                  the bare program: no plugin loaded
//   plugins                  `help slepc`: every plugin loaded (the slepc plugin without its
//                            engine: PETSc is not loaded), nothing solved: the floor of any
//                            command that reads a scene
//   modes                    `modes` on the beam (share/meshes/beam3_tet.veg, 10 modes) as a
//                            user runs it: plugins, assembly and the first (and only)
//                            eigensolve by spectra ([solvers] eigen = auto in one process; about
//                            8 ms of it). Goal: ≤ 50 ms.
//   modes_slepc              the same solved by slepc: its engine, PETSc and MPI loaded and
//                            started as one isolated process
//   modes_slepc_openmpi_defaults  slepc with Open MPI's own singleton start-up (an orted daemon
//                            forked, every transport probed), as before the isolated start
// Real time; run with --benchmark_repetitions=5 for medians.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

extern char** environ;

namespace {

/// Runs SUBSTRUCT_CLI with `arguments`, the environment of this process plus `extra`, output
/// discarded; false when it could not start or did not exit with 0.
bool run_cli(const std::vector<std::string>& arguments, const std::vector<std::string>& extra) {
  std::vector<std::string> words = {SUBSTRUCT_CLI};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::vector<std::string> environment(extra);
  for (char** e = environ; *e != nullptr; ++e) environment.emplace_back(*e);
  std::vector<char*> envp;
  for (std::string& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int failed = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) return false;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void time_cli(benchmark::State& state, const std::vector<std::string>& arguments,
              const std::vector<std::string>& extra = {}) {
  for (auto _ : state)
    if (!run_cli(arguments, extra)) {
      state.SkipWithError("the command failed (run it by hand to see why)");
      return;
    }
}

const std::string beam = std::string(SUBSTRUCT_SOURCE_DIR) + "/share/meshes/beam3_tet.veg";

const std::vector<std::string> openmpi_defaults = {"SUBSTRUCT_MPI_SINGLETON=openmpi"};

void version(benchmark::State& state) {
  time_cli(state, {"version"});
}
void plugins(benchmark::State& state) {
  time_cli(state, {"help", "slepc"});
}
void modes(benchmark::State& state) {
  time_cli(state, {"modes", beam, "--quiet"});
}
void modes_slepc(benchmark::State& state) {
  time_cli(state, {"modes", beam, "--quiet", "--solvers.eigen=slepc"});
}
void modes_slepc_openmpi_defaults(benchmark::State& state) {
  time_cli(state, {"modes", beam, "--quiet", "--solvers.eigen=slepc"}, openmpi_defaults);
}

BENCHMARK(version)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(10);
BENCHMARK(plugins)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(10);
BENCHMARK(modes)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(10);
BENCHMARK(modes_slepc)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(10);
BENCHMARK(modes_slepc_openmpi_defaults)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
