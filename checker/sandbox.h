// The seccomp-BPF filter of stencil-check-runner's CPU path: student host code (the submission is
// compiled as host C++ and dlopen()ed there) must not start programs, fork, write files, open
// sockets or signal other processes. Installed before dlopen (static constructors run at dlopen).
//
// Policy (a deny-list; everything else the runtime needs, mmap/mprotect for fiber stacks, futex,
// clone of threads, reads, writes to fds opened before the filter, stays allowed):
//   - SECCOMP_RET_TRAP (SIGSYS) for the calls below: the runner's SIGSYS handler prints
//     "forbidden system call NAME" and exits with kForbiddenExitCode, so the parent turns the
//     attempt into a `crash` verdict with that line as evidence. A trap rather than EPERM because
//     an EPERM would let a correct kernel that *tried* to escape pass; a trap rather than
//     KILL_PROCESS so that the student is told which call. The student cannot remove the handler
//     (rt_sigaction on SIGSYS is itself trapped); blocking SIGSYS makes the kernel kill the
//     process with it instead, which is still a crash.
//       execve execveat fork vfork clone(without CLONE_THREAD) kill tkill tgkill(other pid)
//       rt_sigqueueinfo rt_tgsigqueueinfo pidfd_* ptrace process_vm_readv/writev
//       socket socketpair connect bind listen accept accept4 setsid setpgid
//       unlink unlinkat rename renameat renameat2 mkdir mkdirat rmdir mknod mknodat symlink
//       symlinkat link linkat chmod fchmod fchmodat chown fchown fchownat lchown truncate
//       ftruncate fallocate mount umount2 chroot pivot_root unshare setns chdir fchdir
//       io_uring_* (it opens files without going through openat) name_to_handle_at
//       open_by_handle_at bpf perf_event_open userfaultfd
//       open/creat/openat with O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND (dlopen opens read-only)
//   - ENOSYS for clone3 (its flags are behind a pointer, so the filter cannot tell a thread from
//     a fork; glibc then falls back to clone, whose flags it can check) and openat2 (same).
//   - any other architecture than the one compiled for, and x32 system calls: kill the process.
// Supported on x86_64 and aarch64; elsewhere install_sandbox() reports that it cannot filter and
// the runner refuses to run student code (see sandbox_supported()).
#pragma once
#include <string>

namespace stencil::checker::runner {

inline constexpr int kForbiddenExitCode = 86;
inline constexpr const char* kForbiddenMessage = "forbidden system call";

bool sandbox_supported();
// Installs the SIGSYS handler and the filter on the calling thread (call it before any other
// thread exists). Returns an empty string on success, else why it failed.
std::string install_sandbox();

}  // namespace stencil::checker::runner
