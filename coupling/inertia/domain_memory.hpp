// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the domains of an inertia-coupled scene hold in memory, by kind, measured from the sizes
// of the data structures (not estimated, not read from the process): each domain's part of the
// scene (its sub-mesh), of the tree (rest shape, masses, frames, integrals, model), of the
// reduced layout the geometry kernel evaluates, and its step state.
#include <cstddef>
#include <span>

#include "domain_tree.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct::inertia {

/// flexible: deformable (r > 0) with data of its own; instance: deformable, a turned copy that
/// shares its representative's integrals; rigid: r = 0 (a rigid leaf, the fixed ground).
enum class DomainKind { flexible, instance, rigid };
DomainKind domain_kind(const InertiaDomain& domain);

struct KindMemory {
  int domains = 0;
  double bytes = 0;  // all domains of the kind together
  double per_domain() const { return domains > 0 ? bytes / domains : 0; }
};

struct DomainMemory {
  KindMemory flexible, instance, rigid;
  double total() const { return flexible.bytes + instance.bytes + rigid.bytes; }
};

/// The bytes per kind. An object several domains share (a reduced model, system-force integrals,
/// interface frame columns, a layout's rest shape and basis) is counted once, with the lowest
/// domain holding it (the representative of its instance class). `state_bytes` (one entry per
/// domain, or empty) adds what the method keeps per domain for its steps.
DomainMemory domain_memory(const Scene& scene, const DomainTree& tree,
                           const ReducedGeometry& layout, std::span<const std::size_t> state_bytes);

}  // namespace substruct::inertia
