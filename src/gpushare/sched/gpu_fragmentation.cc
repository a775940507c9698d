#include "gpushare/sched/gpu_fragmentation.h"

#include <algorithm>
#include <array>

namespace gpushare {
namespace {

// frag.go FragRatioDataMap.
enum Bucket { kQ1LackBoth, kQ2LackGpu, kQ3Satisfied, kQ4LackCpu, kXlSatisfied,
              kXrLackCpu, kNoAccess, kBuckets };

// The memo key packs the model (8 bits), the CPU rank (8 bits), the GPU
// count (4 bits) and up to 8 sorted shares of 11 bits each.
constexpr int kMaxMemoGpus = 8;
constexpr int kShareBits = 11;

}  // namespace

bool IsCardModelAllowed(std::string_view card_model,
                        std::string_view gpu_spec) {
  if (gpu_spec.empty()) return true;
  if (card_model.empty()) return false;
  bool any = false;
  size_t start = 0;
  while (start <= gpu_spec.size()) {
    const size_t bar = gpu_spec.find('|', start);
    const std::string_view model = gpu_spec.substr(start, bar - start);
    if (!model.empty()) {
      any = true;
      if (model == card_model) return true;
    }
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  return !any;
}

double NodeFragmentationMilli(const GpuNodeView& node,
                              const std::vector<TypicalPod>& typical) {
  int64_t idle = 0;
  for (const int64_t left : node.milli_left) idle += left;
  std::array<double, kBuckets> buckets{};
  for (const TypicalPod& m : typical) {
    const PodShape& s = m.shape;
    const double p = m.popularity;
    const bool cpu_ok = node.cpu_left_milli >= s.cpu_milli;
    if (s.gpu_milli == 0) {
      buckets[cpu_ok ? kXlSatisfied : kXrLackCpu] +=
          p * static_cast<double>(idle);
      continue;
    }
    if (!IsCardModelAllowed(node.card_model, s.gpu_spec)) {
      buckets[kNoAccess] += p * static_cast<double>(idle);
      continue;
    }
    int fitting = 0;
    int64_t too_small = 0;
    for (const int64_t left : node.milli_left) {
      if (left >= s.gpu_milli) {
        ++fitting;
      } else {
        too_small += left;
      }
    }
    const bool gpu_ok = fitting >= s.gpu_count;
    if (gpu_ok && cpu_ok) {
      buckets[kQ2LackGpu] += p * static_cast<double>(too_small);
      buckets[kQ3Satisfied] += p * static_cast<double>(idle - too_small);
    } else {
      const Bucket b = gpu_ok ? kQ4LackCpu : (cpu_ok ? kQ2LackGpu : kQ1LackBoth);
      buckets[b] += p * static_cast<double>(idle);
    }
  }
  double out = 0;
  for (int b = 0; b < kBuckets; ++b) {
    if (b != kQ3Satisfied) out += buckets[b];
  }
  return out;
}

FragmentationMeasure::FragmentationMeasure(std::vector<TypicalPod> typical)
    : typical_(std::move(typical)) {
  for (const TypicalPod& m : typical_) {
    cpu_thresholds_.push_back(m.shape.cpu_milli);
  }
  std::sort(cpu_thresholds_.begin(), cpu_thresholds_.end());
  cpu_thresholds_.erase(
      std::unique(cpu_thresholds_.begin(), cpu_thresholds_.end()),
      cpu_thresholds_.end());
}

size_t FragmentationMeasure::KeyHash::operator()(const Key& k) const {
  uint64_t h = k.a * 0x9E3779B97F4A7C15ULL;
  h ^= (k.b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
  return static_cast<size_t>(h ^ (h >> 29));
}

int FragmentationMeasure::ModelIndex(std::string_view card_model) {
  for (size_t i = 0; i < models_.size(); ++i) {
    if (models_[i] == card_model) return static_cast<int>(i);
  }
  models_.emplace_back(card_model);
  return static_cast<int>(models_.size()) - 1;
}

double FragmentationMeasure::NodeMilli(const GpuNodeView& node) {
  const int gpus = static_cast<int>(node.milli_left.size());
  const int model = ModelIndex(node.card_model);
  const int rank = static_cast<int>(
      std::upper_bound(cpu_thresholds_.begin(), cpu_thresholds_.end(),
                       node.cpu_left_milli) -
      cpu_thresholds_.begin());
  if (gpus > kMaxMemoGpus || model > 255 || rank > 255) {
    return NodeFragmentationMilli(node, typical_);
  }
  std::array<int64_t, kMaxMemoGpus> shares{};
  for (int g = 0; g < gpus; ++g) {
    int64_t v = node.milli_left[g];
    int i = g;
    for (; i > 0 && shares[i - 1] > v; --i) shares[i] = shares[i - 1];
    shares[i] = v;
  }
  Key key;
  key.a = static_cast<uint64_t>(model) | static_cast<uint64_t>(rank) << 8 |
          static_cast<uint64_t>(gpus) << 16;
  for (int g = 0; g < gpus; ++g) {
    const uint64_t v = static_cast<uint64_t>(shares[g]);
    if (g < 4) {
      key.a |= v << (20 + kShareBits * g);
    } else {
      key.b |= v << (kShareBits * (g - 4));
    }
  }
  const auto it = memo_.find(key);
  if (it != memo_.end()) return it->second;
  const double value = NodeFragmentationMilli(node, typical_);
  memo_.emplace(key, value);
  return value;
}

}  // namespace gpushare
