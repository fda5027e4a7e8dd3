// The runner's seccomp-BPF filter: see sandbox.h for the policy and why.
#include "checker/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#if defined(__x86_64__)
#define STENCIL_SANDBOX_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define STENCIL_SANDBOX_ARCH AUDIT_ARCH_AARCH64
#endif

namespace stencil::checker::runner {

#ifdef STENCIL_SANDBOX_ARCH
namespace {

struct Named {
    long nr;
    const char* name;
};

// Denied outright (trapped). Calls an architecture lacks (aarch64 has no open, fork, unlink, ...:
// only their *at forms) are left out by the #ifdefs.
#define STENCIL_DENY(n) {__NR_##n, #n},
const Named kDenied[] = {
    STENCIL_DENY(execve) STENCIL_DENY(execveat)
#ifdef __NR_fork
    STENCIL_DENY(fork) STENCIL_DENY(vfork)
#endif
    STENCIL_DENY(kill) STENCIL_DENY(tkill) STENCIL_DENY(rt_sigqueueinfo)
    STENCIL_DENY(rt_tgsigqueueinfo) STENCIL_DENY(pidfd_open) STENCIL_DENY(pidfd_send_signal)
    STENCIL_DENY(pidfd_getfd) STENCIL_DENY(ptrace) STENCIL_DENY(process_vm_readv)
    STENCIL_DENY(process_vm_writev)
    STENCIL_DENY(socket) STENCIL_DENY(socketpair) STENCIL_DENY(connect) STENCIL_DENY(bind)
    STENCIL_DENY(listen) STENCIL_DENY(accept) STENCIL_DENY(accept4)
    STENCIL_DENY(setsid) STENCIL_DENY(setpgid)
#ifdef __NR_unlink
    STENCIL_DENY(unlink) STENCIL_DENY(rename) STENCIL_DENY(mkdir) STENCIL_DENY(rmdir)
    STENCIL_DENY(mknod) STENCIL_DENY(symlink) STENCIL_DENY(link) STENCIL_DENY(chmod)
    STENCIL_DENY(chown) STENCIL_DENY(lchown)
#endif
#ifdef __NR_renameat
    STENCIL_DENY(renameat)
#endif
    STENCIL_DENY(unlinkat) STENCIL_DENY(renameat2) STENCIL_DENY(mkdirat) STENCIL_DENY(mknodat)
    STENCIL_DENY(symlinkat) STENCIL_DENY(linkat) STENCIL_DENY(fchmod) STENCIL_DENY(fchmodat)
    STENCIL_DENY(fchown) STENCIL_DENY(fchownat) STENCIL_DENY(truncate) STENCIL_DENY(ftruncate)
    STENCIL_DENY(fallocate) STENCIL_DENY(mount) STENCIL_DENY(umount2) STENCIL_DENY(chroot)
    STENCIL_DENY(pivot_root) STENCIL_DENY(unshare) STENCIL_DENY(setns) STENCIL_DENY(chdir)
    STENCIL_DENY(fchdir) STENCIL_DENY(io_uring_setup) STENCIL_DENY(io_uring_enter)
    STENCIL_DENY(io_uring_register) STENCIL_DENY(name_to_handle_at)
    STENCIL_DENY(open_by_handle_at) STENCIL_DENY(bpf) STENCIL_DENY(perf_event_open)
    STENCIL_DENY(userfaultfd)
};
#undef STENCIL_DENY

// Calls checked on an argument (named for the SIGSYS message too).
const Named kChecked[] = {
    {__NR_clone, "clone (of a process, not a thread)"},
    {__NR_openat, "openat (for writing)"},
#ifdef __NR_open
    {__NR_open, "open (for writing)"},
    {__NR_creat, "creat"},
#endif
    {__NR_tgkill, "tgkill (to another process)"},
    {__NR_rt_sigaction, "rt_sigaction (on SIGSYS)"},
};

const char* name_of(long nr) {
    for (const auto& d : kChecked)
        if (d.nr == nr) return d.name;
    for (const auto& d : kDenied)
        if (d.nr == nr) return d.name;
    return "(unnamed)";
}

// Async-signal-safe: write() and exit_group only.
void on_sigsys(int, siginfo_t* info, void*) {
    char buf[256];
    size_t n = 0;
    auto put = [&](const char* s) {
        while (*s && n + 1 < sizeof buf) buf[n++] = *s++;
    };
    put("stencil-check-runner: ");
    put(kForbiddenMessage);
    put(" ");
    put(name_of(info->si_syscall));
    put(": the runner may not run programs, fork, write files, open sockets or signal other "
        "processes while it runs a submission\n");
    (void)!write(2, buf, n);
    syscall(SYS_exit_group, kForbiddenExitCode);
}

constexpr unsigned kOpenWriteFlags = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
constexpr unsigned kArg0 = offsetof(seccomp_data, args[0]);  // low 32 bits (little endian)
constexpr unsigned kArg1 = offsetof(seccomp_data, args[1]);
constexpr unsigned kArg2 = offsetof(seccomp_data, args[2]);

struct Program {
    std::vector<sock_filter> code;
    void stmt(unsigned short op, unsigned k) { code.push_back(BPF_STMT(op, k)); }
    void jump(unsigned short op, unsigned k, unsigned char jt, unsigned char jf) {
        code.push_back(BPF_JUMP(op, k, jt, jf));
    }
    void load_nr() { stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)); }
    // if (nr == k) { body } : the body ends in a return, so a miss skips over it.
    void when_nr(long nr, const std::vector<sock_filter>& body) {
        load_nr();
        jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), 0,
             static_cast<unsigned char>(body.size()));
        code.insert(code.end(), body.begin(), body.end());
    }
};

sock_filter ret(unsigned k) { return BPF_STMT(BPF_RET | BPF_K, k); }
sock_filter load_arg(unsigned off) { return BPF_STMT(BPF_LD | BPF_W | BPF_ABS, off); }
// Trap when (arg & mask) != 0, allow otherwise.
std::vector<sock_filter> trap_if_any(unsigned arg, unsigned mask) {
    return {load_arg(arg), BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, mask, 0, 1), ret(SECCOMP_RET_TRAP),
            ret(SECCOMP_RET_ALLOW)};
}
// Allow when arg == value, trap otherwise (and the reverse).
std::vector<sock_filter> allow_only_if(unsigned arg, unsigned value) {
    return {load_arg(arg), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1), ret(SECCOMP_RET_ALLOW),
            ret(SECCOMP_RET_TRAP)};
}
std::vector<sock_filter> trap_if(unsigned arg, unsigned value) {
    return {load_arg(arg), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1), ret(SECCOMP_RET_TRAP),
            ret(SECCOMP_RET_ALLOW)};
}

std::vector<sock_filter> build_filter(pid_t self) {
    Program p;
    // A foreign architecture (e.g. int 0x80 on x86_64 would be i386 numbers): kill.
    p.stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, STENCIL_SANDBOX_ARCH, 1, 0);
    p.stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
#if defined(__x86_64__)
    // x32 system calls share the architecture value: numbers with bit 30 set. Kill.
    p.load_nr();
    p.jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
    p.stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
#endif
    for (const auto& d : kDenied) p.when_nr(d.nr, {ret(SECCOMP_RET_TRAP)});
    // Threads (std::thread, the backend's workers) are clone(CLONE_THREAD | ...); a process is not.
    p.when_nr(__NR_clone, {load_arg(kArg0), BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
                           ret(SECCOMP_RET_ALLOW), ret(SECCOMP_RET_TRAP)});
    p.when_nr(__NR_clone3, {ret(SECCOMP_RET_ERRNO | ENOSYS)});
    p.when_nr(__NR_openat2, {ret(SECCOMP_RET_ERRNO | ENOSYS)});
    p.when_nr(__NR_openat, trap_if_any(kArg2, kOpenWriteFlags));
#ifdef __NR_open
    p.when_nr(__NR_open, trap_if_any(kArg1, kOpenWriteFlags));
    p.when_nr(__NR_creat, {ret(SECCOMP_RET_TRAP)});
#endif
    // abort() and raise() signal their own process; nothing else may be signalled.
    p.when_nr(__NR_tgkill, allow_only_if(kArg0, static_cast<unsigned>(self)));
    p.when_nr(__NR_rt_sigaction, trap_if(kArg0, SIGSYS));
    p.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    return p.code;
}

}  // namespace

bool sandbox_supported() { return true; }

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
    // Required for an unprivileged filter; also stops setuid binaries from gaining anything.
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return std::string("prctl(PR_SET_NO_NEW_PRIVS): ") + std::strerror(errno);
    std::vector<sock_filter> code = build_filter(getpid());
    sock_fprog prog{static_cast<unsigned short>(code.size()), code.data()};
    // TSYNC: every thread of the process, should a library (NVRTC, loaded before) have left one.
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0)
        return std::string("seccomp(SECCOMP_SET_MODE_FILTER, TSYNC): ") + std::strerror(errno);
    return {};
}

int probe_sandbox() {
    if (!install_sandbox().empty()) return 2;
    execl("/bin/true", "true", static_cast<char*>(nullptr));
    return 1;
}

#else  // no filter for this architecture

int probe_sandbox() { return 2; }

bool sandbox_supported() { return false; }
std::string install_sandbox() {
    return "the CPU checker's seccomp filter supports x86_64 and aarch64 only; this runner was "
           "built for another architecture";
}

#endif

}  // namespace stencil::checker::runner
