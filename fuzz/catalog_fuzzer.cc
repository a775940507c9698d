// Fuzz target `catalog`: a --catalog override file merged into the built-in
// catalog, then every model's MIG layouts listed.

#include "fuzz/fuzz_target.h"
#include "gpushare/catalog/catalog.h"

GS_FUZZ_TARGET(catalog) {
  static const gpushare::Catalog builtin = gpushare::Catalog::Builtin();
  gpushare::Catalog catalog = builtin;
  catalog.MergeYaml(data, "catalog.yaml");
}
