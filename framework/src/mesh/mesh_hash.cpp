// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/mesh/mesh_hash.hpp"

namespace substruct {

void add_mesh_to_hash(Fnv1a& h, const TetMesh& mesh) {
  h.add_i64(mesh.num_vertices());
  for (Eigen::Index i = 0; i < mesh.vertices.size(); ++i) h.add_f64(mesh.vertices.data()[i]);
  h.add_i64(mesh.num_elements());
  for (Eigen::Index i = 0; i < mesh.tets.size(); ++i) h.add_i64(mesh.tets.data()[i]);
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const Material& material = mesh.material_of(e);
    h.add_f64(material.density);
    h.add_f64(material.youngs_modulus);
    h.add_f64(material.poisson_ratio);
  }
}

}  // namespace substruct
