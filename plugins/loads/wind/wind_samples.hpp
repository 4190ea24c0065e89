// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the wind acts (Zhao 2014, §6.4): s sample vertices per domain, spread along the domain
// by graph distance from where it is held (the scene's fixed vertices in it, else its interface
// to its parent in a breadth-first tree of the domain graph from the scene's root), each
// carrying mass/s of the domain's mass.
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {
struct Scene;
}

namespace substruct::wind {

struct WindSample {
  Index vertex;  // global
  double mass;   // [kg] the share of its domain's mass the wind pushes at this vertex
};

/// For every domain, up to `per_domain` distinct vertices at graph distances i D / (s + 1),
/// i = 1…s, from the domain's anchor (D: the largest distance; Dijkstra over the domain's tet
/// edges with their rest lengths).
std::vector<WindSample> wind_samples(const Scene& scene, int per_domain);

}  // namespace substruct::wind
