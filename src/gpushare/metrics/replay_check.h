// The check of today's replay: pods Running in the kubectl dump a scenario
// was imported from, which the replay of that dump does not run as the
// cluster does (issue 52; docs/output.md "Replay of today").
//
// Contract: CheckReplayOfToday() looks at the pod records of a run of the
// scenario as written and lists, in record order, each pod with
// running_in_dump that the replay OOM-killed (at any time: the cluster ran
// it healthy), failed (gave up, rejected by the kubelet, cannot run under
// its scheme) or had not started within `window_s` of its arrival (pending,
// or started later): with what happened and the cause the record carries
// (its message; for an OOM kill, its footprint and its device's memory
// limit are in the run's records, the text says "OOM-killed N time(s)").
// `running_pods` counts the pods with running_in_dump. Such pods are the
// replay's artefacts, not the cluster's: a model input (a footprint, a
// device placement) that is wrong. Deterministic.

#ifndef GPUSHARE_METRICS_REPLAY_CHECK_H_
#define GPUSHARE_METRICS_REPLAY_CHECK_H_

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpushare/metrics/results.h"

namespace gpushare {

// "The first minutes" of the replay.
inline constexpr double kReplayCheckWindowS = 600;

struct ReplayArtefact {
  std::string pod;   // namespace/name
  std::string what;  // "OOM-killed 2 time(s)", "failed", "pending at 600 s"
  std::string cause;  // the record's message ("" none)
};

struct ReplayCheck {
  int running_pods = 0;
  double window_s = kReplayCheckWindowS;
  std::vector<ReplayArtefact> artefacts;
};

ReplayCheck CheckReplayOfToday(const SimulationResult& result,
                               double window_s = kReplayCheckWindowS);

// The check as terminal text: "" when no pod was Running in the dump; a
// line that the replay runs them all, or a wrapped list (at most `shown`
// pods, then how many more).
std::string ReplayCheckText(const ReplayCheck& check, size_t shown = 10);

// The check as the `replay_check` object of --json: running_pods, window_s
// and artefacts[] (pod, what, cause).
nlohmann::json ReplayCheckJson(const ReplayCheck& check);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_REPLAY_CHECK_H_
