// GpuModelMap: which catalog GPU model a trace's GPU model name stands for.
//
// Contract: traces name GPU models their own way; Alibaba's openb trace uses
// V100M16, V100M32, P100, T4, A10 and the undisclosed codes G2 and G3. The
// map sends each trace name (case-sensitive, as in the trace) to a catalog
// name or alias. Default() is the documented table of docs/experiment-fgd.md
// (G2 -> A100-40GB, G3 -> A100-80GB are assumptions: Alibaba does not say
// what they are); Set() overrides or adds one entry, ParseOverride() reads
// "TRACE=CATALOG" (the CLI's --model-map). Resolve() gives the catalog model
// of a trace name, throwing InputError for a name the map lacks or a target
// the catalog lacks (the caller adds file:line).

#ifndef GPUSHARE_WORKLOAD_GPU_MODEL_MAP_H_
#define GPUSHARE_WORKLOAD_GPU_MODEL_MAP_H_

#include <map>
#include <string>
#include <string_view>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/gpu_model.h"

namespace gpushare {

class GpuModelMap {
 public:
  // The documented default table for the openb trace.
  static GpuModelMap Default();

  void Set(std::string trace_model, std::string catalog_model);
  // "TRACE=CATALOG"; InputError when malformed.
  void ParseOverride(std::string_view text);

  bool Contains(std::string_view trace_model) const;
  // Throws InputError (no location) naming the closest known trace models
  // when the map lacks `trace_model`.
  void CheckKnown(std::string_view trace_model) const;
  // The catalog model `trace_model` maps to; InputError (no location) when
  // the map or the catalog lacks it.
  const GpuModel& Resolve(std::string_view trace_model,
                          const Catalog& catalog) const;

  const std::map<std::string, std::string, std::less<>>& entries() const {
    return entries_;
  }

 private:
  std::map<std::string, std::string, std::less<>> entries_;
};

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_GPU_MODEL_MAP_H_
