// The objects of an emitted manifest (contract in kube_object_ref.h).

#include "gpushare/emit/kube_object_ref.h"

#include <yaml-cpp/yaml.h>

#include <cctype>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

std::string Field(const YAML::Node& node, const char* key) {
  const YAML::Node value = node[key];
  return value && value.IsScalar() ? value.as<std::string>() : std::string();
}

}  // namespace

std::vector<KubeObjectRef> KubeObjectsOf(const std::string& yaml,
                                         const std::string& path) {
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(yaml);
  } catch (const YAML::Exception& e) {
    throw InputError(path, 0, 0, std::string("not YAML: ") + e.what());
  }
  std::vector<KubeObjectRef> out;
  for (const YAML::Node& doc : documents) {
    if (!doc || doc.IsNull()) continue;
    const YAML::Node metadata = doc.IsMap() ? doc["metadata"] : YAML::Node();
    KubeObjectRef ref;
    if (metadata && metadata.IsMap()) {
      ref.api_version = Field(doc, "apiVersion");
      ref.kind = Field(doc, "kind");
      ref.name = Field(metadata, "name");
      ref.namespace_name = Field(metadata, "namespace");
    }
    if (ref.api_version.empty() || ref.kind.empty() || ref.name.empty()) {
      throw InputError(path, 0, 0,
                       "a document without apiVersion, kind or "
                       "metadata.name");
    }
    out.push_back(std::move(ref));
  }
  return out;
}

std::string KubectlResource(const KubeObjectRef& object) {
  std::string out;
  for (const char c : object.kind) {
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  const size_t slash = object.api_version.find('/');
  if (slash != std::string::npos) {
    out += "." + object.api_version.substr(0, slash);
  }
  return out;
}

}  // namespace gpushare
