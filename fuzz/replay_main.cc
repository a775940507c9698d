// gs_fuzz_replay: runs fuzz targets on saved inputs, without libFuzzer.
//
//   gs_fuzz_replay TARGET PATH...   each file (or every file of a directory)
//   gs_fuzz_replay --list           the targets' names
//
// Exit 0 when every input ends normally or in an InputError (it says how
// many were rejected so); 1 (naming the
// input) when one throws anything else. A crash ends the process, as it
// should: ctest then reports the test failed.

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/fuzz_target.h"

namespace {

std::string ReadAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<gpushare::fuzz::FuzzTarget> targets =
      gpushare::fuzz::FuzzTargets();
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const auto& t : targets) std::printf("%s\n", t.name.c_str());
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: gs_fuzz_replay TARGET PATH... | --list\n");
    return 2;
  }
  const auto target =
      std::find_if(targets.begin(), targets.end(),
                   [&](const auto& t) { return t.name == argv[1]; });
  if (target == targets.end()) {
    std::fprintf(stderr, "gs_fuzz_replay: no target '%s'\n", argv[1]);
    return 2;
  }
  std::vector<std::filesystem::path> inputs;
  for (int i = 2; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path)) {
        if (entry.is_regular_file()) inputs.push_back(entry.path());
      }
    } else if (std::filesystem::is_regular_file(path)) {
      inputs.push_back(path);
    } else {
      std::fprintf(stderr, "gs_fuzz_replay: no file '%s'\n", argv[i]);
      return 2;
    }
  }
  std::sort(inputs.begin(), inputs.end());
  size_t rejected = 0;
  for (const auto& path : inputs) {
    try {
      rejected += !gpushare::fuzz::RunFuzzTarget(*target, ReadAll(path));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s: uncaught exception: %s\n",
                   target->name.c_str(), path.c_str(), e.what());
      return 1;
    }
  }
  std::printf("%s: %zu inputs replayed, %zu rejected as bad input\n",
              target->name.c_str(), inputs.size(), rejected);
  return 0;
}
