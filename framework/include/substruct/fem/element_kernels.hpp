// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Per-element kernels: energy, nodal internal forces and 12×12 stiffness of one linear tet.
/// Small free functions on plain data, used by ElasticForceModel and by the reduction code.
#include "substruct/core/types.hpp"
#include "substruct/fem/material_model.hpp"

namespace substruct {

using Vec12 = Eigen::Matrix<double, 12, 1>;
using Mat12 = Eigen::Matrix<double, 12, 12>;

/// Element e's state: deformed vertex positions x (4 vertices stacked, 12), rest data Dm⁻¹ and
/// V, Lamé parameters λ, μ. Outputs may be null. f = ∂ψV/∂x, K = ∂f/∂x (f is the internal force,
/// the negative of the restoring force).
struct ElementInput {
  const Vec12* x;
  const Mat3* Dm_inv;
  double volume;
  double lambda;
  double mu;
};

/// With F = Ds Dm⁻¹ and ∇N_a from shape_gradients(Dm⁻¹):
///   energy  V Ψ(F),
///   force   f_a = V P(F) ∇N_a   (P = ∂Ψ/∂F, the first Piola–Kirchhoff stress),
///   stiffness K_ab = ∂f_a/∂x_b = V dP[dF = · ∇N_bᵀ] ∇N_a, the exact tangent, symmetric (its
///   lower triangle is copied from the upper one, so K = Kᵀ exactly).
/// linear:       Ψ = μ ε:ε + λ/2 tr(ε)², ε = sym(F) − I.
/// stvk:         Ψ = μ tr(E²) + λ/2 tr(E)², E = ½(FᵀF − I), P = F (2μE + λ tr(E) I).
/// corotational: Ψ = μ ‖F − R‖² + λ/2 tr(RᵀF − I)², F = RS with R a rotation (det R = +1):
///   Newton's polar iteration for well-shaped elements, and for inverted or nearly flat ones the
///   SVD F = UΣVᵀ with signs fixed so det U = det V = +1 (an inverted element gets one negative
///   σ). The tangent includes dR. Where tr(S) − σ_i nearly vanishes (R is not differentiable
///   there, only possible for an inverted or collapsed element) it is clamped to ±1e-8 in the
///   tangent.
/// neohookean:   Ψ = μ/2 (tr(FᵀF) − 3) − μ ln J + λ/2 (ln J)², J = det F, written in the signed
///   principal stretches of F = UΣVᵀ (det U = det V = +1, σ₃ < 0 when inverted; Irving et al.
///   2004) with ln σ continued below ε = 0.1 by its second-order Taylor polynomial, so that flat
///   and inverted elements have a finite energy that pushes them back (the force is its exact
///   gradient). The tangent is the energy's Hessian with its diagonal-space blocks clamped to be
///   positive semi-definite (Teran et al. 2005), so K_e is positive semi-definite in every state;
///   it is the exact Hessian wherever that is already semi-definite (at rest: linear elasticity).
void element_forces(MaterialModel model, const ElementInput& in, double* energy, Vec12* force,
                    Mat12* stiffness);

}  // namespace substruct
