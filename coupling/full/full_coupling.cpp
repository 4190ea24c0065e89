// SPDX-License-Identifier: GPL-3.0-or-later
// full: the unreduced, geometrically nonlinear FEM of the whole mesh as one domain, integrated
// implicitly (Newmark or backward Euler with Newton iterations;
// integrators/implicit_integrator.hpp):
//     M ü + D u̇ + f_int(u) = f_ext,   D = αM + βK(u),   f_ext = M g + point forces + nodal forces,
// with the scene's fixed vertices held at u = 0. Every reduced method is compared against it.
// Point forces that come with a stiffness K_c = −∂f/∂x (contacts: loads/external_forces.hpp)
// act over the step as f − K_c (u₊ − u): K_c is added to Newton's tangent, so stiff contact
// springs are integrated implicitly like the elastic forces.
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/config/contact_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/memory_budget.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/implicit_integrator.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::full {
namespace {

enum class MassMatrix { consistent, lumped };

// The [full] section: the implicit integrator's settings and the mass matrix.
struct FullSettings : IntegratorSettings {
  MassMatrix mass = MassMatrix::consistent;
};

const OptionSet<FullSettings>& full_options() {
  using S = FullSettings;
  static const auto options =
      OptionSet<S>("full", "unreduced nonlinear FEM (the ground truth)")
          .choice("integrator", &S::scheme, {TimeScheme::newmark, TimeScheme::backward_euler},
                  "implicit time integrator")
          .number("newmark_beta", &S::newmark_beta, "",
                  "Newmark β (¼ with γ = ½: the trapezoidal rule, energy-conserving for linear "
                  "systems)",
                  positive)
          .number("newmark_gamma", &S::newmark_gamma, "", "Newmark γ (> ½ adds numerical damping)",
                  at_least(0.5))
          .number("newton_tolerance", &S::newton_tolerance, "",
                  "Newton stops when the residual is below this fraction of the step's largest "
                  "force term",
                  positive)
          .integer("newton_max_iterations", &S::newton_max_iterations, "",
                   "Newton iterations (linear solves) per step at most", at_least(1))
          .choice("mass", &S::mass,
                  {{"consistent", MassMatrix::consistent}, {"lumped", MassMatrix::lumped}},
                  "mass matrix: consistent, or lumped (row sums on the diagonal)");
  return options;
}

const OptionTable& options() {
  return full_options().table();
}

SparseMatrix lumped_mass_matrix(const TetMesh& mesh) {
  const Eigen::VectorXd m = lumped_vertex_mass(mesh);
  SparseMatrix M(3 * mesh.num_vertices(), 3 * mesh.num_vertices());
  M.reserve(Eigen::VectorXi::Constant(M.cols(), 1));
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    for (Index c = 0; c < 3; ++c) M.insert(3 * v + c, 3 * v + c) = m[v];
  M.makeCompressed();
  return M;
}

class FullCoupling final : public CouplingMethod {
 public:
  explicit FullCoupling(const Config& config) {
    const FullSettings settings = full_options().read(config);
    settings_ = settings;
    lumped_ = settings.mass == MassMatrix::lumped;
    if (settings.scheme == TimeScheme::newmark) {
      const std::string caveat = trapezoidal_contact_warning(contact_options().read(config), "full",
                                                             settings.newmark_gamma);
      if (!caveat.empty()) log::warn("{} (or --full.integrator=backward-euler)", caveat);
    }
  }

 protected:
  // The hooks the framework calls in order, once it has checked their inputs.
  void do_precompute(const PrecomputeContext& context) override {
    const Scene& scene = context.scene;
    const auto start = std::chrono::steady_clock::now();
    integrator_.reset();  // it refers to the solver and the model replaced below
    rest_ = scene.mesh.vertices;
    // M, K and Newton's matrix (about 45 entries of a value and a row index per row) and the
    // force model's data per element, about 2 kB (measured: 941 MiB for the 331,776 tets and
    // 181,875 DOFs of `generate bar --cells 24 24 96`, estimated 914 MiB).
    const double dofs = 3.0 * double(scene.mesh.num_vertices());
    reserve_memory(fmt::format("full: the force model and matrices of {:.0f} DOFs", dofs),
                   3 * 45 * dofs * 12 + 2000.0 * double(scene.mesh.num_elements()));
    model_ = std::make_unique<ElasticForceModel>(scene.mesh, scene.material_model);
    SecondOrderSystem system;
    system.mass = lumped_ ? lumped_mass_matrix(scene.mesh) : consistent_mass(scene.mesh);
    // f_int + K_c (u − u_step) during a step with point stiffness: the contacts' linearised
    // spring (its energy ½ ΔuᵀK_cΔu, its tangent K_c on the vertices' diagonal blocks, which
    // every vertex of a tet has in K's pattern).
    system.internal_forces = [elastic = elastic_internal_forces(*model_), this](
                                 const Eigen::VectorXd& u, double* energy, Eigen::VectorXd* force,
                                 SparseMatrix* stiffness) {
      elastic(u, energy, force, stiffness);
      for (const PointStiffness& c : contact_) {
        const Index i = 3 * c.vertex;
        const Vec3 du = u.segment<3>(i) - step_start_.segment<3>(i);
        if (energy) *energy += 0.5 * du.dot(c.stiffness * du);
        if (force) force->segment<3>(i) += c.stiffness * du;
        if (stiffness)
          for (Index a = 0; a < 3; ++a)
            for (Index b = 0; b < 3; ++b) stiffness->coeffRef(i + a, i + b) += c.stiffness(a, b);
      }
    };
    system.rayleigh_mass = scene.rayleigh_mass;
    system.rayleigh_stiffness = scene.rayleigh_stiffness;
    system.fixed_dofs = vertex_dofs(scene.fixed_vertices);
    system.rest_position_norm = flat(rest_).norm();  // f_int is evaluated at x = X + u
    // Gravity's body force is M g: the columns M 1ₓ, M 1ᵧ, M 1_z (1ᵢ: component i of every vertex).
    const Index n = system.num_dofs();
    gravity_columns_ = Eigen::MatrixXd::Zero(n, 3);
    for (Index c = 0; c < 3; ++c) {
      Eigen::VectorXd ones = Eigen::VectorXd::Zero(n);
      for (Index v = 0; v < n / 3; ++v) ones[3 * v + c] = 1;
      gravity_columns_.col(c) = system.mass * ones;
    }
    solver_ = context.solvers.linear();
    integrator_ = std::make_unique<ImplicitIntegrator>(std::move(system), *solver_, settings_);
    if (context.stats) context.stats->integrator = describe(settings_);
    // The factor's size is known from the symbolic analysis, before the first factorization.
    if (const long factor = solver_->info().factor_nonzeros; factor > 0)
      reserve_memory(fmt::format("full: the factor of Newton's matrix ({} nonzeros, {})", factor,
                                 solver_->info().method),
                     double(factor) * 12);
    if (context.stats) context.stats->add("mass and stiffness pattern", seconds_since(start));
    log::debug("full: {} free DOFs, {}, {} mass; linear solver: {}", integrator_->dofs().num_free(),
               to_string(settings_.scheme), lumped_ ? "lumped" : "consistent",
               solver_->info().method);
    step_ = 0;
  }

  void do_reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) override {
    integrator_->set_state(u0, v0);
    contact_energy_ = 0;
    step_ = 0;
  }

  void do_step(double dt, const ExternalForces& forces, StepStats& stats) override {
    ++step_;
    // f_ext = M g + point forces + nodal forces
    Eigen::VectorXd f_ext = gravity_columns_ * forces.gravity;
    forces.add_concentrated_to(f_ext);
    NewtonReport report;
    if (!forces.point_stiffness.empty()) {
      contact_ = forces.point_stiffness;
      step_start_ = integrator_->displacement();
    }
    try {
      report = integrator_->step(dt, f_ext);
      // The integrator's energy of the step's end includes the linearised springs: kept apart.
      contact_energy_ = 0;
      for (const PointStiffness& c : contact_) {
        const Index i = 3 * c.vertex;
        const Vec3 du = integrator_->displacement().segment<3>(i) - step_start_.segment<3>(i);
        contact_energy_ += 0.5 * du.dot(c.stiffness * du);
      }
      contact_.clear();
    } catch (const DivergenceError&) {
      contact_.clear();
      throw;
    } catch (const Error& e) {
      contact_.clear();
      throw DivergenceError(0, step_,
                            fmt::format("full: the implicit step failed: {} (try a smaller [run] "
                                        "dt or a stiffer material)",
                                        e.what()));
    }
    stats.add("assembly", report.assembly_seconds);
    stats.add("factorization", report.factorization_seconds);
    stats.add("solve", report.solve_seconds);
    stats.iterations += report.iterations;
    if (!integrator_->displacement().allFinite() || !integrator_->velocity().allFinite())
      throw DivergenceError(0, step_,
                            "full: the displacement or velocity became non-finite (try a "
                            "smaller [run] dt)");
    if (!report.converged) {
      if (unconverged_steps_ == 0)
        log::warn(
            "full: Newton did not reach full.newton_tolerance = {:g} within {} iterations "
            "at step {} (relative residual {:.3g}); the step is kept. Later occurrences "
            "are reported with --verbose.",
            settings_.newton_tolerance, settings_.newton_max_iterations, step_, report.residual);
      else
        log::debug("full: Newton did not converge at step {} (relative residual {:.3g})", step_,
                   report.residual);
      ++unconverged_steps_;
    }
  }

  void do_positions(Points& x) const override {
    x = rest_;
    flat(x) += integrator_->displacement();  // x = X + u
  }

  void do_velocities(Points& v) const override {
    v.resize(rest_.rows(), 3);
    flat(v) = integrator_->velocity();
  }

  Energies do_energies(const Vec3& gravity) const override {
    Energies e;
    e.kinetic = integrator_->kinetic_energy();                    // ½ vᵀ M v
    e.elastic = integrator_->elastic_energy() - contact_energy_;  // E(u)
    // V_g = −(M g)ᵀ x, x = X + u
    const Eigen::VectorXd x = flat(rest_) + integrator_->displacement();
    e.gravity = -(gravity_columns_ * gravity).dot(x);
    return e;
  }

  Index do_dofs() const override { return integrator_->dofs().num_free(); }

  CanRun do_can_solve_static() const override { return CanRun::yes(); }

  // f_int(u) = f_ext by Newton with line search and load stepping (ImplicitIntegrator).
  StaticReport do_solve_static(const ExternalForces& forces) override {
    Eigen::VectorXd f_ext = gravity_columns_ * forces.gravity;
    forces.add_concentrated_to(f_ext);
    const NewtonReport newton = integrator_->static_equilibrium(f_ext);
    StaticReport report;
    report.iterations = newton.iterations;
    report.load_steps = newton.load_steps;
    report.step_cuts = newton.step_cuts;
    // The residual on the free DOFs, absolute and against the load.
    Eigen::VectorXd f_int;
    integrator_->system().internal_forces(integrator_->displacement(), nullptr, &f_int, nullptr);
    const DofMap& dofs = integrator_->dofs();
    report.force_norm = dofs.restrict_vector(f_ext).norm();
    const double r = dofs.restrict_vector(f_int - f_ext).norm();
    report.residual = report.force_norm > 0 ? r / report.force_norm : r;
    report.description =
        fmt::format("full FEM, Newton with line search, linear solver {}", solver_->info().method);
    return report;
  }

 private:
  IntegratorSettings settings_;
  bool lumped_ = false;
  Points rest_;
  std::unique_ptr<ElasticForceModel> model_;
  std::unique_ptr<LinearSolver> solver_;
  std::unique_ptr<ImplicitIntegrator> integrator_;
  Eigen::MatrixXd gravity_columns_;  // n × 3
  long step_ = 0;
  long unconverged_steps_ = 0;
  std::vector<PointStiffness> contact_;  // during a step: its point stiffness
  Eigen::VectorXd step_start_;           // u at the step's start
  double contact_energy_ = 0;            // ½ ΔuᵀK_cΔu of the last step, in its elastic energy
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<FullCoupling>(context.config);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "full",
      PluginKind::coupling,
      SUBSTRUCT_VERSION,
      "unreduced single-domain nonlinear FEM with implicit Newmark / backward Euler: the ground "
      "truth",
      &options,
      &create};
  return d;
}

}  // namespace substruct::full

SUBSTRUCT_PLUGIN(substruct::full::descriptor)
