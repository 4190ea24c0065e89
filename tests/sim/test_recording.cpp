// SPDX-License-Identifier: GPL-3.0-or-later
// A recording (sim/recording.hpp) of a random reduced layout with rigid, warped and instanced
// domains gives back the kernel's world positions and velocities bit for bit, frame after frame;
// instances store no model of their own; a recording of positions gives them back exactly; the
// VTK expansion of every domain is byte for byte the exporter's frame and a subset keeps only its
// tets; a writer destroyed before commit() leaves no file; truncated, corrupt, spliced and foreign
// files are refused with the reason; domain lists parse or say what is wrong.
#include <array>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/io/record_stream.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/io/vtk_frame.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/sim/recording.hpp"
#include "substruct/sim/recording_to_vtk.hpp"
#include "support/random_reduced_geometry.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

// A scene over the layout's vertices: one tet per four consecutive vertices of each domain.
Scene scene_of(const ReducedGeometry& layout) {
  Scene scene;
  scene.name = "chain";
  scene.mesh.vertices = layout.rest_positions;
  std::vector<std::array<Index, 4>> tets;
  std::vector<int> domain;
  for (std::size_t d = 0; d < layout.domains.size(); ++d) {
    const std::vector<Index>& ids = layout.domains[d].global_vertex;
    for (std::size_t k = 0; k + 4 <= ids.size(); k += 4) {
      tets.push_back({ids[k], ids[k + 1], ids[k + 2], ids[k + 3]});
      domain.push_back(int(d));
    }
  }
  scene.mesh.tets.resize(Index(tets.size()), 4);
  for (std::size_t t = 0; t < tets.size(); ++t)
    for (int k = 0; k < 4; ++k) scene.mesh.tets(Index(t), k) = tets[t][std::size_t(k)];
  scene.mesh.element_material.assign(tets.size(), 0);
  scene.decomposition.partition.domain_of_element = domain;
  scene.decomposition.partition.num_domains = int(layout.domains.size());
  return scene;
}

class RecordingTest : public testing::TempDirTest {
 protected:
  void SetUp() override {
    testing::RandomLayoutOptions o;
    o.domains = 12;
    layout_ = testing::random_reduced_geometry(o, random_);
    scene_ = scene_of(layout_);
    for (int f = 0; f < 4; ++f) poses_.push_back(testing::random_poses(layout_, random_));
  }

  fs::path record(const std::string& name, bool velocities = true) {
    const fs::path file = dir() / name;
    RecordingWriter writer(file, scene_, "inertia", 0.01, &layout_, Vec3::UnitZ(), 6, velocities);
    for (std::size_t f = 0; f < poses_.size(); ++f)
      writer.write(long(5 * f), 0.05 * double(f), poses_[f]);
    writer.commit();
    return file;
  }

  static void write_bytes(const fs::path& file, const std::string& bytes) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  }

  std::mt19937 random_{7};
  ReducedGeometry layout_;
  Scene scene_;
  std::vector<std::vector<DomainPose>> poses_;
};

TEST_F(RecordingTest, GivesBackTheKernelsPositionsAndVelocitiesBitForBit) {
  Recording recording(record("chain.ssrec"));
  ASSERT_EQ(recording.frames(), 4u);
  EXPECT_EQ(recording.run().scene, "chain");
  EXPECT_EQ(recording.run().method, "inertia");
  EXPECT_EQ(recording.run().up, Vec3::UnitZ());
  EXPECT_EQ(recording.run().num_domains(), 12);
  ASSERT_TRUE(recording.run().layout.has_value());
  for (std::size_t d = 0; d < layout_.domains.size(); ++d) {
    const DomainLayout& a = layout_.domains[d];
    const DomainLayout& b = recording.run().layout->domains[d];
    EXPECT_EQ(a.instance_of, b.instance_of);
    if (a.instance_of >= 0) {
      EXPECT_EQ(b.U.size(), 0);  // instances carry no basis of their own
    } else {
      EXPECT_EQ(b.U, a.U);  // a rigid domain's 3N×0 included
      EXPECT_EQ(b.rest, a.rest);
    }
  }
  for (std::size_t f = 0; f < poses_.size(); ++f) {
    EXPECT_EQ(recording.step(f), long(5 * f));
    EXPECT_EQ(recording.time(f), 0.05 * double(f));
    Points x, v, x_ref, v_ref;
    recording.state(f, x, &v);
    reduced_world_state(layout_, poses_[f], &x_ref, &v_ref);
    ASSERT_EQ(x.rows(), x_ref.rows());
    EXPECT_EQ(0, std::memcmp(x.data(), x_ref.data(), sizeof(double) * std::size_t(x.size())));
    EXPECT_EQ(0, std::memcmp(v.data(), v_ref.data(), sizeof(double) * std::size_t(v.size())));
  }
}

TEST_F(RecordingTest, WithoutVelocitiesHasThePositionsAndNoVelocity) {
  const fs::path with = record("with.ssrec"), without = record("without.ssrec", false);
  Recording recording(without);
  Points x, v, x_ref;
  recording.state(2, x, &v);
  reduced_world_state(layout_, poses_[2], &x_ref, nullptr);
  EXPECT_EQ(v.rows(), 0);
  EXPECT_TRUE(x == x_ref);
  EXPECT_LT(fs::file_size(without), fs::file_size(with));
}

TEST_F(RecordingTest, PositionsOfAMethodWithoutLayoutComeBackExactly) {
  const fs::path file = dir() / "full.ssrec";
  std::uniform_real_distribution<double> u(-1, 1);
  const Index n = scene_.mesh.num_vertices();
  const Points x0 = Points::NullaryExpr(n, 3, [&] { return u(random_); });
  const Points v0 = Points::NullaryExpr(n, 3, [&] { return u(random_); });
  {
    RecordingWriter writer(file, scene_, "full", 0.01, nullptr, Vec3::UnitY(), 1, true);
    writer.write(0, 0.0, x0, v0);
    writer.write(1, 0.01, v0, x0);
    writer.commit();
  }
  Recording recording(file);
  EXPECT_FALSE(recording.run().layout.has_value());
  Points x, v;
  recording.state(1, x, &v);
  EXPECT_TRUE(x == v0);
  EXPECT_TRUE(v == x0);
}

TEST_F(RecordingTest, ExpandedToVtkIsTheExportersFrameByteForByte) {
  Recording recording(record("chain.ssrec"));
  VtkExpansion all;
  all.dir = dir() / "vtk";
  all.stem = "chain";
  all.from = 0.04;  // frames 1, 2, 3
  const VtkExpansionSummary s = expand_to_vtk(recording, all);
  EXPECT_EQ(s.frames, 3u);
  EXPECT_TRUE(fs::exists(dir() / "vtk/chain.pvd"));
  // What the vtk exporter writes for the frame of step 10: the same writer on the scene.
  Points x, v;
  reduced_world_state(layout_, poses_[2], &x, &v);
  const VtuWriter writer =
      run_frame_writer(scene_.mesh.tets, scene_.decomposition.partition.domain_of_element,
                       scene_.mesh.element_material, VtkEncoding::binary);
  write_run_frame(writer, dir() / "direct.vtu", scene_.mesh.vertices, x, v, 0.1, 10,
                  Durability::fsync);
  EXPECT_EQ(read("vtk/chain/chain_000010.vtu"), read("direct.vtu"));

  VtkExpansion part = all;
  part.dir = dir() / "part";
  part.domains = {1, 2};
  part.from = 0;
  part.to = 0.06;  // frames 0, 1
  const VtkExpansionSummary p = expand_to_vtk(recording, part);
  EXPECT_EQ(p.frames, 2u);
  Index tets = 0;
  for (int d : scene_.decomposition.partition.domain_of_element) tets += d == 1 || d == 2;
  EXPECT_EQ(p.tets, tets);
  EXPECT_LT(p.vertices, scene_.mesh.num_vertices());
  EXPECT_LT(p.vtu_bytes / p.frames, s.vtu_bytes / s.frames);
  EXPECT_NE(testing::error_message([&] {
              VtkExpansion late = all;
              late.from = 5;
              expand_to_vtk(recording, late);
            }).find("no frame lies in the window"),
            std::string::npos);
}

TEST_F(RecordingTest, AWriterNotCommittedLeavesNoFile) {
  const fs::path file = dir() / "cut.ssrec";
  {
    RecordingWriter writer(file, scene_, "inertia", 0.01, &layout_, Vec3::UnitY(), 1, true);
    writer.write(0, 0.0, poses_[0]);
  }
  EXPECT_TRUE(files().empty());
}

TEST_F(RecordingTest, TruncatedCorruptOrForeignFilesAreRefusedWithTheReason) {
  const fs::path file = record("chain.ssrec");
  const std::string bytes = read(file);
  const auto message = [&](const std::string& content) {
    const fs::path bad = dir() / "bad.ssrec";
    write_bytes(bad, content);
    return testing::error_message([&] {
      Recording recording(bad);
      Points x, v;
      for (std::size_t f = 0; f < recording.frames(); ++f) recording.state(f, x, &v);
    });
  };
  // Cut inside a record, and cut after a whole frame record (no end record).
  EXPECT_NE(message(bytes.substr(0, bytes.size() - 7)).find("truncated"), std::string::npos);
  RecordStreamReader index(file, "the recording");
  const std::size_t after_frame_1 = index.entries()[2].offset + index.entries()[2].size;
  EXPECT_NE(message(bytes.substr(0, after_frame_1)).find("without its end record"),
            std::string::npos);
  // A flipped byte in the middle of frame 2's record.
  std::string flipped = bytes;
  flipped[index.entries()[3].offset + index.entries()[3].size / 2] ^= 0x20;
  const std::string corrupt = message(flipped);
  EXPECT_NE(corrupt.find("record 3: corrupt"), std::string::npos) << corrupt;
  EXPECT_NE(corrupt.find("bad.ssrec"), std::string::npos) << corrupt;
  // A frame of another recording spliced in.
  const fs::path other = record("other.ssrec", false);
  const std::string other_bytes = read(other);
  RecordStreamReader other_index(other, "the recording");
  std::string spliced = bytes.substr(0, index.entries()[1].offset);
  spliced += other_bytes.substr(other_index.entries()[1].offset, other_index.entries()[1].size);
  spliced += bytes.substr(index.entries()[2].offset);
  EXPECT_NE(message(spliced).find("built from other inputs"), std::string::npos);
  EXPECT_NE(message("# not a recording at all, but a longer text file of some kind\n")
                .find("no valid header"),
            std::string::npos);
  EXPECT_NE(message("").find("empty"), std::string::npos);
  EXPECT_NE(
      testing::error_message([&] { Recording(dir() / "missing.ssrec"); }).find("no such file"),
      std::string::npos);
}

TEST(RecordPayload, PackedBytesUnpackToThemselvesAndDoublesShrink) {
  std::string bytes;
  for (int i = 0; i < 1000; ++i) {
    const double v = 0.001 * i;
    bytes.append(reinterpret_cast<const char*>(&v), 8);
  }
  bytes += "tail";
  for (int level : {0, 1, 9})
    EXPECT_EQ(unpack_record_payload(pack_record_payload(bytes, level)), bytes);
  EXPECT_LT(pack_record_payload(bytes, 1).size(), bytes.size() / 2);
  std::string packed = pack_record_payload(bytes, 1);
  packed.resize(packed.size() - 10);
  EXPECT_NE(testing::error_message([&] { unpack_record_payload(packed); }).find("corrupt"),
            std::string::npos);
}

TEST(DomainRanges, ParseListsAndRangesAndSayWhatIsWrong) {
  EXPECT_EQ(parse_domain_ranges("3-5,1,4", 10), (std::vector<int>{1, 3, 4, 5}));
  EXPECT_EQ(parse_domain_ranges("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_NE(testing::error_message([] { parse_domain_ranges("2-12", 10); }).find("0…9"),
            std::string::npos);
  EXPECT_NE(testing::error_message([] { parse_domain_ranges("5-2", 10); }).find("ends before"),
            std::string::npos);
  EXPECT_NE(testing::error_message([] { parse_domain_ranges("x", 10); }).find("'x'"),
            std::string::npos);
}

}  // namespace
}  // namespace substruct
