// The compiled form of a CEL selector: a typed tree in one array.
//
// Contract: built only by ParseCelSelector (cel_parser.h), which has checked
// every static type, so evaluation (cel_selector.cc) meets only the runtime
// cases the subset documents. Node 0.. are in any order; `root` is the
// whole expression; children are indexes into `nodes`. Strings (literals,
// attribute domains and names) live in the nodes, so evaluating never
// allocates.

#ifndef GPUSHARE_CLUSTER_DRA_CEL_AST_H_
#define GPUSHARE_CLUSTER_DRA_CEL_AST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/cluster/dra/semver.h"

namespace gpushare {

enum class CelOp {
  kBool,           // literal: bool_value
  kInt,            // literal: int_value
  kString,         // literal: text
  kQuantity,       // quantity("40Gi"), parsed: int_value
  kSemver,         // semver("1.2.3"), parsed: semver
  kList,           // [a, b, ...]: items
  kDriver,         // device.driver
  kAllowMultiple,  // device.allowMultipleAllocations (KEP-5075)
  kAttribute,      // device.attributes[domain].text
  kCapacity,       // device.capacity[domain].text
  kAttributeMap,   // device.attributes[domain] (only as `in`'s right side)
  kCapacityMap,    // device.capacity[domain] (only as `in`'s right side)
  kHasAttribute,   // "text" in device.attributes[domain]
  kHasCapacity,    // "text" in device.capacity[domain]
  kNot,            // !lhs
  kAnd,            // lhs && rhs
  kOr,             // lhs || rhs
  kEq,             // lhs == rhs
  kNe,             // lhs != rhs
  kLt,             // lhs < rhs
  kLe,             // lhs <= rhs
  kGt,             // lhs > rhs
  kGe,             // lhs >= rhs
  kInList,         // lhs in rhs (a kList)
  kCompareTo,      // lhs.compareTo(rhs): -1, 0 or 1
  kIsGreaterThan,  // lhs.isGreaterThan(rhs)
  kIsLessThan,     // lhs.isLessThan(rhs)
};

// A static type; kDyn is an attribute, whose type only the device knows.
enum class CelType {
  kBool,
  kInt,
  kString,
  kQuantity,
  kSemver,
  kList,
  kMap,
  kDyn
};

const char* CelTypeName(CelType type);

struct CelNode {
  CelOp op = CelOp::kBool;
  CelType type = CelType::kBool;
  int column = 0;  // 1-based, of the operator or the first character
  int lhs = -1;
  int rhs = -1;
  bool bool_value = false;
  int64_t int_value = 0;
  Semver semver;
  std::string text;        // string literal; attribute or capacity name
  std::string domain;      // attribute or capacity domain
  std::vector<int> items;  // kList
};

struct CelAst {
  std::vector<CelNode> nodes;
  int root = -1;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_CEL_AST_H_
