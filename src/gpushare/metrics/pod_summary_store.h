// PodSummaryStore: the summaries of the pods that have ended, kept in memory
// up to a bound and past it in an unnamed temporary file.
//
// Contract: push_back() adds one pod's summary as the pod retires (in end
// order). Up to `spill_after` summaries (kDefaultSpillAfter: 1,000,000,
// about 300 MB at sizeof(PodSummary) = 296 bytes, so every run of a million
// pods or fewer keeps them in a vector exactly as before) they are kept in
// memory; when one more comes, all of them move to an unnamed temporary
// file (io/row_spool.h: O_TMPFILE in $TMPDIR or /tmp, nothing left behind)
// and memory keeps 8 bytes per pod index plus a 1 MiB buffer. ForEach()
// calls `f` with every summary in pod index order: in memory, after Sort()
// (the Collector sorts once the run ends; summaries pushed in index order
// need none); spilled, read back in index order (an index pushed twice: its
// last summary). Find() is random access by pod index (a read of the file
// when spilled). A failed write or read of the file throws an InputError
// naming the temporary file. The summaries' TextIds point into the
// result's PodTexts, which stays in memory. Moving is cheap; a copy is deep
// (a spilled store's copy gets a file of its own): tests and API users copy
// SimulationResults, the run itself only moves them.

#ifndef GPUSHARE_METRICS_POD_SUMMARY_STORE_H_
#define GPUSHARE_METRICS_POD_SUMMARY_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "gpushare/metrics/pod_summary.h"

namespace gpushare {

class RowSpool;

static_assert(std::is_trivially_copyable_v<PodSummary>,
              "PodSummary is written to and read from a file as bytes");

class PodSummaryStore {
 public:
  static constexpr int64_t kDefaultSpillAfter = 1'000'000;

  // `folder`: where the spill file is made; empty: $TMPDIR, else /tmp.
  explicit PodSummaryStore(int64_t spill_after = kDefaultSpillAfter,
                           std::string folder = "");
  ~PodSummaryStore();
  PodSummaryStore(PodSummaryStore&&) noexcept;
  PodSummaryStore& operator=(PodSummaryStore&&) noexcept;
  PodSummaryStore(const PodSummaryStore& other);
  PodSummaryStore& operator=(const PodSummaryStore& other);

  void push_back(const PodSummary& s);
  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool spilled() const { return spool_ != nullptr; }
  // Removes every summary (and the spill file).
  void clear();
  // Puts the in-memory summaries in pod index order (in place: a pod has one
  // summary, so the order of equal indexes never arises); nothing to do
  // when spilled.
  void Sort();

  // Calls f(const PodSummary&) for every summary, in pod index order.
  template <typename F>
  void ForEach(F&& f) const {
    if (spool_ == nullptr) {
      for (const PodSummary& s : memory_) f(s);
      return;
    }
    ForEachSpilled([&f](const PodSummary& s) { f(s); });
  }

  // Pod `index`'s summary; nullopt when it has none.
  std::optional<PodSummary> Find(int64_t index) const;

 private:
  void Spill();
  void ForEachSpilled(const std::function<void(const PodSummary&)>& f) const;

  int64_t spill_after_;
  std::string folder_;
  int64_t size_ = 0;
  std::vector<PodSummary> memory_;
  std::unique_ptr<RowSpool> spool_;
};

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_POD_SUMMARY_STORE_H_
