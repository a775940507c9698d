#include "gpushare/catalog/catalog.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// The InputError `what()` of merging `text`, or "" if it merges.
std::string MergeError(Catalog& catalog, const std::string& text) {
  try {
    catalog.MergeYaml(text, "user.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

constexpr const char* kNewModel = R"(version: 1
models:
  - name: X1
    aliases: [NVIDIA-X1]
    family: hopper
    compute_capability: "9.0"
    memory_mib: 1000
    sms: 10
    relative_speed: 0.5
    price_per_hour: 1.25
)";

TEST(CatalogTest, BuiltinCoversTheRequiredModels) {
  const Catalog catalog = Catalog::Builtin();
  for (const char* name :
       {"A100-40GB", "A100-80GB", "A30-24GB", "H100-80GB", "H100-94GB",
        "H200-141GB", "B200", "L4", "L40S", "A10", "T4", "V100-16GB",
        "V100-32GB"}) {
    SCOPED_TRACE(name);
    const GpuModel* m = catalog.Find(name);
    ASSERT_NE(m, nullptr);
    EXPECT_GT(m->memory_mib, 0);
    EXPECT_GT(m->sms, 0);
    EXPECT_GT(m->relative_speed, 0);
  }
  // Every built-in model has its datasheet memory bandwidth.
  for (const GpuModel& m : catalog.models()) {
    EXPECT_GT(m.memory_bandwidth_gb_s, 0) << m.name;
  }
  for (const char* mig : {"A100-40GB", "A100-80GB", "A30-24GB", "H100-80GB",
                          "H100-94GB", "H200-141GB", "B200"}) {
    EXPECT_TRUE(catalog.Find(mig)->mig_capable()) << mig;
  }
  for (const char* plain : {"L4", "L40S", "A10", "T4", "V100-16GB"}) {
    EXPECT_FALSE(catalog.Find(plain)->mig_capable()) << plain;
  }
}

TEST(CatalogTest, ExactGeometryFromTheSpecification) {
  // NVIDIA MIG User Guide, "Supported MIG Profiles" (A100 table).
  const Catalog catalog = Catalog::Builtin();
  const MigGeometry& a100 = *catalog.Find("A100-40GB")->mig;
  EXPECT_EQ(a100.compute_slices, 7);
  EXPECT_EQ(a100.memory_slices, 8);
  const MigProfile& p1g10 = a100.profiles[a100.FindProfile("1g.10gb")];
  EXPECT_EQ(p1g10.memory_slices, 2);
  EXPECT_EQ(p1g10.starts, (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(p1g10.max_count, 4);
  EXPECT_EQ(a100.profiles[a100.FindProfile("3g.20gb")].sms, 42);
  EXPECT_EQ(a100.profiles[a100.FindProfile("7g.40gb")].memory_mib, 40192);
  const MigGeometry& h100 = *catalog.Find("H100-80GB")->mig;
  EXPECT_EQ(h100.profiles[h100.FindProfile("1g.20gb")].sms, 26);
  EXPECT_EQ(h100.profiles[h100.FindProfile("3g.40gb")].sms, 60);
  EXPECT_EQ(h100.profiles[h100.FindProfile("4g.40gb")].sms, 64);
  EXPECT_EQ(h100.profiles[h100.FindProfile("7g.80gb")].sms, 132);
  const MigGeometry& a30 = *catalog.Find("A30-24GB")->mig;
  EXPECT_EQ(a30.compute_slices, 4);
  EXPECT_EQ(a30.memory_slices, 4);
  EXPECT_EQ(a30.max_instances, 4);
  EXPECT_EQ(a30.profiles[a30.FindProfile("2g.12gb")].starts,
            (std::vector<int>{0, 2}));
}

TEST(CatalogTest, FindsByAliasCaseInsensitively) {
  const Catalog catalog = Catalog::Builtin();
  ASSERT_NE(catalog.Find("nvidia-h100-80gb-hbm3"), nullptr);
  EXPECT_EQ(catalog.Find("nvidia-h100-80gb-hbm3")->name, "H100-80GB");
  EXPECT_EQ(catalog.Find("a100-40gb")->name, "A100-40GB");
  EXPECT_EQ(catalog.Find("Tesla-T4")->name, "T4");
  EXPECT_EQ(catalog.Find("H100-80G"), nullptr);
}

TEST(CatalogTest, UnknownModelNamesTheClosest) {
  const Catalog catalog = Catalog::Builtin();
  try {
    catalog.Get("H100-80G");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown GPU model 'H100-80G'; "
                                          "closest known: H100-80GB",
                                          0),
              0u)
        << e.what();
  }
}

TEST(CatalogTest, AddsAModel) {
  Catalog catalog;
  ASSERT_EQ(MergeError(catalog, kNewModel), "");
  ASSERT_EQ(catalog.models().size(), 1u);
  EXPECT_EQ(catalog.Get("nvidia-x1").price_per_hour, 1.25);
}

TEST(CatalogTest, OverrideKeepsTheFieldsItDoesNotGive) {
  Catalog catalog = Catalog::Builtin();
  const size_t count = catalog.models().size();
  ASSERT_EQ(MergeError(catalog, R"(version: 1
models:
  - name: NVIDIA-A100-SXM4-40GB
    price_per_hour: 1.5
)"),
            "");
  EXPECT_EQ(catalog.models().size(), count);
  const GpuModel& a100 = catalog.Get("A100-40GB");
  EXPECT_EQ(a100.price_per_hour, 1.5);
  EXPECT_EQ(a100.memory_mib, 40960);
  EXPECT_TRUE(a100.mig_capable());
}

TEST(CatalogTest, MalformedFilesAreRejectedWithFileLineColumn) {
  Catalog catalog;
  EXPECT_EQ(MergeError(catalog, "version: 1\nmodels: [\n"),
            "user.yaml:3:1: invalid YAML: end of sequence flow not found");
  EXPECT_EQ(MergeError(catalog, ""),
            "user.yaml:1:1: empty catalog file (expected 'version: 1' and "
            "'models:')");
  EXPECT_EQ(MergeError(catalog, "version: 2\nmodels: []\n"),
            "user.yaml:1:10: catalog version: 2 is out of range (expected "
            "1..1)");
  std::string text = kNewModel;
  // A new model must give every required field.
  std::string missing = text;
  missing.erase(missing.find("    sms: 10\n"), 12);
  EXPECT_EQ(MergeError(catalog, missing),
            "user.yaml:3:5: model 'X1': missing required key 'sms'");
  std::string typo = text;
  typo.replace(typo.find("memory_mib"), 10, "memroy_mib");
  EXPECT_EQ(MergeError(catalog, typo),
            "user.yaml:7:5: model 'X1': unknown key 'memroy_mib'; did you mean "
            "memory_mib? (allowed: name, aliases, family, compute_capability, "
            "memory_mib, sms, memory_bandwidth_gb_s, fp8_tflops, interconnect, "
            "interconnect_gb_s, relative_speed, "
            "price_per_hour, pci_device_ids, unconfirmed, mig)");
  std::string negative = text;
  negative.replace(negative.find("1000"), 4, "-512");
  EXPECT_EQ(MergeError(catalog, negative),
            "user.yaml:7:17: model 'X1' memory_mib: -512 is out of range "
            "(expected 1..4194304)");
  std::string word = text;
  word.replace(word.find("0.5"), 3, "fast");
  EXPECT_EQ(MergeError(catalog, word),
            "user.yaml:9:21: model 'X1' relative_speed: expected a number, got "
            "'fast'");
  std::string family = text;
  family.replace(family.find("hopper"), 6, "hoper");
  EXPECT_NE(MergeError(catalog, family).find("user.yaml:5:13: model 'X1': "
                                             "unknown family 'hoper'"),
            std::string::npos);
  EXPECT_TRUE(catalog.models().empty()) << "a failed merge changes nothing";
}

TEST(CatalogTest, ImpossibleMigGeometryIsRejected) {
  Catalog catalog;
  const std::string base = std::string(kNewModel) + R"(    mig:
      compute_slices: 7
      memory_slices: 8
      max_instances: 7
      sms: 10
      profiles:
        - name: 2g.1gb
          compute_slices: 2
          memory_slices: 2
          sms: 4
          memory_mib: 100
          max_count: 3
          starts: [0, 2, 4]
)";
  EXPECT_EQ(MergeError(catalog, base), "");
  Catalog fresh;
  std::string past_end = base;
  past_end.replace(past_end.find("[0, 2, 4]"), 9, "[0, 2, 7]");
  EXPECT_EQ(MergeError(fresh, past_end),
            "user.yaml:23:19: model 'X1' mig profile: an instance at 7 of 2 "
            "memory slices ends past memory position 7");
  std::string mismatch = base;
  mismatch.replace(mismatch.find("compute_slices: 2"), 17, "compute_slices: 3");
  EXPECT_EQ(MergeError(fresh, mismatch),
            "user.yaml:18:27: model 'X1' mig profile: compute_slices 3 does not "
            "match the profile name '2g.1gb'");
  std::string numbered = base;
  numbered.replace(numbered.find("2g.1gb"), 6, "14");
  EXPECT_NE(MergeError(fresh, numbered).find("is not of the form <G>g.<M>gb"),
            std::string::npos);
  std::string too_big = base;
  too_big.replace(too_big.find("memory_mib: 100\n"), 15, "memory_mib: 2000");
  EXPECT_NE(MergeError(fresh, too_big).find("memory_mib: 2000 is out of range"),
            std::string::npos);
}

TEST(CatalogTest, NamesAndAliasesStayUnique) {
  Catalog catalog = Catalog::Builtin();
  std::string clash = kNewModel;
  clash.replace(clash.find("NVIDIA-X1"), 9, "nvidia-l4");
  // A new model named X1 with alias nvidia-l4 matches no model by name, so it
  // is added, and its alias clashes with L4's.
  EXPECT_NE(MergeError(catalog, clash).find(
                "name or alias 'nvidia-l4' is already used by model 'L4'"),
            std::string::npos);
  std::string twice = std::string(kNewModel) + R"(  - name: X1
    price_per_hour: 2
)";
  EXPECT_NE(MergeError(catalog, twice).find("is given twice in this file"),
            std::string::npos);
}

TEST(CatalogTest, MemoryBandwidthFromDatasheetsAndMigSlices) {
  const Catalog catalog = Catalog::Builtin();
  // NVIDIA datasheets (catalog/gpus.yaml, docs/model.md §6.7).
  EXPECT_EQ(catalog.Get("A100-40GB").memory_bandwidth_gb_s, 1555);
  EXPECT_EQ(catalog.Get("A100-80GB").memory_bandwidth_gb_s, 2039);
  EXPECT_EQ(catalog.Get("H100-80GB").memory_bandwidth_gb_s, 3350);
  EXPECT_EQ(catalog.Get("H200-141GB").memory_bandwidth_gb_s, 4800);
  // A MIG instance has its memory slices' share: 3g.40gb on H100 80GB
  // takes 4 of 8 memory slices, 1g.10gb 1 of 8, 7g.80gb all 8.
  const GpuModel& h100 = catalog.Get("H100-80GB");
  const MigGeometry& g = h100.RequireMig();
  auto share = [&](const char* profile) {
    return h100.InstanceBandwidthGbS(g.profiles[g.FindProfile(profile)]);
  };
  EXPECT_DOUBLE_EQ(share("3g.40gb"), 3350.0 * 4 / 8);
  EXPECT_DOUBLE_EQ(share("1g.10gb"), 3350.0 / 8);
  EXPECT_DOUBLE_EQ(share("7g.80gb"), 3350.0);
  // A30: 4 memory slices; 2g.12gb has 2 of them.
  const GpuModel& a30 = catalog.Get("A30-24GB");
  const MigGeometry& ga = a30.RequireMig();
  EXPECT_DOUBLE_EQ(
      a30.InstanceBandwidthGbS(ga.profiles[ga.FindProfile("2g.12gb")]),
      933.0 / 2);
  EXPECT_THROW(catalog.Get("L4").InstanceBandwidthGbS(g.profiles[0]),
               InputError);
}

TEST(CatalogTest, MemoryBandwidthIsOptionalAndChecked) {
  Catalog catalog;
  std::string text = kNewModel;
  ASSERT_EQ(MergeError(catalog, text), "");
  EXPECT_EQ(catalog.Get("X1").memory_bandwidth_gb_s, 0) << "unknown";
  Catalog other;
  std::string bad = text;
  bad.replace(bad.find("    sms: 10\n"), 12,
              "    sms: 10\n    memory_bandwidth_gb_s: -5\n");
  EXPECT_EQ(MergeError(other, bad),
            "user.yaml:9:28: model 'X1' memory_bandwidth_gb_s: -5 is out of "
            "range (expected 1..1000000)");
}

}  // namespace
}  // namespace gpushare
