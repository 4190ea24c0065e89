// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The [contact] stage in a viewport: each obstacle as a translucent shape (a plane as a disc
// around the object, a sphere, a capsule, a box, a mesh's surface) moved along its keyframe
// track, and the vertices that touch an obstacle (those the last step gave a contact force) as
// red points drawn over everything, so that a contact hidden under the object still shows.
#include <optional>
#include <osg/Geometry>
#include <osg/Group>
#include <osg/MatrixTransform>
#include <osg/ref_ptr>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {
class ContactService;
class Simulation;
}  // namespace substruct

namespace substruct::viewer {

class ContactView {
 public:
  ContactView();
  osg::Group* root() const { return root_.get(); }

  /// The obstacles of `contact` (null: none) for an object around `center` of size `size` [m];
  /// a plane whose normal is `skip_plane_along` (the backdrop's ground lies on it) is not drawn.
  void rebuild(const ContactService* contact, const Vec3& center, double size,
               const Vec3& skip_plane_along = Vec3::Zero());
  /// The obstacles at the simulation's time and its touching vertices at their positions.
  void update(const Simulation& sim);
  void set_shown(bool on);
  /// The touching vertices drawn by the last update().
  std::size_t points() const { return points_; }

 private:
  osg::ref_ptr<osg::Group> root_;
  osg::ref_ptr<osg::Group> shapes_;
  std::vector<osg::ref_ptr<osg::MatrixTransform>> moved_;  // per obstacle (null: not drawn)
  osg::ref_ptr<osg::Geometry> contacts_;
  std::size_t points_ = 0;
};

/// The plane obstacle of `contact` on which the ground of a viewport with `up` (unit) lies: its
/// offset D of up·x = D, when a fixed one has a normal within 1° of up.
std::optional<double> ground_plane_along(const ContactService* contact, const Vec3& up);

}  // namespace substruct::viewer
