#include "gpushare/workload/kubectl_object.h"

#include <algorithm>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/io/json_syntax.h"
#include "gpushare/io/utf8.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/workload/kubectl_claim_validation.h"

namespace gpushare {

std::vector<JsonValue> KubectlListItems(const std::string& file,
                                        const std::string& text,
                                        const std::string& kind,
                                        std::string* list_kind) {
  CheckUtf8(file, text);
  // The API's DRA list limits refuse a huge claim before it is parsed.
  CheckJsonSyntax(file, text, KubectlDraArrayLimits());
  const YAML::Node root_node = ParseCheckedJson(text, file);
  CheckNoDuplicateKeys(file, root_node);
  const JsonValue root(file, root_node);
  if (root.Missing() || !root.IsObject()) {
    root.Fail("expected the JSON object of `kubectl get " + kind +
              " -o json` (a List)");
  }
  const std::string root_kind = root.Get("kind").String();
  if (list_kind != nullptr) *list_kind = root_kind;
  std::vector<JsonValue> items;
  if (root_kind == kind) {
    items.push_back(root);
  } else if (root_kind == "List" || root_kind == kind + "List") {
    if (!root.Get("items").IsArray() && !root.Get("items").Missing()) {
      root.Get("items").Fail("expected an array of " + kind + " objects");
    }
    items = root.Get("items").Items();
  } else {
    root.Get("kind").Fail("expected kind List, " + kind + "List or " + kind +
                          ", got '" + root_kind + "'");
  }
  return items;
}

std::vector<JsonValue> KubectlItems(const std::string& file,
                                    const std::string& text,
                                    const std::string& kind) {
  const std::vector<JsonValue> items =
      KubectlListItems(file, text, kind, nullptr);
  for (const JsonValue& item : items) {
    if (!item.IsObject()) item.Fail("expected a " + kind + " object");
    const std::string k = item.Get("kind").String();
    if (!k.empty() && k != kind) {
      item.Get("kind").Fail("expected kind " + kind + ", got '" + k + "'");
    }
  }
  return items;
}

const GpuModel& KubectlGpuModel(const JsonValue& at,
                                const std::string& product,
                                const Catalog& catalog GS_LIFETIMEBOUND) {
  std::string name = product;
  std::replace(name.begin(), name.end(), ' ', '-');
  if (const GpuModel* m = catalog.Find(name)) return *m;
  // HAMi types and DRA productNames read "NVIDIA-<product>".
  if (name.rfind("NVIDIA-", 0) == 0) {
    if (const GpuModel* m = catalog.Find(name.substr(7))) return *m;
  }
  try {
    return catalog.Get(name);
  } catch (const InputError& e) {
    at.Fail("GPU product '" + product + "': " + e.message() +
            "; add it as an alias in a catalog file (--catalog)");
  }
}

Labels ReadStringMap(const JsonValue& value) {
  Labels labels;
  for (const auto& [key, v] : value.Members()) labels[key] = v.String();
  return labels;
}

Quantity ReadQuantity(const JsonValue& value) {
  Quantity q;
  std::string error;
  if (value.Missing()) value.Fail("expected a quantity, got nothing");
  if (!Quantity::Parse(value.String(), &q, &error)) value.Fail(error);
  return q;
}

int64_t ReadResourceAmount(const JsonValue& value,
                           const std::string& resource) {
  const Quantity q = ReadQuantity(value);
  if (q.negative()) value.Fail("a resource quantity must not be negative");
  int64_t amount = 0;
  if (!QuantityInUnitsOf(q, resource, &amount)) {
    value.Fail("quantity too large");
  }
  return amount;
}

TaintEffect ReadTaintEffect(const JsonValue& value) {
  TaintEffect effect;
  const std::string text = value.String();
  if (!ParseTaintEffect(text, &effect)) {
    value.Fail("expected NoSchedule, PreferNoSchedule or NoExecute, got '" +
               text + "'");
  }
  return effect;
}

Toleration ReadKubectlToleration(const JsonValue& t) {
  Toleration tol;
  tol.key = t.Get("key").String();
  const std::string op = t.Get("operator").String("Equal");
  if (op == "Exists") {
    tol.op = Toleration::Operator::kExists;
  } else if (op == "Equal") {
    tol.op = Toleration::Operator::kEqual;
  } else {
    t.Get("operator").Fail("expected Equal or Exists, got '" + op + "'");
  }
  tol.value = t.Get("value").String();
  if (!t.Get("effect").Missing() && !t.Get("effect").String().empty()) {
    tol.any_effect = false;
    tol.effect = ReadTaintEffect(t.Get("effect"));
  }
  return tol;
}

}  // namespace gpushare
