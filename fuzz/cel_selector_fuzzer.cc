// Fuzz target `cel_selector`: a DRA selector expression (the CEL subset of
// cluster/dra/cel_selector.h) compiled and, when accepted, evaluated against
// every device of an A100 node's slice and of an H100 node with a MIG layout.

#include <vector>

#include "fuzz/fuzz_target.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/dra/cel_selector.h"
#include "gpushare/catalog/mig_layout_spec.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"

GS_FUZZ_TARGET(cel_selector) {
  static const std::vector<gpushare::ResourceSlice> slices = [] {
    static const gpushare::Catalog catalog = gpushare::Catalog::Builtin();
    std::vector<gpushare::ResourceSlice> out;
    gpushare::NvidiaGpuNode a100;
    a100.node_name = "node-a";
    a100.model = catalog.Find("A100-80GB");
    a100.gpu_count = 2;
    out.push_back(gpushare::NvidiaGpuResourceSlice(a100));
    gpushare::NvidiaGpuNode h100;
    h100.node_name = "node-h";
    h100.model = catalog.Find("H100-80GB");
    h100.gpu_count = 1;
    h100.mig_layouts = {gpushare::ResolveMigLayout(
        *h100.model, {"3g.40gb@4", "2g.20gb@0", "1g.10gb@2", "1g.10gb@3"})};
    out.push_back(gpushare::NvidiaGpuResourceSlice(h100));
    return out;
  }();
  gpushare::CelCompileError error;
  const std::optional<gpushare::CelSelector> selector =
      gpushare::CelSelector::Compile(data, &error);
  if (!selector) return;
  for (const gpushare::ResourceSlice& slice : slices) {
    for (const gpushare::Device& device : slice.devices) {
      selector->Evaluate(device, slice.driver);
    }
  }
}
