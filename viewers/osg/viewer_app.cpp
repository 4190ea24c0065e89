// substruct-view: the OpenSceneGraph viewer behind `substruct view SCENE.ini`. It runs the scene's
// coupling method through substruct::Simulation (the code path of `run`), draws the render
// surface the geometry plugin computes, and either opens a window (interactive) or renders
// `--frames N` frames off-screen and writes PNGs (headless).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>
#include <osg/GraphicsContext>
#include <osgGA/TrackballManipulator>
#include <osgViewer/Viewer>

#include "camera_framing.hpp"
#include "commands.hpp"
#include "headless_capture.hpp"
#include "hud.hpp"
#include "key_handler.hpp"
#include "pick_drag_handler.hpp"
#include "scene_graph.hpp"
#include "session.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/coupling_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "viewer_options.hpp"

namespace substruct::viewer {
namespace {

constexpr double kFovy = 30.0;

bool have_display() {
  const char* display = std::getenv("DISPLAY");
  return display != nullptr && display[0] != '\0';
}

// A pbuffer for headless rendering (falling back to a plain window, e.g. where the X server
// offers no pbuffer), a double-buffered window otherwise.
osg::ref_ptr<osg::GraphicsContext> create_context(const ViewerOptions& o, bool headless) {
  osg::ref_ptr<osg::GraphicsContext::Traits> traits = new osg::GraphicsContext::Traits;
  traits->x = 60;
  traits->y = 60;
  traits->width = o.width;
  traits->height = o.height;
  traits->windowName = "substruct view";
  traits->windowDecoration = true;
  traits->doubleBuffer = !headless;
  traits->pbuffer = headless;
  traits->samples = headless ? 0 : 4;
  traits->sampleBuffers = headless ? 0 : 1;
  traits->readDISPLAY();
  traits->setUndefinedScreenDetailsToDefaultScreen();
  osg::ref_ptr<osg::GraphicsContext> context =
      osg::GraphicsContext::createGraphicsContext(traits.get());
  if ((!context || !context->valid()) && headless) {
    traits->pbuffer = false;
    traits->windowDecoration = false;
    context = osg::GraphicsContext::createGraphicsContext(traits.get());
  }
  if (!context || !context->valid()) {
    // Without multisampling (some servers refuse it).
    traits->samples = 0;
    traits->sampleBuffers = 0;
    context = osg::GraphicsContext::createGraphicsContext(traits.get());
  }
  if (!context || !context->valid())
    throw Error(fmt::format(
        "cannot create an OpenGL context on display '{}' (is it an X server with GLX? for "
        "headless rendering run under xvfb-run -a)",
        std::getenv("DISPLAY") ? std::getenv("DISPLAY") : ""));
  return context;
}

Vec3 scene_gravity(Simulation& sim) {
  if (!sim.has_load("gravity") || !sim.config().has("gravity.acceleration")) return Vec3::Zero();
  try {
    return sim.config().vec3("gravity.acceleration");
  } catch (const Error&) {
    return Vec3::Zero();
  }
}

HudState hud_state(Session& session, const SceneGraph& graph, int steps_per_frame,
                   double ms_per_frame) {
  HudState h;
  h.loading = session.loading();
  h.message = session.message();
  h.progress = session.progress();
  h.gravity = session.gravity();
  h.wind = session.wind();
  h.paused = session.paused();
  h.colouring = to_string(graph.colouring());
  h.drag_stiffness = session.drag_stiffness();
  h.steps_per_frame = steps_per_frame;
  h.ms_per_frame = ms_per_frame;
  if (session.ready()) {
    Simulation& sim = session.sim();
    h.scene = sim.scene().name;
    h.method = session.method();
    h.dofs = sim.method().dofs();
    h.vertices = sim.scene().mesh.num_vertices();
    h.elements = sim.scene().mesh.num_elements();
    h.domains = sim.scene().num_domains();
    h.time = sim.time();
    h.ms_per_step = session.ms_per_step();
    if (session.spring() != nullptr && session.spring()->active())
      h.drag_force = session.spring()->force().norm();
  }
  return h;
}

int steps_per_frame(const ViewerOptions& o, Simulation& sim) {
  if (o.steps_per_frame > 0) return o.steps_per_frame;
  // About real time at 60 frames per second.
  const double dt = sim.run_settings().dt;
  return std::max(1, static_cast<int>(std::lround(1.0 / (60.0 * dt))));
}

void place_camera(osg::Camera& camera, const SceneGraph& graph, Simulation& sim,
                  const ViewerOptions& o, osgGA::TrackballManipulator* manipulator) {
  const CameraPose pose = frame_box(graph.rest_center(), graph.rest_extent(), scene_gravity(sim),
                                    double(o.width) / o.height, kFovy);
  if (manipulator != nullptr) {
    manipulator->setHomePosition(pose.eye, pose.center, pose.up);
    manipulator->home(0.0);
  } else {
    camera.setViewMatrixAsLookAt(pose.eye, pose.center, pose.up);
  }
}

// The scene's method (coupling.plugin after the overrides); reading the config first also reports
// a bad scene file or key before any window opens.
std::string session_method(const ViewerOptions& o, const PluginHost& host) {
  return coupling_options().read(Config::load(o.scene.scene_file, o.scene.overrides, host)).plugin;
}

int run_headless(const ViewerOptions& o, const PluginHost& host) {
  Session session(host, o);
  session.load(session_method(o, host), false);
  Simulation& sim = session.sim();
  SceneGraph graph;
  graph.set_colouring(o.colouring);
  graph.set_default_interfaces(o.show_interfaces);
  graph.set_show_fixed(o.show_fixed);
  graph.rebuild(sim);
  Hud hud(o.width, o.height);

  osgViewer::Viewer viewer;
  viewer.setThreadingModel(osgViewer::Viewer::SingleThreaded);
  osg::ref_ptr<osg::GraphicsContext> context = create_context(o, true);
  osg::Camera* camera = viewer.getCamera();
  camera->setGraphicsContext(context.get());
  camera->setViewport(new osg::Viewport(0, 0, o.width, o.height));
  camera->setProjectionMatrixAsPerspective(kFovy, double(o.width) / o.height, 0.01, 1000.0);
  camera->setComputeNearFarMode(osg::CullSettings::COMPUTE_NEAR_FAR_USING_BOUNDING_VOLUMES);
  camera->setClearColor({0.16f, 0.18f, 0.22f, 1.f});
  const GLenum buffer = context->getTraits()->doubleBuffer ? GL_BACK : GL_FRONT;
  camera->setDrawBuffer(buffer);
  camera->setReadBuffer(buffer);
  osg::ref_ptr<FrameCapture> capture = new FrameCapture(o.width, o.height);
  camera->setFinalDrawCallback(capture.get());
  osg::ref_ptr<osg::Group> root = new osg::Group;
  root->addChild(graph.root());
  if (o.hud) root->addChild(hud.camera());
  viewer.setSceneData(root.get());
  place_camera(*camera, graph, sim, o, nullptr);
  viewer.realize();

  const long frames = o.frames.value_or(0);
  const int steps = steps_per_frame(o, sim);
  double ms_per_frame = 0;
  for (long f = 0; f <= frames; ++f) {
    const auto start = Clock::now();
    if (f > 0) session.advance(steps);
    if (session.paused() && !o.paused)  // a divergence
      throw Error(fmt::format("frame {}: {}", f, session.message()));
    graph.update(sim, session.spring());
    hud.update(hud_state(session, graph, steps, ms_per_frame));
    capture->arm();
    viewer.frame();
    if (!capture->captured()) throw Error("the rendered frame could not be read back");
    if (!o.frame_sequence.empty())
      write_png(capture->image(), o.frame_sequence / fmt::format("frame_{:04d}.png", f));
    ms_per_frame = 1e3 * seconds_since(start);
  }
  if (!o.screenshot.empty()) write_png(capture->image(), o.screenshot);
  std::printf("view       %s, %s: %ld frame%s × %d step%s, %.3f ms/step, %.1f ms/frame\n",
              sim.scene().name.c_str(), session.method().c_str(), frames, frames == 1 ? "" : "s",
              steps, steps == 1 ? "" : "s", session.ms_per_step(), ms_per_frame);
  if (!o.screenshot.empty())
    std::printf("screenshot %s (%d×%d)\n",
                std::filesystem::absolute(o.screenshot).lexically_normal().c_str(), o.width,
                o.height);
  if (!o.frame_sequence.empty())
    std::printf("frames     %s/frame_0000.png … frame_%04ld.png\n",
                std::filesystem::absolute(o.frame_sequence).lexically_normal().c_str(), frames);
  return 0;
}

int run_interactive(const ViewerOptions& o, const PluginHost& host) {
  Session session(host, o);
  session.load(session_method(o, host), true);
  SceneGraph graph;
  graph.set_colouring(o.colouring);
  graph.set_default_interfaces(o.show_interfaces);
  graph.set_show_fixed(o.show_fixed);
  Hud hud(o.width, o.height);

  osgViewer::Viewer viewer;
  viewer.setThreadingModel(osgViewer::Viewer::SingleThreaded);
  osg::ref_ptr<osg::GraphicsContext> context = create_context(o, false);
  osg::Camera* camera = viewer.getCamera();
  camera->setGraphicsContext(context.get());
  camera->setViewport(new osg::Viewport(0, 0, o.width, o.height));
  camera->setProjectionMatrixAsPerspective(kFovy, double(o.width) / o.height, 0.01, 1000.0);
  camera->setClearColor({0.16f, 0.18f, 0.22f, 1.f});
  camera->setDrawBuffer(GL_BACK);
  camera->setReadBuffer(GL_BACK);
  osg::ref_ptr<osg::Group> root = new osg::Group;
  root->addChild(graph.root());
  if (o.hud) root->addChild(hud.camera());
  viewer.setSceneData(root.get());

  // A left-drag that picked the object is the spring's, not the camera's.
  osg::ref_ptr<CameraManipulator> manipulator = new CameraManipulator;
  manipulator->setAutoComputeHomePosition(false);
  viewer.setCameraManipulator(manipulator.get(), false);
  osg::ref_ptr<KeyHandler> keys = new KeyHandler(session, graph, hud);
  viewer.addEventHandler(keys.get());
  viewer.addEventHandler(new PickDragHandler(session, graph));
  viewer.realize();

  bool framed = false;
  double ms_per_frame = 0;
  int steps = 1;
  while (!viewer.done()) {
    const auto start = Clock::now();
    if (session.poll()) {
      graph.rebuild(session.sim());
      steps = steps_per_frame(o, session.sim());
      if (!framed) {
        place_camera(*camera, graph, session.sim(), o, manipulator.get());
        framed = true;
      }
    }
    if (session.ready()) {
      const bool single = keys->take_step_request();
      if (single) {
        session.set_paused(false);
        session.advance(1);
        session.set_paused(true);
      } else {
        session.advance(steps);
      }
      graph.update(session.sim(), session.spring());
    }
    hud.update(hud_state(session, graph, steps, ms_per_frame));
    viewer.frame();
    ms_per_frame = 1e3 * seconds_since(start);
  }
  return 0;
}

}  // namespace
}  // namespace substruct::viewer

int main(int argc, char** argv) {
  using namespace substruct;
  using namespace substruct::viewer;
  return cli::run_reporting_errors([&] {
    const ViewerOptions options = parse_viewer_options(cli::Args(argv + 1, argv + argc));
    if (options.scene.help) {
      std::fputs(viewer_usage(), stdout);
      return 0;
    }
    const bool headless = options.headless();
    if (!have_display()) {
      if (headless)
        throw Error(
            "headless rendering needs an X server for its OpenGL context and none is set: run "
            "under xvfb-run -a substruct view …, or set DISPLAY");
      throw Error("no display: set DISPLAY or use --screenshot/--frames for headless rendering");
    }
    PluginHost host(options.scene.global.plugin_paths);
    return headless ? run_headless(options, host) : run_interactive(options, host);
  });
}
