// Reading a scenario's `plan:` section (docs/scenario.md, "plan").
//
// Contract: reads the section of the scenario YAML `text` (the rest is the
// scenario reader's) and returns the PlanSpec for `scenario`:
//   pools:       {<pool>: {nodes: N | {min, max}, schemes: [...],
//                 time_slicing_replicas: [...], mps_replicas: [...],
//                 hami_split_counts: [...], mig_layouts: all | named}}
//   constraints: {classes: {<class>: {min_slo_attainment, max_mean_wait_s,
//                 max_p99_wait_s, max_oom_kills, max_failed, max_cannot_run,
//                 max_pending, max_preemptions}},
//                 cluster: {max_gpus, max_cost_per_hour}}
//   search:      {pilot_pods, finalists, rounds}
// Without `pools` (or without the section) every pool with GPUs may change,
// sized in [1, 2 x its written count]; an imported pool too, in [1, 2 x its
// real nodes] (cluster/cluster.h ResizePool: new nodes, or its last ones
// dropped). Every tenant class gets the defaults of its workload class
// (DefaultClassConstraints) and the SLO target of `selection`, overridden
// key by key by its entry. Errors are InputErrors at file:line:col: unknown
// keys, pools, classes and schemes (naming the closest), pools without
// GPUs, min > max, replicas < 2, MPS replicas over 48, duplicates, numbers
// out of range.

#ifndef GPUSHARE_DECIDE_PLAN_SPEC_READER_H_
#define GPUSHARE_DECIDE_PLAN_SPEC_READER_H_

#include <string>

#include "gpushare/decide/comparison_spec.h"
#include "gpushare/decide/plan_spec.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

PlanSpec ReadPlanSpec(const std::string& text, const std::string& file,
                      const Scenario& scenario, const SelectionSpec& selection);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_PLAN_SPEC_READER_H_
