// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphics_context.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::viewer {

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

void configure_camera(osg::Camera& camera, osg::GraphicsContext* context, const ViewerOptions& o) {
  camera.setGraphicsContext(context);
  camera.setViewport(new osg::Viewport(0, 0, o.width, o.height));
  camera.setClearColor(o.looks ? osg::Vec4(0.30f, 0.33f, 0.38f, 1.f)
                               : osg::Vec4(0.16f, 0.18f, 0.22f, 1.f));
  const GLenum buffer = context->getTraits()->doubleBuffer ? GL_BACK : GL_FRONT;
  camera.setDrawBuffer(buffer);
  camera.setReadBuffer(buffer);
}

}  // namespace substruct::viewer
