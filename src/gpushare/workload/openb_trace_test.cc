// Tests of the openb trace readers: small hand-made files, malformed input
// with file:line:col and the column, and the shipped trace's totals.

#include <string>

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"
#include "gpushare/workload/gpu_model_map.h"
#include "gpushare/workload/openb_node_list.h"
#include "gpushare/workload/openb_pod_list.h"

namespace gpushare {
namespace openb_trace_test {
namespace {

const std::string kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model\n";
const std::string kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,"
    "creation_time,deletion_time,scheduled_time\n";

std::string OpenbDir() { return std::string(GS_TESTDATA_DIR) + "/../../data/openb"; }

// The InputError's what() for parsing `text` as a node list.
std::string NodeError(const std::string& text) {
  try {
    ParseOpenbNodeList("nodes.csv", text, GpuModelMap::Default());
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string PodError(const std::string& text) {
  try {
    ParseOpenbPodList("pods.csv", text, GpuModelMap::Default());
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(OpenbNodeListTest, ReadsRows) {
  const auto nodes = ParseOpenbNodeList(
      "nodes.csv",
      kNodeHeader + "n0,96000,786432,8,G2\r\nn1,32000,131072,0,\n\n",
      GpuModelMap::Default());
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].name, "n0");
  EXPECT_EQ(nodes[0].cpu_milli, 96000);
  EXPECT_EQ(nodes[0].memory_mib, 786432);
  EXPECT_EQ(nodes[0].gpus, 8);
  EXPECT_EQ(nodes[0].model, "G2");
  EXPECT_EQ(nodes[0].line, 2);
  EXPECT_EQ(nodes[1].gpus, 0);
  EXPECT_EQ(nodes[1].model, "");
  EXPECT_EQ(nodes[1].line, 3);
}

TEST(OpenbNodeListTest, MalformedInputNamesFileLineAndColumn) {
  EXPECT_EQ(NodeError("sn,cpu,memory_mib,gpu,model\n"),
            "nodes.csv:1:1: expected the header "
            "'sn,cpu_milli,memory_mib,gpu,model', got 'sn,cpu,memory_mib,gpu,"
            "model'");
  EXPECT_EQ(NodeError(kNodeHeader + "n0,96000,1024,8,G2\nn1,9x,1024,2,T4\n"),
            "nodes.csv:3:4: column 'cpu_milli': expected an integer, got "
            "'9x'");
  EXPECT_EQ(NodeError(kNodeHeader + "n0,96000,1024,8\n"),
            "nodes.csv:2:1: expected 5 fields "
            "(sn,cpu_milli,memory_mib,gpu,model), got 4; missing column "
            "'model'");
  EXPECT_EQ(NodeError(kNodeHeader + "n0,96000,1024,8,G9\n"),
            "nodes.csv:2:17: column 'model': unknown GPU model 'G9' (map it "
            "with --model-map G9=CATALOG_MODEL); did you mean G2, G3 or T4?");
  EXPECT_EQ(NodeError(kNodeHeader + "n0,96000,1024,-1,G2\n"),
            "nodes.csv:2:15: column 'gpu': -1 is out of range [0, 64]");
  EXPECT_EQ(NodeError(kNodeHeader + "n0,1,1,1,T4\nn0,1,1,1,T4\n"),
            "nodes.csv:3:1: column 'sn': duplicate node name 'n0'");
  EXPECT_EQ(NodeError(kNodeHeader + "n0,1,1,0,T4\n"),
            "nodes.csv:2:10: column 'model': a node with 0 GPUs has no GPU "
            "model, got 'T4'");
}

TEST(OpenbPodListTest, ReadsBothForms) {
  const auto pods = ParseOpenbPodList(
      "pods.csv",
      kPodHeader +
          "p0,12000,16384,1,460,V100M16|V100M32,LS,Running,0,120,5\n"
          "p1,8000,0,0,0,,BE,Pending,7,9,\n",
      GpuModelMap::Default());
  ASSERT_EQ(pods.size(), 2u);
  EXPECT_EQ(pods[0].gpu_milli, 460);
  EXPECT_EQ(pods[0].gpu_spec, "V100M16|V100M32");
  EXPECT_EQ(pods[0].deletion_time_s, 120);
  EXPECT_EQ(pods[0].scheduled_time_s, 5);
  EXPECT_EQ(pods[1].scheduled_time_s, kNoTime);
  EXPECT_EQ(pods[1].pod_phase, "Pending");

  const auto short_form = ParseOpenbPodList(
      "multigpu.csv",
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,1000,10,8,1000\n",
      GpuModelMap::Default());
  ASSERT_EQ(short_form.size(), 1u);
  EXPECT_EQ(short_form[0].TotalGpuMilli(), 8000);
  EXPECT_EQ(short_form[0].creation_time_s, kNoTime);
}

TEST(OpenbPodListTest, MalformedInputNamesFileLineAndColumn) {
  EXPECT_EQ(PodError(kPodHeader + "p0,1000,10,2,500,,LS,Running,0,1,1\n"),
            "pods.csv:2:14: column 'gpu_milli': a task of 2 GPUs takes whole "
            "GPUs (1000), got 500");
  EXPECT_EQ(PodError(kPodHeader + "p0,1000,10,0,500,,LS,Running,0,1,1\n"),
            "pods.csv:2:14: column 'gpu_milli': must be 0 when num_gpu is 0, "
            "got 500");
  EXPECT_EQ(PodError(kPodHeader + "p0,1000,10,1,1001,,LS,Running,0,1,1\n"),
            "pods.csv:2:14: column 'gpu_milli': 1001 is out of range [0, "
            "1000]");
  EXPECT_EQ(PodError(kPodHeader + "p0,1000,10,1,500,T4|X1,LS,Running,0,1,1\n"),
            "pods.csv:2:18: column 'gpu_spec': unknown GPU model 'X1' (map it "
            "with --model-map X1=CATALOG_MODEL); did you mean A10, G2 or G3?");
  EXPECT_EQ(PodError(kPodHeader + "p0,1000,10,1,500,,LS,Running,,1,1\n"),
            "pods.csv:2:30: column 'creation_time': expected an integer, got "
            "''");
  EXPECT_EQ(PodError(kPodHeader + "p0,1000,10,1,500,,LS,Running,0,1,1,9\n"),
            "pods.csv:2:1: expected 11 fields (" +
                kPodHeader.substr(0, kPodHeader.size() - 1) + "), got 12");
  EXPECT_EQ(PodError(kPodHeader + "p0,1000,10,1,\"500\",,LS,Running,0,1,1\n"),
            "pods.csv:2:14: column 'gpu_milli': quoted fields are not "
            "supported");
}

TEST(GpuModelMapTest, DefaultsAndOverrides) {
  const Catalog catalog = Catalog::Builtin();
  GpuModelMap map = GpuModelMap::Default();
  EXPECT_EQ(map.Resolve("V100M32", catalog).name, "V100-32GB");
  EXPECT_EQ(map.Resolve("G2", catalog).name, "A100-40GB");
  map.ParseOverride("G2=H100-80GB");
  EXPECT_EQ(map.Resolve("G2", catalog).name, "H100-80GB");
  map.ParseOverride("G9=L4");
  EXPECT_EQ(map.Resolve("G9", catalog).name, "L4");
  EXPECT_THROW(map.ParseOverride("G2"), InputError);
  map.ParseOverride("G3=NoSuchGpu");
  EXPECT_THROW(map.Resolve("G3", catalog), InputError);
}

TEST(OpenbTraceTest, ShippedTraceTotals) {
  const GpuModelMap models = GpuModelMap::Default();
  const auto nodes =
      ReadOpenbNodeList(OpenbDir() + "/openb_node_list_gpu_node.csv", models);
  const auto pods =
      ReadOpenbPodList(OpenbDir() + "/openb_pod_list_default.csv", models);
  ASSERT_EQ(nodes.size(), 1213u);
  int64_t gpus = 0;
  for (const OpenbNode& n : nodes) gpus += n.gpus;
  EXPECT_EQ(gpus, 6212);
  ASSERT_EQ(pods.size(), 8152u);
  int64_t milli = 0;
  int cpu_only = 0;
  int sharing = 0;
  for (const OpenbPod& p : pods) {
    milli += p.TotalGpuMilli();
    cpu_only += p.num_gpu == 0;
    sharing += p.num_gpu == 1 && p.gpu_milli < 1000;
  }
  EXPECT_EQ(milli, 6086800);
  EXPECT_EQ(cpu_only, 1088);
  EXPECT_EQ(sharing, 3078);

  const auto multigpu = ReadOpenbPodList(
      OpenbDir() + "/openb_pod_list_multigpu50.csv", models);
  int64_t multi_milli = 0;
  for (const OpenbPod& p : multigpu) multi_milli += p.TotalGpuMilli();
  EXPECT_EQ(multigpu.size(), 9061u);
  EXPECT_EQ(multi_milli, 11358800);
  const auto gpuspec =
      ReadOpenbPodList(OpenbDir() + "/openb_pod_list_gpuspec33.csv", models);
  int constrained = 0;
  for (const OpenbPod& p : gpuspec) constrained += !p.gpu_spec.empty();
  EXPECT_EQ(constrained, 2388);
}

}  // namespace
}  // namespace openb_trace_test
}  // namespace gpushare
