// Quantities of device capacity, as resource.k8s.io writes them ("40Gi").
//
// Contract: a Kubernetes resource.Quantity (cluster/quantity.h, the full
// grammar of apimachinery's pkg/api/resource/quantity.go: "40Gi", "80G",
// "1e3", "+14") restricted to whole, non-negative numbers of units (bytes,
// engines, multiprocessors), held as int64. ParseQuantity refuses, with a
// message saying why, text that is not a quantity, a negative value, a
// value that is not a whole number ("1.5", "100m", "0.1Ki") and a value
// over int64. FormatQuantity writes the shortest exact form with a binary
// suffix ("80Gi", "9856Mi", "14").

#ifndef GPUSHARE_CLUSTER_DRA_QUANTITY_H_
#define GPUSHARE_CLUSTER_DRA_QUANTITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpushare {

// The value of `text`, or nullopt with the reason in `*why_not` (if set).
std::optional<int64_t> ParseQuantity(std::string_view text,
                                     std::string* why_not);

// `value` as a quantity: the largest binary suffix that divides it exactly,
// or plain digits ("0", "14", "80Gi", "9856Mi"). `value` must be >= 0.
std::string FormatQuantity(int64_t value);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_QUANTITY_H_
