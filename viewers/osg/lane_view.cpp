// SPDX-License-Identifier: GPL-3.0-or-later
#include "lane_view.hpp"

#include <algorithm>

#include "lane.hpp"

namespace substruct::viewer {

std::vector<ViewportRect> viewport_grid(std::size_t count, int width, int height) {
  std::vector<ViewportRect> rects;
  if (count == 0) return rects;
  const int columns = static_cast<int>(std::min<std::size_t>(count, 3));
  const int rows = static_cast<int>((count + std::size_t(columns) - 1) / std::size_t(columns));
  const int w = width / columns, h = height / rows;
  for (int k = 0; k < static_cast<int>(count); ++k)
    rects.push_back({(k % columns) * w, height - (k / columns + 1) * h, w, h});
  return rects;
}

LaneView::LaneView(const ViewerOptions& options, bool looks)
    : camera_(new osg::Camera), ghost_(new osg::Switch) {
  // Relative to the window's camera with identity matrices: its view and projection.
  camera_->setReferenceFrame(osg::Transform::RELATIVE_RF);
  camera_->setViewMatrix(osg::Matrix::identity());
  camera_->setProjectionMatrix(osg::Matrix::identity());
  // Drawn inside the window camera's render pass (a render stage per viewport costs a software
  // renderer a good part of a frame): its viewport is a state attribute of what it draws; the
  // window's camera clears colour and depth once (viewports do not overlap).
  camera_->setRenderOrder(osg::Camera::NESTED_RENDER);
  camera_->setClearMask(0);
  // The window's camera sets the depth range (from the object's size and the eye's distance).
  camera_->setComputeNearFarMode(osg::CullSettings::DO_NOT_COMPUTE_NEAR_FAR);
  graph_.set_colouring(options.colouring);
  graph_.set_default_interfaces(options.show_interfaces);
  graph_.set_show_fixed(options.show_fixed);
  if (looks) {
    backdrop_.emplace();
    camera_->addChild(backdrop_->root());
  }
  camera_->addChild(graph_.root());
  contacts_.set_shown(options.show_contacts);
  camera_->addChild(contacts_.root());
  camera_->addChild(ghost_);
  if (options.hud) camera_->addChild(hud_.camera());
}

void LaneView::place(const ViewportRect& rect) {
  viewport_ = rect;
  camera_->setViewport(rect.x, rect.y, rect.width, rect.height);  // for picking and culling
  camera_->getOrCreateStateSet()->setAttribute(camera_->getViewport());
  hud_.place(rect.x, rect.y, rect.width, rect.height);
}

void LaneView::set_ghost(osg::Node* ghost) {
  ghost_->removeChildren(0, ghost_->getNumChildren());
  if (ghost != nullptr) ghost_->addChild(ghost, true);
}

void LaneView::show_ghost(bool on) {
  if (on)
    ghost_->setAllChildrenOn();
  else
    ghost_->setAllChildrenOff();
}

void LaneView::rebuild(Lane& lane, const Vec3& up) {
  graph_.rebuild(lane);
  const ContactService* contact = lane.sim().contact();
  const std::optional<double> ground = backdrop_ ? ground_plane_along(contact, up) : std::nullopt;
  if (backdrop_)
    backdrop_->place(graph_.rest_center(), graph_.rest_extent(), up, graph_.surface_node(), ground);
  contacts_.rebuild(contact, graph_.rest_center(), graph_.rest_extent().norm(),
                    ground ? up : Vec3::Zero());
}

}  // namespace substruct::viewer
