// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The looks of a viewport, so that a still reads as a picture: a vertical background gradient, a
// ground plane below the object (orthogonal to gravity) that fades out at its rim, and a soft
// shadow on it. The shadow is the object seen from straight above, rendered each frame into a
// small texture (a pre-render camera) that the ground's colour is multiplied by; its texels,
// filtered, soften its edge.
#include <optional>
#include <osg/Camera>
#include <osg/Group>
#include <osg/Texture2D>
#include <osg/ref_ptr>

#include "substruct/core/types.hpp"

namespace substruct::viewer {

class Backdrop {
 public:
  Backdrop();
  /// The nodes to add beside the object: the gradient, the ground and the shadow camera.
  osg::Group* root() const { return root_.get(); }
  /// Places the ground under the object's rest box (centre, extents) against `up` (unit), or on
  /// the plane up·x = `ground` when given (a [contact] ground), and renders `object` into the
  /// shadow.
  void place(const Vec3& center, const Vec3& extent, const Vec3& up, osg::Node* object,
             std::optional<double> ground = std::nullopt);

 private:
  osg::ref_ptr<osg::Group> root_;
  osg::ref_ptr<osg::Camera> shadow_camera_;
  osg::ref_ptr<osg::Texture2D> shadow_;
  osg::ref_ptr<osg::Geode> ground_;
};

}  // namespace substruct::viewer
