#include "gpushare/catalog/catalog.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>


#include "gpushare/catalog/gpu_model_parser.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/io/yaml_input.h"

extern const char kBuiltinCatalogYaml[];
extern const unsigned long kBuiltinCatalogYaml_size;

namespace gpushare {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

bool ModelHasName(const GpuModel& model, std::string_view name) {
  if (EqualsIgnoreCase(model.name, name)) return true;
  for (const std::string& alias : model.aliases) {
    if (EqualsIgnoreCase(alias, name)) return true;
  }
  return false;
}

}  // namespace

Catalog Catalog::Builtin() {
  Catalog catalog;
  try {
    catalog.MergeYaml(std::string(kBuiltinCatalogYaml, kBuiltinCatalogYaml_size),
                      kBuiltinFile);
  } catch (const InputError& e) {
    std::fprintf(stderr, "internal error: built-in catalog: %s\n", e.what());
    std::abort();
  }
  return catalog;
}

void Catalog::MergeFile(const std::string& path) {
  MergeYaml(ReadInputFile(path), path);
}

void Catalog::MergeYaml(const std::string& text, const std::string& file) {
  YAML::Node root = ParseYaml(text, file);
  if (!root.IsDefined() || root.IsNull()) {
    throw InputError(file, 1, 1,
                     "empty catalog file (expected 'version: 1' and 'models:')");
  }
  YamlMap top(file, root, "catalog");
  top.AllowOnly({"version", "models"});
  top.Int("version", 1, 1);
  YAML::Node entries = top.Get("models");
  if (!entries.IsSequence()) {
    FailAt(file, entries, "catalog models: expected a list of models");
  }
  std::vector<GpuModel> models = models_;  // committed only if all is valid
  // Models this file has already given (a second entry would be ambiguous).
  std::vector<bool> touched(models.size(), false);
  for (const auto& node : entries) {
    YamlMap entry(file, node, "model");
    const std::string name = entry.String("name");
    YamlMap named(file, node, "model '" + name + "'");
    int index = -1;
    for (size_t i = 0; i < models.size(); ++i) {
      if (ModelHasName(models[i], name)) index = static_cast<int>(i);
    }
    if (index >= 0 && touched[index]) {
      named.Fail(named.Get("name"), "model '" + name +
                                        "' is given twice in this file");
    }
    if (index < 0) {
      models.push_back(ParseGpuModel(named, nullptr));
      touched.push_back(true);
    } else {
      models[index] = ParseGpuModel(named, &models[index]);
      touched[index] = true;
    }
    // Names and aliases stay unique across the catalog.
    const GpuModel& added = index < 0 ? models.back() : models[index];
    std::vector<std::string> own = added.aliases;
    own.push_back(added.name);
    for (size_t a = 0; a < own.size(); ++a) {
      for (size_t b = a + 1; b < own.size(); ++b) {
        if (EqualsIgnoreCase(own[a], own[b])) {
          named.Fail(node, "name or alias '" + own[a] + "' is given twice");
        }
      }
      for (const GpuModel& other : models) {
        if (&other != &added && ModelHasName(other, own[a])) {
          named.Fail(node, "name or alias '" + own[a] +
                               "' is already used by model '" + other.name +
                               "'");
        }
      }
    }
  }
  models_ = std::move(models);
}

int Catalog::IndexOf(std::string_view name) const {
  for (size_t i = 0; i < models_.size(); ++i) {
    if (ModelHasName(models_[i], name)) return static_cast<int>(i);
  }
  return -1;
}

const GpuModel* Catalog::Find(std::string_view name) const {
  const int index = IndexOf(name);
  return index < 0 ? nullptr : &models_[index];
}

const GpuModel& Catalog::Get(std::string_view name) const {
  const GpuModel* model = Find(name);
  if (model == nullptr) {
    std::vector<std::string> all = AllNames();
    // Suggest canonical names rather than long aliases where possible.
    std::vector<std::string> canonical;
    for (const std::string& n : ClosestNames(name, all)) {
      const std::string& c = Find(n)->name;
      if (std::find(canonical.begin(), canonical.end(), c) == canonical.end()) {
        canonical.push_back(c);
      }
    }
    throw InputError("unknown GPU model '" + std::string(name) +
                     "'; closest known: " + JoinNames(canonical) +
                     " (see 'gpushare-sim catalog')");
  }
  return *model;
}

std::vector<std::string> Catalog::AllNames() const {
  std::vector<std::string> names;
  for (const GpuModel& m : models_) {
    names.push_back(m.name);
    names.insert(names.end(), m.aliases.begin(), m.aliases.end());
  }
  return names;
}

}  // namespace gpushare
