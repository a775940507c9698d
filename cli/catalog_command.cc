// `gpushare-sim catalog [--gpu MODEL]`: the GPU models, or one model's MIG
// profiles, placements and named MIG configs.

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "cli/command.h"
#include "gpushare/catalog/mig_config.h"
#include "gpushare/io/suggest.h"
#include "gpushare/report/text_table.h"

namespace gpushare::cli {
namespace {

bool Unconfirmed(const std::vector<std::string>& fields, const char* field) {
  return std::find(fields.begin(), fields.end(), field) != fields.end();
}

// The value, with '*' appended when the field is unconfirmed.
std::string Mark(const std::vector<std::string>& fields, const char* field,
                 std::string value) {
  return Unconfirmed(fields, field) ? value + "*" : value;
}

std::string Starts(const MigProfile& p) {
  std::string out;
  for (int s : p.starts) out += (out.empty() ? "" : ",") + std::to_string(s);
  return out;
}

// The model's memory bandwidth in GB/s ("-" when the catalog has none).
std::string Bandwidth(const GpuModel& m) {
  if (m.memory_bandwidth_gb_s <= 0) return "-";
  return Mark(m.unconfirmed, "memory_bandwidth_gb_s",
              fmt::format("{:.0f}", m.memory_bandwidth_gb_s));
}

std::string ModelTable(const Catalog& catalog) {
  TextTable table;
  table.AddColumn("MODEL");
  table.AddColumn("MEMORY MiB", TextTable::Align::kRight);
  table.AddColumn("SMS", TextTable::Align::kRight);
  table.AddColumn("SPEED", TextTable::Align::kRight);
  table.AddColumn("GB/s", TextTable::Align::kRight);
  table.AddColumn("$/GPU-h", TextTable::Align::kRight);
  table.AddColumn("MIG");
  table.AddColumn("FAMILY");
  for (const GpuModel& m : catalog.models()) {
    const auto& u = m.unconfirmed;
    table.AddRow({m.name, Mark(u, "memory_mib", std::to_string(m.memory_mib)),
                  Mark(u, "sms", std::to_string(m.sms)),
                  Mark(u, "relative_speed", fmt::format("{:.2f}", m.relative_speed)),
                  Bandwidth(m),
                  Mark(u, "price_per_hour", fmt::format("{:.2f}", m.price_per_hour)),
                  m.mig ? fmt::format("{} x", m.mig->max_instances) : "-",
                  m.family});
  }
  return table.Render() +
         "\nSPEED: dense FP16 tensor throughput relative to A100. GB/s: memory "
         "bandwidth (datasheet). MIG: most instances per GPU.\n* unconfirmed value (see catalog/gpus.yaml and "
         "docs/catalog.md). Details: gpushare-sim catalog --gpu MODEL\n";
}

std::string ModelDetail(const GpuModel& m) {
  const auto& u = m.unconfirmed;
  std::string out = fmt::format(
      "{} ({}, compute capability {}): {} MiB, {} SMs, relative speed {}, "
      "{} GB/s, ${}/GPU-hour\n",
      m.name, m.family, m.compute_capability,
      Mark(u, "memory_mib", std::to_string(m.memory_mib)),
      Mark(u, "sms", std::to_string(m.sms)),
      Mark(u, "relative_speed", fmt::format("{:.2f}", m.relative_speed)),
      Bandwidth(m),
      Mark(u, "price_per_hour", fmt::format("{:.2f}", m.price_per_hour)));
  if (!m.aliases.empty()) out += "aliases: " + JoinNames(m.aliases) + "\n";
  if (!m.pci_device_ids.empty()) {
    out += "PCI device IDs: " + JoinNames(m.pci_device_ids) + "\n";
  }
  if (!m.mig) return out + "MIG: not supported\n";
  const MigGeometry& g = *m.mig;
  out += fmt::format(
      "MIG: {} compute slices, {} memory positions (0-{}), at most {} "
      "instances, {} SMs in MIG mode\n\n",
      g.compute_slices, g.memory_slices, g.memory_slices - 1, g.max_instances,
      g.sms);
  TextTable table;
  table.AddColumn("PROFILE");
  table.AddColumn("G", TextTable::Align::kRight);
  table.AddColumn("MEM", TextTable::Align::kRight);
  table.AddColumn("SMS", TextTable::Align::kRight);
  table.AddColumn("MEMORY MiB", TextTable::Align::kRight);
  table.AddColumn("GB/s", TextTable::Align::kRight);
  table.AddColumn("MAX", TextTable::Align::kRight);
  table.AddColumn("STARTS");
  table.AddColumn("RESOURCE (mixed strategy)");
  for (const MigProfile& p : g.profiles) {
    const auto& pu = p.unconfirmed;
    table.AddRow({p.name, std::to_string(p.compute_slices),
                  std::to_string(p.memory_slices),
                  Mark(pu, "sms", std::to_string(p.sms)),
                  Mark(pu, "memory_mib", std::to_string(p.memory_mib)),
                  m.memory_bandwidth_gb_s > 0
                      ? fmt::format("{:.0f}", m.InstanceBandwidthGbS(p))
                      : "-",
                  std::to_string(p.max_count), Mark(pu, "starts", Starts(p)),
                  p.ResourceName()});
  }
  out += table.Render();
  out += "\nG: compute slices; MEM: memory slices, the instance's size on the "
         "placement axis; GB/s: the GPU's bandwidth x MEM / its memory slices.\n\nplacements (memory positions):\n";
  TextTable places;
  std::string header;
  for (int i = 0; i < g.memory_slices; ++i) header += std::to_string(i % 10);
  places.AddColumn("PROFILE");
  places.AddColumn(header);
  for (const MigProfile& p : g.profiles) {
    // One line per profile: every allowed start drawn as its range.
    std::string line(g.memory_slices, '.');
    for (int s : p.starts) {
      for (int k = 0; k < p.memory_slices; ++k) {
        line[s + k] = static_cast<char>('0' + (s % 10));
      }
    }
    places.AddRow({p.name, line});
  }
  out += places.Render();
  out += "\nnamed MIG configs (nvidia.com/mig.config):\n";
  TextTable configs;
  configs.AddColumn("CONFIG");
  configs.AddColumn("INSTANCES");
  configs.AddColumn("LAYOUT");
  for (const NamedMigConfig& c : NamedMigConfigs(m)) {
    configs.AddRow({c.name,
                    c.mig_enabled ? FormatMigCounts(m, c.counts) : "MIG disabled",
                    FormatMigLayout(m, c.layout)});
  }
  out += configs.Render();
  return out;
}

}  // namespace

void RegisterCatalogCommand(CLI::App& app, GlobalOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "catalog", "List the GPU models, or one model's MIG profiles, "
                 "placements and named MIG configs");
  auto gpu = std::make_shared<std::string>();
  cmd->add_option("--gpu", *gpu, "A GPU model name or alias");
  cmd->callback([&options, gpu] {
    const Catalog catalog = LoadCatalog(options);
    const std::string out =
        gpu->empty() ? ModelTable(catalog) : ModelDetail(catalog.Get(*gpu));
    std::cout << out;
  });
}

}  // namespace gpushare::cli
