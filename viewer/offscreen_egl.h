// --offscreen: an OpenGL 3.3 core context from EGL with no window and no display server, drawing
// into a framebuffer object of the window's size. For machines without X (the GPU device machine:
// the NVIDIA driver's EGL through glvnd; CI: Mesa's llvmpipe). GLFW is not involved at all.
#pragma once
#include <memory>
#include <string>

namespace stencil::viewer {

// What the context turned out to be, for the one line printed at start and the sidecars.
struct OffscreenInfo {
    std::string platform;     // how the display was had: "device", "surfaceless" or "default"
    std::string egl_vendor;   // EGL_VENDOR ("NVIDIA", "Mesa Project")
    std::string egl_version;  // "1.5"
    std::string gl_renderer;  // GL_RENDERER ("NVIDIA H100 80GB HBM3/PCIe/SSE2", "llvmpipe (...)")
    std::string gl_version;   // GL_VERSION
    bool pbuffer = false;     // made current on a 16x16 pbuffer (no EGL_KHR_surfaceless_context)
};

class OffscreenGl {
public:
    // Display, context and an FBO of width x height (RGBA8 colour, bound for drawing and reading).
    // nullptr with *why (one line) when no EGL display or no OpenGL 3.3 core context can be had.
    static std::unique_ptr<OffscreenGl> create(int width, int height, std::string* why);
    ~OffscreenGl();
    OffscreenGl(const OffscreenGl&) = delete;
    OffscreenGl& operator=(const OffscreenGl&) = delete;

    const OffscreenInfo& info() const { return info_; }
    int width() const { return w_; }
    int height() const { return h_; }
    // Binds the FBO again (ImGui's renderer restores what it found, but be explicit each frame).
    void bind() const;

private:
    OffscreenGl() = default;
    struct Egl;  // the EGL handles, kept out of this header (no EGL include for its users)
    std::unique_ptr<Egl> egl_;
    OffscreenInfo info_;
    unsigned fbo_ = 0, colour_ = 0;
    int w_ = 0, h_ = 0;
};

// A one-line description for stdout: "offscreen: EGL 1.5 (NVIDIA, device), GL_RENDERER ..., 1920x1080".
std::string describe(const OffscreenGl& gl);

}  // namespace stencil::viewer
