// Kubernetes resource quantities (k8s.io/apimachinery resource.Quantity).
//
// Contract: ParseQuantity() accepts exactly the canonical grammar
//   quantity  ::= signedNumber suffix
//   suffix    ::= binarySI | decimalExponent | decimalSI
//   binarySI  ::= Ki | Mi | Gi | Ti | Pi | Ei              (2^10 .. 2^60)
//   decimalSI ::= n | u | m | "" | k | M | G | T | P | E   (10^-9 .. 10^18)
//   decimalExponent ::= (e | E) signedInteger              (1e3, 5E-1)
//   signedNumber ::= [+|-] (digits | digits. | digits.digits | .digits)
// and keeps the value exactly (a decimal mantissa of up to 36 significant
// digits times a power of ten and a power of two). Conversions round up, as
// Quantity.Value() and MilliValue() do: 0.5 of a unit is 1, 1Ki bytes is 1
// MiB. Values beyond int64 in the unit asked are an error, never a wrap.

#ifndef GPUSHARE_CLUSTER_QUANTITY_H_
#define GPUSHARE_CLUSTER_QUANTITY_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace gpushare {

// A 128-bit integer (GCC and Clang; __extension__ keeps -Wpedantic quiet).
__extension__ typedef __int128 QuantityInt;

class Quantity {
 public:
  // Parses `text`; false (and `error` says why) when it is not a quantity.
  static bool Parse(std::string_view text, Quantity* quantity,
                    std::string* error);

  bool negative() const { return negative_; }
  bool zero() const { return mantissa_ == 0; }

  // ceil(value / (10^unit_exp10 x 2^unit_exp2)) into `out`; false when it
  // does not fit an int64. `exact` (if set): whether no rounding happened.
  bool CeilIn(int unit_exp10, int unit_exp2, int64_t* out,
              bool* exact = nullptr) const;

  // The value in whole units (cpu cores, bytes, devices), rounded up.
  bool Value(int64_t* out) const { return CeilIn(0, 0, out); }
  // The value in thousandths (millicores), rounded up.
  bool MilliValue(int64_t* out) const { return CeilIn(-3, 0, out); }
  // A byte quantity in MiB, rounded up.
  bool Mebibytes(int64_t* out) const { return CeilIn(0, 20, out); }

 private:
  bool negative_ = false;
  QuantityInt mantissa_ = 0;  // >= 0
  int exp10_ = 0;
  int exp2_ = 0;
};

// `q` in the simulator's unit of `resource` (cpu: millicores, memory: MiB,
// anything else: whole units), rounded up; false when it does not fit.
bool QuantityInUnitsOf(const Quantity& q, std::string_view resource,
                       int64_t* out);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_QUANTITY_H_
