// The NVIDIA driver's opaque GpuConfig of imported claims, by hand
// (kubectl_gpu_config.h; dra-driver-nvidia-gpu sharing.go, validate.go).

#include "gpushare/workload/kubectl_gpu_config.h"

#include <gtest/gtest.h>

#include <string>

#include "gpushare/io/input_error.h"
#include "gpushare/workload/kubectl_mixed_list.h"

namespace gpushare {
namespace {

// A List of one DeviceClass with `class_config` and one claim with
// `claim_config` (JSON arrays).
KubectlDraItems GpuConfigItems(const std::string& class_config,
                               const std::string& claim_config) {
  const std::string text = R"({"kind": "List", "items": [
{"kind": "DeviceClass", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "shared.example.com"},
 "spec": {"config": )" + class_config + R"(}},
{"kind": "ResourceClaim", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "c", "namespace": "ml"},
 "spec": {"devices": {"requests": [{"name": "gpu", "exactly":
   {"deviceClassName": "shared.example.com"}}],
   "config": )" + claim_config + R"(}}}]})";
  KubectlDraItems items;
  KubectlMixedItems("l.json", text, "Pod", "Node", &items);
  return items;
}

std::string Opaque(const std::string& sharing,
                   const std::string& requests = "") {
  return R"({)" + (requests.empty() ? "" : R"("requests": )" + requests + ",") +
         R"("opaque": {"driver": "gpu.nvidia.com", "parameters": {
   "apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuConfig",
   "sharing": )" + sharing + "}}}";
}

NvidiaClaimSharing Read(const KubectlDraItems& items) {
  const JsonValue class_config =
      items.device_classes.front().Get("spec").Get("config");
  return ReadNvidiaClaimSharing(items.resource_claims.front().Get("spec"),
                                &class_config, "gpu", "ml/c");
}

TEST(KubectlGpuConfigTest, TheClaimsLastApplyingEntryWinsOverTheClass) {
  // The class asks MPS at 25 %; the claim's entry for another request is
  // skipped; its entry for all requests asks MPS at 60 % with a default
  // limit of 10Gi overridden per device to 8Gi and 4Gi: the least is kept.
  const KubectlDraItems items = GpuConfigItems(
      "[" + Opaque(R"({"strategy": "MPS", "mpsConfig":
          {"defaultActiveThreadPercentage": 25}})") + "]",
      "[" +
          Opaque(R"({"strategy": "TimeSlicing", "timeSlicingConfig":
              {"interval": "Long"}})",
                 R"(["other"])") +
          "," + Opaque(R"({"strategy": "MPS", "mpsConfig":
          {"defaultActiveThreadPercentage": 60,
           "defaultPinnedDeviceMemoryLimit": "10Gi",
           "defaultPerDevicePinnedMemoryLimit": {"0": "8Gi", "1": "4Gi"}}})") +
          "]");
  const NvidiaClaimSharing s = Read(items);
  EXPECT_EQ(s.strategy, NvidiaClaimSharing::Strategy::kMps);
  EXPECT_EQ(s.active_thread_percentage, 60);
  EXPECT_EQ(s.pinned_memory_limit_mib, 4096);
}

TEST(KubectlGpuConfigTest, TimeSlicingIntervalAndNoSharing) {
  NvidiaClaimSharing s = Read(GpuConfigItems(
      "[]", "[" + Opaque(R"({"strategy": "TimeSlicing", "timeSlicingConfig":
          {"interval": "Medium"}})") + "]"));
  EXPECT_EQ(s.strategy, NvidiaClaimSharing::Strategy::kTimeSlicing);
  EXPECT_EQ(s.interval, DraTimeSliceInterval::kMedium);
  // A later GpuConfig without sharing is the driver's default: none.
  s = Read(GpuConfigItems(
      "[" + Opaque(R"({"strategy": "MPS"})") + "]",
      R"([{"opaque": {"driver": "gpu.nvidia.com", "parameters": {
   "apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuConfig"}}}])"));
  EXPECT_EQ(s.strategy, NvidiaClaimSharing::Strategy::kNone);
}

std::string ErrorOf(const std::string& sharing) {
  try {
    Read(GpuConfigItems("[]", "[" + Opaque(sharing) + "]"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(KubectlGpuConfigTest, WhatTheDriverRefusesIsALocatedError) {
  EXPECT_NE(ErrorOf(R"({"strategy": "Fabric"})")
                .find("claim ml/c: fabric GPU sharing strategy is not enabled"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"strategy": "Spatial"})")
                .find("unknown GPU sharing strategy: Spatial"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"strategy": "MPS", "mpsConfig":
                {"defaultActiveThreadPercentage": -1}})")
                .find("active thread percentage must not be negative"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"strategy": "MPS", "mpsConfig":
                {"defaultPinnedDeviceMemoryLimit": "1000Ki"}})")
                .find("value set too low"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"strategy": "MPS", "timeSlicingConfig": {}})")
                .find("cannot use TimeSlicingConfig with the 'MPS' strategy"),
            std::string::npos);
  const std::string located = ErrorOf(R"({"strategy": "TimeSlicing",
      "timeSlicingConfig": {"interval": "Forever"}})");
  EXPECT_NE(located.find("l.json:"), std::string::npos) << located;
  EXPECT_NE(located.find("unknown time-slice interval: Forever"),
            std::string::npos);
}

}  // namespace
}  // namespace gpushare
