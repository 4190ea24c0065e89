// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Interface cubature with uniform weights (Wu, Mukherjee, Wang 2015, §5, Eq. 11): for each
// interface layer (the coupling elements joining the same domains), a few of its elements with
// non-negative weights reproduce the layer's forces on both domains — reduced forces F, linear
// forces f and torques τ, each normalised — over random training poses. One weight per element
// for every force keeps the step's matrix symmetric.
#include <cstdint>
#include <vector>

#include "coupling_layer.hpp"

namespace substruct::coupling_elements {

struct InterfaceCubatureSettings {
  int max_samples = 0;      // per interface layer; 0: keep every coupling element (exact)
  int training_poses = 40;  // random poses the weights are fitted on
  double tolerance = 0.01;  // relative training error that stops the greedy fit
  std::uint64_t seed = 1;
  /// Non-uniform weights (§5): on the samples of the uniform fit, separate non-negative weights
  /// for F_i, F_j, (f_i, f_j) and (τ_i, τ_j) (the same weight for both domains' f and τ keeps
  /// linear and angular momentum); the step's matrix is then unsymmetric (block LU).
  bool non_uniform = false;
};

struct InterfaceCubatureReport {
  int layers = 0;
  int elements = 0;           // coupling elements before
  int samples = 0;            // after
  double training_error = 0;  // the worst layer's relative error on its training poses
  double held_out_error = 0;  // the worst layer's relative error on as many other poses
};

/// Random poses of the domains for training and testing: deformations q_i = a ξ / √K₀_ii (ξ
/// normal, equal linear energy per mode) and, for free domains, small rotations and shifts of
/// the frames relative to each other, the amplitude a log-uniform over two decades per pose.
std::vector<std::vector<DomainMotion>> interface_training_poses(
    const std::vector<FloatingDomain>& domains, int count, std::uint64_t seed);

/// The weighted coupling elements replacing `elements` (unchanged when settings.max_samples is
/// 0), layer by layer.
std::vector<CouplingElement> fit_interface_cubature(const std::vector<CouplingElement>& elements,
                                                    const std::vector<FloatingDomain>& domains,
                                                    MaterialModel material,
                                                    const InterfaceCubatureSettings& settings,
                                                    InterfaceCubatureReport& report);

}  // namespace substruct::coupling_elements
