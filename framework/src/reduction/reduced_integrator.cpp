#include "substruct/reduction/reduced_integrator.hpp"

#include <cmath>

#include <fmt/format.h>
#include <Eigen/Cholesky>

#include "detail/dense_cholesky.hpp"
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

ReducedNewmark::ReducedNewmark(const ReducedForceModel& forces, const Eigen::MatrixXd& mass,
                               const ReducedNewmarkSettings& settings)
    : forces_(&forces), settings_(settings), mass_(mass) {
  check_settings(settings_);
  const int r = forces.r();
  if (mass.rows() != r || mass.cols() != r)
    throw Error(fmt::format("reduced Newmark: the mass matrix is {}×{}, expected {}×{}",
                            mass.rows(), mass.cols(), r, r));
  if (!mass.allFinite() || (mass - mass.transpose()).norm() > 1e-12 * mass.norm())
    throw Error("reduced Newmark: the mass matrix is not symmetric (or not finite)");
  if (r > 0 && Eigen::LLT<Eigen::MatrixXd>(mass).info() != Eigen::Success)
    throw Error("reduced Newmark: the mass matrix is not positive definite");
  unit_mass_ = mass.isIdentity(0.0);
  q_ = v_ = a_ = Eigen::VectorXd::Zero(r);
  f_ = q_next_ = a_next_ = v_next_ = residual_ = inverse_diagonal_ = Eigen::VectorXd::Zero(r);
  K_ = factor_ = Eigen::MatrixXd::Zero(r, r);
}

void ReducedNewmark::set_mass(const Eigen::MatrixXd& mass) {
  const int r = this->r();
  if (mass.rows() != r || mass.cols() != r)
    throw Error(fmt::format("reduced Newmark: the mass matrix is {}×{}, expected {}×{}",
                            mass.rows(), mass.cols(), r, r));
  if (!mass.allFinite())
    throw DivergenceError(settings_.domain, steps_ + 1, "the reduced mass matrix is not finite");
  mass_ = mass;
  unit_mass_ = mass.isIdentity(0.0);
}

void ReducedNewmark::set_frequency_scale(double alpha) {
  if (!(alpha > 0) || !std::isfinite(alpha))
    throw Error(fmt::format("reduced Newmark: the frequency scale must be > 0, got {}", alpha));
  alpha_ = alpha;
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

void ReducedNewmark::evaluate_at(const Eigen::VectorXd& q) {
  forces_->evaluate(q, nullptr, &f_, &K_);
  if (alpha_ != 1) {
    f_ *= alpha_;
    K_ *= alpha_;
  }
}

// rhs ← A⁻¹ rhs for A = a M' + b K' (M' = M/α, K' the scaled stiffness in K_).
void ReducedNewmark::solve(double a, double b, Eigen::VectorXd& rhs) {
  const int r = this->r();
  const double m = a / alpha_;
  auto form = [&](Eigen::MatrixXd& A) {
    A = b * K_;
    if (unit_mass_)
      A.diagonal().array() += m;
    else
      A += m * mass_;
  };
  form(factor_);
  if (detail::cholesky_factor(factor_.data(), r, r, inverse_diagonal_.data())) {
    detail::cholesky_solve(factor_.data(), inverse_diagonal_.data(), r, r, rhs.data());
    return;
  }
  form(factor_);
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(factor_);
  const double scale = factor_.diagonal().cwiseAbs().maxCoeff();
  if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().cwiseAbs().minCoeff() > 1e-14 * scale))
    throw DivergenceError(settings_.domain, steps_ + 1,
                          "the reduced Newton matrix M/(β dt²) + γ D/(β dt) + K is singular");
  rhs = ldlt.solve(rhs);
}

int ReducedNewmark::step(double dt, const Eigen::VectorXd& f_ext) {
  const int r = this->r();
  if (!(dt > 0) || !std::isfinite(dt))
    throw Error(fmt::format("reduced Newmark: the time step must be > 0, got {}", dt));
  if (f_ext.size() != r)
    throw Error(fmt::format("reduced Newmark: the external force has {} entries, expected r = {}",
                            f_ext.size(), r));
  if (r == 0) {
    ++steps_;
    return 0;
  }
  const double beta = settings_.beta, gamma = settings_.gamma;
  const double cM = settings_.mass_damping, cK = settings_.stiffness_damping;
  const double m = 1 / alpha_;  // M' = M/α
  // M' x, without a product for the unit mass.
  auto add_mass_times = [&](double scale, const Eigen::VectorXd& x, Eigen::VectorXd& y) {
    if (unit_mass_)
      y += (scale * m) * x;
    else
      y.noalias() += (scale * m) * (mass_ * x);
  };

  if (!acceleration_known_) {  // M' q̈ = f_ext − D q̇ − f(q)
    evaluate_at(q_);
    residual_ = f_ext - f_;
    residual_.noalias() -= cK * (K_ * v_);
    add_mass_times(-cM, v_, residual_);
    if (unit_mass_) {
      a_ = residual_ / m;
    } else {
      solve(1, 0, residual_);
      a_ = residual_;
    }
    acceleration_known_ = true;
  }

  // q̈₊ = c1 (q₊ − q − dt q̇) − c3 q̈,  q̇₊ = q̇ + dt((1 − γ) q̈ + γ q̈₊).
  const double c1 = 1 / (beta * dt * dt), c2 = gamma / (beta * dt), c3 = (0.5 - beta) / beta;
  auto update_rates = [&] {
    a_next_ = c1 * (q_next_ - q_ - dt * v_) - c3 * a_;
    v_next_ = v_ + dt * ((1 - gamma) * a_ + gamma * a_next_);
  };
  q_next_ = q_;
  int iterations = 0;
  double R0 = 0;
  for (int it = 0; it < settings_.max_iterations; ++it) {
    evaluate_at(q_next_);
    update_rates();
    // R = M' q̈₊ + (cM M' + cK K') q̇₊ + f' − f_ext
    residual_ = f_ - f_ext;
    residual_.noalias() += cK * (K_ * v_next_);
    if (unit_mass_) {
      residual_ += m * (a_next_ + cM * v_next_);
    } else {
      add_mass_times(1, a_next_, residual_);
      add_mass_times(cM, v_next_, residual_);
    }
    if (settings_.tolerance > 0) {
      const double norm = residual_.norm();
      if (it == 0)
        R0 = norm;
      else if (norm <= settings_.tolerance * R0)
        break;
    }
    // A = (c1 + c2 cM) M' + (1 + c2 cK) K'
    solve(c1 + c2 * cM, 1 + c2 * cK, residual_);
    q_next_ -= residual_;
    ++iterations;
    if (!q_next_.allFinite())
      throw DivergenceError(settings_.domain, steps_ + 1,
                            "the reduced coordinates are no longer finite");
  }
  update_rates();
  q_.swap(q_next_);
  a_.swap(a_next_);
  v_.swap(v_next_);
  ++steps_;
  return iterations;
}

double ReducedNewmark::kinetic_energy() const {
  if (unit_mass_) return 0.5 * v_.squaredNorm() / alpha_;
  return 0.5 * v_.dot(mass_ * v_) / alpha_;
}

double ReducedNewmark::potential_energy() const {
  return alpha_ * forces_->energy(q_);
}

}  // namespace substruct
