// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The OpenSceneGraph nodes that show a lane's simulation: the render surface (coloured plain, by
// domain, by displacement or by its error against a reference lane), the interface and fixed
// vertices as points, and the mouse spring as a line. A ghost is the surface alone, translucent or
// as a wireframe. The surface is drawn by the GPU path ([view] geometry = gpu, gpu_surface.hpp:
// a vertex shader evaluates the reduced geometry) where it can, else from the positions and
// smooth normals the geometry plugin computes every frame (the CPU path).
#include <osg/Geode>
#include <osg/Geometry>
#include <osg/Group>
#include <osg/ref_ptr>

#include <optional>

#include "gpu_surface.hpp"
#include "substruct/sim/simulation.hpp"
#include "viewer_options.hpp"

namespace substruct::viewer {

class Lane;

/// The error colours' scale: |y − y_ref| over the reference's largest displacement so far, at
/// least 10⁻³ of the object's size (the colours of a motion that has barely started stay calm).
double error_scale(double reference_largest_displacement, double object_size);

/// The colour of a domain (grey for −1): distinct for neighbouring ids, hues spaced by the golden
/// ratio.
osg::Vec4 domain_colour(int domain);

/// The heat colour of s ∈ [0, 1] (blue 0 → cyan → green → yellow → red 1), as the legend shows.
osg::Vec4 heat_colour(double s);

class SceneGraph {
 public:
  SceneGraph() : SceneGraph(std::nullopt) {}
  /// With a style: a ghost, the surface only, drawn over other surfaces in that style.
  explicit SceneGraph(std::optional<GhostStyle> ghost);
  osg::Group* root() const { return root_.get(); }
  /// The node drawing the surface (what the shadow pass draws).
  osg::Node* surface_node() const { return surface_node_.get(); }
  /// The surface with the lane's current positions, for picking (the CPU path's geometry).
  osg::Node* pick_surface(Lane& lane);

  /// What the context offers the GPU path (before rebuild()).
  void set_gpu_capability(const GpuCapability& gpu) { gpu_capability_ = gpu; }
  /// The surface is drawn by the GPU path now (not for the displacement and error colourings).
  bool gpu_drawn() const { return gpu_drawn_; }
  /// The GPU path's surface, when the lane's method can be drawn so (null otherwise).
  const GpuSurface* gpu() const { return gpu_ ? &*gpu_ : nullptr; }

  /// Builds the nodes for a (new) simulation of the lane.
  void rebuild(Lane& lane);
  /// Copies the lane's current render state (Lane::update_render()) into the nodes; `reference`
  /// (with its render state updated) is what the error colouring measures against.
  void update(Lane& lane, const Lane* reference);

  void set_colouring(Colouring c) { colouring_ = c; }
  Colouring colouring() const { return colouring_; }
  /// The displacement colouring's scale [m] (its largest displacement so far).
  double displacement_scale() const { return displacement_scale_; }
  void set_show_interfaces(bool on);
  /// Interfaces shown unless told otherwise: for scenes of up to 32 domains.
  void set_default_interfaces(std::optional<bool> on) { interfaces_option_ = on; }
  void set_show_fixed(bool on);
  bool show_interfaces() const { return show_interfaces_; }
  bool show_fixed() const { return show_fixed_; }

  /// The volumetric vertex nearest to a picked triangle corner of the surface.
  Index volumetric_vertex(unsigned render_vertex) const;
  /// World bounding box of the surface at rest: centre and extents.
  Vec3 rest_center() const { return rest_center_; }
  Vec3 rest_extent() const { return rest_extent_; }

 private:
  void colour(const Lane& lane, const Lane* reference);
  // Draws the surface by the GPU path or the CPU path.
  void draw_on_gpu(bool on);
  // The CPU path's arrays from the lane's render state (computed when not current).
  void copy_render_state(Lane& lane);
  // Builds the GPU path for the lane's simulation; the reason it cannot, else empty.
  std::string build_gpu(Lane& lane);

  osg::ref_ptr<osg::Group> root_;
  osg::ref_ptr<osg::Group> surface_node_;   // the CPU geode or the GPU path's node
  osg::ref_ptr<osg::Geode> surface_geode_;  // the CPU path's surface
  std::optional<GpuSurface> gpu_;
  GpuCapability gpu_capability_;
  bool gpu_drawn_ = false;
  osg::ref_ptr<osg::Geometry> surface_, interfaces_, fixed_, spring_line_;
  osg::ref_ptr<osg::Vec3Array> vertices_, normals_;
  osg::ref_ptr<osg::Vec4Array> colours_;
  std::vector<Index> interface_vertices_, fixed_vertices_;
  std::vector<Index> dominant_;  // render vertex → volumetric vertex
  Colouring colouring_ = Colouring::domains;
  std::optional<Colouring> coloured_as_;  // what the colour array holds
  std::optional<GhostStyle> ghost_;
  bool show_interfaces_ = true, show_fixed_ = true;
  std::optional<bool> interfaces_option_;
  bool built_ = false;
  double displacement_scale_ = 0;
  Vec3 rest_center_ = Vec3::Zero(), rest_extent_ = Vec3::Ones();
};

}  // namespace substruct::viewer
