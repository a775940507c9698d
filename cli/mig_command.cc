// `gpushare-sim mig validate|layouts`: check a MIG layout and place it, or
// enumerate every maximal layout of a GPU model.

#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "cli/command.h"
#include "gpushare/catalog/mig_layout.h"
#include "gpushare/catalog/mig_layout_spec.h"
#include "gpushare/report/text_table.h"

namespace gpushare::cli {
namespace {

std::string DescribeLayout(const GpuModel& m, const MigLayout& layout) {
  const MigGeometry& g = *m.mig;
  int compute = 0;
  int memory = 0;
  for (const MigInstance& in : layout) {
    compute += g.profiles[in.profile].compute_slices;
    memory += g.profiles[in.profile].memory_slices;
  }
  std::string out = fmt::format("valid MIG layout on {}: {}\n\n", m.name,
                                FormatMigLayout(m, layout));
  std::string header;
  for (int i = 0; i < g.memory_slices; ++i) header += std::to_string(i % 10);
  TextTable table;
  table.AddColumn("INSTANCE");
  table.AddColumn("G", TextTable::Align::kRight);
  table.AddColumn("SMS", TextTable::Align::kRight);
  table.AddColumn("MEMORY MiB", TextTable::Align::kRight);
  table.AddColumn(header);
  table.AddColumn("RESOURCE (mixed strategy)");
  for (const MigInstance& in : layout) {
    const MigProfile& p = g.profiles[in.profile];
    std::string line(g.memory_slices, '.');
    for (int k = 0; k < p.memory_slices; ++k) line[in.start + k] = '#';
    table.AddRow({fmt::format("{}@{}", p.name, in.start),
                  std::to_string(p.compute_slices), std::to_string(p.sms),
                  std::to_string(p.memory_mib), line, p.ResourceName()});
  }
  out += table.Render();
  out += fmt::format(
      "\n{} {} of at most {}; compute slices {} of {}; memory slices {} of "
      "{}\n",
      layout.size(), layout.size() == 1 ? "instance" : "instances",
      g.max_instances, compute, g.compute_slices, memory, g.memory_slices);
  return out;
}

std::string DescribeMaximalLayouts(const GpuModel& m, bool with_media) {
  std::vector<MigLayout> layouts = EnumerateMaximalMigLayouts(m);
  if (!with_media) {
    std::erase_if(layouts, [&](const MigLayout& layout) {
      for (const MigInstance& in : layout) {
        if (m.mig->profiles[in.profile].media_extension()) return true;
      }
      return false;
    });
  }
  // Group placements by their profile combination, largest first.
  std::map<std::vector<int>, std::vector<const MigLayout*>, std::greater<>>
      groups;
  for (const MigLayout& layout : layouts) {
    groups[MigProfileCounts(m, layout)].push_back(&layout);
  }
  std::string out = fmt::format(
      "{}: {} distinct maximal MIG layouts (placements) in {} profile "
      "combinations{}\n\n",
      m.name, layouts.size(), groups.size(),
      with_media ? "" : ", without media-extension (+me) profiles");
  TextTable table;
  table.AddColumn("PROFILES");
  table.AddColumn("PLACEMENTS");
  for (const auto& [counts, members] : groups) {
    for (size_t i = 0; i < members.size(); ++i) {
      table.AddRow({i == 0 ? FormatMigCounts(m, counts) : "",
                    FormatMigLayout(m, *members[i])});
    }
  }
  out += table.Render();
  out += "\nmaximal: no further instance of any profile fits.\n";
  return out;
}

}  // namespace

void RegisterMigCommand(CLI::App& app, GlobalOptions& options) {
  CLI::App* mig = app.add_subcommand("mig", "MIG geometry: validate layouts, "
                                            "enumerate maximal layouts");
  mig->require_subcommand(1);

  struct ValidateArgs {
    std::string gpu;
    std::vector<std::string> items;
  };
  auto validate_args = std::make_shared<ValidateArgs>();
  CLI::App* validate = mig->add_subcommand(
      "validate",
      "Check a MIG layout and place it: items are profile@start (fixed), "
      "profile:count or profile (placed by the simulator), separate or "
      "comma-separated. Exit 2 with the reason when it cannot be built");
  validate->add_option("--gpu", validate_args->gpu, "GPU model")->required();
  validate->add_option("layout", validate_args->items,
                       "e.g. 3g.20gb 2g.10gb 1g.5gb 1g.5gb, 3g.40gb@4, "
                       "3g.40gb:1,2g.20gb:1")
      ->required();
  validate->callback([&options, validate_args] {
    const Catalog catalog = LoadCatalog(options);
    const GpuModel& model = catalog.Get(validate_args->gpu);
    const MigLayout layout = ResolveMigLayout(model, validate_args->items);
    std::cout << DescribeLayout(model, layout);
  });

  struct LayoutsArgs {
    std::string gpu;
    bool without_media = false;
  };
  auto layouts_args = std::make_shared<LayoutsArgs>();
  CLI::App* layouts = mig->add_subcommand(
      "layouts", "Enumerate every distinct maximal MIG layout of a GPU model");
  layouts->add_option("--gpu", layouts_args->gpu, "GPU model")->required();
  layouts->add_flag("--without-me", layouts_args->without_media,
                    "Leave out layouts with media-extension (+me) profiles");
  layouts->callback([&options, layouts_args] {
    const Catalog catalog = LoadCatalog(options);
    const GpuModel& model = catalog.Get(layouts_args->gpu);
    model.RequireMig();
    std::cout << DescribeMaximalLayouts(model, !layouts_args->without_media);
  });
}

}  // namespace gpushare::cli
