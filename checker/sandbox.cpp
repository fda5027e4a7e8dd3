// The runner's seccomp filter, built with libseccomp: see sandbox.h for the policy and why.
// libseccomp writes the BPF (the architecture check, x32 included, and each rule's argument
// comparisons); this file only states the policy.
#include "checker/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <iterator>
#include <string>

#include "checker/protocol.h"

namespace stencil::checker::runner {

namespace {

// Trapped outright. Names an architecture lacks (aarch64 has no open, fork, unlink, ...: only
// their *at forms) resolve to nothing and are left out.
constexpr const char* kDenied[] = {
    "execve", "execveat", "fork", "vfork", "kill", "tkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
    "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "ptrace", "process_vm_readv",
    "process_vm_writev", "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    "setsid", "setpgid", "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir",
    "mkdirat", "rmdir", "mknod", "mknodat", "symlink", "symlinkat", "link", "linkat", "chmod",
    "fchmod", "fchmodat", "chown", "fchown", "fchownat", "lchown", "truncate", "ftruncate",
    "fallocate", "mount", "umount2", "chroot", "pivot_root", "unshare", "setns", "chdir", "fchdir",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "name_to_handle_at",
    "open_by_handle_at", "bpf", "perf_event_open", "userfaultfd", "creat"};

// The SIGSYS handler's names, by number: filled before the filter, read in the handler (which
// may not allocate).
struct Named {
    int nr = -1;
    const char* name = nullptr;
};
Named g_names[std::size(kDenied) + 16];
size_t g_name_count = 0;

void remember(int nr, const char* name) {
    for (size_t i = 0; i < g_name_count; ++i)
        if (g_names[i].nr == nr) return;
    if (g_name_count < std::size(g_names)) g_names[g_name_count++] = {nr, name};
}

const char* name_of(int nr) {
    for (size_t i = 0; i < g_name_count; ++i)
        if (g_names[i].nr == nr) return g_names[i].name;
    return "(unnamed)";
}

// Async-signal-safe: write() and exit_group only.
void on_sigsys(int, siginfo_t* info, void*) {
    char buf[256];
    size_t n = 0;
    auto put = [&](const char* s) {
        while (*s && n + 1 < sizeof buf) buf[n++] = *s++;
    };
    put("stencil-check-runner: forbidden system call ");
    put(name_of(info->si_syscall));
    put(": the runner may not run programs, fork, write files, open sockets or signal other "
        "processes while it runs a submission\n");
    (void)!write(2, buf, n);
    syscall(SYS_exit_group, kForbiddenCallExit);
}

// A libseccomp context, released however the building ends.
struct Filter {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    ~Filter() {
        if (ctx) seccomp_release(ctx);
    }
};

// "" or what failed ("seccomp_rule_add(openat): Invalid argument").
std::string failed(const char* what, const char* call, int rc) {
    return std::string(what) + "(" + call + "): " + std::strerror(-rc);
}

std::string add_rules(scmp_filter_ctx ctx, pid_t self) {
    for (const char* name : kDenied) {
        const int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR || nr < 0) continue;  // not on this architecture
        remember(nr, name);
        if (int rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 0); rc < 0) return failed("seccomp_rule_add", name, rc);
    }
    auto rule = [&](uint32_t action, const char* call, const char* shown, unsigned count,
                    const scmp_arg_cmp* cmp) -> std::string {
        const int nr = seccomp_syscall_resolve_name(call);
        if (nr == __NR_SCMP_ERROR || nr < 0) return {};
        remember(nr, shown);
        const int rc = seccomp_rule_add_array(ctx, action, nr, count, cmp);
        return rc < 0 ? failed("seccomp_rule_add", call, rc) : std::string();
    };
    std::string why;
    // Threads (std::thread, the engine's workers) are clone(CLONE_THREAD | ...); a process is not.
    const scmp_arg_cmp not_thread[] = {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)};
    if (!(why = rule(SCMP_ACT_TRAP, "clone", "clone (of a process, not a thread)", 1, not_thread)).empty()) return why;
    // clone3 and openat2 keep their flags behind a pointer: ENOSYS, and glibc falls back.
    if (!(why = rule(SCMP_ACT_ERRNO(ENOSYS), "clone3", "clone3", 0, nullptr)).empty()) return why;
    if (!(why = rule(SCMP_ACT_ERRNO(ENOSYS), "openat2", "openat2", 0, nullptr)).empty()) return why;
    // Opening for writing: one rule per flag (rules of one call are alternatives).
    for (unsigned flag : {unsigned(O_WRONLY), unsigned(O_RDWR), unsigned(O_CREAT), unsigned(O_TRUNC), unsigned(O_APPEND)}) {
        const scmp_arg_cmp openat_writes[] = {SCMP_A2(SCMP_CMP_MASKED_EQ, flag, flag)};
        const scmp_arg_cmp open_writes[] = {SCMP_A1(SCMP_CMP_MASKED_EQ, flag, flag)};
        if (!(why = rule(SCMP_ACT_TRAP, "openat", "openat (for writing)", 1, openat_writes)).empty()) return why;
        if (!(why = rule(SCMP_ACT_TRAP, "open", "open (for writing)", 1, open_writes)).empty()) return why;
    }
    // abort() and raise() signal their own process; nothing else may be signalled.
    const scmp_arg_cmp other_process[] = {SCMP_A0(SCMP_CMP_NE, static_cast<scmp_datum_t>(self))};
    if (!(why = rule(SCMP_ACT_TRAP, "tgkill", "tgkill (to another process)", 1, other_process)).empty()) return why;
    // The SIGSYS handler stays: changing it is itself trapped (the low 32 bits: an int).
    const scmp_arg_cmp on_sigsys_cmp[] = {SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, SIGSYS)};
    return rule(SCMP_ACT_TRAP, "rt_sigaction", "rt_sigaction (on SIGSYS)", 1, on_sigsys_cmp);
}

}  // namespace

bool sandbox_supported() { return seccomp_api_get() >= 1; }

std::string install_sandbox() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSYS, &sa, nullptr) != 0) return std::string("sigaction: ") + std::strerror(errno);
    // Unblock SIGSYS in case the parent left it blocked (a blocked trap kills, which is fine too,
    // but the message is better).
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGSYS);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);

    Filter f;
    if (!f.ctx) return "seccomp_init failed";
    // Another architecture's calls (int 0x80 on x86_64, x32): kill. Every thread (TSYNC), should
    // a library (NVRTC, loaded before) have left one. No new privileges: required unprivileged.
    if (int rc = seccomp_attr_set(f.ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS); rc < 0)
        return failed("seccomp_attr_set", "ACT_BADARCH", rc);
    if (int rc = seccomp_attr_set(f.ctx, SCMP_FLTATR_CTL_TSYNC, 1); rc < 0)
        return failed("seccomp_attr_set", "CTL_TSYNC", rc);
    if (int rc = seccomp_attr_set(f.ctx, SCMP_FLTATR_CTL_NNP, 1); rc < 0)
        return failed("seccomp_attr_set", "CTL_NNP", rc);
    g_name_count = 0;
    if (std::string why = add_rules(f.ctx, getpid()); !why.empty()) return why;
    if (int rc = seccomp_load(f.ctx); rc < 0) return failed("seccomp_load", "TSYNC", rc);
    return {};
}

int probe_sandbox() {
    if (!install_sandbox().empty()) return 2;
    execl("/bin/true", "true", static_cast<char*>(nullptr));
    return 1;
}

}  // namespace stencil::checker::runner
