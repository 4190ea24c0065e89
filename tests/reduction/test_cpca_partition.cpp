// SPDX-License-Identifier: GPL-3.0-or-later
// Automatic partition by clustered PCA (Huang et al. 2006, §7): more domains where the object is
// soft, face-connected domains, fragments merged, deterministic numbering.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/SparseCholesky>

#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/reduction/cpca_partition.hpp"
#include "support/bimaterial_box_beam.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using testing::error_message;

// A sparse LDLᵀ through the LinearSolver interface (the tests run without the plugins).
class SimplicialSolver : public LinearSolver {
 public:
  void analyze(const SparseMatrix& A, const MatrixProperties&) override { ldlt_.analyzePattern(A); }
  void factorize(const SparseMatrix& A) override {
    ldlt_.factorize(A);
    if (ldlt_.info() != Eigen::Success) throw Error("test solver: singular matrix");
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const override { x = ldlt_.solve(b); }
  FactorizationInfo info() const override { return {0, "Eigen SimplicialLDLT"}; }

 private:
  Eigen::SimplicialLDLT<SparseMatrix> ldlt_;
};

// Domains that lie mostly in the soft half.
int soft_domains(const TetMesh& mesh, const ElementPartition& p) {
  std::vector<int> soft(static_cast<std::size_t>(p.num_domains), 0);
  std::vector<int> size(soft.size(), 0);
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const int d = p.domain_of_element[static_cast<std::size_t>(e)];
    ++size[static_cast<std::size_t>(d)];
    soft[static_cast<std::size_t>(d)] += mesh.element_material[static_cast<std::size_t>(e)] == 1;
  }
  int count = 0;
  for (std::size_t d = 0; d < soft.size(); ++d) count += 2 * soft[d] > size[d];
  return count;
}

// Face-connected domains: splitting them again changes nothing.
void expect_face_connected(const TetMesh& mesh, const ElementPartition& p) {
  const ElementPartition again = split_into_face_connected_domains(mesh, p.domain_of_element, 1);
  EXPECT_EQ(again.num_domains, p.num_domains);
  EXPECT_EQ(again.domain_of_element, p.domain_of_element);  // numbered by lowest element already
}

TEST(CpcaPartition, PutsMoreDomainsInTheSoftHalf) {
  const TetMesh mesh = testing::bimaterial_box_beam(20);
  const std::vector<Index> fixed = mesh.vertex_sets.at("xmin");
  CpcaPartitionSettings settings;
  settings.domains = 6;
  settings.rayleigh_stiffness = 0.01;
  SimplicialSolver solver;
  const CpcaPartitionReport r = cpca_element_partition(mesh, fixed, settings, solver);
  const ElementPartition& p = r.partition;
  validate_element_partition(p, mesh.num_elements());
  EXPECT_GE(p.num_domains, 4);
  EXPECT_GE(r.clusters, 4);
  const int soft = soft_domains(mesh, p);
  EXPECT_GT(soft, p.num_domains - soft) << soft << " of " << p.num_domains << " domains soft";
  expect_face_connected(mesh, p);
  EXPECT_EQ(p.domain_of_element[0], 0);
  EXPECT_EQ(r.node_clusters, 48);
  EXPECT_EQ(r.min_fragment, mesh.num_elements() / 60);

  // Deterministic.
  SimplicialSolver again;
  EXPECT_EQ(cpca_element_partition(mesh, fixed, settings, again).partition.domain_of_element,
            p.domain_of_element);
}

TEST(CpcaPartition, SplitsClustersIntoFaceConnectedDomainsAndMergesFragments) {
  // 8 cells in a row, 6 tets each: labels 0 0 1 1 0 0 2 0 per cell, cell 7 unlabelled (−1).
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(8, 1, 1), 8, 1, 1);
  const int cell_label[8] = {0, 0, 1, 1, 0, 0, 2, -1};
  std::vector<int> labels(48);
  for (Index e = 0; e < 48; ++e) labels[e] = cell_label[e / 6];
  int pieces = 0, merged = 0;
  // No merging: cluster 0 is two pieces (cells 0–1 and 4–5); cell 7 touches only cell 6 and
  // takes its label 2.
  const ElementPartition split =
      split_into_face_connected_domains(mesh, labels, 1, &pieces, &merged);
  EXPECT_EQ(pieces, 4);  // {0,1}, {2,3}, {4,5}, {6,7}
  EXPECT_EQ(merged, 0);
  ASSERT_EQ(split.num_domains, 4);
  for (Index e = 0; e < 48; ++e) EXPECT_EQ(split.domain_of_element[e], (e / 6) / 2) << e;
  // Pieces below 13 elements (all of them, 12 each) merge, smallest first, into the neighbour
  // they share most faces with, until the survivors are large enough.
  const ElementPartition merged_all =
      split_into_face_connected_domains(mesh, labels, 13, &pieces, &merged);
  EXPECT_GE(merged, 1);
  EXPECT_LT(merged_all.num_domains, 4);
  expect_face_connected(mesh, merged_all);
  EXPECT_NE(error_message([&] {
              split_into_face_connected_domains(mesh, {0, 1}, 1);
            }).find("2 labels for 48 elements"),
            std::string::npos);
  EXPECT_EQ(count_interface_vertices(mesh, split), 3 * 4);  // three interface planes of 2×2
}

TEST(CpcaPartition, RefusesImpossibleRequests) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 1, 1);
  SimplicialSolver solver;
  CpcaPartitionSettings settings;
  settings.domains = 7;
  EXPECT_NE(error_message([&] {
              cpca_element_partition(mesh, {}, settings, solver);
            }).find("cannot split 6 elements into 7 domains"),
            std::string::npos);
  settings.domains = 2;
  std::vector<Index> all(8);
  for (Index v = 0; v < 8; ++v) all[v] = v;
  EXPECT_NE(error_message([&] {
              cpca_element_partition(mesh, all, settings, solver);
            }).find("every vertex is fixed"),
            std::string::npos);
}

}  // namespace
}  // namespace substruct
