// The Kubernetes objects a manifest the emitters write holds, by kind and
// name, so that apply.sh can save them before it applies the file and
// rollback.sh can restore them (emit/apply_script.h).
//
// Contract: KubeObjectsOf() reads `yaml` (documents separated by `---`;
// empty documents and comments skipped) and returns each object's
// apiVersion, kind, metadata.name and metadata.namespace ("" when absent),
// in document order. It throws InputError naming `path` when the text is
// not YAML or a document lacks apiVersion, kind or metadata.name (the
// emitters always write them: a bug check). KubectlResource() is the
// resource argument with which `kubectl get`/`delete` name the object's
// kind unambiguously: the kind in lower case, followed by `.GROUP` for a
// kind of an API group (configmap, deviceclass.resource.k8s.io,
// clusterqueue.kueue.x-k8s.io; kubectl resolves KIND.GROUP through API
// discovery). Deterministic.

#ifndef GPUSHARE_EMIT_KUBE_OBJECT_REF_H_
#define GPUSHARE_EMIT_KUBE_OBJECT_REF_H_

#include <string>
#include <vector>

namespace gpushare {

struct KubeObjectRef {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string namespace_name;  // "" for a cluster-scoped object

  bool operator==(const KubeObjectRef&) const = default;
};

std::vector<KubeObjectRef> KubeObjectsOf(const std::string& yaml,
                                         const std::string& path);

std::string KubectlResource(const KubeObjectRef& object);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_KUBE_OBJECT_REF_H_
