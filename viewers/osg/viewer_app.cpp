// SPDX-License-Identifier: GPL-3.0-or-later
// substruct-view: the OpenSceneGraph viewer behind `substruct view SCENE.ini`. It runs the scene's
// coupling method, or several side by side (--compare), through substruct::Simulation (the code
// path of `run`), draws the render surface the geometry plugin computes, and either opens a
// window (interactive) or renders `--frames N` frames off-screen and writes PNGs and videos
// (headless).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <osg/GraphicsContext>
#include <osgGA/TrackballManipulator>
#include <osgViewer/Viewer>

#include "camera_framing.hpp"
#include "commands.hpp"
#include "gpu_readback.hpp"
#include "gpu_surface.hpp"
#include "graphics_context.hpp"
#include "headless_capture.hpp"
#include "key_handler.hpp"
#include "pick_drag_handler.hpp"
#include "replay_view.hpp"
#include "session.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/coupling_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/interrupt.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "video_recorder.hpp"
#include "viewer_options.hpp"
#include "viewports.hpp"

namespace substruct::viewer {
namespace {

bool have_display() {
  const char* display = std::getenv("DISPLAY");
  return display != nullptr && display[0] != '\0';
}

int steps_per_frame(const ViewerOptions& o, Session& session) {
  if (o.steps_per_frame > 0) return o.steps_per_frame;
  // About real time at 60 frames per second.
  for (std::size_t k = 0; k < session.viewed(); ++k) {
    if (!session.lane(k).ready()) continue;
    const double dt = session.lane(k).sim().run_settings().dt;
    return std::max(1, static_cast<int>(std::lround(1.0 / (60.0 * dt))));
  }
  return 1;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n == 0 ? 0.0 : n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The video's rate: the simulated time of a frame, so that it plays in real time.
double frames_per_second(Session& session, int steps) {
  for (std::size_t k = 0; k < session.viewed(); ++k)
    if (session.lane(k).ready()) return 1.0 / (steps * session.lane(k).sim().run_settings().dt);
  return 60.0;
}

void place_camera(osg::Camera& camera, const Viewports& viewports,
                  osgGA::TrackballManipulator* manipulator) {
  osg::Vec3d eye, centre, up;
  viewports.home_pose(eye, centre, up);
  if (manipulator != nullptr) {
    manipulator->setHomePosition(eye, centre, up);
    manipulator->home(0.0);
  } else {
    camera.setViewMatrixAsLookAt(eye, centre, up);
  }
}

// The scene's method (coupling.plugin after the overrides); reading the config first also reports
// a bad scene file or key before any window opens.
std::string session_method(const ViewerOptions& o, const PluginHost& host) {
  return coupling_options().read(Config::load(o.scene.scene_file, o.scene.overrides, host)).plugin;
}

// Every named method must be a coupling plugin: a typo is an error before anything loads.
void check_methods(const ViewerOptions& o, const PluginHost& host) {
  std::vector<std::string> names = o.compare;
  for (const std::string* name : {&o.reference, &o.ghost})
    if (!name->empty()) names.push_back(*name);
  for (const std::string& name : names) {
    const PluginDescriptor* d = host.try_find(name);
    if (d == nullptr || d->kind != PluginKind::coupling) {
      std::string known;
      for (const PluginDescriptor* c : host.of_kind(PluginKind::coupling))
        known += (known.empty() ? "" : ", ") + std::string(c->name);
      throw Error(fmt::format("view: '{}' is not a coupling method (installed: {})", name, known));
    }
  }
}

// --check-geometry: each viewport's GPU-drawn vertices read back (one more frame) against the
// CPU path's render positions of the same state.
void check_geometry(osgViewer::Viewer& viewer, Viewports& viewports, Session& session) {
  for (std::size_t k = 0; k < session.viewed(); ++k) {
    Lane& lane = session.lane(k);
    const GpuSurface* gpu = viewports.view(k).graph().gpu();
    if (!lane.ready() || gpu == nullptr) {
      std::printf("check      %s: not drawn by the GPU path\n", lane.method().c_str());
      continue;
    }
    GpuReadback readback(*gpu);
    viewports.root()->addChild(readback.camera());
    viewer.frame();
    viewports.root()->removeChild(readback.camera());
    lane.update_render();
    const GpuReadbackResult r = readback.compare(*gpu, lane.render_positions());
    const double size = lane.sim().scene().size();
    const double moved =
        (lane.render_positions() - lane.render_rest()).rowwise().norm().maxCoeff() / size;
    std::printf(
        "check      %s: GPU vs CPU path: largest distance %.3g m = %.3g of the object's size "
        "over %zu drawn vertices (%zu not written), largest displacement %.3g of the size\n",
        lane.method().c_str(), r.largest_distance, r.largest_distance / size, r.vertices, r.missing,
        moved);
  }
}

int run_headless(const ViewerOptions& o, const PluginHost& host) {
  Session session(host, o, session_method(o, host));
  session.load(false);
  osgViewer::Viewer viewer;
  viewer.setThreadingModel(osgViewer::Viewer::SingleThreaded);
  osg::ref_ptr<osg::GraphicsContext> context = create_context(o, true);
  osg::Camera* camera = viewer.getCamera();
  configure_camera(*camera, context.get(), o);
  viewer.realize();  // the context, for the GPU path's probe before the scene is built
  const GpuCapability gpu = probe_gpu(*context);
  Viewports viewports(o, session, *camera, gpu);
  viewports.rebuild_changed();
  osg::ref_ptr<FrameCapture> capture = new FrameCapture(o.width, o.height);
  camera->setFinalDrawCallback(capture.get());
  viewer.setSceneData(viewports.root());
  place_camera(*camera, viewports, nullptr);
  if (o.drag) {
    viewer.addEventHandler(new PickDragHandler(session, viewports, true));
    // Scripted events in window pixels from the lower left.
    osgGA::GUIEventAdapter* state = viewer.getEventQueue()->getCurrentEventState();
    state->setInputRange(0, 0, float(o.width), float(o.height));
    state->setMouseYOrientation(osgGA::GUIEventAdapter::Y_INCREASING_UPWARDS);
  }

  const long frames = o.frames.value_or(0);
  const int steps = steps_per_frame(o, session);
  std::optional<VideoRecorder> video;
  if (!o.record.empty())
    video.emplace(o.record, o.width, o.height, frames_per_second(session, steps));
  double ms_per_frame = 0;
  // Per frame after the first: the steps' wall time and the rest (the viewer's own cost).
  std::vector<double> frame_ms, step_ms, viewer_ms;
  for (long f = 0; f <= frames; ++f) {
    check_interrupt();  // Ctrl-C: no partial video or image is left looking complete
    const auto start = Clock::now();
    if (f > 0) session.advance(steps);
    const double stepping = 1e3 * session.last_step_seconds();
    if (session.paused() && !o.paused)  // a divergence of the single viewed method
      throw Error(fmt::format("frame {}: {}", f, session.message()));
    if (o.drag && f >= o.drag->first && f <= o.drag->last) {
      const ScriptedDrag& d = *o.drag;
      const double s = double(f - d.first) / double(d.last - d.first);
      const auto x = float(d.from_x + s * (d.to_x - d.from_x));
      const auto y = float(d.from_y + s * (d.to_y - d.from_y));
      osgGA::EventQueue& events = *viewer.getEventQueue();
      if (f == d.first)
        events.mouseButtonPress(x, y, osgGA::GUIEventAdapter::LEFT_MOUSE_BUTTON);
      else if (f == d.last)
        events.mouseButtonRelease(x, y, osgGA::GUIEventAdapter::LEFT_MOUSE_BUTTON);
      else
        events.mouseMotion(x, y);
    }
    session.sample_plots();
    viewports.update(steps, ms_per_frame);
    // Read back only the frames that are kept (the readback is a large part of a frame).
    const bool keep = f == frames || !o.frame_sequence.empty() || video;
    if (keep) capture->arm();
    viewer.frame();
    if (keep && !capture->captured()) throw Error("the rendered frame could not be read back");
    if (!o.frame_sequence.empty())
      write_png(capture->image(), o.frame_sequence / fmt::format("frame_{:04d}.png", f));
    if (video) video->add(capture->image());
    if (o.print_hud) std::printf("hud frame %ld\n%s\n", f, viewports.hud_text().c_str());
    ms_per_frame = 1e3 * seconds_since(start);
    if (f > 0) {
      frame_ms.push_back(ms_per_frame);
      step_ms.push_back(stepping);
      viewer_ms.push_back(ms_per_frame - stepping);
    }
  }
  if (!o.screenshot.empty()) write_png(capture->image(), o.screenshot);
  if (video) video->finish();
  if (o.check_geometry) check_geometry(viewer, viewports, session);
  for (std::size_t k = 0; k < session.viewed(); ++k) {
    Lane& lane = session.lane(k);
    std::string error;
    if (session.reference() != nullptr && !session.is_reference(k) && lane.error().frames() > 0)
      error = fmt::format(", error vs {} {:.6g} of its motion, offset × {:.6g}",
                          session.reference()->method(), lane.error().value().relative_rms,
                          lane.error().value().offset_ratio);
    std::printf("view       %s, %s: %ld frame%s × %d step%s, %.3f ms/step%s%s\n",
                lane.ready() ? lane.sim().scene().name.c_str() : "-", lane.method().c_str(), frames,
                frames == 1 ? "" : "s", steps, steps == 1 ? "" : "s", lane.ms_per_step(),
                error.c_str(), lane.failure().empty() ? "" : (" — " + lane.failure()).c_str());
  }
  if (!viewer_ms.empty()) {
    const double stepping = median(step_ms), viewing = median(viewer_ms);
    std::printf(
        "frame      %.2f ms median: steps %.2f ms, viewer %.2f ms (%.2f ms per viewport: "
        "scene graph, drawing, HUD%s)\n",
        median(frame_ms), stepping, viewing, viewing / double(session.viewed()),
        o.frame_sequence.empty() && !video ? "" : ", readback");
  }
  if (!o.screenshot.empty())
    std::printf("screenshot %s (%d×%d)\n",
                std::filesystem::absolute(o.screenshot).lexically_normal().c_str(), o.width,
                o.height);
  if (!o.frame_sequence.empty())
    std::printf("frames     %s/frame_0000.png … frame_%04ld.png\n",
                std::filesystem::absolute(o.frame_sequence).lexically_normal().c_str(), frames);
  if (video)
    std::printf("video      %s (%ld frames at %.4g frames/s)\n",
                std::filesystem::absolute(o.record).lexically_normal().c_str(), video->frames(),
                frames_per_second(session, steps));
  return 0;
}

int run_interactive(const ViewerOptions& o, const PluginHost& host) {
  Session session(host, o, session_method(o, host));
  session.load(true);
  osgViewer::Viewer viewer;
  viewer.setThreadingModel(osgViewer::Viewer::SingleThreaded);
  osg::ref_ptr<osg::GraphicsContext> context = create_context(o, false);
  osg::Camera* camera = viewer.getCamera();
  configure_camera(*camera, context.get(), o);
  viewer.realize();  // the context, for the GPU path's probe before the scene is built
  const GpuCapability gpu = probe_gpu(*context);
  Viewports viewports(o, session, *camera, gpu);
  osg::ref_ptr<FrameCapture> capture = new FrameCapture(o.width, o.height);
  if (!o.record.empty()) camera->setFinalDrawCallback(capture.get());
  viewer.setSceneData(viewports.root());

  // A left-drag that picked the object is the spring's, not the camera's.
  osg::ref_ptr<CameraManipulator> manipulator = new CameraManipulator;
  manipulator->setAutoComputeHomePosition(false);
  viewer.setCameraManipulator(manipulator.get(), false);
  osg::ref_ptr<KeyHandler> keys = new KeyHandler(session, viewports);
  viewer.addEventHandler(keys.get());
  viewer.addEventHandler(new PickDragHandler(session, viewports));

  double ms_per_frame = 0;
  int steps = 1;
  std::optional<VideoRecorder> video;
  bool announced = false;
  // Esc or closing the window ends it; so does Ctrl-C (or kill), after finishing the video.
  while (!viewer.done() && interrupt_signal() == 0) {
    const auto start = Clock::now();
    session.poll();
    if (viewports.rebuild_changed()) place_camera(*camera, viewports, manipulator.get());
    if (session.ready() && !announced) {
      std::string methods;
      for (std::size_t k = 0; k < session.viewed(); ++k)
        methods += (k > 0 ? ", " : "") + session.lane(k).method() +
                   (session.lane(k).failure().empty() ? "" : " (cannot run)");
      std::printf("running    %s (Esc quits)\n", methods.c_str());
      std::fflush(stdout);
      announced = true;
    }
    if (session.ready()) {
      steps = steps_per_frame(o, session);
      const bool single = keys->take_step_request();
      if (single) {
        session.set_paused(false);
        session.advance(1);
        session.set_paused(true);
      } else {
        session.advance(steps);
      }
      session.sample_plots();
      if (!o.record.empty() && !video)
        video.emplace(o.record, o.width, o.height, frames_per_second(session, steps));
    }
    viewports.update(steps, ms_per_frame);
    // The recording keeps the window's first size (ffmpeg's frames have one size).
    const bool record = video && camera->getViewport()->width() == o.width &&
                        camera->getViewport()->height() == o.height;
    if (record) capture->arm();
    viewer.frame();
    if (record && capture->captured()) video->add(capture->image());
    ms_per_frame = 1e3 * seconds_since(start);
  }
  if (video) {
    video->finish();
    std::printf("video      %s (%ld frames)\n",
                std::filesystem::absolute(o.record).lexically_normal().c_str(), video->frames());
  }
  return interrupt_signal() != 0 ? 128 + interrupt_signal() : 0;
}

}  // namespace
}  // namespace substruct::viewer

int main(int argc, char** argv) {
  using namespace substruct;
  using namespace substruct::viewer;
  return cli::run_reporting_errors([&] {
    const ViewerOptions options = parse_viewer_options(cli::Args(argv + 1, argv + argc));
    install_interrupt_handlers();
    if (options.scene.help) {
      std::fputs(viewer_usage(), stdout);
      return 0;
    }
    if (!options.replay.empty()) {
      if (!options.record.empty()) VideoRecorder::check_available();
      if (!have_display())
        throw Error(
            "view --replay needs an X server for its OpenGL context and none is set: run under "
            "xvfb-run -a, or set DISPLAY");
      return run_replay(options);
    }
    PluginHost host(options.scene.global.plugin_paths);
    check_methods(options, host);
    if (!options.record.empty()) VideoRecorder::check_available();
    const bool headless = options.headless();
    if (!have_display()) {
      if (headless)
        throw Error(
            "headless rendering needs an X server for its OpenGL context and none is set: run "
            "under xvfb-run -a substruct view …, or set DISPLAY");
      throw Error("no display: set DISPLAY or use --screenshot/--frames for headless rendering");
    }
    return headless ? run_headless(options, host) : run_interactive(options, host);
  });
}
