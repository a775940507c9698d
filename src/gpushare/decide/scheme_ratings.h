// SchemeRatings: the documented, per-scheme ratings of the two selection
// dimensions the simulation cannot measure by itself.
//
// Contract: ratings are on 0..10 (10 best). Isolation rates what the scheme
// guarantees a pod against its neighbours (memory, SMs, faults; MIG User
// Guide Table 3 and the source document: MIG strongest, vGPU next,
// time-slicing weakest); compatibility rates how little an application must
// change to run under it (the source document: time-slicing needs nothing,
// vGPU is transparent to applications, MIG asks applications to fit its
// instance sizes). docs/model.md §8 gives each value's reasoning; scenarios
// override them under `selection.ratings`. The selection multiplies each
// rating by a measured factor (pods killed by neighbours' faults and OOMs;
// pods the scheme cannot place at all).

#ifndef GPUSHARE_DECIDE_SCHEME_RATINGS_H_
#define GPUSHARE_DECIDE_SCHEME_RATINGS_H_

#include "gpushare/cluster/sharing_config.h"

namespace gpushare {

struct SchemeRatings {
  double isolation = 0;      // 0..10
  double compatibility = 0;  // 0..10
};

SchemeRatings DefaultSchemeRatings(SharingScheme scheme);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_SCHEME_RATINGS_H_
