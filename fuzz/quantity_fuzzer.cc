// Fuzz target `quantity`: a Kubernetes resource quantity ("500m", "80Gi",
// "1e3") converted to each unit the simulator uses.

#include <cstdint>

#include "fuzz/fuzz_target.h"
#include "gpushare/cluster/quantity.h"

GS_FUZZ_TARGET(quantity) {
  gpushare::Quantity q;
  std::string error;
  if (!gpushare::Quantity::Parse(data, &q, &error)) return;
  int64_t out = 0;
  for (const char* resource : {"cpu", "memory", "nvidia.com/gpu",
                               "nvidia.com/gpumem", "nvidia.com/gpucores"}) {
    gpushare::QuantityInUnitsOf(q, resource, &out);
  }
  q.Value(&out);
  q.MilliValue(&out);
  q.Mebibytes(&out);
}
