#pragma once
// Text for the HUDs: DejaVu Sans (Debian: fonts-dejavu-core) through OpenSceneGraph's freetype
// plugin, anti-aliased, UTF-8, with a dark outline that keeps it legible over any background.
#include <string>

#include <osg/ref_ptr>
#include <osgText/Text>

namespace substruct::viewer {

/// A dynamic text drawable of `size` pixels.
osg::ref_ptr<osgText::Text> hud_text(float size, const osg::Vec4& colour);

/// Sets UTF-8 text (empty: the drawable is hidden). A software renderer pays about 0.5 ms per
/// text drawable and frame: HUDs keep few of them.
void set_text(osgText::Text& text, const std::string& utf8);

}  // namespace substruct::viewer
