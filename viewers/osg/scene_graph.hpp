#pragma once
// The OpenSceneGraph nodes that show a simulation: the render surface (positions and smooth
// normals from the geometry plugin every frame, coloured plain, by domain or by displacement),
// the interface and fixed vertices as points, and the mouse spring as a line.
#include <osg/Geode>
#include <osg/Geometry>
#include <osg/Group>
#include <osg/ref_ptr>

#include <optional>

#include "substruct/sim/simulation.hpp"
#include "viewer_options.hpp"

namespace substruct::viewer {

class DragSpring;

class SceneGraph {
 public:
  SceneGraph();
  osg::Group* root() const { return root_.get(); }
  /// The node holding the surface (what picking intersects).
  osg::Node* surface_node() const { return surface_geode_.get(); }

  /// Builds the nodes for a (new) simulation's scene.
  void rebuild(Simulation& sim);
  /// Copies the current state into the nodes.
  void update(Simulation& sim, const DragSpring* spring);

  void set_colouring(Colouring c) { colouring_ = c; }
  Colouring colouring() const { return colouring_; }
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
  void colour(const Simulation& sim);

  osg::ref_ptr<osg::Group> root_;
  osg::ref_ptr<osg::Geode> surface_geode_;
  osg::ref_ptr<osg::Geometry> surface_, interfaces_, fixed_, spring_line_;
  osg::ref_ptr<osg::Vec3Array> vertices_, normals_;
  osg::ref_ptr<osg::Vec4Array> colours_;
  std::vector<Index> interface_vertices_, fixed_vertices_;
  std::vector<Index> dominant_;  // render vertex → volumetric vertex
  Points render_x_, render_n_, rest_y_;
  Colouring colouring_ = Colouring::domains;
  bool show_interfaces_ = true, show_fixed_ = true;
  std::optional<bool> interfaces_option_;
  bool built_ = false;
  double displacement_scale_ = 0;
  Vec3 rest_center_ = Vec3::Zero(), rest_extent_ = Vec3::Ones();
};

}  // namespace substruct::viewer
