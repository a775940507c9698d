// Kueue's objects for a scenario's queues, written by `gpushare-sim emit
// kueue --scenario FILE` and `emit k8s` (docs/emit.md, "kueue-queues.yaml").
//
// Contract: KueueManifestsYaml() is a multi-document YAML for `kubectl
// apply --server-side -f FILE` on a cluster with Kueue installed: one
// ResourceFlavor per flavor (spec.nodeLabels), one ClusterQueue per queue
// (spec.cohort, queueingStrategy, an empty namespaceSelector — every
// namespace, as the simulator ties namespaces to queues by LocalQueue —,
// preemption and resourceGroups with quantities as Kubernetes writes
// them: cpu in cores or millicores, memory in Gi or Mi) and one LocalQueue
// per local queue. A header says how to apply it and that pods name their
// LocalQueue with the kueue.x-k8s.io/queue-name label (emit pod-patches
// adds it) and, when a queue covers HAMi's nvidia.com/gpumem, that vGPU
// pods request it and nvidia.com/gpucores and how their quotas are sized
// (scenario/queue_reader.h CoverHamiQueueResources). Throws InputError when
// the scenario has no queues.
//
// The API version: kueue.x-k8s.io/v1beta2, which Kueue serves from 0.15.0
// (kubernetes-sigs/kueue config/components/crd/bases: v1beta2 first listed
// there at v0.15.0; CHANGELOG-0.15.md "Expose the v1beta2 API for CRD
// serving"), unless `scenario.platform.kueue_version` names an older
// release: from 0.6 to 0.14 the same objects are written as v1beta1, whose
// fields are the same but for the ClusterQueue's `cohort` (v1beta2
// `cohortName`); KueueApiOf() throws InputError (at the scenario's file,
// naming the version and the key) for a release older than 0.6 (no
// preemption.borrowWithinCohort, which every ClusterQueue sets), a
// lending_limit before 0.9 (Kueue's LendingLimit gate is alpha and off
// before) and device_class_mappings before 0.14 (no DRA quotas).
// KueueManifestsNeed() is the Kueue the file needs, for its header and the
// README. Deterministic.

#ifndef GPUSHARE_EMIT_KUEUE_MANIFESTS_H_
#define GPUSHARE_EMIT_KUEUE_MANIFESTS_H_

#include <string>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

// The first Kueue 0.x minor release serving kueue.x-k8s.io/v1beta2.
inline constexpr int kKueueV1beta2Minor = 15;

struct KueueApi {
  const char* api_version = "kueue.x-k8s.io/v1beta2";
  const char* cohort_field = "cohortName";
  const char* config_api_version = "config.kueue.x-k8s.io/v1beta2";
  std::string installed;  // "Kueue X as installed" ("": version unknown)
};

KueueApi KueueApiOf(const Scenario& scenario);

std::string KueueManifestsNeed(const Scenario& scenario);

std::string KueueManifestsYaml(const Scenario& scenario);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_KUEUE_MANIFESTS_H_
