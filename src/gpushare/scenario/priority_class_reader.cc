#include "gpushare/scenario/priority_class_reader.h"

#include <fmt/format.h>

#include <limits>
#include <string>

#include "gpushare/io/suggest.h"
#include "gpushare/scenario/kubernetes_names.h"

namespace gpushare {
std::vector<PriorityClass> ReadPriorityClasses(const YamlMap& top) {
  std::vector<PriorityClass> classes;
  if (!top.Has("priority_classes")) return classes;
  const YAML::Node list = top.Get("priority_classes");
  if (!list.IsSequence()) {
    top.Fail(list, "priority_classes: expected a list, got " +
                       DescribeYamlNode(list));
  }
  std::string global_default;  // its name, once one is read
  for (const YAML::Node& item : list) {
    YamlMap m(top.file(), item, "priority class");
    m.AllowOnly({"name", "value", "preemption_policy", "global_default"});
    PriorityClass c;
    c.name = m.String("name");
    if (!IsDnsSubdomain(c.name)) {
      m.Fail(m.Get("name"),
             "name '" + c.name +
                 "' must be a DNS subdomain (lowercase letters, digits, '-' "
                 "and '.', at most 253)");
    }
    if (c.name.rfind("system-", 0) == 0) {
      m.Fail(m.Get("name"), "name '" + c.name +
                                "': the prefix 'system-' is reserved for "
                                "the system classes");
    }
    for (const PriorityClass& other : classes) {
      if (other.name == c.name) {
        m.Fail(m.Get("name"), "'" + c.name + "' is defined twice");
      }
    }
    c.value =
        static_cast<int32_t>(m.Int("value", std::numeric_limits<int32_t>::min(),
                                   kHighestUserDefinablePriority));
    if (m.Has("preemption_policy")) {
      const std::string policy = m.String("preemption_policy");
      if (policy == "Never") {
        c.preemption_policy = PreemptionPolicy::kNever;
      } else if (policy != "PreemptLowerPriority") {
        m.Fail(m.Get("preemption_policy"),
               fmt::format("preemption_policy: unknown policy '{}'{} "
                           "(PreemptLowerPriority or Never)",
                           policy,
                           DidYouMean(policy,
                                      std::vector<std::string>{
                                          "PreemptLowerPriority", "Never"},
                                      1)));
      }
    }
    if (m.Has("global_default")) c.global_default = m.Bool("global_default");
    if (c.global_default && !global_default.empty()) {
      m.Fail(m.Get("global_default"),
             fmt::format("global_default: '{}' is already the global default "
                         "(at most one class may be)",
                         global_default));
    }
    if (c.global_default) global_default = c.name;
    classes.push_back(c);
  }
  return classes;
}

}  // namespace gpushare
