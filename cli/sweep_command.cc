// `gpushare-sim sweep [SCENARIO] --grid GRID --out DIR`: a scenario run or
// compared at every point of a grid, one JSON file per point in
// DIR/points/ and, once every point is there, DIR/summary.csv and
// DIR/classes.csv (docs/sweep.md). `--shard I/N` runs only shard I's points;
// `gpushare-sim merge` joins the shards' folders.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>

#include "cli/command.h"
#include "gpushare/decide/sweep.h"
#include "gpushare/decide/sweep_grid_reader.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/output_file.h"
#include "gpushare/io/output_lock.h"
#include "gpushare/io/output_target.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/report/progress_bar.h"
#include "gpushare/report/progress_observer.h"
#include "gpushare/report/sweep_json.h"
#include "gpushare/report/sweep_summary.h"

namespace gpushare::cli {
namespace {

struct SweepArgs {
  std::string scenario;
  std::string grid;
  std::string out;
  std::string shard;
  int threads = 0;
  bool quiet = false;
};

std::string PointPath(const std::string& out, int64_t point) {
  return (std::filesystem::path(out) / "points" / SweepPointFileName(point))
      .string();
}

// The points not yet written in `out` by this sweep; a point file of
// another sweep is an error (its folder would mix two sweeps).
std::vector<int64_t> PointsToRun(const std::vector<int64_t>& points,
                                 const std::string& out,
                                 const std::string& digest) {
  std::error_code error;
  if (std::filesystem::exists(out, error) &&
      !std::filesystem::is_directory(out, error)) {
    throw InputError(
        fmt::format("--out '{}': exists and is not a directory", out));
  }
  std::vector<int64_t> todo;
  for (const int64_t p : points) {
    const std::string path = PointPath(out, p);
    if (!std::filesystem::exists(path, error)) {
      todo.push_back(p);
      continue;
    }
    const SweepPointFile f = ReadSweepPointFile(path, /*keep_json=*/false);
    if (f.digest != digest || f.point != p) {
      throw InputError(fmt::format(
          "{} belongs to another sweep (digest {}, point {}; this sweep is "
          "{}): give another --out, or remove that folder to start again",
          path, f.digest, f.point, digest));
    }
  }
  return todo;
}

// Every point file of the sweep in `out`, read back.
std::vector<SweepPointFile> ReadPoints(const std::string& out, int64_t points) {
  std::vector<SweepPointFile> files;
  for (int64_t p = 0; p < points; ++p) {
    files.push_back(ReadSweepPointFile(PointPath(out, p), /*keep_json=*/false));
  }
  return files;
}

// Writes the sweep's tables into `out`; returns what it wrote, for the
// report ("DIR/summary.csv, DIR/classes.csv and DIR/pools.csv").
std::string WriteTables(const std::vector<SweepPointFile>& points,
                        const std::string& out) {
  OutputBatch batch;
  std::vector<std::string> names = {"summary.csv", "classes.csv"};
  batch.Add((std::filesystem::path(out) / names[0]).string(),
            SweepSummaryCsv(points));
  batch.Add((std::filesystem::path(out) / names[1]).string(),
            SweepClassesCsv(points));
  if (points.front().command == "compare") {
    names.push_back("pools.csv");
    batch.Add((std::filesystem::path(out) / names[2]).string(),
              SweepPoolsCsv(points));
  }
  batch.Commit();
  std::string written;
  for (size_t i = 0; i < names.size(); ++i) {
    written += (i == 0                 ? ""
                : i + 1 < names.size() ? ", "
                                       : " and ") +
               out + "/" + names[i];
  }
  return written;
}

void RunSweep(const SweepArgs& args, const GlobalOptions& options) {
  const Catalog catalog = LoadCatalog(options);
  const SweepGrid grid = ReadSweepGridFile(args.grid, !args.scenario.empty());
  const std::string scenario_file =
      args.scenario.empty() ? grid.scenario : args.scenario;
  const std::string scenario_text = ReadInputFile(scenario_file);
  int shard = 0;
  int shards = 1;
  if (!args.shard.empty()) ParseShard(args.shard, "--shard", &shard, &shards);
  const std::string digest = SweepDigest(grid, scenario_text);
  const std::vector<int64_t> points = ShardPoints(grid.points, shard, shards);
  CheckOutputFolder(args.out);  // no planted link is read through
  std::vector<int64_t> todo = PointsToRun(points, args.out, digest);
  // Every point to run is read (checked) before anything is written.
  auto sweep = std::make_unique<const Sweep>(grid, scenario_text,
                                             scenario_file, todo, catalog);
  CreateOutputDirectory((std::filesystem::path(args.out) / "points").string());
  // No other gpushare-sim writes the folder until the tables are written; a
  // sweep that finished meanwhile is seen now.
  const OutputFolderLock lock(args.out);
  if (std::vector<int64_t> now = PointsToRun(points, args.out, digest);
      now != todo) {
    todo = std::move(now);
    sweep = std::make_unique<const Sweep>(grid, scenario_text, scenario_file,
                                          todo, catalog);
  }
  const auto begin = std::chrono::steady_clock::now();
  ProgressAggregate progress(static_cast<int>(
      std::min<int64_t>(sweep->runs(), std::numeric_limits<int>::max())));
  {
    ProgressBar bar(&progress, ShouldShowProgress(args.quiet));
    sweep->Run(
        args.threads,
        [&](const SweepPointResult& r) {
          WriteOutputFile(PointPath(args.out, r.point),
                          SweepPointJsonText(grid, digest, r));
        },
        [&progress]() -> std::unique_ptr<SimulationObserver> {
          return std::make_unique<ProgressObserver>(&progress);
        });
  }
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  std::string report =
      fmt::format("sweep of {} over {} ({}): {} points", grid.file,
                  scenario_file, SweepCommandName(grid.command), grid.points);
  if (shards > 1) {
    report += fmt::format(", shard {}/{} has {}", shard, shards, points.size());
  }
  report += fmt::format("; {} run now", todo.size());
  if (todo.size() < points.size()) {
    report += fmt::format(", {} already in {}", points.size() - todo.size(),
                          args.out);
  }
  if (!args.quiet) report += fmt::format(" ({:.1f} s)", wall_s);
  report += "\n";
  if (shards == 1) {
    report += "wrote " +
              WriteTables(CompleteSweep(ReadPoints(args.out, grid.points)),
                          args.out) +
              "\n";
  } else {
    report += fmt::format(
        "points in {}/points/; when every shard is done: gpushare-sim merge "
        "SHARD_DIR... --out DIR\n",
        args.out);
  }
  std::cout << report;
}

}  // namespace

void RegisterSweepCommand(CLI::App& app, GlobalOptions& options) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "Run or compare a scenario at every point of a grid of values "
      "(docs/sweep.md)");
  cmd->add_option("scenario", args->scenario,
                  "Scenario YAML file; omit it to use the grid's 'scenario:'")
      ->check(CLI::ExistingFile);
  cmd->add_option("--grid", args->grid,
                  "Grid YAML file: the keys to set and vary (docs/sweep.md)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", args->out,
                  "Folder for points/*.json, summary.csv and classes.csv; "
                  "points already there are not run again")
      ->required();
  cmd->add_option("--shard", args->shard,
                  "Run only shard I of N (I/N, counted from 0): the points p "
                  "with p mod N == I");
  cmd->add_option("--threads", args->threads,
                  "Points run at once (0: one per hardware thread)")
      ->check(CLI::Range(0, 1024));
  cmd->add_flag("--quiet", args->quiet,
                "No progress bar and no wall time in the summary line");
  cmd->callback([args, &options] { RunSweep(*args, options); });
}

// `gpushare-sim merge DIR... --out DIR`: the shards of one sweep joined.
void RegisterMergeCommand(CLI::App& app, GlobalOptions& options) {
  (void)options;
  auto dirs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "merge",
      "Join the folders of a sweep's shards into one: every point file and "
      "summary.csv, classes.csv (docs/sweep.md)");
  cmd->add_option("dirs", *dirs, "The shards' --out folders")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--out", *out, "Folder of the joined sweep")->required();
  cmd->callback([dirs, out] {
    std::vector<SweepPointFile> files;
    for (const std::string& dir : *dirs) {
      const std::filesystem::path points =
          std::filesystem::path(dir) / "points";
      std::error_code error;
      if (!std::filesystem::is_directory(points, error)) {
        throw InputError(fmt::format(
            "{}: no points/ folder (expected the --out folder of a sweep)",
            dir));
      }
      std::vector<std::string> paths;
      for (const auto& entry : std::filesystem::directory_iterator(points)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("point-") && name.ends_with(".json")) {
          paths.push_back(entry.path().string());
        }
      }
      std::sort(paths.begin(), paths.end());
      for (const std::string& p : paths) {
        files.push_back(ReadSweepPointFile(p, /*keep_json=*/false));
      }
    }
    const std::vector<SweepPointFile> sweep = CompleteSweep(std::move(files));
    // The points first, the tables last: a folder with tables is whole.
    const std::filesystem::path points = std::filesystem::path(*out) / "points";
    CheckOutputFolder(*out);
    CreateOutputDirectory(points.string());
    const OutputFolderLock lock(*out);  // until the tables are written
    for (const SweepPointFile& f : sweep) {
      const std::filesystem::path to = points / SweepPointFileName(f.point);
      std::error_code error;
      if (std::filesystem::equivalent(f.path, to, error)) continue;
      WriteOutputFile(to.string(), ReadInputFile(f.path));
    }
    const std::string written = WriteTables(sweep, *out);
    std::cout << fmt::format(
        "merged {} points of sweep {} from {} folders; "
        "wrote {}\n",
        sweep.size(), sweep.front().digest, dirs->size(), written);
  });
}

}  // namespace gpushare::cli
