#include "gpushare/workload/job_list.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace job_list_test {
namespace {

std::string Error(const std::string& rows) {
  try {
    ParseJobList("jobs.csv", std::string(kJobListHeader) + "\n" + rows);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(JobListTest, ReadsTheShippedExampleSortedByArrival) {
  const std::vector<Pod> pods = ReadJobList(GS_TESTDATA_DIR "/replay/jobs.csv");
  ASSERT_EQ(pods.size(), 4u);
  EXPECT_EQ(pods[0].name, "train-1");
  EXPECT_EQ(pods[1].name, "notebook-1");  // arrives at 5 before serve-1
  EXPECT_EQ(pods[2].name, "serve-1");
  EXPECT_EQ(pods[3].name, "etl-1");
  const Pod& serve = pods[2];
  EXPECT_EQ(serve.tenant_class, "prod");
  EXPECT_EQ(serve.workload_class, WorkloadClass::kInference);
  EXPECT_DOUBLE_EQ(serve.arrival_s, 10.5);
  EXPECT_DOUBLE_EQ(serve.needs.gpus, 0.25);
  EXPECT_EQ(serve.needs.gpu_memory_mib, 6000);
  EXPECT_DOUBLE_EQ(serve.needs.duty, 0.8);
  EXPECT_EQ(serve.needs.lifetime_s, 3600);
  EXPECT_EQ(serve.priority, 100);
  EXPECT_EQ(serve.node_selector.at("gpushare.io/node-pool"), "gpu");
  EXPECT_EQ(pods[1].node_selector.size(), 2u);
  EXPECT_EQ(pods[3].needs.gpus, 0);
}

TEST(JobListTest, MalformedFieldsNameFileLineAndColumn) {
  EXPECT_EQ(Error("a,t,batch,0,1.5,0,0,0,10,0,0,0,0,"),
            "jobs.csv:2:13: column 'gpus': expected 0, a fraction < 1 or a "
            "whole number");
  EXPECT_EQ(Error("a,t,serving,0,1,0,0,0,10,0,0,0,0,"),
            "jobs.csv:2:5: column 'workload_class': expected training, "
            "inference, batch or dev, got 'serving'");
  EXPECT_EQ(Error("a,t,batch,0,1,0,1.2,0,10,0,0,0,0,"),
            "jobs.csv:2:17: column 'sm_demand': value 1.2 is out of range "
            "(0..1)");
  EXPECT_EQ(Error("a,t,batch,x,1,0,0,0,10,0,0,0,0,"),
            "jobs.csv:2:11: column 'arrival_s': expected a number, got 'x'");
  EXPECT_EQ(Error("a,t,batch,0,1,0,0,0,0,0,0,0,0,"),
            "jobs.csv:2:23: column 'lifetime_s': a job needs work_s > 0 or, "
            "for a service, lifetime_s > 0");
  EXPECT_EQ(Error("a,t,batch,0,1,0,0,0,10,0,0,0,0,zone"),
            "jobs.csv:2:32: column 'node_selector': expected key=value pairs "
            "separated by ';', got 'zone'");
  EXPECT_EQ(Error("a,t,batch,0,1,0,0,0,10,0,0,0,0,\n"
                  "a,t,batch,0,1,0,0,0,10,0,0,0,0,"),
            "jobs.csv:3:1: column 'name': duplicate job name 'a'");
  const std::string header = [] {
    try {
      ParseJobList("jobs.csv", "name,arrival\n");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  }();
  EXPECT_NE(header.find("jobs.csv:1:1:"), std::string::npos) << header;
}

}  // namespace
}  // namespace job_list_test
}  // namespace gpushare
