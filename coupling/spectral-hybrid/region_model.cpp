// SPDX-License-Identifier: GPL-3.0-or-later
#include "region_model.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/fem/modal_rotation_operator.hpp"
#include "substruct/reduction/spectral_basis.hpp"

namespace substruct::spectral_hybrid {

std::string RegionModel::name() const {
  std::string list;
  for (int d : domains) list += fmt::format("{}{}", list.empty() ? "" : ", ", d);
  return fmt::format("{} region {} (domain{} {})", rigid ? "rigid" : "deformable", id,
                     domains.size() > 1 ? "s" : "", list);
}

std::vector<RegionModel> make_region_models(const TetMesh& mesh, const HybridRegions& regions,
                                            const std::vector<Index>& fixed_vertices, int modes,
                                            EigenSolver& solver,
                                            const std::string& solver_signature,
                                            const std::filesystem::path& cache_dir,
                                            RegionBuild* build) {
  std::vector<RegionModel> models;
  models.reserve(regions.regions.size());
  Progress progress("spectral-hybrid: region bases", regions.regions.size());
  Index offset = 0;
  for (std::size_t k = 0; k < regions.regions.size(); ++k) {
    const HybridRegion& region = regions.regions[k];
    RegionModel m;
    m.id = static_cast<int>(k);
    m.rigid = region.rigid;
    m.domains = region.domains;
    m.sub = extract_sub_mesh(mesh, region.elements, m.id);
    std::vector<Index> fixed;  // local ids, increasing
    for (Index g : fixed_vertices)
      if (const Index local = m.sub.local_vertex(g); local >= 0) fixed.push_back(local);
    const int free_dofs = 3 * (m.sub.mesh.num_vertices() - static_cast<int>(fixed.size()));
    int count = modes;
    if (!m.rigid && count > free_dofs) {
      log::info("spectral-hybrid: {} has {} free DOFs; {} modes instead of {}", m.name(), free_dofs,
                free_dofs, count);
      count = free_dofs;
    }
    auto start = Clock::now();
    SpectralBasis basis;
    try {
      bool loaded = false;
      basis = cached_spectral_basis(cache_dir, m.sub.mesh, fixed, m.rigid, count, solver,
                                    solver_signature, &loaded);
      if (build) ++(loaded ? build->loaded : build->computed);
    } catch (const Error& e) {
      throw Error(fmt::format("spectral-hybrid: {}: {}", m.name(), e.what()));
    }
    if (build) build->basis_seconds += seconds_since(start);
    start = Clock::now();
    m.Phi = std::move(basis.Phi);
    m.lambda = std::move(basis.Lambda);
    m.Psi = modal_rotation_matrix(m.sub.mesh, m.Phi);  // Eq. 5
    m.M = consistent_mass(m.sub.mesh);
    m.vertex_mass = lumped_vertex_mass(m.sub.mesh);
    if (build) build->rotation_seconds += seconds_since(start);
    m.offset = offset;
    offset += m.r();
    models.push_back(std::move(m));
    progress.advance();
  }
  progress.finish();
  return models;
}

}  // namespace substruct::spectral_hybrid
