// gpushare-sim demo: the seed document's toy comparison of time-slicing, MIG
// and vGPU (gpushare/demo/seed_demo.h), printed exactly as the Python original.

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>

#include "cli/command.h"
#include "gpushare/io/input_error.h"
#include "gpushare/demo/seed_demo.h"

namespace gpushare::cli {
namespace {

constexpr int kMaxTasks = 1000000;

struct DemoOptions {
  bool seed_compat = false;
  std::string lang = "zh";
  std::string seed = "42";
  std::string tasks = "24";
};

// Parses a decimal integer made only of an optional '-' and digits.
template <typename Int>
bool ParseInteger(const std::string& text, Int& value) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  const std::from_chars_result result = std::from_chars(begin, end, value);
  return !text.empty() && result.ec == std::errc() && result.ptr == end;
}

// --seed: Python's random.seed() uses the absolute value of an int seed, so
// accept -(2^64 - 1) .. 2^64 - 1 and keep the magnitude.
uint64_t ParseDemoSeed(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string digits = negative ? text.substr(1) : text;
  uint64_t magnitude = 0;
  if (digits.empty() || digits[0] == '-' || !ParseInteger(digits, magnitude)) {
    throw InputError(
        "--seed: expected an integer with absolute value below "
        "2^64, got '" +
        text + "'");
  }
  return magnitude;
}

int ParseTaskCount(const std::string& text) {
  int64_t count = 0;
  if (!ParseInteger(text, count) || count < 1 || count > kMaxTasks) {
    throw InputError("--tasks: expected an integer from 1 to " +
                     std::to_string(kMaxTasks) + ", got '" + text + "'");
  }
  return static_cast<int>(count);
}

void RunDemo(const DemoOptions& demo) {
  const int task_count = ParseTaskCount(demo.tasks);
  const uint64_t seed = ParseDemoSeed(demo.seed);
  const Lang lang = demo.lang == "en" ? Lang::kEn : Lang::kZh;
  const std::string text =
      FormatSeedDemo(GenerateSeedTasks(task_count, seed), lang);
  std::cout << text << std::flush;
}

}  // namespace

void RegisterDemoCommand(CLI::App& app, GlobalOptions& /*options*/) {
  auto demo = std::make_shared<DemoOptions>();
  CLI::App* command = app.add_subcommand(
      "demo",
      "Run the seed document's toy comparison of time-slicing, MIG and vGPU "
      "on randomly generated jobs, printing exactly what its Python demo "
      "prints. Without flags it does the same as 'demo --seed-compat' "
      "('make demo' runs compare instead).");
  command->add_flag("--seed-compat", demo->seed_compat,
                    "Reproduce the seed document's Python demo byte for "
                    "byte (also the default)");
  command
      ->add_option("--lang", demo->lang,
                   "Label language: zh (the seed document's, default) "
                   "or en")
      ->check(CLI::IsMember({"zh", "en"}));
  command
      ->add_option("--seed", demo->seed,
                   "Seed of Python's random.seed() for the generated jobs "
                   "(default 42; negative seeds act like their absolute "
                   "value, as in Python)")
      ->type_name("INT");
  command
      ->add_option("--tasks", demo->tasks,
                   "Number of generated jobs, 1 to 1000000 (default 24)")
      ->type_name("INT");
  command->callback([demo] { RunDemo(*demo); });
}

}  // namespace gpushare::cli
