// Which autoscaler files a scenario gets, alone and within emit k8s, and
// whether apply.sh applies them.

#include "gpushare/emit/autoscaler_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "gpushare/emit/autoscaler_test_scenario.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace autoscaler_files_test {
namespace {

using emit_test::TestCatalog;

std::vector<std::string> Paths(const std::vector<EmittedFile>& files) {
  std::vector<std::string> out;
  for (const EmittedFile& f : files) out.push_back(f.path);
  return out;
}

// The CA scenario with pool x moved to Karpenter (time-sliced, so it gets
// an overlay).
Scenario Mixed() {
  Scenario s = emit_test::CaScenario();
  s.pools[1].autoscaling.provider = AutoscalerProvider::kKarpenter;
  s.pools[1].sharing = TimeSlicingSharing(2);
  return s;
}

TEST(AutoscalerFilesTest, FilesPerProviderAndCloud) {
  AutoscalerEmitOptions options;
  EXPECT_EQ(
      Paths(AutoscalerFiles(Mixed(), TestCatalog(), options)),
      (std::vector<std::string>{
          "cluster-autoscaler-values.yaml", "cluster-autoscaler-asg-tags.yaml",
          "cluster-autoscaler-machinedeployments.sh",
          "karpenter-nodepools.yaml", "karpenter-node-overlays.yaml"}));
  options.cloud = AutoscalerCloud::kAws;
  EXPECT_EQ(
      Paths(AutoscalerFiles(emit_test::CaScenario(), TestCatalog(), options)),
      (std::vector<std::string>{"cluster-autoscaler-values.yaml",
                                "cluster-autoscaler-asg-tags.yaml"}));
  options.cloud = AutoscalerCloud::kClusterApi;
  EXPECT_EQ(
      Paths(AutoscalerFiles(emit_test::CaScenario(), TestCatalog(), options)),
      (std::vector<std::string>{"cluster-autoscaler-values.yaml",
                                "cluster-autoscaler-machinedeployments.sh"}));
}

TEST(AutoscalerFilesTest, NoAutoscaledPoolIsAnError) {
  Scenario s = emit_test::CaScenario();
  for (NodePoolSpec& p : s.pools) {
    p.autoscaling.provider = AutoscalerProvider::kNone;
  }
  EXPECT_THROW(AutoscalerFiles(s, TestCatalog(), {}), InputError);
}

TEST(AutoscalerFilesTest, BundleMarksEachFile) {
  const std::vector<EmittedFile> one = {{"a.yaml", "x: 1\n"}};
  EXPECT_EQ(BundleText(one), "x: 1\n");
  const std::vector<EmittedFile> two = {{"a.yaml", "x: 1\n"},
                                        {"b.sh", "true\n"}};
  EXPECT_EQ(BundleText(two),
            "# ==== file: a.yaml ====\nx: 1\n# ==== file: b.sh ====\ntrue\n");
}

bool ShellSyntaxOk(const std::string& script) {
  char path[] = "/tmp/gs_autoscaler_files_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return false;
  {
    std::ofstream out(path);
    out << script;
  }
  const int rc = std::system((std::string("sh -n ") + path).c_str());
  std::remove(path);
  return rc == 0;
}

TEST(AutoscalerFilesTest, EmitK8sWritesThemAndApplyShAppliesTheNodePools) {
  const std::vector<EmittedFile> files = K8sConfigFiles(Mixed(), TestCatalog());
  const std::vector<std::string> paths = Paths(files);
  for (const char* p :
       {"cluster-autoscaler-values.yaml", "cluster-autoscaler-asg-tags.yaml",
        "cluster-autoscaler-machinedeployments.sh", "karpenter-nodepools.yaml",
        "karpenter-node-overlays.yaml"}) {
    EXPECT_NE(std::find(paths.begin(), paths.end(), p), paths.end()) << p;
  }
  std::string apply;
  std::string readme;
  for (const EmittedFile& f : files) {
    if (f.path == "apply.sh") apply = f.text;
    if (f.path == "README.md") readme = f.text;
    if (f.path.size() > 3 && f.path.substr(f.path.size() - 3) == ".sh") {
      EXPECT_TRUE(ShellSyntaxOk(f.text)) << f.path;
    }
  }
  EXPECT_NE(apply.find("karpenter-nodepools.yaml"), std::string::npos);
  EXPECT_EQ(apply.find("karpenter-node-overlays.yaml"), std::string::npos);
  EXPECT_EQ(apply.find("cluster-autoscaler-values.yaml"), std::string::npos);
  EXPECT_EQ(apply.find("cluster-autoscaler-asg-tags.yaml"), std::string::npos);
  EXPECT_NE(readme.find("aws autoscaling create-or-update-tags "
                        "--cli-input-yaml file://"
                        "cluster-autoscaler-asg-tags.yaml"),
            std::string::npos);
  // A scenario without autoscaled pools gets none of them.
  Scenario fixed = Mixed();
  for (NodePoolSpec& p : fixed.pools) {
    p.autoscaling.provider = AutoscalerProvider::kNone;
  }
  for (const EmittedFile& f : K8sConfigFiles(fixed, TestCatalog())) {
    EXPECT_EQ(f.path.find("autoscaler"), std::string::npos) << f.path;
    EXPECT_EQ(f.path.find("karpenter"), std::string::npos) << f.path;
  }
}

}  // namespace
}  // namespace autoscaler_files_test
}  // namespace gpushare
