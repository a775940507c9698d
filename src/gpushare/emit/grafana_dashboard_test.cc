#include "gpushare/emit/grafana_dashboard.h"

#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace gpushare {
namespace {

using nlohmann::json;

TEST(GrafanaDashboardTest, IsAnImportableDashboard) {
  const std::string text = GrafanaDashboardJson();
  EXPECT_EQ(text, GrafanaDashboardJson());  // deterministic
  EXPECT_EQ(text.back(), '\n');
  const json d = json::parse(text);
  EXPECT_EQ(d["uid"], "gpushare-sim");
  EXPECT_TRUE(d["schemaVersion"].is_number_integer());
  EXPECT_TRUE(d["id"].is_null());
  ASSERT_EQ(d["__inputs"].size(), 1u);
  EXPECT_EQ(d["__inputs"][0]["name"], "DS_PROMETHEUS");
  EXPECT_EQ(d["__inputs"][0]["pluginId"], "prometheus");
  std::set<std::string> variables;
  for (const json& v : d["templating"]["list"]) variables.insert(v["name"]);
  EXPECT_EQ(variables, (std::set<std::string>{"pool", "Hostname", "gpu"}));
}

TEST(GrafanaDashboardTest, PanelsHaveUniqueIdsAndThePrometheusInput) {
  const json d = json::parse(GrafanaDashboardJson());
  std::set<int> ids;
  int datasources = 0;
  std::function<void(const json&)> visit = [&](const json& j) {
    if (j.is_object()) {
      if (j.contains("datasource")) {
        EXPECT_EQ(j["datasource"]["uid"], "${DS_PROMETHEUS}");
        ++datasources;
      }
      for (const auto& [key, value] : j.items()) visit(value);
    } else if (j.is_array()) {
      for (const json& e : j) visit(e);
    }
  };
  visit(d);
  for (const json& p : d["panels"]) {
    EXPECT_TRUE(ids.insert(p["id"].get<int>()).second) << p["title"];
    EXPECT_LE(p["gridPos"]["x"].get<int>() + p["gridPos"]["w"].get<int>(), 24);
  }
  EXPECT_GT(datasources, 10);
  std::set<std::string> repeats;
  for (const json& p : d["panels"]) {
    if (p.contains("repeat")) repeats.insert(p["repeat"]);
  }
  EXPECT_EQ(repeats, (std::set<std::string>{"pool", "gpu"}));
}

}  // namespace
}  // namespace gpushare
