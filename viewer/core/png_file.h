// A PNG file of RGBA pixels, compressed by zlib: the viewer's screenshots and slides.
//
// Why not stb_image_write: its own deflate tries every row filter and searches hard, and writing
// a 1920x1080 screenshot was a third of the viewer's time in a screenshot test. zlib's fastest
// level with one filter for every row ("Sub": each byte less the same channel of the pixel to its
// left, which flat panels and gradients turn into zeros) writes it in a fraction of that.
#pragma once
#include <string>

namespace stencil::viewer {

// Writes w x h RGBA pixels (rows top to bottom, 4 bytes a pixel) to `path`; false on failure.
bool write_png(const std::string& path, int w, int h, const unsigned char* rgba);

}  // namespace stencil::viewer
