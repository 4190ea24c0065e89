// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/reduced_integrator.hpp"

#include <cmath>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <Eigen/Cholesky>

#include "detail/dense_cholesky.hpp"
#include "detail/newton_system.hpp"
#include "substruct/core/error.hpp"

namespace substruct {

namespace {

void check_settings(const ReducedNewmarkSettings& s) {
  if (!(s.beta > 0) || !(s.gamma >= 0.5))
    throw Error(
        fmt::format("reduced Newmark: needs β > 0 and γ ≥ ½, got β = {}, γ = {}", s.beta, s.gamma));
  if (s.max_iterations < 1)
    throw Error(fmt::format("reduced Newmark: max_iterations must be at least 1, got {}",
                            s.max_iterations));
  if (!(s.tolerance >= 0))
    throw Error(fmt::format("reduced Newmark: the tolerance must be ≥ 0, got {}", s.tolerance));
  if (!(s.mass_damping >= 0) || !(s.stiffness_damping >= 0))
    throw Error(fmt::format(
        "reduced Newmark: the Rayleigh damping must be ≥ 0, got mass {} and stiffness {}",
        s.mass_damping, s.stiffness_damping));
}

}  // namespace

ReducedNewmark::ReducedNewmark(const ReducedForceModel& forces,
                               const ReducedNewmarkSettings& settings)
    : ReducedNewmark(forces, Eigen::MatrixXd::Identity(forces.r(), forces.r()), settings) {}

// The step's vectors and matrices for one r, shared by every integrator of that size on a thread.
struct ReducedNewmark::Workspace {
  Eigen::VectorXd f, Kx, x, q_next, a_next, v_next, residual, inverse_diagonal;
  Eigen::MatrixXd K, factor;
};

ReducedNewmark::Workspace& ReducedNewmark::workspace(int r) {
  thread_local std::vector<std::unique_ptr<ReducedNewmark::Workspace>> by_size;
  const auto k = static_cast<std::size_t>(r);
  if (by_size.size() <= k) by_size.resize(k + 1);
  if (!by_size[k]) {
    auto w = std::make_unique<ReducedNewmark::Workspace>();
    w->f = w->Kx = w->x = w->q_next = w->a_next = w->v_next = w->residual = w->inverse_diagonal =
        Eigen::VectorXd::Zero(r);
    w->K = w->factor = Eigen::MatrixXd::Zero(r, r);
    by_size[k] = std::move(w);
  }
  return *by_size[k];
}

ReducedNewmark::ReducedNewmark(const ReducedForceModel& forces, const Eigen::MatrixXd& mass,
                               const ReducedNewmarkSettings& settings)
    : forces_(&forces), settings_(settings) {
  check_settings(settings_);
  const int r = forces.r();
  if (mass.rows() != r || mass.cols() != r)
    throw Error(fmt::format("reduced Newmark: the mass matrix is {}×{}, expected {}×{}",
                            mass.rows(), mass.cols(), r, r));
  if (!mass.allFinite() || (mass - mass.transpose()).norm() > 1e-12 * mass.norm())
    throw Error("reduced Newmark: the mass matrix is not symmetric (or not finite)");
  if (r > 0 && Eigen::LLT<Eigen::MatrixXd>(mass).info() != Eigen::Success)
    throw Error("reduced Newmark: the mass matrix is not positive definite");
  if (!mass.isIdentity(0.0)) mass_ = mass;
  q_ = v_ = a_ = Eigen::VectorXd::Zero(r);
}

void ReducedNewmark::set_mass(const Eigen::MatrixXd& mass) {
  const int r = this->r();
  if (mass.rows() != r || mass.cols() != r)
    throw Error(fmt::format("reduced Newmark: the mass matrix is {}×{}, expected {}×{}",
                            mass.rows(), mass.cols(), r, r));
  if (!mass.allFinite())
    throw DivergenceError(settings_.domain, steps_ + 1, "the reduced mass matrix is not finite");
  if (mass.isIdentity(0.0))
    mass_.resize(0, 0);
  else
    mass_ = mass;
}

void ReducedNewmark::set_frequency_scale(double alpha) {
  if (!(alpha > 0) || !std::isfinite(alpha))
    throw Error(fmt::format("reduced Newmark: the frequency scale must be > 0, got {}", alpha));
  alpha_ = alpha;
}

void ReducedNewmark::set_stiffness_scale(double s) {
  if (!(s > 0) || !std::isfinite(s))
    throw Error(fmt::format("reduced Newmark: the stiffness scale must be > 0, got {}", s));
  stiffness_ = s;
}

void ReducedNewmark::set_state(const Eigen::VectorXd& q, const Eigen::VectorXd& velocity) {
  const int r = this->r();
  for (const Eigen::VectorXd* x : {&q, &velocity})
    if (x->size() != 0 && x->size() != r)
      throw Error(fmt::format("reduced Newmark: a state vector has {} entries, expected r = {}",
                              x->size(), r));
  q_ = q.size() ? q : Eigen::VectorXd::Zero(r);
  v_ = velocity.size() ? velocity : Eigen::VectorXd::Zero(r);
  a_.setZero();
  acceleration_known_ = false;
}

// rhs ← A⁻¹ rhs, A = a M' + b K' (M' = M/α, K' = αs K(q)), its lower triangle formed in
// w.factor, which this factors; the LDLᵀ fallback forms A again, with K(q) evaluated when b ≠ 0.
void ReducedNewmark::solve(double a, double b, const Eigen::VectorXd& q, Workspace& w,
                           Eigen::VectorXd& rhs, const Eigen::MatrixXd* load_stiffness) const {
  const int r = this->r();
  if (detail::cholesky_factor(w.factor.data(), r, r, w.inverse_diagonal.data())) {
    detail::cholesky_solve(w.factor.data(), w.inverse_diagonal.data(), r, r, rhs.data());
    return;
  }
  if (b != 0)
    forces_->evaluate(q, nullptr, nullptr, &w.K);
  else
    w.K.setZero();
  w.factor = (b * alpha_ * stiffness_) * w.K;
  if (mass_.size() == 0)
    w.factor.diagonal().array() += a / alpha_;
  else
    w.factor += (a / alpha_) * mass_;
  if (load_stiffness) w.factor += *load_stiffness;
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(w.factor);
  const double scale = w.factor.diagonal().cwiseAbs().maxCoeff();
  if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().cwiseAbs().minCoeff() > 1e-14 * scale))
    throw DivergenceError(settings_.domain, steps_ + 1,
                          "the reduced Newton matrix M/(β dt²) + γ D/(β dt) + K is singular");
  rhs = ldlt.solve(rhs);
}

int ReducedNewmark::step(double dt, const Eigen::VectorXd& f_ext,
                         const Eigen::MatrixXd* load_stiffness) {
  const int r = this->r();
  if (!(dt > 0) || !std::isfinite(dt))
    throw Error(fmt::format("reduced Newmark: the time step must be > 0, got {}", dt));
  if (f_ext.size() != r)
    throw Error(fmt::format("reduced Newmark: the external force has {} entries, expected r = {}",
                            f_ext.size(), r));
  if (load_stiffness && (load_stiffness->rows() != r || load_stiffness->cols() != r))
    throw Error(fmt::format("reduced Newmark: the load stiffness is {}×{}, expected {}×{}",
                            load_stiffness->rows(), load_stiffness->cols(), r, r));
  if (r == 0) {
    ++steps_;
    return 0;
  }
  Workspace& w = workspace(r);
  const double beta = settings_.beta, gamma = settings_.gamma;
  // The scaled model M' = M/α, f' = αs f, K' = αs K, and D = c_M M' + c_K K'.
  detail::NewtonCoefficients c;
  c.m = 1 / alpha_;
  c.k = alpha_ * stiffness_;
  c.mass_damping = settings_.mass_damping;
  c.stiffness_damping = settings_.stiffness_damping;
  const double* M = mass_.size() == 0 ? nullptr : mass_.data();

  if (!acceleration_known_) {  // M' q̈ = f_ext − D q̇ − f'(q): −R and A at q̈ = 0, a_M = 1
    forces_->evaluate(q_, nullptr, &w.f, &w.K);
    a_.setZero();  // q̈ = 0 in R; computed just below
    c.matrix_mass = 1;
    c.matrix_stiffness = 0;
    detail::newton_system(r, M, w.K.data(), w.f.data(), f_ext.data(), a_.data(), v_.data(), c,
                          w.residual.data(), w.factor.data());
    w.residual = -w.residual;
    if (M == nullptr)
      w.residual /= c.m;
    else
      solve(1, 0, q_, w, w.residual);
    a_ = w.residual;
    acceleration_known_ = true;
  }

  // q̈₊ = c1 (q₊ − q − dt q̇) − c3 q̈,  q̇₊ = q̇ + dt((1 − γ) q̈ + γ q̈₊).
  const double c1 = 1 / (beta * dt * dt), c2 = gamma / (beta * dt), c3 = (0.5 - beta) / beta;
  auto update_rates = [&] {
    w.a_next = c1 * (w.q_next - q_ - dt * v_) - c3 * a_;
    w.v_next = v_ + dt * ((1 - gamma) * a_ + gamma * w.a_next);
  };
  // A = (c1 + c2 c_M) M' + (1 + c2 c_K) K'
  c.matrix_mass = c1 + c2 * c.mass_damping;
  c.matrix_stiffness = 1 + c2 * c.stiffness_damping;
  w.q_next = q_;
  int iterations = 0;
  double R0 = 0;
  for (int it = 0; it < settings_.max_iterations; ++it) {
    update_rates();
    // R = M' q̈₊ + D q̇₊ + f' − f_ext and A's lower triangle: f, K (c_K k q̇₊) and a_K k K from
    // the force model in one call, then the mass terms.
    w.x = (c.stiffness_damping * c.k) * w.v_next;
    forces_->implicit_step_terms(w.q_next, w.x, c.matrix_stiffness * c.k, w.f, w.Kx, w.factor);
    detail::newton_mass_terms(r, M, w.f.data(), w.Kx.data(), f_ext.data(), w.a_next.data(),
                              w.v_next.data(), c, w.residual.data(), w.factor.data());
    if (load_stiffness) {  // R += K_L (q₊ − q), A += K_L
      w.residual.noalias() += *load_stiffness * (w.q_next - q_);
      w.factor += *load_stiffness;
    }
    if (settings_.tolerance > 0) {
      const double norm = w.residual.norm();
      if (it == 0)
        R0 = norm;
      else if (norm <= settings_.tolerance * R0)
        break;
    }
    solve(c.matrix_mass, c.matrix_stiffness, w.q_next, w, w.residual, load_stiffness);
    w.q_next -= w.residual;
    ++iterations;
    if (!w.q_next.allFinite())
      throw DivergenceError(settings_.domain, steps_ + 1,
                            "the reduced coordinates are no longer finite");
  }
  // The rates at the final q₊ and the state advanced in one pass (each entry from the same
  // entry's old values).
  for (int i = 0; i < r; ++i) {
    const double a_next = c1 * (w.q_next[i] - q_[i] - dt * v_[i]) - c3 * a_[i];
    v_[i] = v_[i] + dt * ((1 - gamma) * a_[i] + gamma * a_next);
    a_[i] = a_next;
    q_[i] = w.q_next[i];
  }
  ++steps_;
  return iterations;
}

double ReducedNewmark::kinetic_energy() const {
  if (mass_.size() == 0) return 0.5 * v_.squaredNorm() / alpha_;
  return 0.5 * v_.dot(mass_ * v_) / alpha_;
}

double ReducedNewmark::potential_energy() const {
  return alpha_ * stiffness_ * forces_->energy(q_);
}

}  // namespace substruct
