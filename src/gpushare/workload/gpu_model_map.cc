#include "gpushare/workload/gpu_model_map.h"

#include <vector>

#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"

namespace gpushare {

GpuModelMap GpuModelMap::Default() {
  GpuModelMap map;
  // Disclosed names: the card they say.
  map.Set("V100M16", "V100-16GB");
  map.Set("V100M32", "V100-32GB");
  map.Set("P100", "P100");
  map.Set("T4", "T4");
  map.Set("A10", "A10");
  // Undisclosed codes (docs/experiment-fgd.md, "GPU models"): 8-GPU servers
  // of the trace's era; G3's nodes have more CPU (128 vs 96 vCPU).
  map.Set("G2", "A100-40GB");
  map.Set("G3", "A100-80GB");
  return map;
}

void GpuModelMap::Set(std::string trace_model, std::string catalog_model) {
  entries_[std::move(trace_model)] = std::move(catalog_model);
}

void GpuModelMap::ParseOverride(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size() ||
      text.find('=', eq + 1) != std::string_view::npos) {
    throw InputError("--model-map: expected TRACE_MODEL=CATALOG_MODEL, got '" +
                     std::string(text) + "'");
  }
  Set(std::string(text.substr(0, eq)), std::string(text.substr(eq + 1)));
}

bool GpuModelMap::Contains(std::string_view trace_model) const {
  return entries_.find(trace_model) != entries_.end();
}

void GpuModelMap::CheckKnown(std::string_view trace_model) const {
  if (Contains(trace_model)) return;
  std::vector<std::string> known;
  for (const auto& [name, target] : entries_) known.push_back(name);
  throw InputError("unknown GPU model '" + std::string(trace_model) +
                   "' (map it with --model-map " + std::string(trace_model) +
                   "=CATALOG_MODEL)" + DidYouMean(trace_model, known));
}

const GpuModel& GpuModelMap::Resolve(std::string_view trace_model,
                                     const Catalog& catalog) const {
  CheckKnown(trace_model);
  const auto it = entries_.find(trace_model);
  const GpuModel* model = catalog.Find(it->second);
  if (model == nullptr) {
    throw InputError("GPU model '" + std::string(trace_model) +
                     "' maps to '" + it->second +
                     "', which the catalog lacks" +
                     DidYouMean(it->second, catalog.AllNames()));
  }
  return *model;
}

}  // namespace gpushare
