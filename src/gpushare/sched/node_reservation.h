// A bound pod's requests on its node, with the non-zero cpu and memory that
// scoring counts for it.
//
// Contract: ReservePod() and UnreservePod() are Node::Reserve() and
// Node::Unreserve() of the pod's requests and NonZeroOf(pod): every place
// that binds, un-binds or counts a pod on a node goes through them, so a
// pod's explicit zero requests (workload/pod.h) are counted the same way on
// the way in and out.

#ifndef GPUSHARE_SCHED_NODE_RESERVATION_H_
#define GPUSHARE_SCHED_NODE_RESERVATION_H_

#include "gpushare/cluster/node.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

inline void ReservePod(Node& node, const Pod& pod) {
  node.Reserve(pod.requests, NonZeroOf(pod));
}

inline void UnreservePod(Node& node, const Pod& pod) {
  node.Unreserve(pod.requests, NonZeroOf(pod));
}

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_NODE_RESERVATION_H_
