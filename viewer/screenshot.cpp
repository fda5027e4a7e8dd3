#include "viewer/screenshot.h"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <vector>

#include "viewer/core/png_file.h"

namespace stencil::viewer {

bool save_framebuffer_png(const std::string& path, int w, int h, std::string* why) {
    std::vector<unsigned char> px((size_t)w * h * 4), flipped(px.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    // An FBO (--offscreen) has no back buffer: read its colour attachment.
    GLint fbo = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &fbo);
    glReadBuffer(fbo ? GL_COLOR_ATTACHMENT0 : GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    for (int y = 0; y < h; ++y)  // OpenGL's rows start at the bottom
        std::copy_n(px.data() + (size_t)(h - 1 - y) * w * 4, (size_t)w * 4, flipped.data() + (size_t)y * w * 4);
    for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;  // opaque
    if (!write_png(path, w, h, flipped.data())) {
        if (why) *why = "cannot write " + path;
        return false;
    }
    return true;
}

}  // namespace stencil::viewer
