// SPDX-License-Identifier: GPL-3.0-or-later
// The generated figures (analogues of Wu et al. 2015's scenes and Barbič–Zhao 2011's letters):
// every shape is a valid tet mesh whose element sets are its domains, held where it says, and
// finer at a higher resolution.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/scene/figure_generator.hpp"

namespace substruct {
namespace {

struct Expected {
  FigureShape shape;
  std::size_t domains;
  bool held;
};

TEST(FigureGenerator, EveryShapeIsAValidMeshOfItsDomains) {
  for (const Expected& e :
       {Expected{FigureShape::hammock, 5, true}, Expected{FigureShape::caterpillar, 8, true},
        Expected{FigureShape::armadillo, 11, true}, Expected{FigureShape::chain, 15, false}}) {
    FigureParameters p;
    p.shape = e.shape;
    std::vector<Index> fixed, tracked;
    const TetMesh mesh = generate_figure(p, &fixed, &tracked);
    const std::string name(to_string(e.shape));
    EXPECT_EQ(figure_shape(name), e.shape);
    EXPECT_EQ(mesh.element_sets.size(), e.domains) << name;
    std::size_t in_sets = 0;
    for (const auto& [set, elements] : mesh.element_sets) in_sets += elements.size();
    EXPECT_EQ(in_sets, static_cast<std::size_t>(mesh.num_elements())) << name;
    // Well shaped (no degenerate tet), six tets a lattice cell, filling the cells' volume.
    const TetGeometry geometry = TetGeometry::build(mesh);
    double volume = 0;
    for (double v : geometry.volume) volume += v;
    const double cell = p.unit * p.unit * p.unit;
    EXPECT_NEAR(volume, cell * double(mesh.num_elements()) / 6, 1e-9 * volume) << name;
    EXPECT_EQ(!fixed.empty(), e.held) << name;
    EXPECT_GE(tracked.size(), 2u) << name;
    for (Index v : tracked) EXPECT_TRUE(v >= 0 && v < mesh.num_vertices()) << name;
    EXPECT_EQ(std::set<Index>(fixed.begin(), fixed.end()).size(), fixed.size()) << name;
    // Twice the resolution: eight times the cells.
    p.resolution = 2;
    EXPECT_EQ(generate_figure(p).num_elements(), 8 * mesh.num_elements()) << name;
  }
  EXPECT_THROW(figure_shape("dragon"), Error);
  FigureParameters bad;
  bad.resolution = 0;
  EXPECT_THROW(generate_figure(bad), Error);
  bad.resolution = 1;
  bad.unit = -1;
  EXPECT_THROW(generate_figure(bad), Error);
}

}  // namespace
}  // namespace substruct
