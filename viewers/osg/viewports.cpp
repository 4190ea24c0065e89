// SPDX-License-Identifier: GPL-3.0-or-later
#include "viewports.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "camera_framing.hpp"
#include "substruct/core/error.hpp"

namespace substruct::viewer {

Viewports::Viewports(const ViewerOptions& options, Session& session, osg::Camera& camera,
                     const GpuCapability& gpu)
    : options_(options),
      session_(session),
      camera_(camera),
      root_(new osg::Group),
      hud_(options.width, options.height),
      colouring_(options.colouring),
      contacts_shown_(options.show_contacts),
      width_(options.width),
      height_(options.height) {
  for (std::size_t k = 0; k < session.viewed(); ++k) {
    views_.push_back(std::make_unique<LaneView>(options, options.looks));
    views_.back()->graph().set_gpu_capability(gpu);
    root_->addChild(views_.back()->camera());
  }
  built_generation_.assign(views_.size(), -1);
  if (session.ghost() != nullptr) {
    ghost_ = std::make_unique<SceneGraph>(options.ghost_style);
    ghost_->set_gpu_capability(gpu);
  }
  if (options.hud) root_->addChild(hud_.camera());
  hud_.set_top_margin(kTitleBand);  // below the viewports' titles
  // The viewports and the HUDs set their own; the window camera only clears.
  camera_.setComputeNearFarMode(osg::CullSettings::DO_NOT_COMPUTE_NEAR_FAR);
  camera_.setProjectionResizePolicy(osg::Camera::FIXED);
  resize(width_, height_);
}

int Viewports::view_at(double x, double y) const {
  for (std::size_t k = 0; k < views_.size(); ++k)
    if (views_[k]->viewport().contains(x, y)) return static_cast<int>(k);
  return -1;
}

osg::Vec2d Viewports::window_point(const osgGA::GUIEventAdapter& ea) const {
  return {0.5 * (ea.getXnormalized() + 1) * width_, 0.5 * (ea.getYnormalized() + 1) * height_};
}

void Viewports::resize(int width, int height) {
  width_ = width;
  height_ = height;
  const std::vector<ViewportRect> rects = viewport_grid(views_.size(), width, height);
  for (std::size_t k = 0; k < views_.size(); ++k) views_[k]->place(rects[k]);
  hud_.resize(width, height);
  update_depth_range();
}

bool Viewports::rebuild_changed() {
  bool first = false;
  for (std::size_t k = 0; k < views_.size(); ++k) {
    Lane& lane = session_.lane(k);
    if (!lane.ready() || built_generation_[k] == lane.generation()) continue;
    views_[k]->rebuild(lane, scene_up(lane.sim()));
    views_[k]->graph().set_colouring(colouring_);
    built_generation_[k] = lane.generation();
    if (k == 0 && !framed_) first = framed_ = true;
  }
  Lane* ghost = session_.ghost();
  if (ghost_ && ghost != nullptr && ghost->ready() && ghost->generation() != ghost_generation_) {
    ghost_->rebuild(*ghost);
    ghost_generation_ = ghost->generation();
    // Over every viewport but the ghost's own method's.
    for (std::size_t k = 0; k < views_.size(); ++k) {
      views_[k]->set_ghost(&session_.lane(k) == ghost ? nullptr : ghost_->root());
      views_[k]->show_ghost(ghost_shown_);
    }
  }
  return first;
}

void Viewports::home_pose(osg::Vec3d& eye, osg::Vec3d& centre, osg::Vec3d& up) const {
  const SceneGraph& graph = views_.front()->graph();
  const ViewportRect& rect = views_.front()->viewport();
  Lane& lane = session_.lane(0);
  const Vec3 gravity = lane.ready() ? Vec3(-scene_up(lane.sim())) : Vec3::Zero();
  const CameraPose pose = frame_box(graph.rest_center(), graph.rest_extent(), gravity,
                                    double(rect.width) / std::max(rect.height, 1), kFovy);
  eye = pose.eye;
  centre = pose.center;
  up = pose.up;
}

void Viewports::update_depth_range() {
  const ViewportRect& rect = views_.front()->viewport();
  const double aspect = double(rect.width) / std::max(rect.height, 1);
  const SceneGraph& graph = views_.front()->graph();
  const double size = std::max(graph.rest_extent().norm(), 1e-6);
  osg::Vec3d eye, centre, up;
  camera_.getViewMatrixAsLookAt(eye, centre, up);
  const Vec3 c = graph.rest_center();
  const double distance = (Vec3(eye.x(), eye.y(), eye.z()) - c).norm();
  // The object, its ground (1.5 sizes around it) and the ghost fit between near and far.
  const double far = distance + 3.0 * size;
  const double near = std::max(distance - 3.0 * size, 1e-3 * far);
  camera_.setProjectionMatrixAsPerspective(kFovy, aspect, near, far);
}

void Viewports::update(int steps_per_frame, double ms_per_frame) {
  Lane* reference = session_.reference();
  Lane* ghost = session_.ghost();
  // The render states needed this frame (update_render does nothing when a lane's is current:
  // the pool made it after the steps, or another view asked for it already).
  // A lane drawn by the GPU path needs none, unless another view reads its positions.
  for (std::size_t k = 0; k < session_.lanes(); ++k) session_.lane(k).set_render_on_cpu(false);
  auto refresh = [](Lane* lane) {
    if (lane == nullptr || !lane->ready()) return;
    lane->set_render_on_cpu(true);
    lane->update_render();
  };
  for (std::size_t k = 0; k < views_.size(); ++k)
    if (!views_[k]->graph().gpu_drawn()) refresh(&session_.lane(k));
  if (ghost_ && ghost_shown_ && !ghost_->gpu_drawn()) refresh(ghost);
  if (colouring_ == Colouring::error) refresh(reference);

  const Simulation* any = nullptr;
  for (std::size_t k = 0; k < views_.size(); ++k) {
    Lane& lane = session_.lane(k);
    LaneView& view = *views_[k];
    LaneHudState h;
    h.method = lane.method();
    h.reference = reference != nullptr ? reference->method() : std::string();
    h.is_reference = reference == &lane;
    h.colouring = colouring_;
    if (!lane.ready()) {
      h.centre =
          lane.failure().empty() ? fmt::format("loading {} …", lane.method()) : lane.failure();
      view.hud().update(h);
      continue;
    }
    any = &lane.sim();
    if (built_generation_[k] == lane.generation()) {
      view.graph().update(lane, reference != nullptr && reference->ready() ? reference : nullptr);
      view.contacts().update(lane.sim());
    }
    h.dofs = lane.sim().method().dofs();
    h.ms_per_step = lane.ms_per_step();
    h.centre = lane.failure();
    h.error = lane.error().value();
    h.error_frames = lane.error().frames();
    h.interface_gap = lane.sim().method().interface_gap();
    h.size = lane.sim().scene().size();
    h.time = lane.sim().time();
    h.history = &lane.history();
    if (reference != nullptr && reference->ready()) h.reference_history = &reference->history();
    if (colouring_ == Colouring::error && reference != nullptr && reference->ready())
      h.colour_scale =
          error_scale(reference->largest_render_displacement(), lane.sim().scene().size());
    else if (colouring_ == Colouring::displacement)
      h.colour_scale = view.graph().displacement_scale();
    view.hud().update(h);
  }
  if (ghost_ && ghost != nullptr && ghost->ready() && ghost_generation_ == ghost->generation())
    ghost_->update(*ghost, nullptr);

  HudState s;
  s.loading = session_.loading();
  s.message = session_.message();
  s.progress = session_.progress();
  s.gravity = session_.gravity();
  s.wind = session_.wind();
  s.paused = session_.paused();
  s.colouring = to_string(colouring_);
  s.drag_stiffness = session_.drag_stiffness();
  s.steps_per_frame = steps_per_frame;
  s.ms_per_frame = ms_per_frame;
  s.ghost = ghost_shown_;
  if (ghost != nullptr && ghost_) s.ghost_method = ghost->method();
  if (any != nullptr) {
    s.scene = any->scene().name;
    s.vertices = any->scene().mesh.num_vertices();
    s.elements = any->scene().mesh.num_elements();
    s.domains = any->scene().num_domains();
    s.time = any->time();
  }
  Lane& first = session_.lane(0);
  if (first.ready() && first.spring() != nullptr && first.spring()->active())
    s.drag_force = first.spring()->force().norm();
  hud_.update(s);
  update_depth_range();
}

void Viewports::set_colouring(Colouring colouring) {
  colouring_ = colouring;
  for (auto& view : views_) view->graph().set_colouring(colouring);
}

void Viewports::toggle_ghost() {
  ghost_shown_ = !ghost_shown_;
  for (auto& view : views_) view->show_ghost(ghost_shown_);
  session_.set_message(!ghost_        ? "no ghost: --ghost METHOD draws one"
                       : ghost_shown_ ? "ghost shown"
                                      : "ghost hidden");
}

void Viewports::toggle_interfaces() {
  for (auto& view : views_) view->graph().set_show_interfaces(!view->graph().show_interfaces());
}

void Viewports::toggle_fixed() {
  for (auto& view : views_) view->graph().set_show_fixed(!view->graph().show_fixed());
}

void Viewports::toggle_contacts() {
  contacts_shown_ = !contacts_shown_;
  for (auto& view : views_) view->contacts().set_shown(contacts_shown_);
}

std::string Viewports::hud_text() const {
  std::string text = hud_.text();
  for (std::size_t k = 0; k < views_.size(); ++k)
    text += fmt::format("\n[viewport {}] {}", k + 1, views_[k]->hud().text());
  return text;
}

}  // namespace substruct::viewer
