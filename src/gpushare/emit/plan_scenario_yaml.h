// The scenario file of a plan: what `plan --out DIR` writes as
// `scenario.yaml`, so that `gpushare-sim run` replays the chosen plan.
//
// Contract: PlanScenarioYaml() rewrites the scenario YAML `text` (read from
// `file`) with `plan`'s pools: each pool's `nodes`, its `sharing` section
// (docs/scenario.md, written from the SharingConfig with every setting the
// reader would otherwise default) and `licence_per_gpu_hour` — in its entry
// of `cluster.pools` for a written pool, and for an imported one (members
// given) in `cluster.import.pools` (docs/scenario.md "cluster.import"), an
// entry per imported pool, replacing any there (the CPU-only ones without
// `sharing`); the import's other keys are kept, so reading the result
// imports the same nodes into the same pools and then resizes them; workload
// classes lose `requests:` the plan dropped (their pods are translated from
// their needs, as the planner ran them); a `queues` section is written
// whole from `plan`'s Kueue objects (quotas converted to the plan's
// schemes, imports written out); every input path the scenario gives
// relative to its own folder (`workload.trace.file` and `metrics`,
// `cluster.import.file`, any `queues.import` or `kai_queues.import` left)
// is rewritten relative to `folder`, where the result is written
// (PathForFolder), so that the result reads the same files wherever it is
// read from, and still does when `folder` is moved together with those
// files (a repository cloned elsewhere); an absolute path stays as
// written. Every other section
// (including `plan:`) is kept; comments are not. Reading the result back
// gives `plan`'s pools exactly. `header` becomes comment lines (each line
// through emit/quoting.h CommentText). Strings read back as strings: one
// quoted in the source, or a name written from the plan, that YAML would
// read as a boolean, null or number when plain stays double-quoted (yaml-cpp
// alone would write the string "true" plain), and characters YAML 1.1
// readers take as line breaks are escaped. Throws InputError when `text` is
// not a scenario whose pools are `plan`'s (no `cluster.pools` list and no
// `cluster.import`, a written pool the plan lacks, a plan pool neither
// written nor imported).

#ifndef GPUSHARE_EMIT_PLAN_SCENARIO_YAML_H_
#define GPUSHARE_EMIT_PLAN_SCENARIO_YAML_H_

#include <string>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

// `folder` "": the paths become absolute instead.
std::string PlanScenarioYaml(const std::string& text, const std::string& file,
                             const Scenario& plan, const std::string& header,
                             const std::string& folder = "");

// `path`, written relative to `dir` ("": the working directory) or
// absolute, as a path relative to `folder` ("": absolute) that names the
// same file: absolute paths are kept; the others are made absolute from the
// working directory, lexically normalised and made relative to `folder`
// (absolute when no relative path exists). Symbolic links are not followed.
std::string PathForFolder(const std::string& path, const std::string& dir,
                          const std::string& folder);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_PLAN_SCENARIO_YAML_H_
