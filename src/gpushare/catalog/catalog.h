// Catalog: the GPU models gpushare-sim knows, by name or alias.
//
// Contract: Builtin() parses the catalog embedded at build time
// (catalog/gpus.yaml). MergeFile() applies a user's file of the same format
// (docs/catalog.md): an entry whose name matches an existing model's name or
// alias (case-insensitively) overrides only the fields it gives (a `mig`
// section replaces the whole geometry); any other entry adds a model and must
// give every required field. Every model is validated on load; a bad file is
// an InputError at file:line:col and leaves the catalog unchanged. Lookups are
// case-insensitive over names and aliases.

#ifndef GPUSHARE_CATALOG_CATALOG_H_
#define GPUSHARE_CATALOG_CATALOG_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpushare/catalog/gpu_model.h"

namespace gpushare {

class Catalog {
 public:
  // The name the built-in catalog has in error messages.
  static constexpr const char* kBuiltinFile = "catalog/gpus.yaml (built-in)";

  // The embedded catalog. Aborts if it does not parse (a build defect).
  static Catalog Builtin();

  // An empty catalog (for tests and tools that build one from text).
  Catalog() = default;

  // Adds or overrides models from YAML `text`; `file` names it in errors.
  void MergeYaml(const std::string& text, const std::string& file);
  // Same, reading `path`.
  void MergeFile(const std::string& path);

  const std::vector<GpuModel>& models() const { return models_; }

  // The model whose name or alias equals `name` case-insensitively, or null.
  const GpuModel* Find(std::string_view name) const;
  // Like Find, but throws InputError naming the closest known models.
  const GpuModel& Get(std::string_view name) const;

  // Every name and alias, for suggestions.
  std::vector<std::string> AllNames() const;

 private:
  int IndexOf(std::string_view name) const;

  std::vector<GpuModel> models_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CATALOG_CATALOG_H_
