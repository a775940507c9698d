// Quantities of device capacity, as resource.k8s.io writes them ("40Gi").
//
// Contract: a Kubernetes resource.Quantity restricted to whole numbers of
// units (bytes, engines, multiprocessors), held as int64. ParseQuantity
// accepts a non-negative decimal number with an optional fraction and an
// optional suffix: binary Ki Mi Gi Ti Pi Ei (powers of 1024) or decimal
// k M G T P E (powers of 1000), as apimachinery's resource.Quantity reads
// them (kubernetes/apimachinery pkg/api/resource/quantity.go). It refuses,
// with a message saying why: an empty string, a sign, an exponent ("1e3"),
// the milli suffix "m", any other suffix, a value that is not a whole
// number ("1.5" or "0.1Ki"), and a value over int64. FormatQuantity writes
// the shortest exact form with a binary suffix ("80Gi", "9856Mi", "14").

#ifndef GPUSHARE_CLUSTER_DRA_QUANTITY_H_
#define GPUSHARE_CLUSTER_DRA_QUANTITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpushare {

// The value of `text`, or nullopt with the reason in `*why_not` (if set),
// such as "'80Gb' has an unknown suffix 'Gb' (expected Ki Mi Gi Ti Pi Ei
// or k M G T P E)".
std::optional<int64_t> ParseQuantity(std::string_view text,
                                     std::string* why_not);

// `value` as a quantity: the largest binary suffix that divides it exactly,
// or plain digits ("0", "14", "80Gi", "9856Mi"). `value` must be >= 0.
std::string FormatQuantity(int64_t value);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_QUANTITY_H_
