// A sweep as a Kubernetes Indexed Job (docs/sweep.md, "On a Kubernetes
// cluster").
//
// Contract: SweepJobYaml() writes, as one multi-document YAML: a ConfigMap
// holding the scenario and the grid byte for byte (so the sweep's digest is
// the one a local run computes); a PersistentVolumeClaim for the results
// (ReadWriteMany, unless an existing claim is named); and a batch/v1 Job
// with completionMode Indexed, completions = shards and parallelism, whose
// pod i runs `gpushare-sim sweep /input/scenario.yaml --grid
// /input/grid.yaml --shard $(JOB_COMPLETION_INDEX)/N --out
// /results/shard-$(JOB_COMPLETION_INDEX)` (the Job controller sets
// JOB_COMPLETION_INDEX). SweepMergeJobYaml() writes the Job that runs
// `gpushare-sim merge` over every shard's folder into /results/merged once
// the sweep Job has completed. Throws InputError for names that are not
// DNS labels (the Job's name leaves room for its pods' hostnames), shard
// counts outside 1..100000, parallelism outside 1..shards, a scenario that
// reads other files (a ConfigMap holds only the two files) and a ConfigMap
// over 1 MiB.

#ifndef GPUSHARE_EMIT_SWEEP_JOB_H_
#define GPUSHARE_EMIT_SWEEP_JOB_H_

#include <string>

namespace gpushare {

struct SweepJobSpec {
  std::string name = "gpushare-sweep";
  std::string namespace_name;  // "" leaves it to kubectl's context
  std::string image;
  int shards = 1;
  int parallelism = 0;         // 0: every shard at once
  int threads = 1;             // per pod: sweep --threads and the cpu request
  std::string memory = "2Gi";  // per pod, request and limit
  std::string results_claim;   // "": a new claim NAME-results
  std::string results_size = "1Gi";
  std::string scenario_text;
  std::string grid_text;
};

std::string SweepJobYaml(const SweepJobSpec& spec);
std::string SweepMergeJobYaml(const SweepJobSpec& spec);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_SWEEP_JOB_H_
