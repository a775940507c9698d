#include "gpushare/emit/mig_parted_config.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include "gpushare/catalog/mig_layout.h"
#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace mig_parted_config_test {
namespace {

using emit_test::TestCatalog;

Scenario Read(const std::string& pools) {
  return emit_test::PoolsScenario("m", pools);
}

// Per GPU index, the profile counts of `config` in the parsed mig-parted
// file, after mig-parted's own load rules: version v1, known keys only,
// devices `all` or indexes, mig-enabled true with mig-devices, counts >= 0
// and not all 0. Each GPU's counts are placed by the catalog (mig-parted
// itself leaves the fit to the GPU).
std::vector<std::vector<int>> LoadedCounts(const YAML::Node& root,
                                           const std::string& config,
                                           const GpuModel& model, int gpus) {
  EXPECT_EQ(root["version"].as<std::string>(), "v1");
  const YAML::Node entries = root["mig-configs"][config];
  EXPECT_TRUE(entries.IsSequence()) << config;
  std::vector<std::vector<int>> counts(gpus);
  for (const YAML::Node& e : entries) {
    for (const auto& kv : e) {
      const std::string key = kv.first.as<std::string>();
      EXPECT_TRUE(key == "devices" || key == "mig-enabled" ||
                  key == "mig-devices" || key == "device-filter")
          << key;
    }
    EXPECT_TRUE(e["mig-enabled"].as<bool>());
    std::vector<int> c(model.mig->profiles.size(), 0);
    std::vector<int> placed;
    int total = 0;
    for (const auto& kv : e["mig-devices"]) {
      const std::string name = kv.first.as<std::string>();
      int p = -1;
      for (size_t i = 0; i < model.mig->profiles.size(); ++i) {
        if (model.mig->profiles[i].name == name) p = static_cast<int>(i);
      }
      EXPECT_GE(p, 0) << name;
      if (p < 0) continue;
      const int n = kv.second.as<int>();
      EXPECT_GT(n, 0) << name;
      c[p] = n;
      total += n;
      for (int k = 0; k < n; ++k) placed.push_back(p);
    }
    EXPECT_GT(total, 0);
    std::string why;
    EXPECT_TRUE(PlaceMigProfiles(model, {}, placed, &why).has_value()) << why;
    std::vector<int> indexes;
    if (e["devices"].IsScalar()) {
      EXPECT_EQ(e["devices"].as<std::string>(), "all");
      for (int g = 0; g < gpus; ++g) indexes.push_back(g);
    } else {
      for (const YAML::Node& i : e["devices"]) indexes.push_back(i.as<int>());
    }
    for (int g : indexes) {
      EXPECT_TRUE(counts[g].empty()) << "GPU " << g << " listed twice";
      counts[g] = c;
    }
  }
  return counts;
}

// The ConfigMap's config.yaml, parsed.
YAML::Node ConfigFile(const Scenario& s) {
  const YAML::Node map = YAML::Load(MigPartedConfigMap(s, TestCatalog()));
  EXPECT_EQ(map["apiVersion"].as<std::string>(), "v1");
  EXPECT_EQ(map["kind"].as<std::string>(), "ConfigMap");
  EXPECT_EQ(map["metadata"]["name"].as<std::string>(), "custom-mig-config");
  EXPECT_EQ(map["metadata"]["namespace"].as<std::string>(), "gpu-operator");
  const std::string text = map["data"]["config.yaml"].as<std::string>();
  EXPECT_EQ(text, MigPartedConfigYaml(s, TestCatalog()));
  return YAML::Load(text);
}

TEST(MigPartedConfigTest, NamedConfigByHand) {
  const Scenario s = Read(
      "    - {name: prod, gpu: H100-80GB, nodes: 2, gpus_per_node: 8,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                 mig_config: all-balanced}}\n");
  EXPECT_EQ(MigPartedConfigYaml(s, TestCatalog()),
            "version: v1\n"
            "mig-configs:\n"
            "  all-disabled:\n"
            "    - devices: all\n"
            "      mig-enabled: false\n"
            "  all-balanced:\n"
            "    - devices: all\n"
            "      mig-enabled: true\n"
            "      mig-devices:\n"
            "        \"3g.40gb\": 1\n"
            "        \"2g.20gb\": 1\n"
            "        \"1g.10gb\": 2\n");
  const std::string map = MigPartedConfigMap(s, TestCatalog());
  EXPECT_NE(map.find("kubectl label nodes -l gpushare.io/node-pool=prod "
                     "nvidia.com/mig.config=all-balanced --overwrite"),
            std::string::npos)
      << map;
  EXPECT_NE(map.find("--set migManager.config.name=custom-mig-config"),
            std::string::npos);
  EXPECT_NE(map.find("--set mig.strategy=mixed\n"), std::string::npos);
  const std::vector<PoolMigConfig> pools = PoolMigConfigs(s, TestCatalog());
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].config, "all-balanced");
}

TEST(MigPartedConfigTest, ExplicitLayoutsRoundTripPerGpu) {
  // GPUs 0 and 2 alike, GPU 1 different, GPU 3 one 7g.
  const Scenario s = Read(
      "    - name: inf\n"
      "      gpu: A100-40GB\n"
      "      nodes: 1\n"
      "      gpus_per_node: 4\n"
      "      sharing:\n"
      "        scheme: mig\n"
      "        mig_strategy: mixed\n"
      "        mig_layouts:\n"
      "          - [\"3g.20gb\", \"2g.10gb\", \"1g.5gb:2\"]\n"
      "          - [\"1g.5gb:7\"]\n"
      "          - [\"3g.20gb\", \"2g.10gb\", \"1g.5gb:2\"]\n"
      "          - [\"7g.40gb\"]\n");
  const GpuModel& model = TestCatalog().Get("A100-40GB");
  const NodePoolSpec& pool = s.pools[0];
  const std::vector<MigLayout> layouts = pool.sharing.Validate(model, 4);
  const YAML::Node root = ConfigFile(s);
  EXPECT_EQ(root["mig-configs"]["inf-custom"].size(), 3u);
  EXPECT_EQ(root["mig-configs"]["inf-custom"][0]["devices"].size(), 2u);
  const auto counts = LoadedCounts(root, "inf-custom", model, 4);
  for (int g = 0; g < 4; ++g) {
    EXPECT_EQ(counts[g], MigProfileCounts(model, layouts[g])) << "GPU " << g;
  }
}

TEST(MigPartedConfigTest, EveryExampleRoundTrips) {
  for (const char* file : {"default.yaml", "mig-inference.yaml",
                           "three-pools.yaml", "patrol.yaml"}) {
    const Scenario s = ReadScenarioFile(
        std::string(GS_TESTDATA_DIR) + "/../../examples/" + file,
        TestCatalog());
    const YAML::Node root = ConfigFile(s);
    const std::vector<PoolMigConfig> configs = PoolMigConfigs(s, TestCatalog());
    std::set<std::string> names = {"all-disabled"};
    for (const PoolMigConfig& c : configs) {
      names.insert(c.config);
      const NodePoolSpec* pool = nullptr;
      for (const NodePoolSpec& p : s.pools) {
        if (p.name == c.pool) pool = &p;
      }
      ASSERT_NE(pool, nullptr);
      const GpuModel& model = TestCatalog().Get(pool->gpu_model);
      const std::vector<MigLayout> layouts =
          pool->sharing.Validate(model, pool->gpus_per_node);
      const auto counts =
          LoadedCounts(root, c.config, model, pool->gpus_per_node);
      for (int g = 0; g < pool->gpus_per_node; ++g) {
        EXPECT_EQ(counts[g], MigProfileCounts(model, layouts[g]))
            << file << " pool " << c.pool << " GPU " << g;
      }
    }
    EXPECT_EQ(root["mig-configs"].size(), names.size()) << file;
  }
}

TEST(MigPartedConfigTest, SameNameOnTwoModelsIsRenamed) {
  const Scenario s = Read(
      "    - {name: a, gpu: A100-40GB, nodes: 1, gpus_per_node: 1,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                 mig_config: all-balanced}}\n"
      "    - {name: b, gpu: H100-80GB, nodes: 1, gpus_per_node: 1,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                 mig_config: all-balanced}}\n"
      "    - {name: c, gpu: A100-40GB, nodes: 1, gpus_per_node: 1,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                 mig_config: all-balanced}}\n");
  const std::vector<PoolMigConfig> c = PoolMigConfigs(s, TestCatalog());
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].config, "all-balanced");
  EXPECT_EQ(c[1].config, "b-all-balanced");
  EXPECT_EQ(c[2].config, "all-balanced");  // same counts: shared
  const YAML::Node root = ConfigFile(s);
  EXPECT_EQ(root["mig-configs"].size(), 3u);
  EXPECT_EQ(root["mig-configs"]["b-all-balanced"][0]["mig-devices"]["1g.10gb"]
                .as<int>(),
            2);
}

// The operator's spec.mig.strategy becomes every device plugin's
// MIG_STRATEGY, which outranks the per-node config's flags.migStrategy: one
// strategy only when it is right for every node, else none (each node's
// config decides).
TEST(MigPartedConfigTest, ClusterStrategyOnlyWhenEveryNodeTakesIt) {
  const std::string single =
      "    - {name: one, gpu: A100-80GB, nodes: 1, gpus_per_node: 8,\n"
      "       sharing: {scheme: mig, mig_strategy: single,\n"
      "                 mig_config: all-1g.10gb}}\n";
  const std::string mixed =
      "    - {name: many, gpu: H100-80GB, nodes: 1, gpus_per_node: 8,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                 mig_config: all-balanced}}\n";
  const std::string mps =
      "    - {name: dev, gpu: L4, nodes: 1,\n"
      "       sharing: {scheme: mps, replicas: 4}}\n";
  const auto strategy_of = [](const Scenario& s) {
    const std::string map = MigPartedConfigMap(s, TestCatalog());
    const size_t at = map.find("--set mig.strategy=");
    EXPECT_NE(at, std::string::npos) << map;
    const size_t begin = at + std::string("--set mig.strategy=").size();
    return map.substr(begin, map.find('\n', begin) - begin);
  };
  EXPECT_EQ(strategy_of(Read(single)), "single");
  EXPECT_EQ(strategy_of(Read(mixed)), "mixed");
  EXPECT_EQ(strategy_of(Read(single + mps)), "single");
  // A single pool beside a mixed one would run mixed and advertise
  // nvidia.com/mig-<profile> where its pods ask for nvidia.com/gpu.
  EXPECT_EQ(strategy_of(Read(single + mixed)), "\"\"");
  // MPS cannot run under the mixed strategy.
  const Scenario with_mps = Read(mixed + mps);
  EXPECT_EQ(strategy_of(with_mps), "\"\"");
  EXPECT_NE(MigPartedConfigMap(with_mps, TestCatalog())
                .find("MPS pools cannot run under the mixed strategy"),
            std::string::npos);
}

TEST(MigPartedConfigTest, NoMigPoolIsAnError) {
  const Scenario s = Read("    - {name: p, gpu: L4, nodes: 1}\n");
  try {
    MigPartedConfigYaml(s, TestCatalog());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "scenario 'm' has no MIG pool (a pool with sharing scheme mig, "
              "or a mig_config / mig_layouts): there is no mig-parted config "
              "to write");
  }
}

// Layouts by content: the catalog's names and the scenarios' configs of the
// same GPU model, each once; a name meaning two layouts is left out.
TEST(MigPartedConfigTest, KnownConfigsAndSameLayouts) {
  const GpuModel& a100 = TestCatalog().Get("A100-80GB");
  const Scenario plan = Read(
      "    - {name: x, gpu: A100-80GB, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                 mig_layouts: [\"1g.10gb:7\"]}}\n"
      "    - {name: y, gpu: A100-80GB, nodes: 1, gpus_per_node: 4,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                 mig_layouts: [\"3g.40gb:2\"]}}\n"
      "    - {name: z, gpu: A100-80GB, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                 mig_layouts: [[\"7g.80gb\"], [\"3g.40gb:2\"]]}}\n"
      "    - {name: w, gpu: A30, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: mig, mig_config: all-1g.6gb}}\n");
  const MigNodeCounts x = PoolMigCounts(plan.pools[0], a100);
  ASSERT_EQ(x.size(), 2u);
  EXPECT_EQ(x[0], x[1]);
  const auto known = KnownMigConfigs(a100, 2, &plan, nullptr, TestCatalog());
  EXPECT_EQ(known.at("x-custom"), x);
  EXPECT_EQ(known.at("all-1g.10gb"), x);
  EXPECT_EQ(known.at("all-disabled"), MigNodeCounts(2));
  // y's GPUs are all alike: its config fits a 2-GPU node too; z's differ
  // per GPU and is only known on 2-GPU nodes.
  EXPECT_EQ(known.at("y-custom"), known.at("all-3g.40gb"));
  EXPECT_EQ(known.count("z-custom"), 1u);
  EXPECT_EQ(KnownMigConfigs(a100, 4, &plan, nullptr, TestCatalog()).count("z-custom"),
            0u);
  EXPECT_EQ(known.count("all-1g.6gb"), 0u);  // the A30's
  EXPECT_EQ(SameLayoutMigConfigs("x-custom", x, known),
            std::vector<std::string>{"all-1g.10gb"});
  EXPECT_EQ(SameLayoutMigConfigs("all-3g.40gb", known.at("y-custom"), known),
            std::vector<std::string>{"y-custom"});
  EXPECT_TRUE(
      SameLayoutMigConfigs("all-balanced", known.at("all-balanced"), known)
          .empty());

  // Today's pool x calls another layout x-custom: the plan's is renamed, in
  // the file and in what is known.
  const Scenario today = Read(
      "    - {name: x, gpu: A100-80GB, nodes: 1, gpus_per_node: 2,\n"
      "       sharing: {scheme: mig, mig_strategy: mixed,\n"
      "                 mig_layouts: [\"2g.20gb:3\"]}}\n");
  EXPECT_EQ(PoolMigConfigs(plan, TestCatalog(), &today)[0].config,
            "x-custom-2");
  EXPECT_EQ(PoolMigConfigs(plan, TestCatalog(), &today)[1].config,
            "y-custom");
  const std::string file = MigPartedConfigYaml(plan, TestCatalog(), &today);
  EXPECT_NE(file.find("\n  x-custom-2:\n"), std::string::npos) << file;
  // Today's x-custom is kept after the plan's configs, for the nodes that
  // carry it until they are relabelled.
  EXPECT_NE(file.find("  # Today's, kept: nodes carry these names until "
                      "node-setup.sh relabels them.\n"
                      "  x-custom:\n    - devices: all\n"
                      "      mig-enabled: true\n      mig-devices:\n"
                      "        \"2g.20gb\": 3\n"),
            std::string::npos)
      << file;
  // all-disabled, x-custom-2, y-custom, z-custom, all-1g.6gb, x-custom.
  EXPECT_EQ(YAML::Load(file)["mig-configs"].size(), 6u);
  EXPECT_EQ(MigPartedConfigYaml(plan, TestCatalog()).find("kept"),
            std::string::npos);
  MigPartedConfigMapOptions options;
  options.today = &today;
  EXPECT_NE(MigPartedConfigMap(plan, TestCatalog(), options)
                .find("nvidia.com/mig.config=x-custom-2 --overwrite"),
            std::string::npos);
  const auto both = KnownMigConfigs(a100, 2, &plan, &today, TestCatalog());
  EXPECT_EQ(both.at("x-custom-2"), x);
  EXPECT_EQ(both.at("x-custom"), known.at("all-2g.20gb"));
  // A today without that pool's name, or the same layout: no rename.
  EXPECT_EQ(PoolMigConfigs(plan, TestCatalog(), &plan)[0].config, "x-custom");
}

}  // namespace
}  // namespace mig_parted_config_test
}  // namespace gpushare
