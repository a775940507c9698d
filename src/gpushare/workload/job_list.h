// Job lists: a simple CSV for users' own job logs (docs/scenario.md "Job
// lists").
//
// Contract: the header must be exactly
//   name,tenant_class,workload_class,arrival_s,gpus,gpu_memory_mib,
//   sm_demand,duty,work_s,lifetime_s,cpu_milli,memory_mib,priority,
//   node_selector
// (one line). Per row: a non-empty unique name; a non-empty tenant class
// (no spaces); workload_class training, inference, batch or dev; arrival_s
// a finite number >= 0; gpus 0, a fraction < 1 or a whole number up to 16;
// gpu_memory_mib, cpu_milli and memory_mib integers >= 0; sm_demand and
// duty in [0, 1]; work_s and lifetime_s >= 0 with work_s > 0 (a job that
// runs until its work is done) or lifetime_s > 0 (a service deleted that
// long after it starts); priority a 32-bit integer; node_selector empty or
// `key=value` pairs separated by ';'. Pods come back sorted by arrival
// (ties: file order), their tenant the tenant class. Every malformed field
// is an InputError at FILE:LINE:COL naming the column.

#ifndef GPUSHARE_WORKLOAD_JOB_LIST_H_
#define GPUSHARE_WORKLOAD_JOB_LIST_H_

#include <string>
#include <vector>

#include "gpushare/workload/pod.h"

namespace gpushare {

// The header line, as documented.
extern const char kJobListHeader[];

std::vector<Pod> ParseJobList(const std::string& file, std::string text);
std::vector<Pod> ReadJobList(const std::string& path);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_JOB_LIST_H_
