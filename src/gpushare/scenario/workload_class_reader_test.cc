// The workload class reader's traps: a count's arrivals within the
// horizon, gpu_ms_per_request measured on another GPU ({value, on}), and
// hand-written requests no pool advertises.

#include <gtest/gtest.h>

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace workload_class_reader_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// Pools dev (L4 time-slicing x4) and vgpu (A100-80GB HAMi, tainted), then
// `classes` under workload.classes with a horizon of 3600 s.
std::string Scenario(const std::string& classes) {
  return R"(cluster:
  pools:
    - {name: dev, gpu: L4, nodes: 1, gpus_per_node: 4,
       sharing: {scheme: time-slicing, replicas: 4}}
    - {name: vgpu, gpu: A100-80GB, nodes: 1, gpus_per_node: 2,
       taints: [{key: vgpu, effect: NoSchedule}], sharing: {scheme: hami}}
workload:
  horizon_s: 3600
  classes:
)" + classes;
}

gpushare::Scenario Read(const std::string& text) {
  return ReadScenarioYaml(text, "s.yaml", TestCatalog());
}

std::string Error(const std::string& text) {
  try {
    Read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(WorkloadClassReaderTest, CountAloneKeepsNoRate) {
  const gpushare::Scenario s =
      Read(Scenario("    - {name: a, class: batch, count: 10}\n"));
  EXPECT_EQ(s.workload.classes[0].count, 10);
  EXPECT_EQ(s.workload.classes[0].arrival_rate_per_s, 0);
}

TEST(WorkloadClassReaderTest, CountAtARateMustEndWithinTheHorizon) {
  // 10 at 0.01/s take 1000 s: fine within 3600 s.
  EXPECT_EQ(Error(Scenario("    - {name: a, class: batch, count: 10, "
                           "arrival_rate_per_s: 0.01}\n")),
            "");
  // 24 at 0.002/s take 12000 s: past the 3600 s horizon.
  EXPECT_EQ(Error(Scenario("    - {name: a, class: batch, count: 24, "
                           "arrival_rate_per_s: 0.002}\n")),
            "s.yaml:10:62: class 'a' arrival_rate_per_s: count 24 at 0.002/s "
            "takes 12000 s, past the workload's horizon_s 3600; arrivals fall "
            "within the horizon, so raise the rate to at least 0.00666667/s, "
            "lower count, lengthen workload.horizon_s, or leave "
            "arrival_rate_per_s out (count then spreads over the horizon)");
  // The suggested rate is enough as printed: 24 / 0.00666667 < 3600.
  EXPECT_EQ(Error(Scenario("    - {name: a, class: batch, count: 24, "
                           "arrival_rate_per_s: 0.00666667}\n")),
            "");
}

// request_sizing: one template per class (default) or one per pod; per
// pod leaves no percentile to give.
TEST(WorkloadClassReaderTest, RequestSizingPerPod) {
  const gpushare::Scenario s =
      Read(Scenario("    - {name: a, class: batch, count: 10}\n"
                    "    - {name: b, class: batch, count: 10, "
                    "request_sizing: per_pod}\n"
                    "    - {name: c, class: batch, count: 10, "
                    "request_sizing: template, request_percentile: 50}\n"));
  EXPECT_FALSE(s.workload.classes[0].request_per_pod);
  EXPECT_TRUE(s.workload.classes[1].request_per_pod);
  EXPECT_FALSE(s.workload.classes[2].request_per_pod);
  EXPECT_EQ(s.workload.classes[2].request_percentile, 50);
  EXPECT_EQ(Error(Scenario("    - {name: a, class: batch, count: 10, "
                           "request_sizing: per_pod, request_percentile: "
                           "90}\n")),
            "s.yaml:10:87: class 'a': request_percentile sizes one pod "
            "template for the class; with request_sizing: per_pod each pod "
            "asks its own footprint, so give one or the other");
  EXPECT_NE(Error(Scenario("    - {name: a, class: batch, count: 10, "
                           "request_sizing: each}\n"))
                .find("request_sizing"),
            std::string::npos);
}

TEST(WorkloadClassReaderTest, GpuTimeMeasuredOnAnotherGpu) {
  const gpushare::Scenario s = Read(
      Scenario("    - {name: chat, class: inference, count: 1, work_s: 0, "
               "lifetime_s: 60,\n"
               "       gpu_ms_per_request: {value: 10, on: h100-80gb}}\n"
               "    - {name: plain, class: inference, count: 1, work_s: 0, "
               "lifetime_s: 60,\n"
               "       gpu_ms_per_request: {uniform: [5, 20]}}\n"));
  const WorkloadClassSpec& chat = s.workload.classes[0];
  // 10 ms on an H100 (relative speed 3.17) is 31.7 ms on an A100.
  EXPECT_EQ(chat.gpu_ms_per_request.kind, Distribution::Kind::kConstant);
  EXPECT_NEAR(chat.gpu_ms_per_request.value, 31.7, 1e-9);
  EXPECT_EQ(chat.gpu_ms_per_request_on, "H100-80GB");
  EXPECT_EQ(chat.gpu_ms_per_request_speed, 3.17);
  const WorkloadClassSpec& plain = s.workload.classes[1];
  EXPECT_EQ(plain.gpu_ms_per_request.min, 5);
  EXPECT_EQ(plain.gpu_ms_per_request_on, "");
  // A distribution measured on an L4 (0.39): every bound scaled.
  const gpushare::Scenario l4 = Read(Scenario(
      "    - {name: chat, class: inference, count: 1, work_s: 0, "
      "lifetime_s: 60,\n"
      "       gpu_ms_per_request: {value: {uniform: [10, 20]}, on: L4}}\n"));
  const double speed = TestCatalog().Get("L4").relative_speed;
  EXPECT_NEAR(l4.workload.classes[0].gpu_ms_per_request.min, 10 * speed, 1e-12);
  EXPECT_NEAR(l4.workload.classes[0].gpu_ms_per_request.max, 20 * speed, 1e-12);
}

TEST(WorkloadClassReaderTest, GpuTimeErrors) {
  const std::string head =
      "    - {name: chat, class: inference, count: 1, work_s: 0, "
      "lifetime_s: 60,\n       gpu_ms_per_request: ";
  EXPECT_EQ(Error(Scenario(head + "{value: 10}}\n")),
            "s.yaml:11:28: class 'chat' gpu_ms_per_request: give both value "
            "(the GPU time per request) and on (the GPU model it was measured "
            "on), e.g. {value: 10, on: H100-80GB}");
  EXPECT_EQ(Error(Scenario(head + "{value: 10, on: H100-40GB}}\n")),
            "s.yaml:11:44: class 'chat' gpu_ms_per_request on: unknown GPU "
            "model 'H100-40GB'; closest known: H100-80GB, A100-40GB, "
            "H100-94GB (see 'gpushare-sim catalog')");
  EXPECT_EQ(
      Error(Scenario(head + "{value: 10, on: L4, at: 3}}\n")).substr(0, 63),
      "s.yaml:11:48: class 'chat' gpu_ms_per_request: unknown key 'at'");
}

TEST(WorkloadClassReaderTest, RequestsNoReachablePoolAdvertisesAreRefused) {
  // gpumem on the time-slicing pool: HAMi's vgpu pool advertises it, but
  // its taint keeps the class off.
  EXPECT_EQ(
      Error(Scenario("    - {name: a, class: batch, count: 1,\n"
                     "       requests: {nvidia.com/gpu: 1, "
                     "nvidia.com/gpumem: 4000}}\n")),
      "s.yaml:11:38: class 'a' requests: no pool the class's pods may land "
      "on advertises nvidia.com/gpumem, so every pod would stay Pending "
      "(pools: dev (time-slicing x4): nvidia.com/gpu); vgpu advertises it, "
      "but the class's node_selector or tolerations keep its pods off");
  // Tolerating the taint reaches the HAMi pool: accepted.
  EXPECT_EQ(Error(Scenario("    - {name: a, class: batch, count: 1,\n"
                           "       tolerations: [{key: vgpu, operator: "
                           "Exists}],\n"
                           "       requests: {nvidia.com/gpu: 1, "
                           "nvidia.com/gpumem: 4000}}\n")),
            "");
  // A MIG device no pool has.
  EXPECT_EQ(
      Error(Scenario("    - {name: a, class: batch, count: 1,\n"
                     "       tolerations: [{key: vgpu, operator: Exists}],\n"
                     "       requests: {nvidia.com/mig-1g.10gb: 1}}\n")),
      "s.yaml:12:19: class 'a' requests: no pool the class's pods may land "
      "on advertises nvidia.com/mig-1g.10gb, so every pod would stay Pending "
      "(pools: dev (time-slicing x4): nvidia.com/gpu; vgpu (vGPU (HAMi) "
      "split 10): nvidia.com/gpu, nvidia.com/gpucores, nvidia.com/gpumem, "
      "nvidia.com/gpumem-percentage); request what the pools' device plugins "
      "advertise (docs/model.md §2), or leave requests out to have them "
      "translated from the class's needs");
  // Pinned to dev by its selector.
  EXPECT_NE(Error(Scenario("    - {name: a, class: batch, count: 1,\n"
                           "       node_selector: {gpushare.io/node-pool: "
                           "dev},\n"
                           "       tolerations: [{key: vgpu, operator: "
                           "Exists}],\n"
                           "       requests: {nvidia.com/gpucores: 30}}\n")),
            "");
}

}  // namespace
}  // namespace workload_class_reader_test
}  // namespace gpushare
