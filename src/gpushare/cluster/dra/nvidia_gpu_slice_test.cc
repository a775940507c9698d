// The slices the NVIDIA DRA driver publishes, built from the catalog and
// checked against hand-written names and values (device names:
// cmd/gpu-kubelet-plugin/deviceinfo.go and mig.go of
// kubernetes-sigs/dra-driver-nvidia-gpu; catalog values: catalog/gpus.yaml).

#include "gpushare/cluster/dra/nvidia_gpu_slice.h"

#include <gtest/gtest.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/mig_layout_spec.h"
#include "gpushare/metrics/gpu_uuid.h"

namespace gpushare {
namespace {

constexpr int64_t kMi = int64_t{1} << 20;

class DraResourceSliceTest : public ::testing::Test {
 protected:
  const GpuModel& Model(const char* name) { return *catalog_.Find(name); }

  static std::string StringAttr(const Device& d, const char* name) {
    const DeviceAttribute* a = d.FindAttribute(kNvidiaGpuDriver, name);
    if (a == nullptr || a->kind() != DeviceAttribute::Kind::kString) {
      return "<none>";
    }
    return a->string_value();
  }
  static std::string VersionAttr(const Device& d, const char* name) {
    const DeviceAttribute* a = d.FindAttribute(kNvidiaGpuDriver, name);
    if (a == nullptr || a->kind() != DeviceAttribute::Kind::kVersion) {
      return "<none>";
    }
    return a->version_value().ToString();
  }
  static int64_t Capacity(const Device& d, const std::string& name) {
    const DeviceCapacity* c = d.FindCapacity(kNvidiaGpuDriver, name);
    return c == nullptr ? -1 : c->value;
  }

  Catalog catalog_ = Catalog::Builtin();
};

TEST_F(DraResourceSliceTest, EightA100sArePublishedAsWholeGpus) {
  NvidiaGpuNode node;
  node.node_name = "node-a";
  node.model = &Model("A100-80GB");
  node.gpu_count = 8;
  const ResourceSlice slice = NvidiaGpuResourceSlice(node);
  EXPECT_EQ(slice.driver, "gpu.nvidia.com");
  EXPECT_EQ(slice.pool_name, "node-a");
  EXPECT_EQ(slice.node_name, "node-a");
  EXPECT_EQ(slice.pool_generation, 1);
  EXPECT_EQ(slice.resource_slice_count, 1);
  ASSERT_EQ(slice.devices.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    const Device& d = slice.devices[static_cast<size_t>(i)];
    EXPECT_EQ(d.name, "gpu-" + std::to_string(i));
    EXPECT_EQ(StringAttr(d, "uuid"), FakeGpuUuid("node-a", i));
  }
  const Device& gpu = slice.devices[3];
  EXPECT_EQ(StringAttr(gpu, "type"), "gpu");
  EXPECT_EQ(StringAttr(gpu, "productName"), "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(StringAttr(gpu, "brand"), "Nvidia");
  EXPECT_EQ(StringAttr(gpu, "architecture"), "Ampere");
  EXPECT_EQ(VersionAttr(gpu, "cudaComputeCapability"), "8.0.0");
  EXPECT_EQ(VersionAttr(gpu, "driverVersion"), "580.126.20");
  EXPECT_EQ(VersionAttr(gpu, "cudaDriverVersion"), "13.0.0");
  EXPECT_EQ(Capacity(gpu, "memory"), 85'899'345'920);  // 81920 MiB = 80Gi
  EXPECT_EQ(gpu.capacities.size(), 1u);
  // Upstream no longer publishes the index (NVIDIA/k8s-dra-driver-gpu
  // 36fc80ab); it is in the name only.
  EXPECT_EQ(gpu.FindAttribute(kNvidiaGpuDriver, "index"), nullptr);
  EXPECT_EQ(gpu.attributes.size(), 8u);
  EXPECT_NE(StringAttr(slice.devices[0], "uuid"),
            StringAttr(slice.devices[1], "uuid"));
}

TEST_F(DraResourceSliceTest, StaticMigLayoutPublishesOneDevicePerInstance) {
  const GpuModel& a100 = Model("A100-80GB");
  NvidiaGpuNode node;
  node.node_name = "node-m";
  node.model = &a100;
  node.gpu_count = 2;
  node.mig_layouts = {ResolveMigLayout(a100, {"3g.40gb@4", "2g.20gb@0",
                                              "1g.10gb@2", "1g.10gb@3"}),
                      {}};
  const ResourceSlice slice = NvidiaGpuResourceSlice(node);
  ASSERT_EQ(slice.devices.size(), 5u);
  // MIG devices of GPU 0 in name order, then the whole GPU 1 (MIG off).
  EXPECT_EQ(slice.devices[0].name, "gpu-0-mig-1g10gb-19-2");
  EXPECT_EQ(slice.devices[1].name, "gpu-0-mig-1g10gb-19-3");
  EXPECT_EQ(slice.devices[2].name, "gpu-0-mig-2g20gb-14-0");
  EXPECT_EQ(slice.devices[3].name, "gpu-0-mig-3g40gb-9-4");
  EXPECT_EQ(slice.devices[4].name, "gpu-1");
  EXPECT_EQ(slice.FindDevice("gpu-0"), nullptr);

  const Device& mig = slice.devices[3];
  EXPECT_EQ(StringAttr(mig, "type"), "mig");
  EXPECT_EQ(StringAttr(mig, "profile"), "3g.40gb");
  EXPECT_EQ(StringAttr(mig, "parentUUID"), FakeGpuUuid("node-m", 0));
  EXPECT_EQ(StringAttr(mig, "uuid").rfind("MIG-", 0), 0u);
  EXPECT_EQ(StringAttr(mig, "uuid").size(), 40u);
  EXPECT_EQ(StringAttr(mig, "productName"), "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(VersionAttr(mig, "cudaComputeCapability"), "8.0.0");
  EXPECT_EQ(Capacity(mig, "multiprocessors"), 42);
  EXPECT_EQ(Capacity(mig, "memory"), 40192 * kMi);
  for (int s = 0; s < 8; ++s) {
    EXPECT_EQ(Capacity(mig, "memorySlice" + std::to_string(s)), s >= 4 ? 1 : -1)
        << s;
  }
  EXPECT_EQ(Capacity(slice.devices[0], "memorySlice2"), 1);
  EXPECT_EQ(Capacity(slice.devices[0], "memory"), 9856 * kMi);
  EXPECT_EQ(Capacity(slice.devices[0], "multiprocessors"), 14);
  EXPECT_NE(StringAttr(slice.devices[0], "uuid"),
            StringAttr(slice.devices[1], "uuid"));
}

TEST_F(DraResourceSliceTest, MediaExtensionProfileName) {
  const GpuModel& h100 = Model("H100-80GB");
  NvidiaGpuNode node;
  node.node_name = "n";
  node.model = &h100;
  node.gpu_count = 1;
  node.mig_layouts = {ResolveMigLayout(h100, {"1g.10gb+me@0"})};
  const ResourceSlice slice = NvidiaGpuResourceSlice(node);
  ASSERT_EQ(slice.devices.size(), 1u);
  EXPECT_EQ(slice.devices[0].name, "gpu-0-mig-1g10gb-me-20-0");
  EXPECT_EQ(StringAttr(slice.devices[0], "architecture"), "Hopper");
}

TEST_F(DraResourceSliceTest, MigProfileIdsAsNvidiaSmiListsThem) {
  const GpuModel& h100 = Model("H100-80GB");
  auto id = [&](const GpuModel& m, const char* profile) {
    return NvidiaMigProfileId(m, m.RequireProfile(profile));
  };
  EXPECT_EQ(id(h100, "1g.10gb"), 19);
  EXPECT_EQ(id(h100, "1g.10gb+me"), 20);
  EXPECT_EQ(id(h100, "1g.20gb"), 15);
  EXPECT_EQ(id(h100, "2g.20gb"), 14);
  EXPECT_EQ(id(h100, "3g.40gb"), 9);
  EXPECT_EQ(id(h100, "4g.40gb"), 5);
  EXPECT_EQ(id(h100, "7g.80gb"), 0);
  EXPECT_EQ(id(Model("A100-40GB"), "1g.5gb"), 19);
  const GpuModel& a30 = Model("A30-24GB");
  EXPECT_EQ(id(a30, "1g.6gb"), 14);
  EXPECT_EQ(id(a30, "1g.6gb+me"), 21);
  EXPECT_EQ(id(a30, "2g.12gb"), 5);
  EXPECT_EQ(id(a30, "2g.12gb+me"), 6);
  EXPECT_EQ(id(a30, "4g.24gb"), 0);
}

TEST_F(DraResourceSliceTest, ProductNameBrandAndArchitectureFromTheCatalog) {
  EXPECT_EQ(NvidiaProductName(Model("T4")), "Tesla T4");
  EXPECT_EQ(NvidiaBrand(Model("T4")), "Tesla");
  EXPECT_EQ(NvidiaProductName(Model("B200")), "NVIDIA B200");
  EXPECT_EQ(NvidiaArchitecture(Model("B200")), "Blackwell");
  EXPECT_EQ(NvidiaArchitecture(Model("L4")), "Ada Lovelace");
  EXPECT_EQ(NvidiaBrand(Model("L4")), "Nvidia");
}

}  // namespace
}  // namespace gpushare
