// The NVIDIA driver's DeviceClasses against the devices of one slice: each
// class takes the devices its chart selector names and no others.

#include "gpushare/cluster/dra/device_class.h"

#include <gtest/gtest.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/mig_layout_spec.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"

namespace gpushare {
namespace {

class DraDeviceClassTest : public ::testing::Test {
 protected:
  DraDeviceClassTest() {
    const GpuModel& a100 = *catalog_.Find("A100-80GB");
    NvidiaGpuNode node;
    node.node_name = "node-m";
    node.model = &a100;
    node.gpu_count = 2;
    node.mig_layouts = {ResolveMigLayout(a100, {"3g.40gb@4", "2g.20gb@0",
                                                "1g.10gb@2", "1g.10gb@3"}),
                        {}};
    slice_ = NvidiaGpuResourceSlice(node);
  }

  // The names of the slice's devices `c` takes, comma-separated.
  std::string Taken(const DeviceClass& c) {
    std::string out;
    for (const Device& d : slice_.devices) {
      std::string error;
      const bool match = c.Matches(d, slice_.driver, &error);
      EXPECT_EQ(error, "") << d.name;
      if (match) out += (out.empty() ? "" : ",") + d.name;
    }
    return out;
  }

  Catalog catalog_ = Catalog::Builtin();
  ResourceSlice slice_;
};

TEST_F(DraDeviceClassTest, BuiltinClassesTakeTheirDevices) {
  const DeviceClass gpu = NvidiaGpuDeviceClass();
  EXPECT_EQ(gpu.name, "gpu.nvidia.com");
  EXPECT_EQ(gpu.extended_resource_name, "nvidia.com/gpu");
  EXPECT_EQ(gpu.selectors.at(0).expression(),
            "device.driver == 'gpu.nvidia.com' && "
            "device.attributes['gpu.nvidia.com'].type == 'gpu'");
  EXPECT_EQ(Taken(gpu), "gpu-1");

  const DeviceClass mig = NvidiaMigDeviceClass();
  EXPECT_EQ(mig.name, "mig.nvidia.com");
  EXPECT_EQ(mig.extended_resource_name, "");
  EXPECT_EQ(Taken(mig),
            "gpu-0-mig-1g10gb-19-2,gpu-0-mig-1g10gb-19-3,"
            "gpu-0-mig-2g20gb-14-0,gpu-0-mig-3g40gb-9-4");
}

TEST_F(DraDeviceClassTest, PerProfileClasses) {
  const DeviceClass c = NvidiaMigProfileDeviceClass("1g.10gb");
  EXPECT_EQ(c.name, "mig-1g-10gb.gpu.nvidia.com");
  EXPECT_EQ(c.extended_resource_name, "nvidia.com/mig-1g.10gb");
  EXPECT_EQ(Taken(c), "gpu-0-mig-1g10gb-19-2,gpu-0-mig-1g10gb-19-3");
  EXPECT_EQ(Taken(NvidiaMigProfileDeviceClass("3g.40gb")),
            "gpu-0-mig-3g40gb-9-4");
  EXPECT_EQ(Taken(NvidiaMigProfileDeviceClass("4g.40gb")), "");
  EXPECT_EQ(NvidiaMigProfileClassName("1g.12gb"), "mig-1g-12gb.gpu.nvidia.com");
  EXPECT_EQ(NvidiaMigProfileDeviceClass("1g.10gb+me").name,
            "mig-1g-10gb-me.gpu.nvidia.com");
  EXPECT_EQ(NvidiaMigProfileDeviceClass("1g.10gb+me").extended_resource_name,
            "nvidia.com/mig-1g.10gb.me");
  EXPECT_EQ(NvidiaMigProfileSelector("1g.12gb"),
            "device.driver == 'gpu.nvidia.com' && "
            "device.attributes['gpu.nvidia.com'].type == 'mig' && "
            "device.attributes['gpu.nvidia.com'].profile == '1g.12gb'");
}

TEST_F(DraDeviceClassTest, AnotherDriversDeviceDoesNotMatchWithoutAnError) {
  // false && (no such key) is false: the driver test guards the attribute.
  Device other;
  other.name = "nic-0";
  other.SetAttribute("net.example.com", "type", DeviceAttribute::String("gpu"));
  std::string error;
  EXPECT_FALSE(
      NvidiaGpuDeviceClass().Matches(other, "net.example.com", &error));
  EXPECT_EQ(error, "");
}

TEST_F(DraDeviceClassTest, RuntimeErrorIsReportedAsTheAllocatorWordsIt) {
  DeviceClass c;
  c.name = "by-profile";
  c.selectors.push_back(
      CelSelector::CompileAt("device.driver == 'gpu.nvidia.com'", "f", 1, 1));
  c.selectors.push_back(CelSelector::CompileAt(
      "device.attributes['gpu.nvidia.com'].profile == '1g.10gb'", "f", 2, 1));
  std::string error;
  EXPECT_FALSE(c.Matches(*slice_.FindDevice("gpu-1"), slice_.driver, &error));
  EXPECT_EQ(error,
            "class by-profile: selector #1: CEL runtime error: no such key: "
            "profile");
  // The first selector is false for another driver: the second is not run.
  error.clear();
  EXPECT_FALSE(
      c.Matches(*slice_.FindDevice("gpu-1"), "other.example.com", &error));
  EXPECT_EQ(error, "");
  EXPECT_TRUE(c.Matches(slice_.devices[0], slice_.driver, &error));
}

}  // namespace
}  // namespace gpushare
