#include "gpushare/decide/comparison_spec_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "gpushare/decide/class_constraints_reader.h"
#include "gpushare/decide/tenant_classes.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

const std::vector<std::string>& Families() {
  static const std::vector<std::string> families = {"balanced", "1g", "2g",
                                                    "3g",       "4g", "7g"};
  return families;
}

std::vector<std::string> ComparisonSchemeNames() {
  return {"exclusive", "time-slicing", "mps", "mig", "hami"};
}

SharingScheme ReadScheme(const std::string& file, const YAML::Node& node,
                         const std::string& what) {
  const std::string text = ScalarString(file, node, what);
  SharingScheme scheme;
  if (!ParseSharingScheme(text, &scheme)) {
    FailAt(file, node,
           fmt::format("{}: unknown sharing scheme '{}'{} (allowed: {})", what,
                       text, DidYouMean(text, ComparisonSchemeNames(), 1),
                       JoinNames(ComparisonSchemeNames())));
  }
  return scheme;
}

CompareSpec ReadCompare(const YamlMap& top) {
  CompareSpec spec;
  if (!top.Has("compare")) return spec;
  const YamlMap m = top.Map("compare", "compare");
  m.AllowOnly({"schemes", "time_slicing_replicas", "mps_replicas",
               "hami_split_count", "vgpu_licence_per_gpu_hour", "mig_families",
               "mig_pilot_pods", "seeds", "mig_dynamic"});
  if (m.Has("schemes")) {
    const YAML::Node list = m.Get("schemes");
    if (!list.IsSequence() || list.size() == 0) {
      FailAt(m.file(), list,
             "compare.schemes: expected a non-empty list of sharing schemes, "
             "got " +
                 DescribeYamlNode(list));
    }
    spec.schemes.clear();
    for (const YAML::Node& item : list) {
      const SharingScheme s = ReadScheme(m.file(), item, "compare.schemes");
      if (std::find(spec.schemes.begin(), spec.schemes.end(), s) !=
          spec.schemes.end()) {
        FailAt(m.file(), item,
               fmt::format("compare.schemes: '{}' is listed twice",
                           SharingSchemeName(s)));
      }
      spec.schemes.push_back(s);
    }
  }
  if (m.Has("time_slicing_replicas")) {
    spec.time_slicing_replicas =
        static_cast<int>(m.Int("time_slicing_replicas", 2, 1024));
  }
  if (m.Has("mps_replicas")) {
    // The MPS control daemon serves at most 48 clients per GPU.
    spec.mps_replicas = static_cast<int>(m.Int("mps_replicas", 2, 48));
  }
  if (m.Has("hami_split_count")) {
    spec.hami_split_count =
        static_cast<int>(m.Int("hami_split_count", 1, 1024));
  }
  if (m.Has("vgpu_licence_per_gpu_hour")) {
    spec.vgpu_licence_per_gpu_hour =
        m.Double("vgpu_licence_per_gpu_hour", 0, 1e6);
  }
  if (m.Has("mig_families")) {
    const YAML::Node list = m.Get("mig_families");
    if (!list.IsSequence() || list.size() == 0) {
      FailAt(m.file(), list,
             "compare.mig_families: expected a non-empty list of families (" +
                 JoinNames(Families()) + "), got " + DescribeYamlNode(list));
    }
    spec.mig_families.clear();
    for (const YAML::Node& item : list) {
      const std::string f =
          ScalarString(m.file(), item, "compare.mig_families");
      if (std::find(Families().begin(), Families().end(), f) ==
          Families().end()) {
        FailAt(m.file(), item,
               fmt::format("compare.mig_families: unknown family '{}'{} "
                           "(allowed: {})",
                           f, DidYouMean(f, Families(), 1),
                           JoinNames(Families())));
      }
      if (std::find(spec.mig_families.begin(), spec.mig_families.end(), f) !=
          spec.mig_families.end()) {
        FailAt(m.file(), item,
               fmt::format("compare.mig_families: '{}' is listed twice", f));
      }
      spec.mig_families.push_back(f);
    }
  }
  if (m.Has("mig_pilot_pods")) {
    spec.mig_pilot_pods = m.Int("mig_pilot_pods", 0, 1000000000);
  }
  if (m.Has("seeds")) {
    spec.seeds = static_cast<int>(m.Int("seeds", 1, kMaxCompareSeeds));
  }
  if (m.Has("mig_dynamic")) spec.mig_dynamic = m.Bool("mig_dynamic");
  return spec;
}

// Weights as a mapping {isolation, overhead, compatibility, cost}; missing
// ones are 0.
// A tenant class's entry may also give its SLO target and a profile; they
// are read by the caller.
SelectionWeights ReadWeights(const std::string& file, const YAML::Node& node,
                             const std::string& what,
                             bool class_entry = false) {
  const YamlMap m(file, node, what);
  if (class_entry) {
    m.AllowOnly({"isolation", "overhead", "compatibility", "cost", "profile",
                 "min_slo_attainment"});
  } else {
    m.AllowOnly({"isolation", "overhead", "compatibility", "cost"});
  }
  SelectionWeights w;
  constexpr double kMax = 1e6;
  auto read = [&](std::string_view key, double* out) {
    if (!m.Has(key)) return;
    const YAML::Node v = m.Get(key);
    const double x = ScalarDouble(file, v, what + "." + std::string(key),
                                  std::numeric_limits<double>::lowest(), kMax);
    if (x < 0) {
      FailAt(file, v,
             fmt::format("{}.{}: weights must not be negative, got {}", what,
                         key, v.Scalar()));
    }
    *out = x;
  };
  read("isolation", &w.isolation);
  read("overhead", &w.overhead);
  read("compatibility", &w.compatibility);
  read("cost", &w.cost);
  if (w.Sum() <= 0) {
    FailAt(file, node,
           what +
               ": weights must not all be 0 (give isolation, overhead, "
               "compatibility and cost; only their ratios matter)");
  }
  return w;
}

std::vector<std::string> ProfileNames(const SelectionSpec& spec) {
  std::vector<std::string> names;
  for (const WeightProfile& p : spec.profiles) names.push_back(p.name);
  return names;
}

SelectionSpec ReadSelection(const YamlMap& top, const Scenario& scenario) {
  SelectionSpec spec;
  const std::vector<TenantClassInfo> tenant_classes =
      ScenarioTenantClasses(scenario);
  std::vector<std::string> class_names;
  for (const TenantClassInfo& c : tenant_classes) {
    class_names.push_back(c.name);
  }
  std::map<std::string, ClassSelection> chosen;
  std::set<std::string> contract_given;  // classes with limits written
  if (top.Has("selection")) {
    const YamlMap m = top.Map("selection", "selection");
    m.AllowOnly({"profiles", "classes", "ratings", "min_slo_attainment",
                 "decisive_margin", "isolation_prior_weight",
                 "compatibility_prior_weight", "min_pods_to_decide",
                 "max_unfinished_job_share"});
    if (m.Has("min_pods_to_decide")) {
      spec.min_pods_to_decide = m.Int("min_pods_to_decide", 0, 1000000000);
    }
    if (m.Has("max_unfinished_job_share")) {
      spec.max_unfinished_job_share =
          m.Double("max_unfinished_job_share", 0, 1);
    }
    if (m.Has("decisive_margin")) {
      spec.decisive_margin = m.Double("decisive_margin", 0, 10);
    }
    if (m.Has("compatibility_prior_weight")) {
      spec.compatibility_prior_weight =
          m.Double("compatibility_prior_weight", 0, 1);
    }
    if (m.Has("isolation_prior_weight")) {
      spec.isolation_prior_weight = m.Double("isolation_prior_weight", 0, 1);
    }
    if (m.Has("min_slo_attainment")) {
      spec.min_slo_attainment = m.Double("min_slo_attainment", 0, 1);
    }
    if (m.Has("profiles")) {
      const YamlMap profiles = m.Map("profiles", "selection.profiles");
      std::set<std::string> seen;
      for (const auto& kv : profiles.node()) {
        const std::string name =
            ScalarString(m.file(), kv.first, "selection.profiles key");
        if (!seen.insert(name).second) {
          FailAt(m.file(), kv.first,
                 fmt::format("selection.profiles: '{}' is given twice", name));
        }
        const SelectionWeights w =
            ReadWeights(m.file(), kv.second, "selection.profiles." + name);
        bool replaced = false;
        for (WeightProfile& p : spec.profiles) {
          if (p.name == name) {
            p.weights = w;
            replaced = true;
          }
        }
        if (!replaced) spec.profiles.push_back({name, w});
      }
    }
    if (m.Has("ratings")) {
      const YamlMap ratings = m.Map("ratings", "selection.ratings");
      for (const auto& kv : ratings.node()) {
        const SharingScheme scheme =
            ReadScheme(m.file(), kv.first, "selection.ratings");
        if (spec.ratings.count(scheme) > 0) {
          FailAt(m.file(), kv.first,
                 fmt::format("selection.ratings: '{}' is given twice",
                             SharingSchemeName(scheme)));
        }
        const std::string what =
            fmt::format("selection.ratings.{}", SharingSchemeName(scheme));
        const YamlMap r(m.file(), kv.second, what);
        r.AllowOnly({"isolation", "compatibility"});
        SchemeRatings value = DefaultSchemeRatings(scheme);
        if (r.Has("isolation")) value.isolation = r.Double("isolation", 0, 10);
        if (r.Has("compatibility")) {
          value.compatibility = r.Double("compatibility", 0, 10);
        }
        spec.ratings[scheme] = value;
      }
    }
    if (m.Has("classes")) {
      const YamlMap classes = m.Map("classes", "selection.classes");
      for (const auto& kv : classes.node()) {
        const std::string name =
            ScalarString(m.file(), kv.first, "selection.classes key");
        if (chosen.count(name) > 0) {
          FailAt(m.file(), kv.first,
                 fmt::format("selection.classes: '{}' is given twice", name));
        }
        if (std::find(class_names.begin(), class_names.end(), name) ==
            class_names.end()) {
          FailAt(m.file(), kv.first,
                 fmt::format("selection.classes: unknown tenant class '{}'{} "
                             "(the workload's classes: {})",
                             name, DidYouMean(name, class_names, 1),
                             JoinNames(class_names)));
        }
        ClassSelection c;
        c.tenant_class = name;
        const std::string what = "selection.classes." + name;
        // A profile's name, or a mapping with a profile or weights and
        // optionally the class's SLO target.
        YAML::Node profile_node;
        bool weights_given = false;
        if (kv.second.IsScalar()) {
          profile_node.reset(kv.second);
        } else {
          const YamlMap entry(m.file(), kv.second, what);
          entry.AllowOnly({"isolation", "overhead", "compatibility", "cost",
                           "profile", "min_slo_attainment", "max_mean_wait_s",
                           "max_p99_wait_s", "max_oom_kills", "max_failed",
                           "max_cannot_run", "max_pending", "max_preemptions",
                           "max_mean_slowdown",
               "needs_memory_isolation"});
          if (entry.Has("min_slo_attainment")) {
            c.min_slo_attainment = entry.Double("min_slo_attainment", 0, 1);
          }
          c.served_well = DefaultServedWell(
              tenant_classes[std::find(class_names.begin(), class_names.end(),
                                       name) -
                             class_names.begin()]
                  .workload_class);
          ReadClassConstraintKeys(entry, &c.served_well);
          contract_given.insert(name);
          for (const char* key :
               {"isolation", "overhead", "compatibility", "cost"}) {
            weights_given = weights_given || entry.Has(key);
          }
          if (entry.Has("profile")) {
            if (weights_given) {
              entry.Fail(entry.Get("profile"),
                         "give a profile or weights, not both");
            }
            profile_node.reset(entry.Get("profile"));
            (void)ScalarString(m.file(), profile_node, what + ".profile");
          } else if (!weights_given) {
            // Only the SLO target or limits: the default profile of its
            // kind.
            profile_node.reset(YAML::Node());
          }
        }
        if (profile_node.IsDefined() && !profile_node.IsNull()) {
          c.profile = profile_node.Scalar();
          const WeightProfile* p = spec.FindProfile(c.profile);
          if (p == nullptr) {
            FailAt(m.file(), profile_node,
                   fmt::format("selection.classes.{}: unknown profile '{}'{} "
                               "(profiles: {})",
                               name, c.profile,
                               DidYouMean(c.profile, ProfileNames(spec), 1),
                               JoinNames(ProfileNames(spec))));
          }
          c.weights = p->weights;
        } else if (weights_given) {
          c.profile = "custom";
          c.weights = ReadWeights(m.file(), kv.second, what,
                                  /*class_entry=*/true);
        }
        chosen[name] = c;
      }
    }
  }
  for (const TenantClassInfo& c : tenant_classes) {
    auto it = chosen.find(c.name);
    ClassSelection s;
    if (it != chosen.end()) s = it->second;
    s.tenant_class = c.name;
    if (s.profile.empty()) {
      s.profile = std::string(DefaultWeightProfile(c.workload_class));
      s.weights = spec.FindProfile(s.profile)->weights;
    }
    if (contract_given.count(c.name) == 0) {
      s.served_well = DefaultServedWell(c.workload_class);
    }
    s.served_well.tenant_class = c.name;
    s.served_well.min_slo_attainment = s.min_slo_attainment >= 0
                                           ? s.min_slo_attainment
                                           : spec.min_slo_attainment;
    spec.classes.push_back(s);
  }
  return spec;
}

}  // namespace

ComparisonSpec ReadComparisonSpec(const std::string& text,
                                  const std::string& file,
                                  const Scenario& scenario) {
  return ReadComparisonSpecNode(ParseYaml(text, file), file, scenario);
}

ComparisonSpec ReadComparisonSpecNode(YAML::Node root, const std::string& file,
                                      const Scenario& scenario) {
  if (!root.IsDefined() || root.IsNull())
    root.reset(YAML::Node(YAML::NodeType::Map));
  ComparisonSpec spec;
  const YamlMap top(file, root, "scenario");
  spec.compare = ReadCompare(top);
  spec.selection = ReadSelection(top, scenario);
  return spec;
}

ComparisonSpec DefaultComparisonSpec(const Scenario& scenario) {
  return ReadComparisonSpec("{}", "<default>", scenario);
}

}  // namespace gpushare
