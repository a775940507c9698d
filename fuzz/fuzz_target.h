// Fuzz targets: each reader of user input, fed arbitrary bytes.
//
// Contract: a target takes the bytes as the whole content of the file (or
// string) its reader reads. An InputError is the correct answer to bad
// bytes; any other exception, a crash, a hang or a sanitizer report is a
// finding. Targets register themselves by name (GS_FUZZ_TARGET); the same
// target files build two ways:
//   - with libFuzzer (cmake -DGS_FUZZ=ON, clang): one binary per target,
//     fuzz_<name>, whose LLVMFuzzerTestOneInput runs the one target linked;
//   - in the normal build: gs_fuzz_replay, all targets in one binary, which
//     replays the regression inputs in tests/data/fuzz-regressions/<name>/
//     (a ctest per target).

#ifndef GPUSHARE_FUZZ_FUZZ_TARGET_H_
#define GPUSHARE_FUZZ_FUZZ_TARGET_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpushare::fuzz {

using FuzzFunction = void (*)(const std::string& data);

struct FuzzTarget {
  std::string name;
  FuzzFunction run;
};

// Adds a target; returns true (for static registration).
bool RegisterFuzzTarget(std::string name, FuzzFunction run);
// The registered targets, sorted by name.
std::vector<FuzzTarget> FuzzTargets();

// Runs `target` on `data`: true when the reader accepted it, false on an
// InputError (swallowed). Anything else propagates.
bool RunFuzzTarget(const FuzzTarget& target, const std::string& data);

// A file under the process's temporary directory holding `data`, for the
// readers that take a path; rewritten on every call with the same `name`.
std::string WriteFuzzFile(const std::string& name, const std::string& data);

// Splits `data` at each "\n%%\n" into exactly `parts` pieces (missing ones
// are empty), for targets that read several files.
std::vector<std::string> SplitFuzzInput(const std::string& data, size_t parts);

}  // namespace gpushare::fuzz

#define GS_FUZZ_CONCAT_INNER(a, b) a##b
#define GS_FUZZ_CONCAT(a, b) GS_FUZZ_CONCAT_INNER(a, b)

// Defines and registers a target:
//   GS_FUZZ_TARGET(quantity) { ... use `data` ... }
#define GS_FUZZ_TARGET(name)                                        \
  static void GS_FUZZ_CONCAT(FuzzTarget_, name)(const std::string&); \
  [[maybe_unused]] static const bool GS_FUZZ_CONCAT(registered_, name) = \
      ::gpushare::fuzz::RegisterFuzzTarget(                         \
          #name, &GS_FUZZ_CONCAT(FuzzTarget_, name));               \
  static void GS_FUZZ_CONCAT(FuzzTarget_, name)(const std::string& data)

#endif  // GPUSHARE_FUZZ_FUZZ_TARGET_H_
