#include "gpushare/decide/scheme_ratings.h"

namespace gpushare {

SchemeRatings DefaultSchemeRatings(SharingScheme scheme) {
  switch (scheme) {
    case SharingScheme::kExclusive:
      // A whole GPU per pod: nothing is shared, nothing to adapt.
      return {10, 10};
    case SharingScheme::kMig:
      // Hardware partitions: SMs, memory, memory bandwidth and errors
      // isolated (MIG User Guide Table 3). Applications must fit a fixed
      // instance size; no NCCL/P2P across instances, no graphics, and on
      // Ampere no utilization metrics per instance.
      return {10, 5};
    case SharingScheme::kHami:
      // Software limits: hard memory cap, loose core cap (overshoot), no
      // fault isolation. Transparent to CUDA applications through
      // interception; statically linked CUDA runtimes escape it.
      return {6, 8};
    case SharingScheme::kMps:
      // Memory protection and SM share by percentage, but no error
      // isolation: a fatal fault in one client takes down the MPS server
      // and every client (Table 3). Clients share one server per GPU.
      return {4, 6};
    case SharingScheme::kTimeSlicing:
      // No memory, SM or fault isolation; every pod sees the whole GPU and
      // runs unchanged.
      return {1, 10};
  }
  return {};
}

}  // namespace gpushare
