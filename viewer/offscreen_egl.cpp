// An OpenGL 3.3 core context without a window: EGL display, context made current with no surface
// (or a tiny pbuffer), and an FBO the frames are drawn into and read back from.
//
// The display is tried three ways, the first that initialises wins:
//   1. EGL_EXT_platform_device: a GPU (or Mesa's software device) by itself, no display server.
//      This is what the NVIDIA driver offers on a headless machine.
//   2. EGL_MESA_platform_surfaceless: Mesa's way to the same (render nodes, or llvmpipe).
//   3. eglGetDisplay(EGL_DEFAULT_DISPLAY): whatever the EGL vendor picks (X or Wayland if present).
// GL functions past 1.1 (framebuffers) come from glvnd's libOpenGL, which exports the whole core
// API and dispatches to the context made current here.
#include "viewer/offscreen_egl.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>

#include <fmt/format.h>

#include <cstring>
#include <vector>

namespace stencil::viewer {

struct OffscreenGl::Egl {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    EGLSurface pbuffer = EGL_NO_SURFACE;
};

namespace {

const char* egl_error_name(EGLint e) {
    switch (e) {
        case EGL_SUCCESS: return "EGL_SUCCESS";
        case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
        case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
        case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
        case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
        case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
        case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
        case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
        case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
        case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
        case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
        default: return "EGL error";
    }
}

// eglGetError() clears the error: read it once.
std::string last_egl_error() {
    const EGLint e = eglGetError();
    return fmt::format("{} (0x{:x})", egl_error_name(e), e);
}

// Whether a space-separated extension string names `ext` exactly (not as a prefix of another).
bool has_extension(const char* list, const char* ext) {
    if (!list) return false;
    const size_t n = std::strlen(ext);
    for (const char* p = list; (p = std::strstr(p, ext)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

// An initialised display, the way it was had, or EGL_NO_DISPLAY with each way's failure in *tried.
EGLDisplay open_display(std::string* platform, std::string* tried) {
    // Client extensions: NULL from an EGL 1.4 library without EGL_EXT_client_extensions.
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    auto get_platform_display =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    auto init = [&](EGLDisplay d, const char* name) {
        EGLint major = 0, minor = 0;
        if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) {
            *platform = name;
            return true;
        }
        *tried += fmt::format("{}{}: {}", tried->empty() ? "" : "; ", name,
                              d == EGL_NO_DISPLAY ? "no display" : "eglInitialize " + last_egl_error());
        return false;
    };

    if (has_extension(client, "EGL_EXT_platform_device") && get_platform_display) {
        auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
        EGLint n = 0;
        std::vector<EGLDeviceEXT> devices(16);
        if (query_devices && query_devices((EGLint)devices.size(), devices.data(), &n) && n > 0) {
            for (EGLint i = 0; i < n; ++i) {  // the first device that initialises
                EGLDisplay d = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[(size_t)i], nullptr);
                if (init(d, "device")) return d;
            }
        } else {
            *tried += fmt::format("{}device: no EGL devices", tried->empty() ? "" : "; ");
        }
    } else {
        *tried += fmt::format("{}device: no EGL_EXT_platform_device", tried->empty() ? "" : "; ");
    }
    if (has_extension(client, "EGL_MESA_platform_surfaceless") && get_platform_display) {
        EGLDisplay d = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (init(d, "surfaceless")) return d;
    }
    EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (init(d, "default")) return d;
    return EGL_NO_DISPLAY;
}

// An RGBA8 config that can render desktop OpenGL, with a pbuffer when possible (needed only
// without EGL_KHR_surfaceless_context).
bool choose_config(EGLDisplay d, EGLConfig* config, bool* has_pbuffer) {
    for (EGLint surface : {EGL_PBUFFER_BIT, 0}) {
        const EGLint attrs[] = {EGL_SURFACE_TYPE, surface, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
        EGLint n = 0;
        if (eglChooseConfig(d, attrs, config, 1, &n) && n > 0) {
            *has_pbuffer = surface != 0;
            return true;
        }
    }
    return false;
}

}  // namespace

std::unique_ptr<OffscreenGl> OffscreenGl::create(int width, int height, std::string* why) {
    auto fail = [&](std::string text) -> std::unique_ptr<OffscreenGl> {
        if (why) *why = std::move(text);
        return nullptr;
    };
    std::unique_ptr<OffscreenGl> gl(new OffscreenGl);
    gl->egl_ = std::make_unique<Egl>();
    Egl& e = *gl->egl_;
    std::string tried;
    e.display = open_display(&gl->info_.platform, &tried);
    if (e.display == EGL_NO_DISPLAY) return fail("no EGL display (" + tried + ")");
    gl->info_.egl_vendor = eglQueryString(e.display, EGL_VENDOR);
    gl->info_.egl_version = eglQueryString(e.display, EGL_VERSION);
    // From here on the destructor tears down what was made (eglTerminate included).

    if (!eglBindAPI(EGL_OPENGL_API))
        return fail(fmt::format("EGL ({}, {}) has no desktop OpenGL: {}", gl->info_.egl_vendor, gl->info_.platform,
                                last_egl_error()));
    EGLConfig config{};
    bool has_pbuffer = false;
    if (!choose_config(e.display, &config, &has_pbuffer))
        return fail(fmt::format("EGL ({}, {}): no RGBA8 OpenGL config", gl->info_.egl_vendor, gl->info_.platform));
    const EGLint context_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    e.context = eglCreateContext(e.display, config, EGL_NO_CONTEXT, context_attrs);
    if (e.context == EGL_NO_CONTEXT)
        return fail(fmt::format("EGL ({}, {}): no OpenGL 3.3 core context: {}", gl->info_.egl_vendor,
                                gl->info_.platform, last_egl_error()));

    const bool surfaceless = has_extension(eglQueryString(e.display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context");
    if (!surfaceless) {
        if (!has_pbuffer)
            return fail(fmt::format("EGL ({}, {}): neither a surfaceless context nor a pbuffer config",
                                    gl->info_.egl_vendor, gl->info_.platform));
        const EGLint pb_attrs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
        e.pbuffer = eglCreatePbufferSurface(e.display, config, pb_attrs);
        if (e.pbuffer == EGL_NO_SURFACE) return fail("EGL: cannot create a pbuffer: " + last_egl_error());
        gl->info_.pbuffer = true;
    }
    if (!eglMakeCurrent(e.display, e.pbuffer, e.pbuffer, e.context))
        return fail("EGL: cannot make the context current: " + last_egl_error());

    auto gl_string = [](GLenum name) {
        const auto* s = reinterpret_cast<const char*>(glGetString(name));
        return std::string(s ? s : "?");
    };
    gl->info_.gl_renderer = gl_string(GL_RENDERER);
    gl->info_.gl_version = gl_string(GL_VERSION);

    // The frames' target: one RGBA8 renderbuffer the size of the "window".
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
    if (width > max_size || height > max_size)
        return fail(fmt::format("{}: a {}x{} framebuffer exceeds GL_MAX_RENDERBUFFER_SIZE {}", gl->info_.gl_renderer,
                                width, height, max_size));
    glGenFramebuffers(1, &gl->fbo_);
    glGenRenderbuffers(1, &gl->colour_);
    glBindRenderbuffer(GL_RENDERBUFFER, gl->colour_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, gl->fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, gl->colour_);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return fail(fmt::format("{}: the {}x{} framebuffer is incomplete (0x{:x})", gl->info_.gl_renderer, width,
                                height, status));
    gl->w_ = width;
    gl->h_ = height;
    gl->bind();
    return gl;
}

void OffscreenGl::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    const GLenum attachment = GL_COLOR_ATTACHMENT0;
    glDrawBuffers(1, &attachment);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
}

OffscreenGl::~OffscreenGl() {
    if (!egl_ || egl_->display == EGL_NO_DISPLAY) return;
    Egl& e = *egl_;
    if (e.context != EGL_NO_CONTEXT && eglGetCurrentContext() == e.context) {
        if (fbo_) glDeleteFramebuffers(1, &fbo_);
        if (colour_) glDeleteRenderbuffers(1, &colour_);
    }
    eglMakeCurrent(e.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (e.pbuffer != EGL_NO_SURFACE) eglDestroySurface(e.display, e.pbuffer);
    if (e.context != EGL_NO_CONTEXT) eglDestroyContext(e.display, e.context);
    eglTerminate(e.display);
    eglReleaseThread();
}

std::string describe(const OffscreenGl& gl) {
    const auto& i = gl.info();
    return fmt::format("offscreen: EGL {} ({}, {} platform{}), GL_RENDERER {}, OpenGL {}, {}x{} framebuffer",
                       i.egl_version, i.egl_vendor, i.platform, i.pbuffer ? ", pbuffer" : "", i.gl_renderer,
                       i.gl_version, gl.width(), gl.height());
}

}  // namespace stencil::viewer
