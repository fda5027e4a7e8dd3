// The seccomp filter of stencil-check-runner's CPU path, built with libseccomp: a second wall. No
// code of the submission runs natively (the PTX engine interprets it, and checks every access);
// should the engine or the runner still be led astray, the process cannot start programs, fork, write files,
// open sockets or signal other processes. Installed after NVRTC has compiled the submission (it
// loads its builtins library) and the PTX is loaded, before anything of the submission runs.
//
// Policy (a deny-list; everything else the runtime needs, mmap/mprotect, futex,
// clone of threads, reads, writes to fds opened before the filter, stays allowed):
//   - SECCOMP_RET_TRAP (SIGSYS) for the calls below: the runner's SIGSYS handler prints
//     "forbidden system call NAME" and exits with kForbiddenCallExit (protocol.h), so the parent
//     turns the attempt into a `crash` verdict, that line in its evidence. A trap rather than
//     EPERM so that nothing goes on as if the call had merely failed; a trap rather than KILL_PROCESS so that
//     the report names the call. The handler cannot be removed (rt_sigaction on SIGSYS is itself
//     trapped); blocking SIGSYS makes the kernel kill the process with it instead, a crash too.
//       execve execveat fork vfork clone(without CLONE_THREAD) kill tkill tgkill(other pid)
//       rt_sigqueueinfo rt_tgsigqueueinfo pidfd_* ptrace process_vm_readv/writev
//       socket socketpair connect bind listen accept accept4 setsid setpgid
//       unlink unlinkat rename renameat renameat2 mkdir mkdirat rmdir mknod mknodat symlink
//       symlinkat link linkat chmod fchmod fchmodat chown fchown fchownat lchown truncate
//       ftruncate fallocate mount umount2 chroot pivot_root unshare setns chdir fchdir
//       io_uring_* (it opens files without going through openat) name_to_handle_at
//       open_by_handle_at bpf perf_event_open userfaultfd
//       open/creat/openat with O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND
//   - ENOSYS for clone3 (its flags are behind a pointer, so the filter cannot tell a thread from
//     a fork; glibc then falls back to clone, whose flags it can check) and openat2 (same).
//   - any other architecture than the one compiled for, and x32 system calls: kill the process.
// Supported where libseccomp is (x86_64, aarch64, ...); without a usable seccomp
// (sandbox_supported() is false) the runner runs without this second wall.
#pragma once
#include <string>

namespace stencil::checker::runner {

bool sandbox_supported();
// Installs the SIGSYS handler and the filter on every thread of the process (call it before the
// runs start their worker threads). Returns an empty string on success, else why it failed.
std::string install_sandbox();
// For the tests: installs the filter, then tries to run /bin/true. Never returns 0: the trap ends
// the process with kForbiddenCallExit; 1 when the exec failed without it, 2 without a filter.
int probe_sandbox();

}  // namespace stencil::checker::runner
