// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <osg/CullFace>
#include <osg/Geode>
#include <osg/Geometry>
#include <osg/LightModel>
#include <osg/Material>
#include <osgGA/GUIEventHandler>
#include <osgGA/TrackballManipulator>
#include <osgViewer/Viewer>

#include "camera_framing.hpp"
#include "graphics_context.hpp"
#include "headless_capture.hpp"
#include "scene_graph.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/interrupt.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/geometry/render_surface.hpp"
#include "substruct/sim/recording.hpp"
#include "video_recorder.hpp"
#include "viewports.hpp"

namespace substruct::viewer {
namespace {

// The recorded surface: its nodes and the state of the frame shown.
class ReplaySurface {
 public:
  ReplaySurface(Recording& recording, Colouring colouring)
      : recording_(recording),
        surface_(render_surface(recording.run().mesh, recording.run().render_mesh
                                                          ? &*recording.run().render_mesh
                                                          : nullptr)) {
    const RecordedRun& run = recording.run();
    const auto n = static_cast<unsigned>(surface_.num_vertices());
    geometry_ = new osg::Geometry;
    geometry_->setUseVertexBufferObjects(true);
    geometry_->setDataVariance(osg::Object::DYNAMIC);
    vertices_ = new osg::Vec3Array(n);
    normals_ = new osg::Vec3Array(n);
    auto* colours = new osg::Vec4Array(n);
    geometry_->setVertexArray(vertices_);
    geometry_->setNormalArray(normals_, osg::Array::BIND_PER_VERTEX);
    geometry_->setColorArray(colours, osg::Array::BIND_PER_VERTEX);
    auto* triangles = new osg::DrawElementsUInt(GL_TRIANGLES);
    triangles->reserve(static_cast<std::size_t>(3 * surface_.triangles.rows()));
    for (Eigen::Index t = 0; t < surface_.triangles.rows(); ++t)
      for (int a = 0; a < 3; ++a)
        triangles->push_back(static_cast<unsigned>(surface_.triangles(t, a)));
    geometry_->addPrimitiveSet(triangles);

    // Each volumetric vertex's lowest domain, each render vertex coloured by its dominant one's.
    std::vector<int> vertex_domain(std::size_t(run.mesh.num_vertices()), -1);
    for (Index e = 0; e < run.mesh.num_elements(); ++e) {
      const int d = run.domain.empty() ? 0 : run.domain[std::size_t(e)];
      for (int k = 0; k < 4; ++k) {
        int& v = vertex_domain[std::size_t(run.mesh.tets(e, k))];
        v = v < 0 ? d : std::min(v, d);
      }
    }
    const osg::Vec4 plain{0.72f, 0.78f, 0.86f, 1.f};
    for (unsigned k = 0; k < n; ++k)
      (*colours)[k] = colouring == Colouring::plain
                          ? plain
                          : domain_colour(vertex_domain[std::size_t(
                                surface_.embedding.dominant_vertex(static_cast<Index>(k)))]);

    osg::StateSet* ss = geometry_->getOrCreateStateSet();
    auto* material = new osg::Material;
    material->setColorMode(osg::Material::AMBIENT_AND_DIFFUSE);
    material->setSpecular(osg::Material::FRONT_AND_BACK, osg::Vec4(0.25f, 0.25f, 0.25f, 1.f));
    material->setShininess(osg::Material::FRONT_AND_BACK, 24.f);
    ss->setAttributeAndModes(material);
    auto* light_model = new osg::LightModel;
    light_model->setTwoSided(true);
    ss->setAttributeAndModes(light_model);
    ss->setMode(GL_NORMALIZE, osg::StateAttribute::ON);
    if (surface_.closed) ss->setAttributeAndModes(new osg::CullFace(osg::CullFace::BACK));
    root_ = new osg::Geode;
    root_->addDrawable(geometry_);

    Points rest;
    embedded_positions(surface_.embedding, run.mesh.vertices, rest);
    const Vec3 lo = rest.colwise().minCoeff().transpose();
    const Vec3 hi = rest.colwise().maxCoeff().transpose();
    center_ = 0.5 * (lo + hi);
    extent_ = (hi - lo).cwiseMax(1e-9);
  }

  osg::Node* root() const { return root_.get(); }
  const Vec3& center() const { return center_; }
  const Vec3& extent() const { return extent_; }

  /// Shows recorded frame `frame`: x from the recording, the render surface's y = embedding(x)
  /// and its normals.
  void show(std::size_t frame) {
    recording_.state(frame, x_, nullptr);
    embedded_positions(surface_.embedding, x_, y_);
    vertex_normals(y_, surface_.triangles, n_);
    for (Index k = 0; k < y_.rows(); ++k) {
      (*vertices_)[unsigned(k)].set(float(y_(k, 0)), float(y_(k, 1)), float(y_(k, 2)));
      (*normals_)[unsigned(k)].set(float(n_(k, 0)), float(n_(k, 1)), float(n_(k, 2)));
    }
    vertices_->dirty();
    normals_->dirty();
    geometry_->dirtyBound();
  }

 private:
  Recording& recording_;
  RenderSurface surface_;
  osg::ref_ptr<osg::Geode> root_;
  osg::ref_ptr<osg::Geometry> geometry_;
  osg::ref_ptr<osg::Vec3Array> vertices_, normals_;
  Points x_, y_, n_;
  Vec3 center_, extent_;
};

void place_camera(osg::Camera& camera, const ReplaySurface& surface, const Vec3& up,
                  const ViewerOptions& o, osgGA::TrackballManipulator* manipulator) {
  const double aspect = double(o.width) / std::max(o.height, 1);
  const CameraPose pose =
      frame_box(surface.center(), surface.extent(), -up, aspect, Viewports::kFovy);
  const double size = std::max(surface.extent().norm(), 1e-6);
  const double distance =
      (pose.eye - osg::Vec3d(surface.center().x(), surface.center().y(), surface.center().z()))
          .length();
  const double far = distance + 3.0 * size;
  camera.setProjectionMatrixAsPerspective(Viewports::kFovy, aspect,
                                          std::max(distance - 3.0 * size, 1e-3 * far), far);
  camera.setComputeNearFarMode(osg::CullSettings::DO_NOT_COMPUTE_NEAR_FAR);
  if (manipulator != nullptr) {
    manipulator->setHomePosition(pose.eye, pose.center, pose.up);
    manipulator->home(0.0);
  } else {
    camera.setViewMatrixAsLookAt(pose.eye, pose.center, pose.up);
  }
}

// The frames' rate in a video: the recorded time between frames, so that it plays in real time.
double frames_per_second(const Recording& recording) {
  if (recording.frames() < 2) return 60.0;
  const double span = recording.time(recording.frames() - 1) - recording.time(0);
  return span > 0 ? double(recording.frames() - 1) / span : 60.0;
}

int replay_headless(const ViewerOptions& o, Recording& recording, ReplaySurface& surface) {
  osgViewer::Viewer viewer;
  viewer.setThreadingModel(osgViewer::Viewer::SingleThreaded);
  osg::ref_ptr<osg::GraphicsContext> context = create_context(o, true);
  osg::Camera* camera = viewer.getCamera();
  configure_camera(*camera, context.get(), o);
  osg::ref_ptr<FrameCapture> capture = new FrameCapture(o.width, o.height);
  camera->setFinalDrawCallback(capture.get());
  viewer.setSceneData(surface.root());
  place_camera(*camera, surface, recording.run().up, o, nullptr);
  viewer.realize();

  const long last =
      std::min<long>(o.frames.value_or(long(recording.frames()) - 1), long(recording.frames()) - 1);
  std::optional<VideoRecorder> video;
  if (!o.record.empty()) video.emplace(o.record, o.width, o.height, frames_per_second(recording));
  std::vector<double> frame_ms;
  for (long f = 0; f <= last; ++f) {
    check_interrupt();
    const auto start = Clock::now();
    surface.show(std::size_t(f));
    const bool keep = f == last || !o.frame_sequence.empty() || video;
    if (keep) capture->arm();
    viewer.frame();
    if (keep && !capture->captured()) throw Error("the rendered frame could not be read back");
    if (!o.frame_sequence.empty())
      write_png(capture->image(), o.frame_sequence / fmt::format("frame_{:04d}.png", f));
    if (video) video->add(capture->image());
    frame_ms.push_back(1e3 * seconds_since(start));
  }
  if (!o.screenshot.empty()) write_png(capture->image(), o.screenshot);
  if (video) video->finish();
  std::sort(frame_ms.begin(), frame_ms.end());
  std::printf("replay     %s: scene %s, method %s, %ld of %zu frames, t = %.6g s last\n",
              o.replay.c_str(), recording.run().scene.c_str(), recording.run().method.c_str(),
              last + 1, recording.frames(), recording.time(std::size_t(last)));
  if (!frame_ms.empty())
    std::printf("frame      %.2f ms median (positions from the recording, scene graph, drawing)\n",
                frame_ms[frame_ms.size() / 2]);
  if (!o.screenshot.empty())
    std::printf("screenshot %s (%d×%d)\n",
                std::filesystem::absolute(o.screenshot).lexically_normal().c_str(), o.width,
                o.height);
  if (video)
    std::printf("video      %s (%ld frames)\n",
                std::filesystem::absolute(o.record).lexically_normal().c_str(), video->frames());
  return 0;
}

// Space pauses and resumes the playback.
class PauseKey final : public osgGA::GUIEventHandler {
 public:
  bool handle(const osgGA::GUIEventAdapter& ea, osgGA::GUIActionAdapter&) override {
    if (ea.getEventType() != osgGA::GUIEventAdapter::KEYDOWN || ea.getKey() != ' ') return false;
    paused = !paused;
    return true;
  }
  bool paused = false;
};

int replay_interactive(const ViewerOptions& o, Recording& recording, ReplaySurface& surface) {
  osgViewer::Viewer viewer;
  viewer.setThreadingModel(osgViewer::Viewer::SingleThreaded);
  osg::ref_ptr<osg::GraphicsContext> context = create_context(o, false);
  osg::Camera* camera = viewer.getCamera();
  configure_camera(*camera, context.get(), o);
  viewer.setSceneData(surface.root());
  osg::ref_ptr<osgGA::TrackballManipulator> manipulator = new osgGA::TrackballManipulator;
  manipulator->setAutoComputeHomePosition(false);
  viewer.setCameraManipulator(manipulator.get(), false);
  osg::ref_ptr<PauseKey> keys = new PauseKey;
  viewer.addEventHandler(keys.get());
  place_camera(*camera, surface, recording.run().up, o, manipulator.get());
  viewer.realize();
  std::printf("replaying  %s: %zu frames, looping (space pauses, Esc quits)\n", o.replay.c_str(),
              recording.frames());
  std::fflush(stdout);

  // The recorded frame whose time has come, in real time from the first frame, looping.
  const double t0 = recording.time(0), span = recording.time(recording.frames() - 1) - t0;
  double played = 0;  // recorded seconds since t0
  std::size_t shown = recording.frames();
  auto last = Clock::now();
  while (!viewer.done() && interrupt_signal() == 0) {
    const double wall = seconds_since(last);
    last = Clock::now();
    if (!keys->paused) played = span > 0 ? std::fmod(played + wall, span) : 0;
    const std::vector<double>& times = recording.times();
    const auto at = std::upper_bound(times.begin(), times.end(), t0 + played);
    const std::size_t frame = std::size_t(std::max<std::ptrdiff_t>(at - times.begin() - 1, 0));
    if (frame != shown) surface.show(frame);
    shown = frame;
    viewer.frame();
  }
  return interrupt_signal() != 0 ? 128 + interrupt_signal() : 0;
}

}  // namespace

int run_replay(const ViewerOptions& o) {
  if (o.colouring != Colouring::plain && o.colouring != Colouring::domains)
    throw Error(fmt::format("view --replay: --colour {} is not recorded (plain or domains)",
                            to_string(o.colouring)));
  Recording recording(o.replay);
  if (recording.frames() == 0)
    throw Error(fmt::format("view --replay: {} holds no frame", o.replay.string()));
  ReplaySurface surface(recording, o.colouring);
  return o.headless() ? replay_headless(o, recording, surface)
                      : replay_interactive(o, recording, surface);
}

}  // namespace substruct::viewer
