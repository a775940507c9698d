#include "gpushare/emit/dra_claim.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(DraClaimTest, TemplateNameCarriesPoolClassCountAndMemory) {
  DraClaim whole{"train", "gpu.nvidia.com", 1, 0,
                 DraTimeSliceInterval::kDefault, ""};
  EXPECT_EQ(DraClaimTemplateName("training", whole), "training-train-gpu");
  whole.count = 4;
  whole.memory_mib = 12000;
  EXPECT_EQ(DraClaimTemplateName("training", whole),
            "training-train-gpu-x4-12000mi");
  const DraClaim mig{"inference", "mig-1g-10gb.gpu.nvidia.com", 1, 0,
                     DraTimeSliceInterval::kDefault, ""};
  EXPECT_EQ(DraClaimTemplateName("svc", mig), "svc-inference-mig-1g-10gb");
}

TEST(DraClaimTest, ExclusiveTemplate) {
  const DraClaim claim{"train", "gpu.nvidia.com", 2, 0,
                       DraTimeSliceInterval::kDefault, ""};
  EXPECT_EQ(ResourceClaimTemplateYaml("ml", "training-train-gpu-x2", claim),
            "apiVersion: resource.k8s.io/v1\n"
            "kind: ResourceClaimTemplate\n"
            "metadata:\n"
            "  name: training-train-gpu-x2\n"
            "  namespace: ml\n"
            "spec:\n"
            "  spec:\n"
            "    devices:\n"
            "      requests:\n"
            "        - name: gpu\n"
            "          exactly:\n"
            "            deviceClassName: gpu.nvidia.com\n"
            "            allocationMode: ExactCount\n"
            "            count: 2\n");
}

TEST(DraClaimTest, MemorySharesAndIntervalTemplate) {
  // Consumable shares in memory mode: each device provides the class's
  // 12000 MiB; a Short TimeSlicing interval in the opaque GpuConfig
  // (demo/specs/quickstart/v1/gpu-test5.yaml's layout).
  const DraClaim claim{"shared", "gpu.nvidia.com", 1, 12000,
                       DraTimeSliceInterval::kShort, ""};
  EXPECT_EQ(ResourceClaimTemplateYaml("team-a", "nb-shared-gpu-12000mi",
                                      claim),
            "apiVersion: resource.k8s.io/v1\n"
            "kind: ResourceClaimTemplate\n"
            "metadata:\n"
            "  name: nb-shared-gpu-12000mi\n"
            "  namespace: team-a\n"
            "spec:\n"
            "  spec:\n"
            "    devices:\n"
            "      requests:\n"
            "        - name: gpu\n"
            "          exactly:\n"
            "            deviceClassName: gpu.nvidia.com\n"
            "            allocationMode: ExactCount\n"
            "            count: 1\n"
            "            capacity:\n"
            "              requests:\n"
            "                memory: \"12000Mi\"\n"
            "      config:\n"
            "        - requests: [gpu]\n"
            "          opaque:\n"
            "            driver: gpu.nvidia.com\n"
            "            parameters:\n"
            "              apiVersion: resource.nvidia.com/v1beta1\n"
            "              kind: GpuConfig\n"
            "              sharing:\n"
            "                strategy: TimeSlicing\n"
            "                timeSlicingConfig:\n"
            "                  interval: Short\n");
}

TEST(DraClaimTest, NamespaceThatReadsAsAnotherTypeIsQuoted) {
  const DraClaim claim{"p", "gpu.nvidia.com", 1, 0,
                       DraTimeSliceInterval::kDefault, ""};
  const std::string yaml = ResourceClaimTemplateYaml("true", "c-p-gpu", claim);
  EXPECT_NE(yaml.find("  namespace: \"true\"\n"), std::string::npos) << yaml;
}

}  // namespace
}  // namespace gpushare
