// Fuzz target `job_list`: the job-list CSV of workload.replay.

#include "fuzz/fuzz_target.h"
#include "gpushare/workload/job_list.h"

GS_FUZZ_TARGET(job_list) { gpushare::ParseJobList("jobs.csv", data); }
