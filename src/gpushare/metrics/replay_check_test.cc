#include "gpushare/metrics/replay_check.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace replay_check_test {
namespace {

PodRecord Record(const std::string& name, bool running, PodOutcome outcome,
                 double start_s, int oom_kills = 0) {
  PodRecord r;
  r.name = name;
  r.running_in_dump = running;
  r.outcome = outcome;
  r.arrival_s = 0;
  r.start_s = start_s;
  r.oom_kills = oom_kills;
  return r;
}

// Issue 52: only pods Running in the dump count; each that the replay
// OOM-kills, fails or leaves waiting past the window is an artefact.
TEST(ReplayCheckTest, ListsRunningPodsTheReplayDoesNotRun) {
  SimulationResult result;
  result.pod_records = {
      Record("ml/ok", true, PodOutcome::kRunning, 0),
      Record("ml/oom", true, PodOutcome::kRunning, 0, 2),
      Record("ml/failed", true, PodOutcome::kFailed, 0),
      Record("ml/late", true, PodOutcome::kRunning, 601),
      Record("ml/waiting", true, PodOutcome::kPending, -1),
      Record("ml/pending-in-dump", false, PodOutcome::kPending, -1),
  };
  result.pod_records[2].message = "Error: OOMKilled";
  const ReplayCheck check = CheckReplayOfToday(WithPodSummaries(result), 600);
  EXPECT_EQ(check.running_pods, 5);
  ASSERT_EQ(check.artefacts.size(), 4u);
  EXPECT_EQ(check.artefacts[0].pod, "ml/oom");
  EXPECT_EQ(check.artefacts[0].what, "OOM-killed 2 times");
  EXPECT_EQ(check.artefacts[1].what, "failed");
  EXPECT_EQ(check.artefacts[1].cause, "Error: OOMKilled");
  EXPECT_EQ(check.artefacts[2].what, "started only after 601 s");
  EXPECT_EQ(check.artefacts[3].what, "never started");
  const std::string text = ReplayCheckText(check, 2);
  EXPECT_NE(text.find("4 of the 5 pod(s) Running in the dump"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("... and 2 more"), std::string::npos) << text;
}

TEST(ReplayCheckTest, NothingToSayWithoutRunningPods) {
  SimulationResult result;
  result.pod_records = {Record("a", false, PodOutcome::kFailed, -1)};
  const ReplayCheck check = CheckReplayOfToday(WithPodSummaries(result));
  EXPECT_EQ(check.running_pods, 0);
  EXPECT_TRUE(check.artefacts.empty());
  EXPECT_EQ(ReplayCheckText(check), "");
}

}  // namespace
}  // namespace replay_check_test
}  // namespace gpushare
