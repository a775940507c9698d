// Fuzz target `kai_queues`: kai_queues.import, `kubectl get
// queues.scheduling.run.ai -o json`.

#include "fuzz/fuzz_target.h"
#include "gpushare/sched/kai/kai_config.h"
#include "gpushare/scenario/kubectl_kai_queue_import.h"

GS_FUZZ_TARGET(kai_queues) {
  gpushare::KaiConfig config;
  gpushare::ImportKubectlKaiQueues(
      gpushare::fuzz::WriteFuzzFile("queues.json", data), &config);
}
