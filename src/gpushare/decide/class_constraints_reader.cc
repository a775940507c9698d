#include "gpushare/decide/class_constraints_reader.h"

#include <cstdint>

namespace gpushare {

void ReadClassConstraintKeys(const YamlMap& m, ClassConstraints* c) {
  constexpr double kMaxWait = 1e9;
  constexpr int64_t kMaxCount = 1000000000000;
  if (m.Has("min_slo_attainment")) {
    c->min_slo_attainment = m.Double("min_slo_attainment", 0, 1);
  }
  if (m.Has("max_mean_wait_s")) {
    c->max_mean_wait_s = m.Double("max_mean_wait_s", 0, kMaxWait);
  }
  if (m.Has("max_p99_wait_s")) {
    c->max_p99_wait_s = m.Double("max_p99_wait_s", 0, kMaxWait);
  }
  if (m.Has("max_oom_kills")) {
    c->max_oom_kills = m.Int("max_oom_kills", 0, kMaxCount);
  }
  if (m.Has("max_failed")) c->max_failed = m.Int("max_failed", 0, kMaxCount);
  if (m.Has("max_cannot_run")) {
    c->max_cannot_run = m.Int("max_cannot_run", 0, kMaxCount);
  }
  if (m.Has("max_pending")) c->max_pending = m.Int("max_pending", 0, kMaxCount);
  if (m.Has("max_preemptions")) {
    c->max_preemptions = m.Int("max_preemptions", 0, kMaxCount);
  }
  if (m.Has("max_mean_slowdown")) {
    c->max_mean_slowdown = m.Double("max_mean_slowdown", 1, 1e6);
  }
  if (m.Has("needs_memory_isolation")) {
    c->needs_memory_isolation = m.Bool("needs_memory_isolation");
  }
}

}  // namespace gpushare
