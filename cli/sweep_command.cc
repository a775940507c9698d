// `gpushare-sim sweep [SCENARIO] --grid GRID --out DIR`: a scenario run or
// compared at every point of a grid, one JSON file per point in
// DIR/points/ and, once every point is there, DIR/summary.csv and
// DIR/classes.csv (docs/sweep.md). `--shard I/N` runs only shard I's points;
// `gpushare-sim merge` joins the shards' folders.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
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

// The point a file name of SweepPointFileName() names, else -1.
int64_t PointOfFileName(const std::string& name) {
  if (name.size() > 24 || !name.starts_with("point-") ||
      !name.ends_with(".json")) {
    return -1;
  }
  const std::string digits = name.substr(6, name.size() - 11);
  if (digits.empty() ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return -1;
  }
  const int64_t p = std::stoll(digits);
  return name == SweepPointFileName(p) ? p : -1;
}

// The points not yet written in `out` by this sweep; a point file of
// another sweep is an error (its folder would mix two sweeps). The folder
// is listed once (not a look-up per point: a grid has up to 10^6).
std::vector<int64_t> PointsToRun(const std::vector<int64_t>& points,
                                 int64_t grid_points, const std::string& out,
                                 const std::string& digest) {
  std::error_code error;
  if (std::filesystem::exists(out, error) &&
      !std::filesystem::is_directory(out, error)) {
    throw InputError(
        fmt::format("--out '{}': exists and is not a directory", out));
  }
  const std::filesystem::path folder = std::filesystem::path(out) / "points";
  if (!std::filesystem::is_directory(folder, error)) return points;
  std::vector<bool> wanted(static_cast<size_t>(grid_points), false);
  for (const int64_t p : points) wanted[static_cast<size_t>(p)] = true;
  std::vector<int64_t> present;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    const int64_t p = PointOfFileName(name);
    if (p >= 0 && p < grid_points && wanted[static_cast<size_t>(p)]) {
      present.push_back(p);
    }
  }
  std::sort(present.begin(), present.end());
  std::vector<bool> done(static_cast<size_t>(grid_points), false);
  for (const int64_t p : present) {
    const std::string path = PointPath(out, p);
    const SweepPointFile f = ReadSweepPointFile(path, /*keep_json=*/false);
    if (f.digest != digest || f.point != p) {
      throw InputError(fmt::format(
          "{} belongs to another sweep (digest {}, point {}; this sweep is "
          "{}): give another --out, or remove that folder to start again",
          path, f.digest, f.point, digest));
    }
    done[static_cast<size_t>(p)] = true;
  }
  std::vector<int64_t> todo;
  for (const int64_t p : points) {
    if (!done[static_cast<size_t>(p)]) todo.push_back(p);
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

// Runs the sweep's points into `args.out`/points/, one file per point as it
// ends. The folder is locked (`*lock`, held by the caller until its tables
// are written) before the points to run are listed again: a sweep that
// wrote points meanwhile is seen, and `remake` reads the sweep of the points
// still to run. When a point is bad (or a run fails), the points before it
// end, and then what this run made is removed — its point files, and the
// folders it created — and the error says how far the sweep got; points
// written by an earlier run stay.
void RunAndWritePoints(
    const SweepGrid& grid, const std::string& digest, const SweepArgs& args,
    const std::vector<int64_t>& points, const std::vector<int64_t>& todo,
    std::unique_ptr<const Sweep> sweep,
    const std::function<std::unique_ptr<const Sweep>(
        const std::vector<int64_t>&)>& remake,
    std::unique_ptr<OutputFolderLock>* lock) {
  const std::filesystem::path folder =
      std::filesystem::path(args.out) / "points";
  std::error_code error;
  // The folders this run makes, deepest first.
  std::vector<std::filesystem::path> made;
  for (std::filesystem::path f = std::filesystem::absolute(folder, error);
       !f.empty() && !std::filesystem::exists(f, error) && f != f.parent_path();
       f = f.parent_path()) {
    made.push_back(f);
  }
  CreateOutputDirectory(folder.string());
  std::vector<std::string> written;
  try {
    // No other gpushare-sim writes the folder until the tables are written.
    *lock = std::make_unique<OutputFolderLock>(args.out);
    if (std::vector<int64_t> now =
            PointsToRun(points, grid.points, args.out, digest);
        now != todo) {
      sweep = remake(now);
    }
    ProgressAggregate progress(static_cast<int>(
        std::min<int64_t>(sweep->runs(), std::numeric_limits<int>::max())));
    ProgressBar bar(&progress, ShouldShowProgress(args.quiet));
    sweep->Run(
        args.threads,
        [&](const SweepPointResult& r) {
          const std::string path = PointPath(args.out, r.point);
          WriteOutputFile(path, SweepPointJsonText(grid, digest, r));
          written.push_back(path);
        },
        [&progress]() -> std::unique_ptr<SimulationObserver> {
          return std::make_unique<ProgressObserver>(&progress);
        });
  } catch (...) {
    for (const std::string& path : written) {
      std::filesystem::remove(path, error);
    }
    for (const std::filesystem::path& f : made) {
      std::filesystem::remove(f, error);  // only while empty
    }
    try {
      throw;
    } catch (const InputError& e) {
      if (written.empty()) throw;
      throw InputError(
          e.file(), e.line(), e.column(),
          fmt::format("{} (the sweep stopped there: {} points had run; the "
                      "point files this run wrote are removed)",
                      e.message(), written.size()));
    }
  }
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
  const std::vector<int64_t> todo =
      PointsToRun(points, grid.points, args.out, digest);
  // The first point is read (checked) before anything is written; the
  // others as they run (decide/sweep.h).
  const auto make_sweep = [&](const std::vector<int64_t>& to_run) {
    return std::make_unique<const Sweep>(grid, scenario_text, scenario_file,
                                         to_run, catalog);
  };
  std::unique_ptr<OutputFolderLock> lock;
  const auto begin = std::chrono::steady_clock::now();
  RunAndWritePoints(grid, digest, args, points, todo, make_sweep(todo),
                    make_sweep, &lock);
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
