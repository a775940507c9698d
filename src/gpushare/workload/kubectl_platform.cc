#include "gpushare/workload/kubectl_platform.h"

#include <nlohmann/json.hpp>
#include <regex>
#include <string_view>

#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

using nlohmann::json;

// The chart's names: before 0.4.0 and from it (Chart.yaml name).
constexpr const char* kDriverNames[] = {"nvidia-dra-driver-gpu",
                                        "dra-driver-nvidia-gpu"};

std::string Str(const json& j, const char* key) {
  if (!j.is_object()) return "";
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

const json& Sub(const json& j, const char* key) {
  static const json kNull;
  if (!j.is_object()) return kNull;
  const auto it = j.find(key);
  return it != j.end() ? *it : kNull;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

// The tag of `image` without a leading 'v' ("" for none or a digest).
std::string ImageVersion(const std::string& image) {
  if (image.find('@') != std::string::npos) return "";
  const size_t slash = image.rfind('/');
  const size_t colon = image.rfind(':');
  if (colon == std::string::npos ||
      (slash != std::string::npos && colon < slash)) {
    return "";
  }
  std::string tag = image.substr(colon + 1);
  if (!tag.empty() && tag[0] == 'v') tag.erase(0, 1);
  static const std::regex kVersion(
      R"([0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?)");
  return std::regex_match(tag, kVersion) ? tag : "";
}

// The DRA driver's chart name of a pod, "" when it is not one of its pods;
// `*kubelet_plugin` whether it is the kubelet plugin's.
std::string DriverName(const json& pod, bool* kubelet_plugin) {
  const json& meta = Sub(pod, "metadata");
  const json& labels = Sub(meta, "labels");
  const std::string app = Str(labels, "app.kubernetes.io/name");
  if (!app.empty()) {
    const std::string component = Str(labels, (app + "-component").c_str());
    if (component == "kubelet-plugin" || component == "controller") {
      *kubelet_plugin = component == "kubelet-plugin";
      return app;
    }
  }
  const json& owners = Sub(meta, "ownerReferences");
  if (!owners.is_array()) return "";
  for (const json& o : owners) {
    const std::string kind = Str(o, "kind");
    const std::string name = Str(o, "name");
    for (const char* n : kDriverNames) {
      if (kind == "DaemonSet" && name == std::string(n) + "-kubelet-plugin") {
        *kubelet_plugin = true;
        return n;
      }
      if ((kind == "ReplicaSet" &&
           StartsWith(name, std::string(n) + "-controller-")) ||
          (kind == "Deployment" && name == std::string(n) + "-controller")) {
        *kubelet_plugin = false;
        return n;
      }
    }
  }
  return "";
}

void ReadPod(const json& pod, KubectlPlatform* out) {
  const json& meta = Sub(pod, "metadata");
  const json& labels = Sub(meta, "labels");
  bool plugin = false;
  const std::string name = DriverName(pod, &plugin);
  if (!name.empty() &&
      (!out->dra_driver || (plugin && !out->dra_driver_from_kubelet_plugin))) {
    out->dra_driver = true;
    out->dra_driver_from_kubelet_plugin = plugin;
    out->dra_driver_name = name;
    out->dra_driver_namespace = Str(meta, "namespace");
    const std::string instance = Str(labels, "app.kubernetes.io/instance");
    out->dra_driver_release = instance.empty() ? name : instance;
    out->dra_driver_version.clear();
    const json& containers = Sub(Sub(pod, "spec"), "containers");
    if (containers.is_array()) {
      for (const json& c : containers) {
        const std::string image = Str(c, "image");
        if (image.find("dra-driver") != std::string::npos) {
          out->dra_driver_version = ImageVersion(image);
          break;
        }
      }
    }
  }
  if (Str(labels, "app.kubernetes.io/component") == "nvidia-driver") {
    out->gpu_operator = out->gpu_operator_driver = true;
  }
  const json& owners = Sub(meta, "ownerReferences");
  if (!owners.is_array()) return;
  static const char* const kOperatorSets[] = {
      "nvidia-container-toolkit-daemonset", "nvidia-device-plugin-daemonset",
      "gpu-feature-discovery", "nvidia-operator-validator",
      "nvidia-dcgm-exporter"};
  for (const json& o : owners) {
    if (Str(o, "kind") != "DaemonSet") continue;
    const std::string set = Str(o, "name");
    if (StartsWith(set, "nvidia-driver-daemonset")) {
      out->gpu_operator = out->gpu_operator_driver = true;
    }
    for (const char* s : kOperatorSets) {
      if (set == s) out->gpu_operator = true;
    }
  }
}

void ReadNode(const json& node, KubectlPlatform* out) {
  const std::string v =
      Str(Sub(Sub(node, "status"), "nodeInfo"), "kubeletVersion");
  static const std::regex kVersion(R"(v?([0-9]{1,3})\.([0-9]{1,4})(\..*)?)");
  std::smatch m;
  if (!std::regex_match(v, m, kVersion)) return;
  const int major = std::stoi(m[1].str());
  const int minor = std::stoi(m[2].str());
  if (out->kubelet_major == 0 ||
      std::make_pair(major, minor) <
          std::make_pair(out->kubelet_major, out->kubelet_minor)) {
    out->kubelet_major = major;
    out->kubelet_minor = minor;
    out->kubelet_node = Str(Sub(node, "metadata"), "name");
  }
}

void ReadDeviceClass(const json& dc, KubectlPlatform* out) {
  KubectlPlatform::DeviceClassFacts f;
  f.name = Str(Sub(dc, "metadata"), "name");
  if (f.name.empty()) return;
  const json& spec = Sub(dc, "spec");
  const json& selectors = Sub(spec, "selectors");
  if (selectors.is_array()) {
    for (const json& s : selectors) {
      f.cel.push_back(Str(Sub(s, "cel"), "expression"));
    }
  }
  f.extended_resource_name = Str(spec, "extendedResourceName");
  const json& config = Sub(spec, "config");
  f.has_config = config.is_array() ? !config.empty() : !config.is_null();
  for (const auto& have : out->device_classes) {
    if (have.name == f.name) return;
  }
  out->device_classes.push_back(std::move(f));
}

}  // namespace

KubectlPlatform ParseKubectlPlatform(const std::string& text) {
  KubectlPlatform out;
  const json root = json::parse(text, nullptr, false);
  if (root.is_discarded() || !root.is_object()) return out;
  std::vector<const json*> items;
  const json& list = Sub(root, "items");
  const std::string kind = Str(root, "kind");
  if ((kind == "List" || EndsWith(kind, "List")) && list.is_array()) {
    for (const json& i : list) items.push_back(&i);
  } else {
    items.push_back(&root);
  }
  for (const json* i : items) {
    const std::string k = Str(*i, "kind");
    if (k == "Pod") ReadPod(*i, &out);
    if (k == "Node") ReadNode(*i, &out);
    if (k == "DeviceClass") ReadDeviceClass(*i, &out);
  }
  // A List of one kind names it in the List's kind only.
  if (kind == "NodeList" || kind == "PodList" || kind == "DeviceClassList") {
    for (const json* i : items) {
      if (!Str(*i, "kind").empty()) continue;
      if (kind == "PodList") ReadPod(*i, &out);
      if (kind == "NodeList") ReadNode(*i, &out);
      if (kind == "DeviceClassList") ReadDeviceClass(*i, &out);
    }
  }
  return out;
}

KubectlPlatform ReadKubectlPlatform(const std::string& path) {
  return ParseKubectlPlatform(ReadInputFile(path));
}

}  // namespace gpushare
