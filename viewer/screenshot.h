// Reads the window's back buffer (glReadPixels) and writes it as a PNG (stb_image_write).
#pragma once
#include <string>

namespace stencil::viewer {
bool save_framebuffer_png(const std::string& path, int width, int height, std::string* why);
}
