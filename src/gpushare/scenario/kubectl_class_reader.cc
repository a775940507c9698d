#include "gpushare/scenario/kubectl_class_reader.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "gpushare/io/suggest.h"
#include "gpushare/scenario/kubernetes_names.h"
#include "gpushare/workload/namespace_pattern.h"

namespace gpushare {
namespace {

// A namespace pattern at `node`, or an InputError saying what one is.
std::string ReadClassNamespace(const std::string& file, const YAML::Node& node,
                               const std::string& what) {
  const std::string ns = ScalarString(file, node, what);
  if (!IsNamespacePattern(ns)) {
    FailAt(file, node,
           fmt::format("{}: '{}' is not a namespace name or pattern "
                       "(lowercase letters, digits and '-', at most 63, '*' "
                       "for any run of characters)",
                       what, ns));
  }
  return ns;
}

}  // namespace

void ReadKubectlClassSettings(const YamlMap& trace, KubectlClassRules* rules) {
  const std::string& file = trace.file();
  const std::string what = trace.what() + " ";
  if (trace.Has("workload_class_label")) {
    rules->workload_class_label = trace.String("workload_class_label");
    if (!IsLabelKey(rules->workload_class_label)) {
      FailAt(file, trace.Get("workload_class_label"),
             what + "workload_class_label: expected a label key, got '" +
                 rules->workload_class_label + "'");
    }
  }
  if (trace.Has("workload_classes")) {
    static const std::vector<std::string> kNames = {"training", "inference",
                                                    "batch", "dev"};
    const YamlMap m = trace.Map("workload_classes", what + "workload_classes");
    for (const auto& entry : m.node()) {
      const std::string ns =
          ReadClassNamespace(file, entry.first, m.what() + " key");
      const std::string label = m.what() + "." + ns;
      const std::string name = ScalarString(file, entry.second, label);
      WorkloadClass c = WorkloadClass::kBatch;
      if (!ParseWorkloadClass(name, &c)) {
        FailAt(file, entry.second,
               fmt::format("{}: unknown workload class '{}'{} (allowed: {})",
                           label, name, DidYouMean(name, kNames, 1),
                           JoinNames(kNames)));
      }
      for (const auto& [seen, unused] : rules->workload_classes) {
        if (seen == ns) {
          FailAt(file, entry.first,
                 label + ": namespace '" + ns + "' is listed twice");
        }
      }
      rules->workload_classes.emplace_back(ns, c);
    }
  }
  if (trace.Has("infer_workload_class")) {
    rules->infer_workload_class = trace.Bool("infer_workload_class");
  }
  if (trace.Has("system_namespaces")) {
    const YAML::Node list = trace.Get("system_namespaces");
    const std::string label = what + "system_namespaces";
    if (!list.IsSequence()) {
      FailAt(file, list,
             label + ": expected a list of namespaces, got " +
                 DescribeYamlNode(list));
    }
    rules->system_namespaces.clear();
    for (const YAML::Node& item : list) {
      rules->system_namespaces.push_back(ReadClassNamespace(file, item, label));
    }
  }
}

}  // namespace gpushare
