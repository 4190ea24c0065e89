// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The OpenGL context the viewer draws into and its camera's set-up, shared by the live viewer and
// the replay.
#include <osg/Camera>
#include <osg/GraphicsContext>
#include <osg/ref_ptr>

#include "viewer_options.hpp"

namespace substruct::viewer {

/// A pbuffer for headless rendering (falling back to a plain window, e.g. where the X server
/// offers no pbuffer), a double-buffered window otherwise; Error when none can be created.
osg::ref_ptr<osg::GraphicsContext> create_context(const ViewerOptions& o, bool headless);

/// The camera drawing into `context` at the options' size, with the background colour.
void configure_camera(osg::Camera& camera, osg::GraphicsContext* context, const ViewerOptions& o);

}  // namespace substruct::viewer
