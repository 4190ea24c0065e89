// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The constitutive models of the FEM layer.
#include <string_view>

namespace substruct {

/// linear: small-strain linear elasticity (constant stiffness K₀).
/// stvk: Saint Venant–Kirchhoff, Ψ = μ tr(E²) + λ/2 tr(E)², E = ½(FᵀF − I).
/// corotational: Ψ = μ ‖F − R‖² + λ/2 tr(RᵀF − I)², F = RS (polar decomposition).
/// neohookean: compressible neo-Hookean, Ψ = μ/2 (tr(FᵀF) − 3) − μ ln J + λ/2 (ln J)², J = det F,
///   made invertible (Irving et al. 2004) with a positive semi-definite tangent per element
///   (Teran et al. 2005); see element_kernels.hpp.
enum class MaterialModel { linear, stvk, corotational, neohookean };

/// "linear" | "stvk" | "corotational" | "neohookean"; anything else throws Error listing the
/// valid names.
MaterialModel parse_material_model(std::string_view name);
std::string_view to_string(MaterialModel model);

}  // namespace substruct
