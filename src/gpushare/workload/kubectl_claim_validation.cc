#include "gpushare/workload/kubectl_claim_validation.h"

#include <fmt/format.h>

#include <array>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gpushare/cluster/dra/resource_claim.h"
#include "gpushare/io/quote.h"

namespace gpushare {
namespace {

// The limits (kubernetes/api resource/v1 types.go).
constexpr size_t kMaxSelectors = 32;  // DeviceSelectorsMaxSize

const std::array<JsonArrayLimit, 8>& Limits() {
  static const std::array<JsonArrayLimit, 8> limits = {{
      {{"spec", "devices", "requests"},
       kMaxDeviceRequests,
       "requests (the API's DeviceRequestsMaxSize)"},
      {{"devices", "requests", "[]", "firstAvailable"},
       kMaxFirstAvailable,
       "subrequests (the API's FirstAvailableDeviceRequestMaxSize)"},
      {{"exactly", "selectors"},
       kMaxSelectors,
       "selectors (the API's DeviceSelectorsMaxSize)"},
      {{"firstAvailable", "[]", "selectors"},
       kMaxSelectors,
       "selectors (the API's DeviceSelectorsMaxSize)"},
      {{"spec", "selectors"},
       kMaxSelectors,
       "selectors (the API's DeviceSelectorsMaxSize)"},
      {{"spec", "devices", "constraints"},
       kMaxDeviceConstraints,
       "constraints (the API's DeviceConstraintsMaxSize)"},
      {{"devices", "constraints", "[]", "requests"},
       kMaxDeviceRequests,
       "requests (the API's DeviceRequestsMaxSize)"},
      {{"allocation", "devices", "results"},
       kMaxAllocationResults,
       "allocated devices (the API's AllocationResultsMaxSize)"},
  }};
  return limits;
}

// Fails at `list` when it holds more than `max` elements (the syntax pass
// refuses these first; this keeps the rule where the value is read).
void CheckSize(const JsonValue& list, size_t max, const char* what) {
  if (list.Size() > max) {
    list.Fail(fmt::format("{} {}; at most {} (the API's limit)", list.Size(),
                          what, max));
  }
}

void CheckDnsLabel(const JsonValue& name_at, const char* what) {
  const std::string name = name_at.String();
  if (name.empty()) name_at.Fail(fmt::format("{} is required", what));
  if (!IsDraDnsLabel(name)) {
    name_at.Fail(fmt::format(
        "{} {} is not a DNS label (lowercase letters, digits and '-', "
        "starting and ending with a letter or digit, at most 63)",
        what, QuoteValue(name)));
  }
}

bool IsQualifiedDomain(const std::string& domain) {
  if (domain.empty() || domain.size() > 63) return false;
  size_t label = 0;
  for (size_t i = 0; i <= domain.size(); ++i) {
    if (i == domain.size() || domain[i] == '.') {
      if (!IsDraDnsLabel(domain.substr(label, i - label))) return false;
      label = i + 1;
    }
  }
  return true;
}

bool IsCIdentifier(const std::string& name) {
  if (name.empty() || name.size() > 32) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

// `exactly` or a subrequest.
void ValidateSelection(const JsonValue& s) {
  if (!s.IsObject()) s.Fail("expected an object");
  if (s.Get("deviceClassName").String().empty()) {
    s.Get("deviceClassName").Fail("a deviceClassName is required");
  }
  CheckSize(s.Get("selectors"), kMaxSelectors, "selectors");
  const JsonValue mode_at = s.Get("allocationMode");
  const std::string mode = mode_at.String("ExactCount");
  const JsonValue count = s.Get("count");
  if (mode == "ExactCount") {
    if (!count.Missing()) {
      count.Int(1, static_cast<int64_t>(kMaxAllocationResults));
    }
  } else if (mode == "All") {
    if (!count.Missing()) {
      count.Fail("must not be set when allocationMode is 'All'");
    }
  } else {
    mode_at.Fail("expected ExactCount or All, got " + QuoteValue(mode));
  }
}

// Request name -> its subrequest names (empty for `exactly`).
using RequestNames = std::map<std::string, std::set<std::string>>;

bool NamesRequest(const RequestNames& names, const std::string& ref) {
  const size_t slash = ref.find('/');
  auto it = names.find(ref.substr(0, slash));
  if (it == names.end()) return false;
  if (slash == std::string::npos) return true;
  return it->second.count(ref.substr(slash + 1)) > 0;
}

RequestNames GatherRequestNames(const JsonValue& spec) {
  RequestNames names;
  for (const JsonValue& r : spec.Get("devices").Get("requests").Items()) {
    std::set<std::string>& subs = names[r.Get("name").String()];
    for (const JsonValue& s : r.Get("firstAvailable").Items()) {
      subs.insert(s.Get("name").String());
    }
  }
  return names;
}

void ValidateQualifiedName(const JsonValue& at) {
  const std::string name = at.String();
  const size_t slash = name.find('/');
  if (slash == std::string::npos ||
      !IsQualifiedDomain(name.substr(0, slash)) ||
      !IsCIdentifier(name.substr(slash + 1))) {
    at.Fail(QuoteValue(name) +
            " is not a fully qualified attribute name (DOMAIN/NAME: a DNS "
            "subdomain of at most 63, '/', a C identifier of at most 32; "
            "e.g. gpu.nvidia.com/productName)");
  }
}

}  // namespace

std::span<const JsonArrayLimit> KubectlDraArrayLimits() { return Limits(); }

void ValidateKubectlClaimSpec(const JsonValue& spec) {
  const JsonValue devices = spec.Get("devices");
  const JsonValue requests = devices.Get("requests");
  CheckSize(requests, kMaxDeviceRequests, "requests");
  std::set<std::string> request_names;
  for (const JsonValue& r : requests.Items()) {
    if (!r.IsObject()) r.Fail("expected a request object");
    CheckDnsLabel(r.Get("name"), "a request name");
    if (!request_names.insert(r.Get("name").String()).second) {
      r.Get("name").Fail("request name " + QuoteValue(r.Get("name").String()) +
                         " is used twice in the claim");
    }
    const JsonValue exactly = r.Get("exactly");
    const JsonValue first = r.Get("firstAvailable");
    if (exactly.Missing() == first.Missing()) {
      r.Fail(
          "a request needs exactly one of `exactly` and `firstAvailable` "
          "(resource.k8s.io/v1)");
    }
    if (!exactly.Missing()) {
      ValidateSelection(exactly);
      continue;
    }
    CheckSize(first, kMaxFirstAvailable, "subrequests");
    if (first.Size() == 0) first.Fail("firstAvailable needs a subrequest");
    std::set<std::string> sub_names;
    for (const JsonValue& s : first.Items()) {
      CheckDnsLabel(s.Get("name"), "a subrequest name");
      if (!sub_names.insert(s.Get("name").String()).second) {
        s.Get("name").Fail("subrequest name " +
                           QuoteValue(s.Get("name").String()) +
                           " is used twice in the request");
      }
      ValidateSelection(s);
    }
  }
  const JsonValue constraints = devices.Get("constraints");
  CheckSize(constraints, kMaxDeviceConstraints, "constraints");
  const RequestNames names = GatherRequestNames(spec);
  for (const JsonValue& c : constraints.Items()) {
    const JsonValue attribute = c.Get("matchAttribute");
    if (attribute.Missing()) {
      const JsonValue distinct = c.Get("distinctAttribute");
      if (distinct.Missing()) {
        c.Fail("a constraint needs a matchAttribute");
      }
      ValidateQualifiedName(distinct);
    } else {
      ValidateQualifiedName(attribute);
    }
    CheckSize(c.Get("requests"), kMaxDeviceRequests, "requests");
    std::set<std::string> seen;
    for (const JsonValue& ref : c.Get("requests").Items()) {
      const std::string name = ref.String();
      if (!NamesRequest(names, name)) {
        ref.Fail(QuoteValue(name) +
                 " must be the name of a request in the claim or the name "
                 "of a request and a subrequest separated by '/'");
      }
      if (!seen.insert(name).second) {
        ref.Fail(QuoteValue(name) + " is named twice");
      }
    }
  }
}

void ValidateKubectlAllocation(const JsonValue& allocation,
                               const JsonValue& spec) {
  const JsonValue results = allocation.Get("devices").Get("results");
  CheckSize(results, kMaxAllocationResults, "allocated devices");
  const RequestNames names = GatherRequestNames(spec);
  std::set<std::tuple<std::string, std::string, std::string, std::string>>
      devices;
  for (const JsonValue& r : results.Items()) {
    if (!r.IsObject()) r.Fail("expected an allocation result object");
    const std::string request = r.Get("request").String();
    if (!NamesRequest(names, request)) {
      r.Get("request").Fail(
          QuoteValue(request) +
          " must be the name of a request in the claim or the name of a "
          "request and a subrequest separated by '/'");
    }
    for (const char* field : {"driver", "pool", "device"}) {
      if (r.Get(field).String().empty()) {
        r.Get(field).Fail(fmt::format("an allocation result needs a {}",
                                      field));
      }
    }
    const std::string device = r.Get("device").String();
    if (!devices
             .emplace(r.Get("driver").String(), r.Get("pool").String(), device,
                      r.Get("shareID").String())
             .second) {
      r.Get("device").Fail(
          "device " + QuoteValue(device) +
          " is allocated twice to the claim; the allocator gives a device "
          "(with its shareID) at most once");
    }
  }
}

void ValidateKubectlPodClaims(const JsonValue& spec) {
  std::set<std::string> entries;
  for (const JsonValue& e : spec.Get("resourceClaims").Items()) {
    CheckDnsLabel(e.Get("name"), "a pod's resource claim name");
    if (!entries.insert(e.Get("name").String()).second) {
      e.Get("name").Fail("resource claim " +
                         QuoteValue(e.Get("name").String()) +
                         " is listed twice in spec.resourceClaims (Duplicate "
                         "value)");
    }
  }
  for (const char* list : {"initContainers", "containers"}) {
    for (const JsonValue& c : spec.Get(list).Items()) {
      std::set<std::string> used;
      for (const JsonValue& claim :
           c.Get("resources").Get("claims").Items()) {
        const JsonValue name_at = claim.Get("name");
        const std::string name = name_at.String();
        if (name.empty()) name_at.Fail("a claim name is required");
        if (!used.insert(name).second) {
          name_at.Fail("claim " + QuoteValue(name) +
                       " is listed twice in the container's resources.claims "
                       "(Duplicate value)");
        }
        if (entries.count(name) == 0) {
          name_at.Fail("claim " + QuoteValue(name) +
                       " must be one of the names in pod.spec.resourceClaims");
        }
      }
    }
  }
}

}  // namespace gpushare
