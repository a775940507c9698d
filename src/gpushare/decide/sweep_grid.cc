#include "gpushare/decide/sweep_grid.h"

#include <fmt/format.h>

#include <cstdlib>

#include "gpushare/base/fnv1a.h"
#include "gpushare/io/input_error.h"

namespace gpushare {

const char* SweepCommandName(SweepCommand command) {
  return command == SweepCommand::kCompare ? "compare" : "run";
}

std::vector<const SweepKey*> SweepGrid::VariedKeys() const {
  std::vector<const SweepKey*> keys;
  for (const SweepKey& k : cross) keys.push_back(&k);
  for (const SweepKey& k : zip) keys.push_back(&k);
  return keys;
}

std::vector<int> SweepGrid::ValueIndexes(int64_t point) const {
  const size_t axes = cross.size() + (zip.empty() ? 0 : 1);
  std::vector<int> axis_index(axes);
  int64_t rest = point;
  for (size_t a = axes; a-- > 0;) {
    const int64_t size = a < cross.size()
                             ? static_cast<int64_t>(cross[a].values.size())
                             : static_cast<int64_t>(zip.front().values.size());
    axis_index[a] = static_cast<int>(rest % size);
    rest /= size;
  }
  std::vector<int> indexes(
      axis_index.begin(), axis_index.begin() + static_cast<long>(cross.size()));
  for (size_t k = 0; k < zip.size(); ++k) indexes.push_back(axis_index.back());
  return indexes;
}

std::vector<std::string> SweepGrid::ValueTexts(int64_t point) const {
  const std::vector<const SweepKey*> keys = VariedKeys();
  const std::vector<int> indexes = ValueIndexes(point);
  std::vector<std::string> texts;
  for (size_t k = 0; k < keys.size(); ++k) {
    texts.push_back(keys[k]->values[indexes[k]]);
  }
  return texts;
}

std::string SweepDigest(const SweepGrid& grid,
                        const std::string& scenario_text) {
  // Each piece is prefixed by its length so that no two grids hash the
  // same text.
  uint64_t h = kFnv1aBasis;
  const auto add = [&h](const std::string& piece) {
    h = Fnv1a(fmt::format("{}:", piece.size()), h);
    h = Fnv1a(piece, h);
  };
  add("gpushare-sim/sweep/v1");
  add(SweepCommandName(grid.command));
  add(scenario_text);
  for (const std::vector<SweepKey>* section :
       {&grid.set, &grid.cross, &grid.zip}) {
    for (const SweepKey& k : *section) {
      add(k.section);
      add(k.key.text);
      add(std::to_string(k.values.size()));
      for (const std::string& v : k.values) add(v);
    }
  }
  return fmt::format("{:016x}", h);
}

std::vector<int64_t> ShardPoints(int64_t points, int shard, int shards) {
  std::vector<int64_t> out;
  for (int64_t p = shard; p < points; p += shards) out.push_back(p);
  return out;
}

void ParseShard(const std::string& text, const std::string& flag, int* shard,
                int* shards) {
  const auto bad = [&] {
    return InputError(fmt::format(
        "{} '{}': expected I/N with 0 <= I < N <= 100000 (shard I of N, "
        "counted from 0 as a Job's completion index)",
        flag, text));
  };
  const size_t slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) {
    throw bad();
  }
  const std::string a = text.substr(0, slash);
  const std::string b = text.substr(slash + 1);
  for (const std::string* s : {&a, &b}) {
    if (s->size() > 6) throw bad();
    for (const char c : *s) {
      if (c < '0' || c > '9') throw bad();
    }
  }
  *shard = std::atoi(a.c_str());
  *shards = std::atoi(b.c_str());
  if (*shards < 1 || *shards > 100000 || *shard >= *shards) throw bad();
}

}  // namespace gpushare
