#include "gpushare/metrics/pod_summary_store.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string_view>
#include <utility>

#include "gpushare/io/row_spool.h"

namespace gpushare {
namespace {

std::string_view Bytes(const PodSummary& s) {
  return std::string_view(reinterpret_cast<const char*>(&s), sizeof s);
}

PodSummary FromBytes(std::string_view row) {
  PodSummary s;
  std::memcpy(static_cast<void*>(&s), row.data(), sizeof s);
  return s;
}

}  // namespace

PodSummaryStore::PodSummaryStore(int64_t spill_after, std::string folder)
    : spill_after_(spill_after), folder_(std::move(folder)) {}

PodSummaryStore::~PodSummaryStore() = default;
PodSummaryStore::PodSummaryStore(PodSummaryStore&&) noexcept = default;
PodSummaryStore& PodSummaryStore::operator=(PodSummaryStore&&) noexcept =
    default;

PodSummaryStore::PodSummaryStore(const PodSummaryStore& other)
    : spill_after_(other.spill_after_), folder_(other.folder_) {
  if (other.spool_ == nullptr) {
    memory_ = other.memory_;
    size_ = other.size_;
  } else {
    other.ForEach([this](const PodSummary& s) { push_back(s); });
  }
}

PodSummaryStore& PodSummaryStore::operator=(const PodSummaryStore& other) {
  if (this != &other) *this = PodSummaryStore(other);
  return *this;
}

void PodSummaryStore::Spill() {
  std::string folder = folder_;
  if (folder.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    folder = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  spool_ = std::make_unique<RowSpool>(
      folder, "the pod summaries' temporary file in " + folder);
  for (const PodSummary& s : memory_) spool_->Add(s.index, Bytes(s));
  std::vector<PodSummary>().swap(memory_);
}

void PodSummaryStore::push_back(const PodSummary& s) {
  if (spool_ == nullptr && size_ >= spill_after_) Spill();
  if (spool_ != nullptr) {
    spool_->Add(s.index, Bytes(s));
  } else {
    memory_.push_back(s);
  }
  ++size_;
}

void PodSummaryStore::clear() {
  memory_.clear();
  spool_.reset();
  size_ = 0;
}

void PodSummaryStore::Sort() {
  std::sort(memory_.begin(), memory_.end(),
                   [](const PodSummary& a, const PodSummary& b) {
                     return a.index < b.index;
                   });
}

void PodSummaryStore::ForEachSpilled(
    const std::function<void(const PodSummary&)>& f) const {
  spool_->ForEachInOrder([&f](std::string_view row) { f(FromBytes(row)); });
}

std::optional<PodSummary> PodSummaryStore::Find(int64_t index) const {
  if (spool_ != nullptr) {
    std::string row;
    if (!spool_->Find(index, &row)) return std::nullopt;
    return FromBytes(row);
  }
  const auto it = std::lower_bound(
      memory_.begin(), memory_.end(), index,
      [](const PodSummary& s, int64_t i) { return s.index < i; });
  if (it == memory_.end() || it->index != index) return std::nullopt;
  return *it;
}

}  // namespace gpushare
