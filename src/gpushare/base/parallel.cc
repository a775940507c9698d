#include "gpushare/base/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace gpushare {

int EffectiveThreads(int n, int threads) {
  if (threads <= 0) {
    threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  return std::max(1, std::min(n, threads));
}

void ParallelFor(int n, int threads, const std::function<void(int)>& job) {
  if (n <= 0) return;
  std::vector<std::exception_ptr> errors(n);
  std::atomic<int> next{0};
  auto worker = [&] {
    for (int i = next++; i < n; i = next++) {
      try {
        job(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const int count = EffectiveThreads(n, threads);
  std::vector<std::thread> pool;
  for (int t = 1; t < count; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace gpushare
