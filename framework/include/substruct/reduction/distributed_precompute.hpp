// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The reduced models of a scene computed by the ranks of an MPI job together
/// (`mpirun -n K substruct precompute SCENE.ini`): after instancing, the ranks check the cache
/// (each a share of the files), the models still missing are shared out balanced by their
/// estimated cost (tets × r² plus a fixed cost per model; the longest first, each to the least
/// loaded rank), each rank computes
/// its own with serial solves and stores them in the cache (one writer per file, written under a
/// temporary name and renamed), and every rank learns what every other did. A later run on one
/// process loads them all: the models are bit for bit those a single process computes.
///
/// A large domain (more free DOFs than [reduction] shared_solve_dofs) is computed by every rank
/// together before the others are shared out: its eigenproblem is one SLEPc solve over all ranks
/// (MUMPS), the rest of its model each rank computes alike, and rank 0 stores it.
///
/// A rank whose domain cannot be reduced stops the others (they finish the domain they are on
/// and start no other); every rank then throws the same Error naming the domain. What was
/// stored before the stop is complete, and a rerun loads it and computes the rest.
#include <string>
#include <vector>

#include "substruct/reduction/domain_models.hpp"
#include "substruct/solvers/process_group.hpp"

namespace substruct {

/// DistributedModelRecord::rank of a large domain's model, which every rank computed together.
inline constexpr int kAllRanks = -2;

/// One domain of a distributed precompute.
struct DistributedModelRecord {
  int domain = 0;
  ModelOrigin origin = ModelOrigin::computed;
  int representative = 0;  // the domain whose model this one transforms (itself if none)
  int rank = -1;  // computed: the rank that computed it (kAllRanks: all together); cache: the
                  // rank that checked it
  int r = 0;
  Index tets = 0;
  double seconds = 0;  // computed: its compute time; cache: the check (a full read) time
  double modes = 0, derivatives = 0, pca = 0, forces = 0;  // computed: the stages [s]
};

/// What one rank did.
struct RankShare {
  int rank = 0;
  int computed = 0;         // models computed and stored
  int checked = 0;          // cache files checked
  long tets = 0;            // of the models it computed
  double cost = 0;          // their estimated cost, Σ tets × r
  double busy_seconds = 0;  // checking and computing
};

struct DistributedPrecompute {
  std::vector<DistributedModelRecord> domains;  // in request order
  std::vector<RankShare> ranks;                 // in rank order
  double seconds = 0;                           // wall time on this rank
};

/// The distributed precompute of `requests` over `group` (collective: every rank calls it with
/// the same requests and settings). `solvers`' eigen solves must be each process's own
/// (SolverProvider's default). Needs the model cache (Error otherwise). Throws Error naming the
/// domain (and its rank) when one could not be reduced or stored, on every rank.
DistributedPrecompute precompute_distributed(const std::vector<ModelRequest>& requests,
                                             MaterialModel material,
                                             const ReductionSettings& settings,
                                             const SolverProvider& solvers, const ModelCache& cache,
                                             ProcessGroup& group);

}  // namespace substruct
