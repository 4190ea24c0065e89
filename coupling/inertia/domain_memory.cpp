// SPDX-License-Identifier: GPL-3.0-or-later
#include "domain_memory.hpp"

#include <unordered_set>

#include "substruct/reduction/reduced_stvk.hpp"

namespace substruct::inertia {
namespace {

template <class T>
std::size_t bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

template <class M>
std::size_t dense_bytes(const M& m) {
  return static_cast<std::size_t>(m.size()) * sizeof(typename M::Scalar);
}

std::size_t sparse_bytes(const SparseMatrix& m) {
  return static_cast<std::size_t>(m.nonZeros()) *
             (sizeof(double) + sizeof(SparseMatrix::StorageIndex)) +
         static_cast<std::size_t>(m.outerSize() + 1) * sizeof(SparseMatrix::StorageIndex);
}

std::size_t mesh_bytes(const TetMesh& mesh) {
  std::size_t b = dense_bytes(mesh.vertices) + dense_bytes(mesh.tets) + bytes(mesh.materials) +
                  bytes(mesh.element_material);
  for (const auto& [name, set] : mesh.element_sets) b += name.capacity() + bytes(set) + 64;
  for (const auto& [name, set] : mesh.vertex_sets) b += name.capacity() + bytes(set) + 64;
  return b;
}

std::size_t model_bytes(const ReducedModel& model) {
  std::size_t b = sizeof(ReducedModel) + dense_bytes(model.basis.U) +
                  dense_bytes(model.basis.linear_eigenvalues) + bytes(model.materials) +
                  bytes(model.boundary.fixed_vertices);
  if (const auto* p = dynamic_cast<const ReducedStVKPolynomial*>(model.forces.get()))
    b += bytes(p->coefficients());
  return b;
}

}  // namespace

DomainKind domain_kind(const InertiaDomain& domain) {
  if (domain.r() == 0) return DomainKind::rigid;
  return domain.integrals_of >= 0 ? DomainKind::instance : DomainKind::flexible;
}

DomainMemory domain_memory(const Scene& scene, const DomainTree& tree,
                           const ReducedGeometry& layout,
                           std::span<const std::size_t> state_bytes) {
  DomainMemory memory;
  std::unordered_set<const void*> counted;  // shared objects already counted
  const auto once = [&counted](const void* p) { return p != nullptr && counted.insert(p).second; };
  for (const InertiaDomain& dom : tree.domains) {
    const auto i = static_cast<std::size_t>(dom.id);
    const SubMesh& sub = scene.decomposition.domains[i];
    std::size_t b = sizeof(SubMesh) + mesh_bytes(sub.mesh) + bytes(sub.global_vertex) +
                    bytes(sub.global_element);
    b += sizeof(InertiaDomain) + bytes(dom.children) + dense_bytes(dom.X) + sparse_bytes(dom.M) +
         dense_bytes(dom.vertex_mass) + dense_bytes(dom.own_basis);
    if (once(dom.model.get())) b += model_bytes(*dom.model);
    if (once(dom.integrals.get())) b += dom.integrals->bytes();
    if (once(dom.child_rows.storage())) b += dom.child_rows.bytes();
    if (i < layout.domains.size()) {
      const DomainLayout& d = layout.domains[i];
      b += sizeof(DomainLayout) + bytes(d.global_vertex) + dense_bytes(d.rest) + dense_bytes(d.U) +
           dense_bytes(d.Psi);
    }
    if (i < state_bytes.size()) b += state_bytes[i];
    KindMemory& kind = domain_kind(dom) == DomainKind::rigid      ? memory.rigid
                       : domain_kind(dom) == DomainKind::instance ? memory.instance
                                                                  : memory.flexible;
    ++kind.domains;
    kind.bytes += static_cast<double>(b);
  }
  return memory;
}

}  // namespace substruct::inertia
