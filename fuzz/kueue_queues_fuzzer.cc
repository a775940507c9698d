// Fuzz target `kueue_queues`: queues.import, `kubectl get resourceflavors`,
// `clusterqueues` and `localqueues -o json`, the three documents separated by
// lines holding "%%".

#include "fuzz/fuzz_target.h"
#include "gpushare/scenario/kubectl_queue_import.h"

GS_FUZZ_TARGET(kueue_queues) {
  const std::vector<std::string> parts =
      gpushare::fuzz::SplitFuzzInput(data, 3);
  gpushare::KueueConfig config;
  gpushare::ImportKubectlQueues(
      gpushare::fuzz::WriteFuzzFile("resourceflavors.json", parts[0]),
      gpushare::fuzz::WriteFuzzFile("clusterqueues.json", parts[1]),
      gpushare::fuzz::WriteFuzzFile("localqueues.json", parts[2]), &config);
}
