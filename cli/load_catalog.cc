// LoadCatalog: the built-in catalog with the user's --catalog file applied.

#include "cli/command.h"

namespace gpushare::cli {

Catalog LoadCatalog(const GlobalOptions& options) {
  Catalog catalog = Catalog::Builtin();
  if (!options.catalog_file.empty()) catalog.MergeFile(options.catalog_file);
  return catalog;
}

}  // namespace gpushare::cli
