// Device printf (vprintf): integer, character, string and floating-point conversions with flags,
// widths and precisions, length modifiers (h, l, ll), special values (+-inf, NaN, -0.0), a format
// without arguments and %%. The expected file holds the exact text the GPU printed, and each
// printf's return value (CUDA: the number of arguments parsed, 0 when there are none).
//
// One thread only, so the text has one order. %p (an address, different on each backend) and %a
// are left out. See int_arith.cu for the kernel ABI.

typedef unsigned int u32;
typedef unsigned long long u64;

//! kernel printf_fmt in=u64 block=1 cases=1
//! printf
//! out u32 printf:ints printf:longs printf:chars-strings printf:floats printf:specials printf:no-args printf:shorts-hex
#define K 7
extern "C" __global__ void printf_fmt(const u64* in, u64* out, int n) {
    if (blockIdx.x * blockDim.x + threadIdx.x != 0) return;
    const u64 z = in[0];  // 0: keeps the values run-time values
    const int v = -42 + (int)z;
    const u32 u = 0xdeadbeefu + (u32)z;
    const long long ll = -1234567890123ll + (long long)z;
    const double pi = 3.14159265358979 + (double)z;
    const float third = 1.0f / 3.0f + (float)z;
    const double inf = __longlong_as_double(0x7ff0000000000000ll + (long long)z);
    const double qnan = __longlong_as_double(0x7ff8000000000000ll + (long long)z);
    u64* o = out;
    o[0] = (u32)printf("ints %d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d|%d\n", v, v, u, u, u, 8u, v, v, v, 7, 7, 0);
    o[1] = (u32)printf("longs %ld %lld %llu %llx %lli\n", (long)ll, ll, (unsigned long long)ll, (unsigned long long)ll, 9223372036854775807ll);
    o[2] = (u32)printf("chars %c%c%c strings [%s] [%8s] [%-8s] [%.3s]\n", 'G', 'P' + (int)z, 'U', "stencil", "lab", "ptx", "conformance");
    o[3] = (u32)printf("floats %f %.2f %10.4f|%-10.1f|%e %.3E %g %G %g %g %g %f\n", pi, pi, pi, pi, pi * 1e10, 1.0 / 3.0, 1e-5, 1e20, 100000.0, 1234567.0, 0.0001, (double)third);
    o[4] = (u32)printf("specials %f %f %f %e %g %f %.0f %.0f %.0f\n", inf, -inf, qnan, (double)z * -1.0, 0.0, -0.0 * pi, 0.5, 1.5, 2.5);
    o[5] = (u32)printf("no arguments, 100%% literal\n");
    o[6] = (u32)printf("shorts %hd %hu hex %#x %#o %#llx %08.3f\n", (short)-3, (unsigned short)65535, 255u, 8u, 0x1234ull, pi);
}
