// Fuzz target `mig_layout`: MIG layout items as `gpushare-sim mig validate`
// takes them. The first line names the GPU model; each further line is an
// item ("3g.40gb@4", "1g.10gb:7", "3g.40gb:1,2g.20gb:1").

#include "fuzz/fuzz_target.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/mig_layout_spec.h"

GS_FUZZ_TARGET(mig_layout) {
  static const gpushare::Catalog catalog = gpushare::Catalog::Builtin();
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= data.size()) {
    const size_t end = data.find('\n', start);
    lines.push_back(data.substr(start, end == std::string::npos
                                           ? std::string::npos
                                           : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  const gpushare::GpuModel& model = catalog.Get(lines.front());
  lines.erase(lines.begin());
  gpushare::ResolveMigLayout(model, lines);
}
