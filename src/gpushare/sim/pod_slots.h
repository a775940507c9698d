// PodSlots: the state of the pods alive in a run, by PodIndex, in storage
// that is recycled when a pod ends for good.
//
// Contract: Add() issues the next index (0, 1, 2, ... in arrival order) and
// gives it a slot reset to T{} (a slot released earlier, or a new one);
// operator[] reaches the slot of a live index; Release(i) ends index i for
// good: its slot goes back for reuse and i is no longer live. Memory is
// O(live indices): the slots themselves (never more than the most live at
// once), the map from index to slot in 4 KiB pages freed with their last
// index (IndexPages), and the list of live indices in index order
// (ForEachLive), compacted once half of it is released. Slot addresses are
// stable while the index lives. Not thread-safe.

#ifndef GPUSHARE_SIM_POD_SLOTS_H_
#define GPUSHARE_SIM_POD_SLOTS_H_

#include <cstdint>
#include <deque>
#include <vector>

#include "gpushare/base/index_pages.h"
#include "gpushare/io/check.h"

namespace gpushare {

template <typename T>
class PodSlots {
 public:
  // The new index is size() - 1 after the call.
  T& Add() {
    const int64_t index = size_++;
    int32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
      slots_[static_cast<size_t>(slot)] = T{};
    } else {
      slot = static_cast<int32_t>(slots_.size());
      slots_.emplace_back();
    }
    slot_of_[index] = slot + 1;
    order_.push_back(index);
    ++live_;
    return slots_[static_cast<size_t>(slot)];
  }
  // Indices issued so far.
  int64_t size() const { return size_; }
  int64_t live_count() const { return live_; }
  bool live(int64_t i) const {
    return i >= 0 && i < size_ && slot_of_.contains(i) && slot_of_[i] > 0;
  }
  // Precondition: live(i).
  T& operator[](int64_t i) { return slots_[Slot(i)]; }
  const T& operator[](int64_t i) const { return slots_[Slot(i)]; }
  // Precondition: live(i).
  void Release(int64_t i) {
    const size_t slot = Slot(i);
    slots_[slot] = T{};
    free_.push_back(static_cast<int32_t>(slot));
    slot_of_.Release(i);
    --live_;
    if (static_cast<int64_t>(order_.size()) > 64 &&
        live_ * 2 < static_cast<int64_t>(order_.size())) {
      size_t kept = 0;
      for (const int64_t j : order_) {
        if (live(j)) order_[kept++] = j;
      }
      order_.resize(kept);
    }
  }
  // Calls f(index) for every live index in increasing order; f must not add
  // or release indices.
  template <typename F>
  void ForEachLive(F&& f) const {
    for (const int64_t i : order_) {
      if (live(i)) f(i);
    }
  }

 private:
  size_t Slot(int64_t i) const {
    GS_CHECK(slot_of_.contains(i) && slot_of_[i] > 0,
             "a pod's state was used after it ended");
    return static_cast<size_t>(slot_of_[i] - 1);
  }

  std::deque<T> slots_;
  std::vector<int32_t> free_;
  // Slot + 1 by index; 0: released (or a reset entry of a live page).
  IndexPages<int32_t, 10> slot_of_;
  std::vector<int64_t> order_;
  int64_t size_ = 0;
  int64_t live_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_POD_SLOTS_H_
