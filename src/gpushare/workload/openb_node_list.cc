#include "gpushare/workload/openb_node_list.h"

#include <fmt/format.h>

#include <limits>
#include <unordered_set>

#include "gpushare/io/csv_table.h"
#include "gpushare/io/input_error.h"
#include "gpushare/workload/imported_nodes.h"

namespace gpushare {
namespace {

const std::vector<std::string>& OpenbNodeHeaders() {
  static const std::vector<std::string> headers = {
      "sn,cpu_milli,memory_mib,gpu,model"};
  return headers;
}

std::vector<OpenbNode> ParseOpenbNodes(CsvTable table,
                                       const GpuModelMap& models) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 4;
  enum { kName, kCpu, kMemory, kGpu, kModel };
  std::vector<OpenbNode> nodes;
  std::unordered_set<std::string> names;
  while (table.Next()) {
    OpenbNode n;
    n.line = table.line();
    n.name = std::string(table.NonEmpty(kName));
    if (!IsNodeName(n.name)) {
      table.Fail(kName, fmt::format("invalid node name {:?}: {}", n.name,
                                    NodeNameRule()));
    }
    if (!names.insert(n.name).second) {
      table.Fail(kName, "duplicate node name '" + n.name + "'");
    }
    n.cpu_milli = table.Int(kCpu, 0, kMax);
    n.memory_mib = table.Int(kMemory, 0, kMax);
    n.gpus = static_cast<int>(table.Int(kGpu, 0, kMaxOpenbGpusPerNode));
    n.model = std::string(table.Field(kModel));
    if (n.gpus == 0 && !n.model.empty()) {
      table.Fail(kModel, "a node with 0 GPUs has no GPU model, got '" +
                             n.model + "'");
    }
    if (n.gpus > 0) {
      if (n.model.empty()) table.Fail(kModel, "a GPU node needs a GPU model");
      if (!models.Contains(n.model)) {
        try {
          models.CheckKnown(n.model);
        } catch (const InputError& e) {
          table.Fail(kModel, e.message());
        }
      }
    }
    nodes.push_back(std::move(n));
  }
  return nodes;
}

}  // namespace

std::vector<OpenbNode> ParseOpenbNodeList(const std::string& file,
                                          std::string text,
                                          const GpuModelMap& models) {
  return ParseOpenbNodes(CsvTable(file, std::move(text), OpenbNodeHeaders()),
                         models);
}

std::vector<OpenbNode> ReadOpenbNodeList(const std::string& path,
                                         const GpuModelMap& models) {
  return ParseOpenbNodes(CsvTable::FromFile(path, OpenbNodeHeaders()), models);
}

}  // namespace gpushare
