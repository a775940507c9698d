// The limits of a tenant class's contract as a scenario writes them, shared
// by `selection.classes.<c>` (what "served well" means in compare's
// selection) and `plan.constraints.classes.<c>` (what a plan must meet);
// docs/scenario.md lists the keys and ranges.
//
// Contract: ReadClassConstraintKeys() reads each of the keys below that `m`
// has into `c`, leaving the others as they are; a value out of range is an
// InputError at it. It does not refuse other keys: the caller's AllowOnly
// does (its list names these keys too).
//   min_slo_attainment 0..1         max_mean_wait_s, max_p99_wait_s 0..1e9
//   max_oom_kills, max_failed, max_cannot_run, max_pending,
//   max_preemptions 0..1e12         max_mean_slowdown 1..1e6
//   needs_memory_isolation true|false

#ifndef GPUSHARE_DECIDE_CLASS_CONSTRAINTS_READER_H_
#define GPUSHARE_DECIDE_CLASS_CONSTRAINTS_READER_H_

#include "gpushare/decide/plan_spec.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {

void ReadClassConstraintKeys(const YamlMap& m, ClassConstraints* c);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_CLASS_CONSTRAINTS_READER_H_
