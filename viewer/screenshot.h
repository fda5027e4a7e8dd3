// Reads what the frame was drawn into (glReadPixels: the window's back buffer, or with --offscreen
// the framebuffer object bound for reading) and writes it as a PNG (core/png_file.h).
#pragma once
#include <string>

namespace stencil::viewer {
bool save_framebuffer_png(const std::string& path, int width, int height, std::string* why);
}
