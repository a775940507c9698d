// IndexPages: values by a dense, growing index (a pod's number), stored in
// pages that are freed once every index of the page was released.
//
// Contract: operator[] gives the value of index i (>= 0), default-made the
// first time its page is used. Release(i) resets i's value to T{} and counts
// it; a page all of whose kPageSize indices were released is freed, so the
// memory follows the indices still in use (at most one page per index still
// in use, plus the page being filled), not the indices ever issued. Each
// index is released at most once. An index of a freed page (or, const, of a
// page never made) reads as T{}: a scratch value, which writes do not keep.
// contains() says whether i's page is in memory. Not thread-safe.

#ifndef GPUSHARE_BASE_INDEX_PAGES_H_
#define GPUSHARE_BASE_INDEX_PAGES_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gpushare {

template <typename T, int kPageBits>
class IndexPages {
 public:
  static constexpr int64_t kPageSize = int64_t{1} << kPageBits;

  T& operator[](int64_t i) {
    const size_t page = static_cast<size_t>(i >> kPageBits);
    if (page >= pages_.size()) {
      pages_.resize(page + 1);
      released_.resize(page + 1, 0);
    }
    if (!pages_[page]) {
      if (released_[page] == kPageSize) {
        scratch_ = T{};
        return scratch_;
      }
      pages_[page] = std::make_unique<Page>();
    }
    return (*pages_[page])[static_cast<size_t>(i & (kPageSize - 1))];
  }
  const T& operator[](int64_t i) const {
    if (!contains(i)) return empty_;
    return (*pages_[static_cast<size_t>(i >> kPageBits)])
        [static_cast<size_t>(i & (kPageSize - 1))];
  }
  // Whether index i's page is in memory (i >= 0).
  bool contains(int64_t i) const {
    const size_t page = static_cast<size_t>(i >> kPageBits);
    return page < pages_.size() && pages_[page] != nullptr;
  }
  void Release(int64_t i) {
    const size_t page = static_cast<size_t>(i >> kPageBits);
    if (page >= pages_.size()) {
      pages_.resize(page + 1);
      released_.resize(page + 1, 0);
    }
    if (released_[page] == kPageSize) return;  // already freed
    if (pages_[page]) {
      (*pages_[page])[static_cast<size_t>(i & (kPageSize - 1))] = T{};
    }
    if (++released_[page] == kPageSize) pages_[page].reset();
  }
  // Pages in memory (for tests and measurements).
  int64_t pages_in_use() const {
    int64_t n = 0;
    for (const auto& p : pages_) n += p != nullptr;
    return n;
  }

 private:
  using Page = std::array<T, static_cast<size_t>(kPageSize)>;
  std::vector<std::unique_ptr<Page>> pages_;
  std::vector<uint32_t> released_;  // per page: indices released
  T scratch_{};
  const T empty_{};
};

}  // namespace gpushare

#endif  // GPUSHARE_BASE_INDEX_PAGES_H_
