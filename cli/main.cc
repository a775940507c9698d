// gpushare-sim: simulator and planner for sharing GPUs in Kubernetes.
// Entry point: parses the command line, dispatches to a subcommand and turns
// input errors into "error: ..." on stderr with exit status 2 (and any
// other exception, a bug, into "error: internal error: ..." with 70). A
// failed write of standard output (a full disk) is an error with status 2.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include <CLI/CLI.hpp>

#include "cli/command.h"
#include "gpushare/io/input_error.h"

int main(int argc, char** argv) {
  CLI::App app{
      "gpushare-sim: simulate and plan GPU sharing (time-slicing, MPS, MIG, "
      "vGPU) on Kubernetes",
      "gpushare-sim"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "gpushare-sim 0.1.0");
  gpushare::cli::GlobalOptions options;
  app.add_option("--catalog", options.catalog_file,
                 "YAML file of GPU models to add to or override in the "
                 "built-in catalog (format: docs/catalog.md)")
      ->check(CLI::ExistingFile);
  gpushare::cli::RegisterCatalogCommand(app, options);
  gpushare::cli::RegisterMigCommand(app, options);
  gpushare::cli::RegisterDemoCommand(app, options);
  gpushare::cli::RegisterRunCommand(app, options);
  gpushare::cli::RegisterCompareCommand(app, options);
  gpushare::cli::RegisterPlanCommand(app, options);
  gpushare::cli::RegisterExperimentCommand(app, options);
  gpushare::cli::RegisterSweepCommand(app, options);
  gpushare::cli::RegisterMergeCommand(app, options);
  gpushare::cli::RegisterEmitCommand(app, options);
  gpushare::cli::RegisterCalibrateCommand(app, options);
  gpushare::cli::CheckOutputFlags(&app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cout.flush();
    std::cerr << "error: " << e.what() << "\n"
              << "Run 'gpushare-sim --help' for usage.\n";
    return 2;
  } catch (const gpushare::InputError& e) {
    std::cout.flush();
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << "error: out of memory (the input asks for more than this "
                 "machine has)\n";
    return 2;
  } catch (const std::exception& e) {
    // Not an input error: a bug. Say so rather than abort.
    std::cout.flush();
    std::cerr << "error: internal error: " << e.what()
              << "\nThis is a bug in gpushare-sim; please report it with "
                 "the input that caused it.\n";
    return 70;  // EX_SOFTWARE
  }
  // What went to standard output must have arrived: a full disk or a
  // closed pipe is an error, not a silent success.
  std::cout.flush();
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    const int error = errno;
    std::cerr << "error: cannot write standard output"
              << (error != 0 ? ": " + std::string(std::strerror(error)) : "")
              << "\n";
    return 2;
  }
  return options.exit_code;
}
