#include "gpushare/emit/change_script.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

NodeChange Named(std::vector<std::string> names) {
  NodeChange c;
  c.title = "pool a";
  c.nodes.pool = "a";
  c.nodes.names = std::move(names);
  c.nodes.nodes = static_cast<int>(c.nodes.names.size());
  c.target.set = {{"k", "v"}};
  return c;
}

TEST(ChangeScriptTest, DryRunAndUsage) {
  const std::string s = ChangeScript("x.sh", {"header"}, {});
  EXPECT_EQ(s.rfind("#!/bin/sh\n# header\n", 0), 0u) << s;
  EXPECT_NE(s.find("  --dry-run) dry_run=--dry-run=server ;;\n"),
            std::string::npos);
  EXPECT_NE(s.find("  *) echo 'usage: sh x.sh [--dry-run]' >&2; exit 2 ;;\n"),
            std::string::npos);
  EXPECT_NE(s.find("set -eu\n"), std::string::npos);
}

TEST(ChangeScriptTest, NamedNodesAreCheckedBeforeAnyChange) {
  const std::string s =
      ChangeScript("x.sh", {}, {Named({"ip-10-0-0-1.ec2.internal", "n2"})});
  const size_t check =
      s.find("nodes_1=$(kubectl get node ip-10-0-0-1.ec2.internal n2 -o name)");
  const size_t apply = s.find("for node in $nodes_1; do change_1");
  ASSERT_NE(check, std::string::npos) << s;
  ASSERT_NE(apply, std::string::npos);
  EXPECT_LT(check, apply);
  EXPECT_NE(s.find("dups=$(printf '%s\\n' $nodes_1 | sort | uniq -d)"),
            std::string::npos);
  EXPECT_NE(s.find("  change label node \"$1\" k=v --overwrite\n"),
            std::string::npos);
}

TEST(ChangeScriptTest, HostileNamesStayOneWord) {
  NodeChange c = Named({"n1"});
  c.title = "pool a\nrm -rf /";
  c.target.set = {{"k", "v'; reboot; '"}};
  const std::string s = ChangeScript("x.sh", {"line\nrm -rf /"}, {c});
  EXPECT_EQ(s.find("\nrm -rf"), std::string::npos) << s;
  EXPECT_NE(s.find("'k=v'\\''; reboot; '\\'''"), std::string::npos) << s;
}

TEST(ChangeScriptTest, SelectorsMustMatchAndCountsAreReported) {
  NodeChange c;
  c.title = "pool b";
  c.nodes.pool = "b";
  c.nodes.selector = {{"pool", "b"}, {"zone", "z1"}};
  c.nodes.nodes = 3;
  c.target.mig_config = "all-balanced";
  const std::string s = ChangeScript("x.sh", {}, {c});
  EXPECT_NE(s.find("nodes_1=$(kubectl get nodes -l pool=b,zone=z1 -o name)"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("if [ -z \"$nodes_1\" ]; then echo 'x.sh: no node matches "
                   "pool=b,zone=z1 (pool b)"),
            std::string::npos);
  EXPECT_NE(s.find("if [ \"$count\" -ne 3 ]"), std::string::npos);
  EXPECT_NE(s.find("  ensure_mig \"$1\" all-balanced\n"), std::string::npos);
}

// The configs of the same layout follow the target, each one shell word.
TEST(ChangeScriptTest, MigConfigsOfTheSameLayoutAreArguments) {
  NodeChange c = Named({"n1"});
  c.target.mig_config = "infer-custom";
  c.mig_alike = {"all-1g.10gb", "x'; reboot; '"};
  const std::string s = ChangeScript("x.sh", {}, {c});
  EXPECT_NE(s.find("  ensure_mig \"$1\" infer-custom all-1g.10gb "
                   "'x'\\''; reboot; '\\'''\n"),
            std::string::npos)
      << s;
}

// The MIG manager's state is polled (failed stops at once), a retry restarts
// the node's MIG manager pod, and drain deletes pods without a controller
// only with DRAIN_FORCE=1.
TEST(ChangeScriptTest, MigStateIsPolledAndRetriedByARestart) {
  NodeChange c = Named({"n1"});
  c.target.mig_config = "all-balanced";
  const std::string s = ChangeScript("x.sh", {}, {c});
  EXPECT_EQ(s.find("kubectl wait"), std::string::npos) << s;
  EXPECT_NE(s.find("me='x.sh'\n"), std::string::npos);
  EXPECT_NE(s.find("    if [ \"$state\" = failed ] || [ \"$waited\" -ge "
                   "\"$mig_limit\" ]; then\n"),
            std::string::npos);
  EXPECT_NE(s.find("      change delete pod -n \"$GPU_OPERATOR_NAMESPACE\" -l "
                   "app=nvidia-mig-manager "
                   "--field-selector=\"spec.nodeName=$mig_node\"\n"),
            std::string::npos);
  EXPECT_NE(s.find("  if [ \"$DRAIN_FORCE\" = 1 ]; then force=--force; else "
                   "force=; fi\n"),
            std::string::npos);
  EXPECT_EQ(s.find("drain \"$1\" --force"), std::string::npos);
}

}  // namespace
}  // namespace gpushare
