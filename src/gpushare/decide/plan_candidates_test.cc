#include "gpushare/decide/plan_candidates.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "gpushare/catalog/catalog.h"

namespace gpushare {
namespace plan_candidates_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

std::vector<std::string> Labels(const std::vector<PoolCandidate>& c) {
  std::vector<std::string> out;
  for (const PoolCandidate& k : c) out.push_back(k.label);
  return out;
}

bool Has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

NodePoolSpec Pool(const std::string& gpu, SharingConfig sharing) {
  NodePoolSpec p;
  p.name = "p";
  p.gpu_model = gpu;
  p.nodes = 2;
  p.gpus_per_node = 8;
  p.sharing = sharing;
  return p;
}

TEST(PlanCandidatesTest, EverySchemeWithEachCountAndEveryMigLayout) {
  const GpuModel& a100 = TestCatalog().Get("A100-80GB");
  PlanPoolSpec spec;
  std::vector<std::string> notes;
  const std::vector<PoolCandidate> c =
      PoolCandidates(Pool("A100-80GB", ExclusiveSharing()), a100, spec,
                     CompareSpec{}, 1.5, &notes);
  const std::vector<std::string> labels = Labels(c);
  EXPECT_EQ(labels[0], "exclusive");
  for (const char* l :
       {"time-slicing x2", "time-slicing x4", "time-slicing x8", "MPS x2",
        "MPS x4", "MPS x8", "vGPU (HAMi) split 4", "vGPU (HAMi) split 10",
        "MIG all-balanced", "MIG all-3g.40gb", "MIG 4g.40gb + 3g.40gb"}) {
    EXPECT_TRUE(Has(labels, l)) << l;
  }
  EXPECT_FALSE(Has(labels, "MIG all-enabled"));
  EXPECT_EQ(std::set<std::string>(labels.begin(), labels.end()).size(),
            labels.size());
  for (const PoolCandidate& k : c) {
    EXPECT_EQ(k.licence_per_gpu_hour,
              k.sharing.scheme() == SharingScheme::kHami ? 1.5 : 0)
        << k.label;
    EXPECT_EQ(k.label.find("+me"), std::string::npos) << k.label;
  }
}

TEST(PlanCandidatesTest, NamedLayoutsOnlyAndTheWrittenSettingFirst) {
  const GpuModel& a100 = TestCatalog().Get("A100-80GB");
  PlanPoolSpec spec;
  spec.schemes = {SharingScheme::kMig, SharingScheme::kTimeSlicing};
  spec.mig_layouts = MigLayoutChoice::kNamed;
  spec.time_slicing_replicas = {3};
  SharingConfig written = TimeSlicingSharing(6);
  written.replicas.rename_by_default = true;
  const std::vector<PoolCandidate> c = PoolCandidates(
      Pool("A100-80GB", written), a100, spec, CompareSpec{}, 0, nullptr);
  const std::vector<std::string> labels = Labels(c);
  EXPECT_EQ(labels[0], "time-slicing x6");
  EXPECT_TRUE(Has(labels, "time-slicing x3"));
  EXPECT_TRUE(Has(labels, "time-slicing x4"));  // compare's count
  EXPECT_FALSE(Has(labels, "exclusive"));
  EXPECT_FALSE(Has(labels, "MIG 4g.40gb + 3g.40gb"));
  for (const PoolCandidate& k : c) {
    if (k.sharing.sharing == DeviceSharing::kTimeSlicing) {
      EXPECT_TRUE(k.sharing.replicas.rename_by_default) << k.label;
    }
  }
}

// Per-GPU mixes: after the uniform layouts (which win ties on candidate
// order), k = 1, 2, 4, 6 whole-GPU instances on 8-GPU nodes with each named
// config; none with mig_mixes: false.
TEST(PlanCandidatesTest, PerGpuMixesFollowTheUniformLayouts) {
  const GpuModel& h100 = TestCatalog().Get("H100-80GB");
  PlanPoolSpec spec;
  spec.schemes = {SharingScheme::kExclusive, SharingScheme::kMig};
  spec.mig_layouts = MigLayoutChoice::kNamed;
  const std::vector<PoolCandidate> c = PoolCandidates(
      Pool("H100-80GB", ExclusiveSharing()), h100, spec, CompareSpec{}, 0,
      nullptr);
  const std::vector<std::string> labels = Labels(c);
  const auto mix = std::find(labels.begin(), labels.end(),
                             "MIG 7g.80gb on GPUs 0-1, 2 x 3g.40gb on GPUs 2-7");
  ASSERT_NE(mix, labels.end());
  const auto uniform = std::find(labels.begin(), labels.end(),
                                 "MIG all-3g.40gb");
  ASSERT_NE(uniform, labels.end());
  EXPECT_LT(uniform - labels.begin(), mix - labels.begin());
  EXPECT_TRUE(Has(labels, "MIG 7g.80gb on GPU 0, 7 x 1g.10gb on GPUs 1-7"));
  EXPECT_TRUE(Has(labels, "MIG 7g.80gb on GPUs 0-5, 3g.40gb + 2g.20gb + "
                          "2 x 1g.10gb on GPUs 6-7"));
  int mixes = 0;
  for (const PoolCandidate& k : c) {
    if (k.sharing.mig.layouts.size() != 8) continue;
    ++mixes;
    EXPECT_EQ(k.sharing.mig.strategy, MigStrategy::kMixed);
    EXPECT_NO_THROW(k.sharing.Validate(h100, 8)) << k.label;
  }
  EXPECT_EQ(mixes, 4 * 6);
  const PoolCandidate& m = c[mix - labels.begin()];
  EXPECT_EQ(m.sharing.mig.layouts[1], std::vector<std::string>{"7g.80gb"});
  EXPECT_EQ(m.sharing.mig.layouts[2], std::vector<std::string>{"3g.40gb:2"});

  spec.mig_mixes = false;
  for (const PoolCandidate& k :
       PoolCandidates(Pool("H100-80GB", ExclusiveSharing()), h100, spec,
                      CompareSpec{}, 0, nullptr)) {
    EXPECT_LE(k.sharing.mig.layouts.size(), 1u) << k.label;
  }
}

TEST(PlanCandidatesTest, AGpuWithoutMigGetsNoMigCandidates) {
  const GpuModel& l4 = TestCatalog().Get("L4");
  PlanPoolSpec spec;
  std::vector<std::string> notes;
  const std::vector<PoolCandidate> c = PoolCandidates(
      Pool("L4", ExclusiveSharing()), l4, spec, CompareSpec{}, 0, &notes);
  for (const PoolCandidate& k : c) EXPECT_FALSE(k.sharing.mig_enabled);
  EXPECT_FALSE(notes.empty());
}

TEST(PlanCandidatesTest, CostIsNodesTimesGpusTimesPriceAndLicence) {
  const GpuModel& a100 = TestCatalog().Get("A100-80GB");
  const NodePoolSpec p = Pool("A100-80GB", ExclusiveSharing());
  EXPECT_DOUBLE_EQ(PoolCostPerHour(p, a100, 0.5, 3),
                   3 * 8 * (a100.price_per_hour + 0.5));
  PoolCandidate k{"MPS x2", MpsSharing(2), 0};
  const NodePoolSpec applied = ApplyCandidate(p, k, 5);
  EXPECT_EQ(applied.nodes, 5);
  EXPECT_EQ(applied.sharing.scheme(), SharingScheme::kMps);
}

}  // namespace
}  // namespace plan_candidates_test
}  // namespace gpushare
