// ParallelFor: runs independent jobs on a few threads.
//
// Contract: calls job(i) exactly once for every i in [0, n), on at most
// `threads` threads (<= 0: the hardware's thread count), and returns when
// all are done. Jobs must not share mutable state; each writes only its own
// slot of the caller's output, so results do not depend on the thread count
// or on timing. If jobs throw, the exception of the lowest index is
// rethrown after every job has finished.

#ifndef GPUSHARE_BASE_PARALLEL_H_
#define GPUSHARE_BASE_PARALLEL_H_

#include <functional>

namespace gpushare {

void ParallelFor(int n, int threads, const std::function<void(int)>& job);

// The number of threads ParallelFor uses for `threads` and `n` jobs.
int EffectiveThreads(int n, int threads);

}  // namespace gpushare

#endif  // GPUSHARE_BASE_PARALLEL_H_
