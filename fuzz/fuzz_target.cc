#include "fuzz/fuzz_target.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "gpushare/io/input_error.h"

namespace gpushare::fuzz {
namespace {

std::vector<FuzzTarget>& Registry() {
  static std::vector<FuzzTarget> targets;
  return targets;
}

}  // namespace

bool RegisterFuzzTarget(std::string name, FuzzFunction run) {
  Registry().push_back({std::move(name), run});
  return true;
}

std::vector<FuzzTarget> FuzzTargets() {
  std::vector<FuzzTarget> targets = Registry();
  std::sort(targets.begin(), targets.end(),
            [](const FuzzTarget& a, const FuzzTarget& b) {
              return a.name < b.name;
            });
  return targets;
}

bool RunFuzzTarget(const FuzzTarget& target, const std::string& data) {
  try {
    target.run(data);
    return true;
  } catch (const InputError&) {
    return false;  // the expected answer to bad input
  }
}

std::string WriteFuzzFile(const std::string& name, const std::string& data) {
  static const std::filesystem::path dir = [] {
    std::filesystem::path d = std::filesystem::temp_directory_path() /
                              ("gs-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  const std::string path = (dir / name).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  return path;
}

std::vector<std::string> SplitFuzzInput(const std::string& data,
                                        size_t parts) {
  static constexpr std::string_view kSeparator = "\n%%\n";
  std::vector<std::string> out;
  size_t start = 0;
  while (out.size() + 1 < parts) {
    const size_t at = data.find(kSeparator, start);
    if (at == std::string::npos) break;
    out.push_back(data.substr(start, at - start));
    start = at + kSeparator.size();
  }
  out.push_back(data.substr(std::min(start, data.size())));
  out.resize(parts);
  return out;
}

}  // namespace gpushare::fuzz
