#include "gpushare/emit/prometheus_queries.h"

#include <fmt/format.h>

#include "gpushare/emit/prometheus_range.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// Fails unless `value` can go between single quotes in a shell (and, with
// `no_space`, stands alone as a word).
void PromQueryCheckWord(const std::string& flag, const std::string& value,
                        bool no_space) {
  if (value.empty()) {
    throw InputError(flag + ": expected a value, got nothing");
  }
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\'' || u < 0x20 || u == 0x7f || (no_space && c == ' ')) {
      throw InputError(fmt::format(
          "{} '{}': expected no single quote, space or control character",
          flag, value));
    }
  }
}

}  // namespace

std::string DcgmImportQuery(const std::string& selector) {
  std::string q =
      "{__name__=~\"DCGM_FI_PROF_GR_ENGINE_ACTIVE|DCGM_FI_PROF_SM_ACTIVE|"
      "DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED\"";
  if (!selector.empty()) q += "," + selector;
  return q + "}";
}

std::string PrometheusQueriesText(const PrometheusQueryOptions& o) {
  PromQueryCheckWord("--start", o.start, true);
  PromQueryCheckWord("--end", o.end, true);
  PromQueryCheckWord("--step", o.step, true);
  // What Prometheus and promtool would refuse, refused here.
  CheckPrometheusRange(o.start, o.end, o.step);
  PromQueryCheckWord("--url", o.url, true);
  // (Not an option to curl or promtool: an http or https address.)
  if (o.url.rfind("http://", 0) != 0 && o.url.rfind("https://", 0) != 0) {
    throw InputError("--url '" + o.url +
                     "': expected an http:// or https:// address");
  }
  PromQueryCheckWord("--file", o.file, true);
  if (!o.selector.empty()) PromQueryCheckWord("--selector", o.selector, false);
  const std::string query = DcgmImportQuery(o.selector);
  return fmt::format(
      "# dcgm-exporter's series for gpushare-sim (workload.trace.metrics, or\n"
      "# run --compare-metrics FILE): GR engine active, SM active, GPU util\n"
      "# and framebuffer used, per device and pod, every {step} from {start}\n"
      "# to {end}. Keep the step at the scrape interval, so every sample\n"
      "# comes back once (docs/scenario.md \"metrics\").\n"
      "query: '{query}'\n"
      "\n"
      "# The HTTP API (/api/v1/query_range), with curl:\n"
      "curl -fsG '{url}/api/v1/query_range' \\\n"
      "  --data-urlencode 'query={query}' \\\n"
      "  --data-urlencode 'start={start}' --data-urlencode 'end={end}' \\\n"
      "  --data-urlencode 'step={step}' > '{file}'\n"
      "\n"
      "# The same with promtool (Prometheus 2.x):\n"
      "promtool query range --start='{start}' --end='{end}' --step='{step}' "
      "-o json \\\n"
      "  '{url}' '{query}' > '{file}'\n",
      fmt::arg("query", query), fmt::arg("url", o.url),
      fmt::arg("start", o.start), fmt::arg("end", o.end),
      fmt::arg("step", o.step), fmt::arg("file", o.file));
}

}  // namespace gpushare
