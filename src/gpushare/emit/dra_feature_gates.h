// The Kubernetes features the emitted DRA objects use, each with the
// feature gate that guards it and the versions it exists, is on by default
// and is locked on (docs/emit.md, "DRA pools": the table and its sources,
// kubernetes/enhancements keps/*/kep.yaml and kubernetes/kubernetes
// staging/src/k8s.io/kube-scheduler/pkg/features/kube_features.go
// defaultVersionedKubernetesFeatureGates).
//
// Contract: DraFeatureGate() gives the row of a feature. DraGateStateIn()
// says whether a feature is absent, off or on in Kubernetes 1.`minor` with
// `gates` set explicitly on the cluster's components (platform.kubernetes.
// feature_gates): absent before the version it exists from (no gate turns
// it on), on where the gate is locked on, else the gate's explicit value,
// else its default in that version. DraFeaturesOf() lists the features a
// scenario's DRA pools make the emitted files use, in table order:
// resource.k8s.io/v1 for any DRA pool with GPUs, consumable capacity when
// the driver runs with consumable shares (the slices' allowMultipleAllocations
// and the claims' capacity.requests), the extended resource when a pool sets
// dra.extended_resource, partitionable devices for dynamic MIG.
// CheckDraKubernetes() throws InputError — naming the first feature, the
// gate, the versions, the components and the scenario key to change — when
// platform.kubernetes_version is known and one of DraFeaturesOf() is absent
// or off there (the API server drops the fields of a disabled gate without
// an error, so the files would apply and the claims silently change); it
// does nothing when the version is unknown. DraKubernetesNeeds() is the
// comment block a DRA file's header carries for `features`: the minimum
// version, each gate with its versions and components, and, with the
// version known, the version it was checked against and where it came from.

#ifndef GPUSHARE_EMIT_DRA_FEATURE_GATES_H_
#define GPUSHARE_EMIT_DRA_FEATURE_GATES_H_

#include <map>
#include <string>
#include <vector>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

enum class DraApiFeature {
  kResourceV1,            // DeviceClass, ResourceClaim(Template) v1
  kConsumableCapacity,    // KEP-5075: capacity.requests, multi-allocation
  kExtendedResource,      // KEP-5004: DeviceClass.extendedResourceName
  kPartitionableDevices,  // KEP-4815: sharedCounters (dynamic MIG)
};

struct DraGateRow {
  DraApiFeature feature;
  const char* what;        // what the emitted objects use it for
  const char* gate;        // the Kubernetes feature gate
  const char* kep;         // "KEP-5075"
  int since_minor;         // exists from 1.since (alpha, or GA for v1)
  int default_on_minor;    // on by default from 1.default_on
  int locked_minor;        // locked on from 1.locked; 0: not yet
  const char* components;  // where the gate must be on
};

const DraGateRow& DraFeatureGate(DraApiFeature feature);

enum class DraGateState { kAbsent, kOff, kOn };

DraGateState DraGateStateIn(const DraGateRow& row, int minor,
                            const std::map<std::string, bool>& gates);

std::vector<DraApiFeature> DraFeaturesOf(const Scenario& scenario);

void CheckDraKubernetes(const Scenario& scenario);

std::string DraKubernetesNeeds(const std::vector<DraApiFeature>& features,
                               const PlatformSpec& platform);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_DRA_FEATURE_GATES_H_
