#pragma once
/// The interface every coupling plugin implements (inertia, coupling-elements, ddm,
/// spectral-hybrid, full). How each scheme maps onto it: framework/docs/coupling_contract.md.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/loads/external_forces.hpp"
#include "substruct/plugin/component.hpp"

namespace substruct {

struct Scene;
class SolverProvider;

/// What precompute() spent its time on, split into stages ("modes", "derivatives",
/// "polynomial", "cache load", "integrals", "assembly" …), and how the domains got their models.
struct PrecomputeStats {
  std::vector<std::pair<std::string, double>> stage_seconds;
  int models_computed = 0;   // reduced from scratch
  int models_loaded = 0;     // read from the model cache
  int models_instanced = 0;  // transformed from an identical domain's model
  void add(const std::string& stage, double seconds);
};

/// Everything precompute() may use. The scene is fixed for the method's lifetime.
struct PrecomputeContext {
  const Scene& scene;
  const SolverProvider& solvers;
  std::filesystem::path cache_dir;   // where precomputed models may be stored (may not exist)
  PrecomputeStats* stats = nullptr;  // filled when not null
};

/// Wall-clock split of one step into the parts the papers report (e.g. "dynamics",
/// "coupling", "factorization", "solve", "geometry"), and solver iterations.
struct StepStats {
  std::vector<std::pair<std::string, double>> stage_seconds;
  int iterations = 0;
  void add(const std::string& stage, double seconds);
};

/// Energies of the current state [J]. external = potential of gravity (−Σ m g·x).
struct Energies {
  double kinetic = 0;
  double elastic = 0;
  double gravity = 0;
  double total() const { return kinetic + elastic + gravity; }
};

class CouplingMethod : public Component {
 public:
  /// Whether this method can simulate `scene`; if not, `reason` says why in one sentence
  /// (e.g. "the domain graph has a cycle 2 → 5 → 7 → 2; inertia coupling needs a tree").
  virtual bool can_run(const Scene& scene, std::string& reason) const;

  /// Offline work: bases, factorizations, precomputed integrals. Called once, before reset().
  virtual void precompute(const PrecomputeContext& context) = 0;

  /// Sets the state: full-space displacement u₀ and velocity v₀ (3N each, global vertex
  /// numbering; empty = zero). Reduced methods project them onto their own coordinates.
  virtual void reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) = 0;

  /// Advances by dt under `forces` (constant over the step). May throw DivergenceError.
  virtual void step(double dt, const ExternalForces& forces, StepStats& stats) = 0;

  /// World positions and velocities of every volumetric vertex (N×3, global numbering).
  /// Where a method duplicates interface vertices, it returns their average.
  /// By default (for methods with a reduced layout), the framework's geometry kernel on
  /// reduced_geometry() and domain_poses(); methods without one implement them (Error otherwise).
  virtual void positions(Points& x) const;
  virtual void velocities(Points& v) const;

  /// Energies of the current state under gravity g.
  virtual Energies energies(const Vec3& gravity) const = 0;

  /// Number of degrees of freedom the method integrates.
  virtual Index dofs() const = 0;

  /// A method whose state is domains in moving frames may expose its layout (valid after
  /// precompute) and per-step poses: then the framework computes world positions and velocities
  /// through the selected geometry plugin ([solvers] geometry) instead of positions() and
  /// velocities(), which by default evaluate the same kernel (geometry/reduced_geometry.hpp).
  /// Methods without one (e.g. full) return nullptr.
  virtual const ReducedGeometry* reduced_geometry() const { return nullptr; }
  /// One pose per domain of reduced_geometry(), for the current state.
  virtual void domain_poses(std::vector<DomainPose>& /*poses*/) const {}

  /// The largest distance [m] between copies of one vertex that the method keeps apart (a
  /// vertex on an interface simulated by two domains; each copy against the first domain's);
  /// 0 when every vertex has one position.
  virtual double interface_gap() const { return 0; }
};

}  // namespace substruct
