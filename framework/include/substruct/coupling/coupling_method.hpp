// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The interface every coupling plugin implements (inertia, coupling-elements, ddm,
/// spectral-hybrid, full). How each scheme maps onto it: framework/docs/coupling_contract.md.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "substruct/core/energies.hpp"
#include "substruct/core/stage_timings.hpp"
#include "substruct/core/types.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/loads/external_forces.hpp"
#include "substruct/plugin/component.hpp"

namespace substruct {

struct Scene;
class SolverProvider;

/// Everything precompute() may use. The scene is fixed for the method's lifetime.
struct PrecomputeContext {
  const Scene& scene;
  const SolverProvider& solvers;
  std::filesystem::path cache_dir;   // where precomputed models may be stored (may not exist)
  PrecomputeStats* stats = nullptr;  // filled when not null
};

/// Whether a method can simulate a scene; if not, why, in one sentence (e.g. "the domain graph
/// has a cycle 2 → 5 → 7 → 2; inertia coupling needs a tree").
struct CanRun {
  bool ok = true;
  std::string reason;

  static CanRun yes() { return {}; }
  static CanRun no(std::string why) { return {false, std::move(why)}; }
  explicit operator bool() const { return ok; }
};

/// How a static solve went (CouplingMethod::solve_static).
struct StaticReport {
  int iterations = 0;     // linear solves
  int load_steps = 0;     // accepted load increments
  int step_cuts = 0;      // halvings of Newton steps by the line search
  double residual = 0;    // ‖f_int(u) − f_ext‖ / ‖f_ext‖ on the free DOFs at the solution
  double force_norm = 0;  // ‖f_ext‖ on the free DOFs [N]
  std::string description;  // how it was solved, e.g. "Newton with line search, cholmod"
};

/// The base of every coupling method. The public calls are the framework's: they own the
/// lifecycle (can_run → precompute → reset → step …) and check what crosses the contract (the
/// scene, the sizes of u₀ and v₀, dt, the external forces), each with one message naming the
/// plugin, then call the protected hooks a plugin implements. A method whose state is domains in
/// moving frames derives from ReducedCouplingMethod instead, which supplies positions and
/// velocities from its reduced layout. The contract in words: framework/docs/coupling_contract.md.
class CouplingMethod : public Component {
 public:
  enum class Stage { created, precomputed, running };

  /// The framework's checks of the scene, then the method's own (check_scene()).
  CanRun can_run(const Scene& scene) const;

  /// The domains the method simulates as rigid bodies, whose reduced models are r = 0 (nothing
  /// to reduce or cache: `substruct precompute` asks for the others only). One entry per domain of
  /// `scene`, or empty when there are none; Error when the method names a domain the scene does
  /// not have.
  std::vector<bool> rigid_domains(const Scene& scene) const;

  /// Offline work: bases, factorizations, precomputed integrals. Once, first; refuses a scene
  /// the method cannot run (Error with can_run's reason). The scene must outlive the method.
  void precompute(const PrecomputeContext& context);

  /// Sets the state: full-space displacement u₀ and velocity v₀ (3N each, global vertex
  /// numbering; empty = zero; finite). Reduced methods project them onto their own coordinates.
  void reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0);

  /// Advances by dt > 0 under `forces` (constant over the step; checked: finite, point forces on
  /// existing vertices, nodal forces of 3N entries). May throw DivergenceError.
  void step(double dt, const ExternalForces& forces, StepStats& stats);

  /// World positions and velocities of every volumetric vertex (N×3, global numbering), after
  /// reset(). Where a method duplicates interface vertices, it returns their average.
  void positions(Points& x) const;
  void velocities(Points& v) const;

  /// Energies of the current state under gravity g, after reset().
  Energies energies(const Vec3& gravity) const;

  /// Whether the method solves for static equilibrium itself; if not, why (one sentence).
  CanRun can_solve_static() const { return do_can_solve_static(); }
  /// Sets the state to a static equilibrium under `forces` (checked as in step()): u with
  /// f_int(u) = f_ext from the current state, velocity zero. After reset(); throws Error when
  /// can_solve_static() says no or no equilibrium is found.
  StaticReport solve_static(const ExternalForces& forces);

  /// Number of degrees of freedom the method integrates, after precompute().
  Index dofs() const;

  /// The reduced layout of a method derived from ReducedCouplingMethod (after precompute()):
  /// the framework then computes world positions and velocities through the [solvers] geometry
  /// plugin from it and domain_poses(). nullptr for other methods.
  const ReducedGeometry* reduced_geometry() const;
  /// One pose per domain of reduced_geometry(), for the current state (after reset()).
  void domain_poses(std::vector<DomainPose>& poses) const;

  /// The largest distance [m] between copies of one vertex that the method keeps apart (a
  /// vertex on an interface simulated by two domains; each copy against the first domain's);
  /// 0 when every vertex has one position.
  double interface_gap() const;

  Stage stage() const { return stage_; }
  /// The scene given to precompute().
  const Scene& scene() const;

 protected:
  /// The method's own conditions on the scene (the framework's are checked before).
  virtual CanRun check_scene(const Scene& /*scene*/) const { return CanRun::yes(); }
  /// The ids of the domains simulated as rigid bodies (none by default).
  virtual std::vector<Index> do_rigid_domains() const { return {}; }
  virtual void do_precompute(const PrecomputeContext& context) = 0;
  virtual void do_reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) = 0;
  virtual void do_step(double dt, const ExternalForces& forces, StepStats& stats) = 0;
  virtual void do_positions(Points& x) const = 0;
  virtual void do_velocities(Points& v) const = 0;
  virtual Energies do_energies(const Vec3& gravity) const = 0;
  virtual Index do_dofs() const = 0;
  virtual double do_interface_gap() const { return 0; }
  virtual CanRun do_can_solve_static() const;
  virtual StaticReport do_solve_static(const ExternalForces& forces);

  /// "<plugin>: " (or "coupling method: " for an object not made by the plugin host).
  std::string prefix() const;

 private:
  friend class ReducedCouplingMethod;
  virtual const ReducedGeometry* do_reduced_geometry() const { return nullptr; }
  virtual void do_domain_poses(std::vector<DomainPose>& /*poses*/) const {}
  void require(Stage at_least, const char* call) const;

  Stage stage_ = Stage::created;
  const Scene* scene_ = nullptr;
};

/// The base of methods whose state is domains in moving frames: they describe their layout
/// (per domain: sorted global vertices, rest shape X̄ in the frame, basis U; valid after
/// precompute) and one pose per domain per state (R, p, ν, ω, q, q̇), and the framework
/// supplies world positions and velocities, x = p + R (X̄ + U q) and v = R (ν + ω × (X̄ + U q) +
/// U q̇), shared vertices averaged (geometry/reduced_geometry.hpp), through the same kernel the
/// geometry plugins use.
class ReducedCouplingMethod : public CouplingMethod {
 protected:
  virtual const ReducedGeometry& layout() const = 0;
  virtual void poses(std::vector<DomainPose>& poses) const = 0;

 private:
  void do_positions(Points& x) const final;
  void do_velocities(Points& v) const final;
  const ReducedGeometry* do_reduced_geometry() const final { return &layout(); }
  void do_domain_poses(std::vector<DomainPose>& p) const final { poses(p); }
};

}  // namespace substruct
