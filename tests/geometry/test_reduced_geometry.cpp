// SPDX-License-Identifier: GPL-3.0-or-later
// The reduced-geometry kernel (x = p + R (X̄ + U q), v = R (ν + ω × (X̄ + U q) + U q̇), shared
// vertices averaged) against the formula written out vertex by vertex, with modal warping
// (U q → R̃(Ψ q) U q) against the same and its velocities against finite differences of its
// positions, the geometry-cpu plugin on several threads against the kernel, and a simulation
// whose positions come through the plugin against the method's own positions().
#include <algorithm>
#include <filesystem>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/kinematics/modal_warping.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"
#include "substruct/solvers/geometry_solver.hpp"
#include "support/random_reduced_geometry.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

// Three domains over 10 vertices: {0..4}, {3..7}, {7, 8} (vertices 3, 4 and 7 shared; vertex 9
// in none), bases of 3, 2 and 0 modes.
ReducedGeometry layout(std::mt19937& random) {
  std::uniform_real_distribution<double> u(-1, 1);
  ReducedGeometry g;
  g.rest_positions = Points::NullaryExpr(10, 3, [&] { return u(random); });
  const std::vector<std::vector<Index>> ids{{0, 1, 2, 3, 4}, {3, 4, 5, 6, 7}, {7, 8}};
  const std::vector<int> r{3, 2, 0};
  for (std::size_t d = 0; d < ids.size(); ++d) {
    DomainLayout dom;
    dom.global_vertex = ids[d];
    const auto n = static_cast<Index>(ids[d].size());
    dom.rest = Points::NullaryExpr(n, 3, [&] { return u(random); });
    dom.U = Eigen::MatrixXd::NullaryExpr(3 * n, r[d], [&] { return u(random); });
    g.domains.push_back(dom);
  }
  g.finalize();
  return g;
}

// The same with modal rotation matrices Ψ on domains 0 and 1 (entries in [−1, 1]: rotation
// angles |Ψ q| up to about 3 rad for q in [−1, 1]).
ReducedGeometry warped_layout(std::mt19937& random) {
  std::uniform_real_distribution<double> u(-1, 1);
  ReducedGeometry g = layout(random);
  for (std::size_t d : {0, 1}) {
    const Eigen::MatrixXd& U = g.domains[d].U;
    g.domains[d].Psi = Eigen::MatrixXd::NullaryExpr(U.rows(), U.cols(), [&] { return u(random); });
  }
  g.finalize();
  return g;
}

std::vector<DomainPose> poses(const ReducedGeometry& g, std::mt19937& random) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<DomainPose> out;
  for (std::size_t d = 0; d < g.domains.size(); ++d) {
    DomainPose pose;
    pose.R = Eigen::AngleAxisd(u(random) * 3, Vec3(u(random), u(random), u(random)).normalized())
                 .toRotationMatrix();
    pose.p = Vec3(u(random), u(random), u(random));
    pose.nu = Vec3(u(random), u(random), u(random));
    pose.omega = Vec3(u(random), u(random), u(random));
    pose.q = Eigen::VectorXd::NullaryExpr(g.r(d), [&] { return u(random); });
    pose.qdot = Eigen::VectorXd::NullaryExpr(g.r(d), [&] { return u(random); });
    out.push_back(pose);
  }
  return out;
}

TEST(ReducedGeometry, MatchesTheFormulaVertexByVertexWithSharedVerticesAveraged) {
  std::mt19937 random(7);
  const ReducedGeometry g = layout(random);
  const std::vector<DomainPose> p = poses(g, random);
  Points x, v;
  reduced_world_state(g, p, &x, &v);
  ASSERT_EQ(x.rows(), 10);
  for (Index vertex = 0; vertex < 10; ++vertex) {
    Vec3 xs = Vec3::Zero(), vs = Vec3::Zero();
    int count = 0;
    for (std::size_t d = 0; d < g.domains.size(); ++d) {
      const DomainLayout& dom = g.domains[d];
      for (std::size_t l = 0; l < dom.global_vertex.size(); ++l) {
        if (dom.global_vertex[l] != vertex) continue;
        const auto li = static_cast<Index>(l);
        Vec3 local = dom.rest.row(li).transpose();
        Vec3 rate = Vec3::Zero();
        for (Index k = 0; k < g.r(d); ++k) {
          local += dom.U.block(3 * li, k, 3, 1) * p[d].q[k];
          rate += dom.U.block(3 * li, k, 3, 1) * p[d].qdot[k];
        }
        xs += p[d].p + p[d].R * local;
        vs += p[d].R * (p[d].nu + p[d].omega.cross(local) + rate);
        ++count;
      }
    }
    if (count == 0) {
      EXPECT_EQ(x.row(vertex), g.rest_positions.row(vertex)) << "uncovered vertex stays at rest";
      EXPECT_EQ(v.row(vertex).norm(), 0.0);
      continue;
    }
    EXPECT_LT((x.row(vertex).transpose() - xs / count).norm(), 1e-13) << "vertex " << vertex;
    EXPECT_LT((v.row(vertex).transpose() - vs / count).norm(), 1e-13) << "vertex " << vertex;
  }
}

// u_a = R̃(w_a) (U q)_a with w_a = (Ψ q)_a, u̇_a = R̃(w_a) (U q̇)_a + DR̃(w_a)[(Ψ q̇)_a] (U q)_a.
TEST(ReducedGeometry, AWarpedLayoutMatchesTheWarpedFormulaVertexByVertex) {
  std::mt19937 random(8);
  const ReducedGeometry g = warped_layout(random);
  const std::vector<DomainPose> p = poses(g, random);
  Points x, v;
  reduced_world_state(g, p, &x, &v);
  double largest_angle = 0;
  for (Index vertex = 0; vertex < 10; ++vertex) {
    Vec3 xs = Vec3::Zero(), vs = Vec3::Zero();
    int count = 0;
    for (std::size_t d = 0; d < g.domains.size(); ++d) {
      const DomainLayout& dom = g.domains[d];
      for (std::size_t l = 0; l < dom.global_vertex.size(); ++l) {
        if (dom.global_vertex[l] != vertex) continue;
        const auto li = static_cast<Index>(l);
        Vec3 local = dom.rest.row(li).transpose(), rate = Vec3::Zero();
        if (g.r(d) > 0) {
          const auto U = dom.U.middleRows<3>(3 * li), Psi = dom.Psi.middleRows<3>(3 * li);
          const Vec3 w = Psi * p[d].q, wdot = Psi * p[d].qdot;
          largest_angle = std::max(largest_angle, w.norm());
          local += integrated_rotation(w) * (U * p[d].q);
          rate = integrated_rotation(w) * (U * p[d].qdot) +
                 integrated_rotation_derivative(w, wdot) * (U * p[d].q);
        }
        xs += p[d].p + p[d].R * local;
        vs += p[d].R * (p[d].nu + p[d].omega.cross(local) + rate);
        ++count;
      }
    }
    if (count == 0) continue;
    EXPECT_LT((x.row(vertex).transpose() - xs / count).norm(), 1e-13) << "vertex " << vertex;
    EXPECT_LT((v.row(vertex).transpose() - vs / count).norm(), 1e-13) << "vertex " << vertex;
  }
  EXPECT_GT(largest_angle, 1.0) << "both branches of R̃ are used";
  // It warps: the unwarped layout gives other positions.
  ReducedGeometry plain = g;
  for (DomainLayout& dom : plain.domains) dom.Psi.resize(0, 0);
  Points x_plain;
  reduced_world_state(plain, p, &x_plain, nullptr);
  EXPECT_GT((x - x_plain).norm(), 0.1);
}

// v is the time derivative of x along p(t) = p + t R ν, R(t) = R exp(t ω̂), q(t) = q + t q̇
// (central differences, h = 10⁻⁵).
TEST(ReducedGeometry, WarpedVelocitiesAreTheDerivativeOfThePositions) {
  std::mt19937 random(12);
  const ReducedGeometry g = warped_layout(random);
  const std::vector<DomainPose> p = poses(g, random);
  auto at = [&](double t) {
    std::vector<DomainPose> moved = p;
    for (DomainPose& pose : moved) {
      pose.p += t * pose.R * pose.nu;
      pose.R = pose.R *
               Eigen::AngleAxisd(t * pose.omega.norm(), pose.omega.normalized()).toRotationMatrix();
      pose.q += t * pose.qdot;
    }
    Points x;
    reduced_world_state(g, moved, &x, nullptr);
    return x;
  };
  Points x, v;
  reduced_world_state(g, p, &x, &v);
  const double h = 1e-5;
  const Points fd = (at(h) - at(-h)) / (2 * h);
  EXPECT_LT((v - fd).norm(), 1e-8 * v.norm());
  EXPECT_LT((x - at(0)).norm(), 1e-14 * x.norm());
}

// Ψ = 0 (present) takes the warped path with R̃(0) = I: the unwarped values bit for bit.
TEST(ReducedGeometry, AZeroRotationBasisGivesTheUnwarpedValuesExactly) {
  std::mt19937 random(2);
  const ReducedGeometry plain = layout(random);
  ReducedGeometry zero = plain;
  for (DomainLayout& dom : zero.domains)
    dom.Psi = Eigen::MatrixXd::Zero(dom.U.rows(), dom.U.cols());
  zero.finalize();
  const std::vector<DomainPose> p = poses(plain, random);
  Points x0, v0, x1, v1;
  reduced_world_state(plain, p, &x0, &v0);
  reduced_world_state(zero, p, &x1, &v1);
  EXPECT_EQ(x0, x1);
  EXPECT_EQ(v0, v1);
}

TEST(ReducedGeometry, AVertexSharedByTwoDomainsIsTheMeanOfTheirPositions) {
  std::mt19937 random(3);
  const ReducedGeometry g = layout(random);
  std::vector<DomainPose> p = poses(g, random);
  // Only domains 0 and 1 contain vertex 3 (local 3 and 0).
  Points alone0, alone1, both;
  reduced_world_state(g, p, &both, nullptr);
  auto only = [&](std::size_t d) {
    Points sum = Points::Zero(10, 3);
    accumulate_domain_states(g, p, d, d + 1, &sum, nullptr);
    return sum;
  };
  alone0 = only(0);
  alone1 = only(1);
  EXPECT_LT((both.row(3) - 0.5 * (alone0.row(3) + alone1.row(3))).norm(), 1e-14);
  EXPECT_LT((both.row(0) - alone0.row(0)).norm(), 1e-14);
}

// route_domain_states: every value of a vertex that one domain covers goes straight to x and v,
// each other value to its own row; those rows summed from zero in domain order and averaged
// give reduced_world_state()'s numbers bit for bit.
TEST(ReducedGeometry, RoutedValuesAveragedGiveTheWorldStateBitForBit) {
  std::mt19937 random(5);
  const ReducedGeometry g = layout(random);
  const std::vector<DomainPose> p = poses(g, random);
  const Index n = g.num_vertices();
  std::vector<Index> first_row, target;
  std::vector<std::vector<Index>> rows_of(static_cast<std::size_t>(n));  // by domain order
  Index shared_rows = 0;
  for (std::size_t d = 0; d < g.domains.size(); ++d) {
    first_row.push_back(static_cast<Index>(target.size()));
    for (Index v : g.domains[d].global_vertex) {
      const bool shared = g.inverse_count[v] < 1;
      target.push_back(shared ? shared_rows : -1);
      if (shared) rows_of[static_cast<std::size_t>(v)].push_back(shared_rows++);
    }
  }
  ASSERT_GT(shared_rows, 0);
  Points x = Points::Constant(n, 3, 7.0), v = x, x_rows(shared_rows, 3), v_rows(shared_rows, 3);
  route_domain_states(g, p, 0, g.domains.size(), first_row, target, &x, &v, &x_rows, &v_rows);
  for (Index vertex = 0; vertex < n; ++vertex) {
    const auto& rows = rows_of[static_cast<std::size_t>(vertex)];
    if (rows.empty()) continue;
    Vec3 xs = Vec3::Zero(), vs = Vec3::Zero();
    for (Index row : rows) {
      xs += x_rows.row(row).transpose();
      vs += v_rows.row(row).transpose();
    }
    x.row(vertex) = (xs * g.inverse_count[vertex]).transpose();
    v.row(vertex) = (vs * g.inverse_count[vertex]).transpose();
  }
  Points x0, v0;
  reduced_world_state(g, p, &x0, &v0);
  for (Index vertex = 0; vertex < n; ++vertex)
    if (g.inverse_count[vertex] == 0) {  // uncovered: left as they were
      x.row(vertex) = x0.row(vertex);
      v.row(vertex) = v0.row(vertex);
    }
  EXPECT_EQ(x, x0);
  EXPECT_EQ(v, v0);
}

// Domain 3 on new vertices {10, …, 14}: a copy of domain 0 turned by Rᵢ and moved by δ, as its
// own turned arrays (X̄ = Rᵢ X̄_rep + δ, U = (I ⊗ Rᵢ) U_rep, Ψ = (I ⊗ Rᵢ) Ψ_rep) in `own` and
// as an instance of domain 0 in `instanced`.
struct CopyOfDomain0 {
  ReducedGeometry own, instanced;
};
CopyOfDomain0 copy_of_domain0(ReducedGeometry own, const Mat3& Ri, const Vec3& delta) {
  own.rest_positions.conservativeResize(14, 3);
  own.rest_positions.bottomRows(4).setZero();
  const DomainLayout& rep = own.domains[0];
  DomainLayout copy;
  copy.global_vertex = {9, 10, 11, 12, 13};
  copy.rest = (rep.rest * Ri.transpose()).rowwise() + delta.transpose();
  copy.U.resize(rep.U.rows(), rep.U.cols());
  copy.Psi.resize(rep.Psi.rows(), rep.Psi.cols());
  for (Index l = 0; l < 5; ++l) {
    copy.U.middleRows<3>(3 * l) = Ri * rep.U.middleRows<3>(3 * l);
    if (rep.Psi.size() > 0) copy.Psi.middleRows<3>(3 * l) = Ri * rep.Psi.middleRows<3>(3 * l);
  }
  ReducedGeometry instanced = own;
  own.domains.push_back(copy);
  own.finalize();
  DomainLayout instance;
  instance.global_vertex = copy.global_vertex;
  instance.instance_of = 0;
  instance.rotation = Ri;
  instance.offset = delta;
  instanced.domains.push_back(instance);
  instanced.finalize();
  return {own, instanced};
}

// The instance gives what its own turned copies of the representative's arrays give.
void expect_same_state(const CopyOfDomain0& c, std::mt19937& random) {
  const std::vector<DomainPose> p = poses(c.own, random);
  Points x_own, v_own, x_instanced, v_instanced;
  reduced_world_state(c.own, p, &x_own, &v_own);
  reduced_world_state(c.instanced, p, &x_instanced, &v_instanced);
  EXPECT_LT((x_own - x_instanced).norm(), 1e-13 * x_own.norm());
  EXPECT_LT((v_own - v_instanced).norm(), 1e-13 * v_own.norm());
}

TEST(ReducedGeometry, AnInstanceIsItsRepresentativeTurnedAndMoved) {
  std::mt19937 random(5);
  const Mat3 Ri = Eigen::AngleAxisd(1.1, Vec3(1, 2, -0.5).normalized()).toRotationMatrix();
  CopyOfDomain0 c = copy_of_domain0(layout(random), Ri, Vec3(0.3, -0.2, 0.7));
  EXPECT_EQ(c.instanced.r(3), 3);
  expect_same_state(c, random);
  // An instance of an instance, or of a domain that is not there, is refused.
  c.instanced.domains[3].instance_of = 7;
  EXPECT_THROW(c.instanced.finalize(), Error);
  c.instanced.domains[3].instance_of = 0;
  c.instanced.domains[0].instance_of = 3;
  EXPECT_THROW(c.instanced.finalize(), Error);
}

// An instance of a warped domain warps with the representative's Ψ turned by Rᵢ
// (R̃(Rᵢ w) Rᵢ = Rᵢ R̃(w)).
TEST(ReducedGeometry, AnInstanceOfAWarpedDomainIsItsRepresentativeTurnedAndMoved) {
  std::mt19937 random(6);
  const Mat3 Ri = Eigen::AngleAxisd(2.3, Vec3(-1, 0.5, 2).normalized()).toRotationMatrix();
  CopyOfDomain0 c = copy_of_domain0(warped_layout(random), Ri, Vec3(-0.4, 0.1, 0.9));
  expect_same_state(c, random);
  // An instance carries no Ψ of its own.
  c.instanced.domains[3].Psi = c.own.domains[3].Psi;
  EXPECT_THROW(c.instanced.finalize(), Error);
}

// Runs of consecutive domains of one rest shape and basis, which the kernel takes up to four at
// a time (one per lane): a representative with r = 5 and six instances of it (lanes of 4 and
// 3), a rigid one with three instances, then a domain with a basis of its own; 37 vertices each
// (two blocks of vertices, an odd count), each sharing its last vertex with the next domain.
ReducedGeometry instanced_runs(std::mt19937& random) {
  std::uniform_real_distribution<double> u(-1, 1);
  const Index n = 37;
  const int domains = 12;
  ReducedGeometry g;
  g.rest_positions = Points::NullaryExpr((n - 1) * domains + 1, 3, [&] { return u(random); });
  for (int d = 0; d < domains; ++d) {
    DomainLayout dom;
    for (Index l = 0; l < n; ++l) dom.global_vertex.push_back(d * (n - 1) + l);
    const int representative = d == 0 || d == 7 || d == 11 ? -1 : d < 7 ? 0 : 7;
    if (representative < 0) {
      const Index r = d == 0 ? 5 : d == 7 ? 0 : 3;
      dom.rest = Points::NullaryExpr(n, 3, [&] { return u(random); });
      dom.U = RowMajorMatrix::NullaryExpr(3 * n, r, [&] { return u(random); });
    } else {
      dom.instance_of = representative;
      dom.rotation = testing::random_rotation(random);
      dom.offset = Vec3(u(random), u(random), u(random));
    }
    g.domains.push_back(std::move(dom));
  }
  g.finalize();
  return g;
}

TEST(ReducedGeometry, ConsecutiveInstancesMatchTheFormulaVertexByVertex) {
  std::mt19937 random(9);
  const ReducedGeometry g = instanced_runs(random);
  EXPECT_EQ(g.shares_basis, std::vector<char>({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0}));
  const std::vector<DomainPose> p = poses(g, random);
  Points x, v;
  reduced_world_state(g, p, &x, &v);
  std::vector<Vec3> xs(std::size_t(g.num_vertices()), Vec3::Zero()), vs = xs;
  for (std::size_t d = 0; d < g.domains.size(); ++d) {
    const DomainLayout& own = g.domains[d];
    const DomainLayout& src = g.source(d);
    for (std::size_t l = 0; l < own.global_vertex.size(); ++l) {
      const auto li = static_cast<Index>(l);
      // The instance's own turned arrays: X̄ = Rᵢ X̄_rep + δ, U = (I ⊗ Rᵢ) U_rep.
      const Mat3 Ri = own.instance_of >= 0 ? own.rotation : Mat3::Identity();
      const Vec3 delta = own.instance_of >= 0 ? own.offset : Vec3::Zero();
      Vec3 local = Ri * src.rest.row(li).transpose() + delta, rate = Vec3::Zero();
      for (Index k = 0; k < g.r(d); ++k) {
        local += Ri * src.U.block(3 * li, k, 3, 1) * p[d].q[k];
        rate += Ri * src.U.block(3 * li, k, 3, 1) * p[d].qdot[k];
      }
      const auto vertex = static_cast<std::size_t>(own.global_vertex[l]);
      xs[vertex] += p[d].p + p[d].R * local;
      vs[vertex] += p[d].R * (p[d].nu + p[d].omega.cross(local) + rate);
    }
  }
  for (Index vertex = 0; vertex < g.num_vertices(); ++vertex) {
    const double w = g.inverse_count[vertex];
    ASSERT_GT(w, 0);
    EXPECT_LT((x.row(vertex).transpose() - w * xs[std::size_t(vertex)]).norm(), 1e-13)
        << "vertex " << vertex;
    EXPECT_LT((v.row(vertex).transpose() - w * vs[std::size_t(vertex)]).norm(), 1e-13)
        << "vertex " << vertex;
  }
  // Each domain alone gives what it gives in its run (its numbers are its own, whichever lane).
  for (std::size_t d : {2, 5, 9}) {
    Points alone = Points::Zero(g.num_vertices(), 3), in_run = alone;
    accumulate_domain_states(g, p, d, d + 1, &alone, nullptr);
    accumulate_domain_states(g, p, d - 2, d + 2, &in_run, nullptr);
    for (Index vertex : g.domains[d].global_vertex) {
      if (g.inverse_count[vertex] == 1) {
        EXPECT_EQ(alone.row(vertex), in_run.row(vertex));
      }
    }
  }
}

TEST(ReducedGeometry, RejectsAnInconsistentLayout) {
  std::mt19937 random(1);
  ReducedGeometry g = layout(random);
  g.domains[1].global_vertex = {3, 5, 4, 6, 7};  // not ascending
  EXPECT_THROW(g.finalize(), Error);
  g = layout(random);
  g.domains[0].U.conservativeResize(6, 3);  // rows ≠ 3n
  EXPECT_THROW(g.finalize(), Error);
  g = warped_layout(random);
  g.domains[1].Psi.conservativeResize(15, 1);  // Ψ not of U's shape
  EXPECT_THROW(g.finalize(), Error);
  g = layout(random);
  std::vector<DomainPose> p = poses(g, random);
  p[0].q.resize(1);
  Points x;
  EXPECT_THROW(reduced_world_state(g, p, &x, nullptr), Error);
}

class GeometryPlugin : public testing::TempDirTest {
 protected:
  PluginHost host_{{SUBSTRUCT_PLUGIN_DIR}, false};
};

TEST_F(GeometryPlugin, CpuOnSeveralThreadsGivesTheKernelsValuesBitForBit) {
  // The small layouts above, a chain of 40 domains with instances, rigid and warped ones, and
  // runs of consecutive instances (which the threads' ranges of domains cut in different places).
  testing::RandomLayoutOptions chain;
  chain.domains = 40;
  for (int kind : {0, 1, 2, 3}) {
    std::mt19937 random(11);
    const ReducedGeometry g = kind == 0   ? layout(random)
                              : kind == 1 ? warped_layout(random)
                              : kind == 2 ? testing::random_reduced_geometry(chain, random)
                                          : instanced_runs(random);
    const std::vector<DomainPose> p = poses(g, random);
    Points x0, v0;
    reduced_world_state(g, p, &x0, &v0);
    for (const char* threads : {"1", "2", "3", "7"}) {
      const Config config = Config::from_settings(
          {{"solvers.geometry", "cpu", "test"}, {"geometry-cpu.threads", threads, "test"}}, dir(),
          host_);
      SolverProvider solvers(host_, config);
      std::unique_ptr<GeometrySolver> solver = solvers.geometry();
      solver->set_layout(g);
      Points x, v, x_only;
      solver->world_state(p, x, &v);
      solver->world_state(p, x_only, nullptr);
      EXPECT_EQ(x, x0) << threads << " threads, layout " << kind;
      EXPECT_EQ(v, v0) << threads << " threads, layout " << kind;
      EXPECT_EQ(x_only, x0) << threads << " threads, layout " << kind;
    }
    std::vector<DomainPose> wrong = p;
    wrong.back().q.resize(wrong.back().q.size() + 1);
    const Config config = Config::from_settings(
        {{"solvers.geometry", "cpu", "test"}, {"geometry-cpu.threads", "3", "test"}}, dir(), host_);
    std::unique_ptr<GeometrySolver> solver = SolverProvider(host_, config).geometry();
    solver->set_layout(g);
    Points x;
    EXPECT_THROW(solver->world_state(wrong, x, nullptr), Error) << "layout " << kind;
  }
}

TEST_F(GeometryPlugin, AnUnknownGeometryPluginIsAClearError) {
  const std::string m = testing::error_message([&] {
    Config::from_settings({{"solvers.geometry", "quantum", "test"}}, dir(), host_);
  });
  EXPECT_NE(m.find("geometry-quantum"), std::string::npos) << m;
  EXPECT_NE(m.find("geometry-cpu"), std::string::npos) << m;  // the available ones
}

TEST_F(GeometryPlugin, SimulationPositionsThroughThePluginEqualTheMethodsOwn) {
  // The flower with inertia coupling: 12 domains, a tree of interfaces.
  const std::filesystem::path scene =
      std::filesystem::path(SUBSTRUCT_SOURCE_DIR) / "share/scenes/flower.ini";
  const Config config =
      Config::load(scene,
                   {"--coupling.plugin=inertia", "--run.exporters=", "--reduction.modes=6",
                    "--reduction.linear_modes=4", "--geometry-cpu.threads=2",
                    "--run.cache_dir=" + (dir() / "cache").string(), "--run.loads=gravity pull",
                    "--pull.vertices=982", "--pull.force=3 0 0"},
                   host_);
  Simulation sim(config, host_);
  EXPECT_THROW((void)sim.method().reduced_geometry(), Error) << "no layout before precompute";
  sim.reset();
  ASSERT_NE(sim.method().reduced_geometry(), nullptr);
  StepStats stats;
  for (int s = 0; s < 10; ++s) sim.step(stats);
  Points x, v;
  sim.method().positions(x);
  sim.method().velocities(v);
  EXPECT_LT((sim.positions() - x).norm(), 1e-12 * (1 + x.norm()));
  EXPECT_LT((sim.velocities() - v).norm(), 1e-12 * (1 + v.norm()));
  EXPECT_GT((sim.positions() - sim.scene().mesh.vertices).norm(), 1e-4) << "it moved";
}

}  // namespace
}  // namespace substruct
