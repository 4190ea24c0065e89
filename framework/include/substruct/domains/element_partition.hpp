// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Element partitions: every tetrahedron belongs to exactly one domain. Domains that share
/// vertices are coupled through those interface vertices (Barbič–Zhao 2011, §3).
#include <filesystem>
#include <string>
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// domain_of_element[e] ∈ [0, num_domains) for every element e; no domain is empty.
struct ElementPartition {
  std::vector<int> domain_of_element;
  int num_domains = 0;
};

/// Builds the element partition a scene asks for with `[scene] domains = SPEC`:
///   single        one domain holding every element;
///   auto:N        N domains from METIS on the element dual graph (elements adjacent when they
///                 share a face), contiguous parts requested, fixed seed: deterministic;
///   sets          one domain per named element set of the mesh, in name order (Vega's implicit
///                 "allElements" is not a domain); every element must lie in exactly one set;
///   sets:a,b,c    one domain per listed set, in the listed order, same rule;
///   bands:N       bands of geodesic distance from `fixed_vertices` split into connected pieces,
///                 a tree of domains rooted at the clamp (band_partition.hpp);
///   anything else a text file (relative to base_dir) of one domain id per element,
///                 whitespace separated, '#' starts a comment; ids 0…D−1, none unused.
/// Throws Error (ParseError for a malformed file, with its line) that says what is wrong.
ElementPartition make_element_partition(const TetMesh& mesh, const std::string& spec,
                                        const std::filesystem::path& base_dir,
                                        const std::vector<Index>& fixed_vertices = {});

/// N domains from METIS (k-way, contiguous when the mesh is connected, fixed seed).
ElementPartition metis_element_partition(const TetMesh& mesh, int num_domains);

/// One domain per named element set, in the given order; every element in exactly one set.
ElementPartition element_partition_from_sets(const TetMesh& mesh,
                                             const std::vector<std::string>& set_names);

/// Reads a per-element domain-id file (see make_element_partition).
ElementPartition read_element_partition(const std::filesystem::path& file, Index num_elements);

/// Throws Error when the partition does not fit the mesh: wrong length, an id outside
/// [0, num_domains), or domains without elements (named in the message).
void validate_element_partition(const ElementPartition& partition, Index num_elements);

}  // namespace substruct
