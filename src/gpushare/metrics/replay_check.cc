#include "gpushare/metrics/replay_check.h"

#include <fmt/format.h>

namespace gpushare {

ReplayCheck CheckReplayOfToday(const SimulationResult& result,
                               double window_s) {
  ReplayCheck check;
  check.window_s = window_s;
  result.pod_summaries.ForEach([&](const PodSummary& r) {
    if (!r.running_in_dump) return;
    ++check.running_pods;
    std::string what;
    switch (r.outcome) {
      case PodOutcome::kFailed:
        what = "failed";
        break;
      case PodOutcome::kAdmissionFailed:
        what = "rejected by the kubelet";
        break;
      case PodOutcome::kUnschedulable:
        what = "cannot run under its scheme";
        break;
      default:
        break;
    }
    if (what.empty() && r.oom_kills > 0) {
      what = fmt::format("OOM-killed {} time{}", r.oom_kills,
                         r.oom_kills == 1 ? "" : "s");
    }
    if (what.empty() && r.outcome != PodOutcome::kNotArrived &&
        (r.start_s < 0 || r.start_s - r.arrival_s > window_s)) {
      what = r.start_s < 0
                 ? "never started"
                 : fmt::format("started only after {:.0f} s",
                               r.start_s - r.arrival_s);
    }
    if (what.empty()) return;
    check.artefacts.push_back(
        {result.text(r.name), what, result.text(r.message)});
  });
  return check;
}

std::string ReplayCheckText(const ReplayCheck& check, size_t shown) {
  if (check.running_pods == 0) return "";
  if (check.artefacts.empty()) {
    return fmt::format(
        "\nReplay of today: the {} pod(s) Running in the dump run in the "
        "replay (none OOM-killed, failed or waiting past {:.0f} s).\n",
        check.running_pods, check.window_s);
  }
  std::string out = fmt::format(
      "\nReplay of today: {} of the {} pod(s) Running in the dump do not run "
      "in the replay as in the cluster — artefacts of the model's inputs "
      "(footprints, placements), not the cluster's failures; answers that "
      "count them against today's setting are biased:\n",
      check.artefacts.size(), check.running_pods);
  for (size_t i = 0; i < check.artefacts.size() && i < shown; ++i) {
    const ReplayArtefact& a = check.artefacts[i];
    out += fmt::format("  {}: {}{}\n", a.pod, a.what,
                       a.cause.empty() ? "" : " (" + a.cause + ")");
  }
  if (check.artefacts.size() > shown) {
    out += fmt::format("  ... and {} more (--json: replay_check)\n",
                       check.artefacts.size() - shown);
  }
  return out;
}

nlohmann::json ReplayCheckJson(const ReplayCheck& check) {
  nlohmann::json artefacts = nlohmann::json::array();
  for (const ReplayArtefact& a : check.artefacts) {
    artefacts.push_back({{"pod", a.pod}, {"what", a.what}, {"cause", a.cause}});
  }
  return {{"running_pods", check.running_pods},
          {"window_s", check.window_s},
          {"artefacts", artefacts}};
}

}  // namespace gpushare
