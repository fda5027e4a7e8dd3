#include "core/parallel.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace stencil {

int slab_count(long long n, long long min_per_slab) {
    const long long by_size = min_per_slab > 0 ? n / min_per_slab : n;
    const long long cores = std::max(1u, std::thread::hardware_concurrency());
    return int(std::clamp<long long>(std::min(cores, by_size), 1, 16));
}

void for_each_slab(int n, int slabs, const std::function<void(int slab, int begin, int end)>& fn) {
    std::vector<std::thread> workers;
    for (int s = 1; s < slabs; ++s)
        workers.emplace_back(fn, s, int((long long)n * s / slabs), int((long long)n * (s + 1) / slabs));
    fn(0, 0, int((long long)n / slabs));
    for (auto& w : workers) w.join();
}

}  // namespace stencil
