// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The constraint matrix B of Eq. 5, one 3×3-block row per constraint: point-to-point rows that
// keep the copies of a duplicated interface vertex together, and user rows that drive one vertex
// to a target.
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/domains/sub_mesh.hpp"

namespace substruct::ddm {

/// One block row k of B. Point-to-point: B_k,a = I (copy a), B_k,b = −I (copy b). User row:
/// B_k,a = I only (b.domain = −1).
struct ConstraintRow {
  struct Copy {
    int domain = -1;
    Index local = -1;  // the vertex in that domain's numbering
  };
  Copy a, b;
  Index vertex = -1;  // the global vertex
  bool user() const { return b.domain < 0; }
};

/// The point-to-point rows: a vertex shared by k domains (copies sorted by domain) gets the k − 1
/// rows (first copy, j-th copy), j = 2…k, so B has full row rank (no redundant rows, whatever the
/// interface's shape: a plane, an edge, a single vertex, or a vertex where many domains meet).
/// Fixed vertices get none: every copy is held. Rows are ordered by vertex, then copy.
std::vector<ConstraintRow> interface_rows(const std::vector<SubMesh>& domains,
                                          const std::vector<Index>& fixed);

/// User rows for `targets` (global vertices): each on the vertex's first copy. Throws Error for a
/// vertex that does not exist, is fixed, or is listed twice.
std::vector<ConstraintRow> target_rows(const std::vector<SubMesh>& domains,
                                       const std::vector<Index>& fixed,
                                       const std::vector<Index>& targets, Index num_vertices);

/// Where the rows touch one domain: entry e says row `row` has sign `sign` (+1 for copy a, −1 for
/// copy b) on the domain's boundary vertex `boundary` (an index into `vertices`).
struct DomainCoupling {
  std::vector<Index> vertices;  // boundary vertices (local ids, increasing): those rows touch
  struct Entry {
    Index row = 0;
    Index boundary = 0;
    double sign = 1;
  };
  std::vector<Entry> entries;  // ordered by row
};

/// The boundary vertices and entries of every domain (`num_domains` of them) for `rows`.
std::vector<DomainCoupling> domain_couplings(const std::vector<ConstraintRow>& rows,
                                             int num_domains);

}  // namespace substruct::ddm
