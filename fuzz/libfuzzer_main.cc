// The libFuzzer entry of a fuzz_<name> binary: exactly one target is linked
// in (fuzz_target.h), and every input goes to it.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const gpushare::fuzz::FuzzTarget target = [] {
    const auto targets = gpushare::fuzz::FuzzTargets();
    if (targets.size() != 1) std::abort();  // a build error, not a finding
    return targets.front();
  }();
  gpushare::fuzz::RunFuzzTarget(
      target, std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
