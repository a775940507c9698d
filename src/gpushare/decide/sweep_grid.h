// SweepGrid: the points of a parameter sweep over one scenario
// (docs/sweep.md).
//
// Contract: a grid sets scenario values by dotted keys
// (scenario/scenario_overrides.h). `set` keys have one value at every point;
// each `cross` key is an axis of its own; the `zip` keys, whose lists have
// one length, vary together as one more axis. The points are every
// combination of the axes, numbered from 0 with the first axis varying
// slowest and the zip axis (last) fastest, so a point's number and values
// depend only on the grid. Shard i of n (0-based) holds the points p with
// p mod n == i. The digest identifies what a sweep computes: the command,
// the scenario's bytes and every key with its values; two runs with the
// same digest compute the same points.

#ifndef GPUSHARE_DECIDE_SWEEP_GRID_H_
#define GPUSHARE_DECIDE_SWEEP_GRID_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/scenario/scenario_overrides.h"

namespace gpushare {

enum class SweepCommand { kRun, kCompare };

const char* SweepCommandName(SweepCommand command);

// One key a grid sets, with its values.
struct SweepKey {
  ScenarioKey key;
  std::string section;  // "set", "cross" or "zip"
  int line = 0;         // of the key in the grid file (1-based)
  int column = 0;
  // Each value as outputs show it: the scalar as written, a list or
  // mapping in YAML flow style, a range's numbers in shortest form.
  std::vector<std::string> values;
  // Where each value is written in the grid (a range's values: the range).
  std::vector<std::pair<int, int>> value_marks;
  // Whether the values are the items of a list under the key (or, under
  // `set`, the value itself): they are then read from the grid's tree;
  // a range's values are read from their text.
  bool written = true;
};

struct SweepGrid {
  std::string file;      // the grid's path, for errors
  std::string text;      // its bytes (points read their values from them)
  std::string scenario;  // `scenario:` resolved against the grid's folder
  SweepCommand command = SweepCommand::kRun;
  std::vector<SweepKey> set;
  std::vector<SweepKey> cross;
  std::vector<SweepKey> zip;
  int64_t points = 0;

  // The keys that vary, in output column order: cross, then zip.
  std::vector<const SweepKey*> VariedKeys() const;
  // The index of each varied key's value at `point` (VariedKeys() order).
  std::vector<int> ValueIndexes(int64_t point) const;
  // The text of each varied key's value at `point`.
  std::vector<std::string> ValueTexts(int64_t point) const;
};

// The most points a grid may have, and values an axis may have.
inline constexpr int64_t kMaxSweepPoints = 1000000;
inline constexpr int64_t kMaxSweepAxisValues = 100000;
// The largest grid file, and the largest value in it (as outputs show it:
// a scalar's bytes, a list's or mapping's in YAML flow style). Each point's
// scenario holds its values, and its point file and table rows repeat the
// varied ones.
inline constexpr int64_t kMaxSweepGridBytes = 16 * 1024 * 1024;
inline constexpr int64_t kMaxSweepValueBytes = 1024 * 1024;
// The most keys a grid sets (set, cross and zip together).
inline constexpr int64_t kMaxSweepKeys = 1000;

// 16 hex digits identifying the sweep of `grid` over a scenario whose file
// has the bytes `scenario_text`.
std::string SweepDigest(const SweepGrid& grid,
                        const std::string& scenario_text);

// The points of shard `shard` of `shards` (0 <= shard < shards), ascending.
std::vector<int64_t> ShardPoints(int64_t points, int shard, int shards);

// Parses "I/N" (0 <= I < N <= 100000) into shard and shards; throws
// InputError naming `flag`.
void ParseShard(const std::string& text, const std::string& flag, int* shard,
                int* shards);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_SWEEP_GRID_H_
