// Where pods may run, as a scenario writes it: labels (pools' labels and
// classes' node selectors), pools' taints and classes' tolerations, each
// key and value checked against Kubernetes' label syntax.

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/kubernetes_names.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"

namespace gpushare {
namespace scenario_internal {

Labels ReadLabels(const YamlMap& m, std::string_view key) {
  return ReadLabelMap(m.file(), Value(m, key, "a mapping"), Label(m, key));
}

namespace {

const std::vector<std::string>& TaintEffectNames() {
  static const std::vector<std::string> names = {
      "NoSchedule", "PreferNoSchedule", "NoExecute"};
  return names;
}

TaintEffect ReadEffect(const YamlMap& m) {
  TaintEffect effect = TaintEffect::kNoSchedule;
  ParseTaintEffect(Choice(m, "effect", "effect", TaintEffectNames()), &effect);
  return effect;
}

}  // namespace

std::vector<Taint> ReadTaints(const YamlMap& pool) {
  std::vector<Taint> taints;
  for (const auto& node : List(pool, "taints", false)) {
    YamlMap t(pool.file(), node, pool.what() + " taint");
    t.AllowOnly({"key", "value", "effect"});
    Taint taint;
    taint.key = t.String("key");
    CheckLabelKey(t.file(), t.Get("key"), Label(t, "key"), taint.key);
    if (t.Has("value")) {
      taint.value = t.String("value");
      CheckLabelValue(t.file(), t.Get("value"), Label(t, "value"), taint.value);
    }
    taint.effect = ReadEffect(t);
    for (const Taint& other : taints) {
      if (other.key == taint.key && other.effect == taint.effect) {
        t.Fail(node, fmt::format("taint {}:{} is given twice", taint.key,
                                 TaintEffectName(taint.effect)));
      }
    }
    taints.push_back(std::move(taint));
  }
  return taints;
}

std::vector<Toleration> ReadTolerations(const YamlMap& c) {
  std::vector<Toleration> tolerations;
  for (const auto& node : List(c, "tolerations", false)) {
    YamlMap t(c.file(), node, c.what() + " toleration");
    t.AllowOnly({"key", "operator", "value", "effect"});
    Toleration tol;
    if (t.Has("key")) {
      tol.key = t.String("key");
      if (!tol.key.empty()) {
        CheckLabelKey(t.file(), t.Get("key"), Label(t, "key"), tol.key);
      }
    }
    if (t.Has("operator")) {
      tol.op =
          Choice(t, "operator", "operator", {"Equal", "Exists"}) == "Exists"
              ? Toleration::Operator::kExists
              : Toleration::Operator::kEqual;
    }
    if (t.Has("value")) {
      tol.value = t.String("value");
      CheckLabelValue(t.file(), t.Get("value"), Label(t, "value"), tol.value);
      if (tol.op == Toleration::Operator::kExists && !tol.value.empty()) {
        FailAt(t.file(), t.Get("value"),
               Label(t, "value") + ": must be empty with operator Exists");
      }
    }
    if (tol.key.empty() && tol.op != Toleration::Operator::kExists) {
      t.Fail(node,
             "an empty key needs operator Exists (it tolerates every "
             "taint)");
    }
    if (t.Has("effect")) {
      tol.any_effect = false;
      tol.effect = ReadEffect(t);
    }
    tolerations.push_back(std::move(tol));
  }
  return tolerations;
}

}  // namespace scenario_internal
}  // namespace gpushare
