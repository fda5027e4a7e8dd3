// Clients that come and go on the shared test display, side by side, as the screenshot tests do:
// each process opens and closes the display many times, and any refused connection fails the test.
// An X server that resets when its last client leaves refuses connections during the reset, which
// made one screenshot test in a few hundred find "no display".
//
//   stencil-viewer-display-clients PROCESSES CONNECTIONS_EACH   (DISPLAY names the display)
#include <X11/Xlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// The refused connections of one client that connects, and leaves, `times` times.
int refused_connections(int times) {
    int refused = 0;
    for (int i = 0; i < times; ++i) {
        Display* display = XOpenDisplay(nullptr);
        if (!display) {
            ++refused;
            continue;
        }
        XCloseDisplay(display);
    }
    return refused;
}

}  // namespace

int main(int argc, char** argv) {
    const int processes = argc > 1 ? std::atoi(argv[1]) : 0;
    const int times = argc > 2 ? std::atoi(argv[2]) : 0;
    if (argc != 3 || processes < 1 || processes > 64 || times < 1) {
        std::fprintf(stderr, "usage: stencil-viewer-display-clients PROCESSES(1..64) CONNECTIONS_EACH\n");
        return 2;
    }
    if (!std::getenv("DISPLAY")) {
        std::fprintf(stderr, "stencil-viewer-display-clients: DISPLAY is not set\n");
        return 2;
    }
    for (int p = 0; p < processes; ++p) {
        const pid_t pid = fork();
        if (pid < 0) {
            std::perror("stencil-viewer-display-clients: fork");
            return 2;
        }
        // A child's exit status is its count of refused connections, capped to fit one.
        if (pid == 0) _exit(std::min(refused_connections(times), 255));
    }
    int refused = 0;
    for (int p = 0; p < processes; ++p) {
        int status = 0;
        if (wait(&status) < 0 || !WIFEXITED(status)) return 2;
        refused += WEXITSTATUS(status);
    }
    std::printf("%d processes x %d connections: %d refused\n", processes, times, refused);
    return refused == 0 ? 0 : 1;
}
