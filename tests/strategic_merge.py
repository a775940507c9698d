"""A strategic merge patch applier for the end-to-end tests of the pod patches
(`kubectl patch deployment NAME --type strategic --patch-file FILE`).

It follows what the API server runs for such a patch, kubernetes/apimachinery
pkg/util/strategicpatch/patch.go StrategicMergeMapPatch (MergeOptions
MergeParallelList and IgnoreUnmatchedNulls both true), for the fields of a
workload's pod template, with the patch tags of kubernetes/api
core/v1/types.go:
- mergeMap: a key whose patch value is null is deleted; a key the original
  lacks takes the patch value with its nulls discarded
  (discardNullValuesFromPatch) and its directives removed
  (removeDirectives); a key whose original value has another type is
  replaced so; maps merge key by key; `$patch: replace` in a map replaces
  it, `$patch: delete` empties it; `$retainKeys` clears the original's keys
  not listed (applyRetainKeysDirective).
- mergeSliceHandler / mergeSlice: a list with patchStrategy merge merges its
  maps by patchMergeKey (PodSpec.containers, initContainers, resourceClaims,
  Container.env by `name`), first applying its `$patch: delete` elements
  (deleteMatchingEntries) and `$patch: replace` (mergeSliceWithSpecialElements);
  a patch element no original element matches is appended as written, nulls
  included (mergeSliceWithoutSpecialElements); lists of scalars are united.
  Every other list (tolerations, nodeSelectorTerms, Container.resources.claims,
  args) has no patch strategy and is replaced by the patch's list as written.
Not modelled (the pod patches use none): $setElementOrder,
$deleteFromPrimitiveList, the order normalizeElementOrder gives merged lists
(normalize() sorts merge-keyed lists by key instead).

normalize() is the typed round trip the server then does: JSON null and
empty maps or lists of omitempty fields are dropped. A null left inside a
ResourceList would decode as a zero Quantity, not vanish, so normalize()
refuses it.
"""

import copy

DIRECTIVE = "$patch"
RETAIN_KEYS = "$retainKeys"

# Lists with patchStrategy merge, by their field path (list indices left out)
# below a workload's `spec.template.spec`, and their patchMergeKey.
_POD_SPEC_MERGE_LISTS = {
    ("containers",): "name",
    ("initContainers",): "name",
    ("ephemeralContainers",): "name",
    ("resourceClaims",): "name",
    ("volumes",): "name",
    ("containers", "env"): "name",
    ("initContainers", "env"): "name",
    ("containers", "ports"): "containerPort",
    ("containers", "volumeMounts"): "mountPath",
}
_POD_SPEC = ("spec", "template", "spec")


def _merge_key(path):
    """The patchMergeKey of the list at `path`, or None (replace)."""
    if path[:3] == _POD_SPEC:
        return _POD_SPEC_MERGE_LISTS.get(path[3:])
    return None


def _discard_nulls(value):
    if isinstance(value, dict):
        for k in [k for k, v in value.items() if v is None]:
            del value[k]
        for v in value.values():
            _discard_nulls(v)
    elif isinstance(value, list):
        for v in value:
            _discard_nulls(v)


def _remove_directives(value):
    """(value without directives, whether to keep it)."""
    if isinstance(value, dict):
        if DIRECTIVE in value:
            return None, False
        out = {}
        for k, v in value.items():
            v2, keep = _remove_directives(v)
            if keep:
                out[k] = v2
        return out, True
    if isinstance(value, list):
        out = []
        for v in value:
            v2, keep = _remove_directives(v)
            if keep:
                out.append(v2)
        return out, True
    return value, True


def _kind(value):
    if isinstance(value, dict):
        return "map"
    if isinstance(value, list):
        return "list"
    return "scalar"


def _merge_map(original, patch, path):
    if DIRECTIVE in patch:
        directive = patch[DIRECTIVE]
        if directive == "replace":
            del patch[DIRECTIVE]
            return patch
        if directive == "delete":
            return {}
        raise ValueError(f"bad $patch {directive!r} at {path}")
    if original is None:
        original = {}
    if RETAIN_KEYS in patch:
        keep = set(patch.pop(RETAIN_KEYS))
        for k, v in patch.items():
            if v is not None and k not in keep:
                raise ValueError(f"{k} not in $retainKeys at {path}")
        for k in [k for k in original if k not in keep]:
            del original[k]
    for k, pv in patch.items():
        if k.startswith("$"):
            raise NotImplementedError(f"directive {k} at {path}")
        if pv is None:
            original.pop(k, None)
            continue
        if k not in original or _kind(original[k]) != _kind(pv):
            _discard_nulls(pv)
            value, keep = _remove_directives(pv)
            if keep:
                original[k] = value
            else:
                original.pop(k, None)
            continue
        if isinstance(pv, dict):
            original[k] = _merge_map(original[k], pv, path + (k,))
        elif isinstance(pv, list):
            key = _merge_key(path + (k,))
            original[k] = (_merge_list(original[k], pv, key, path + (k,))
                           if key else pv)
        else:
            original[k] = pv
    return original


def _merge_list(original, patch, key, path):
    if not original and not patch:
        return original
    if not all(isinstance(v, dict) for v in original + patch):
        merged = []
        for v in original + patch:
            if v not in merged:
                merged.append(v)
        return merged
    rest = []
    replace = False
    for v in patch:
        if DIRECTIVE not in v:
            rest.append(v)
        elif v[DIRECTIVE] == "delete":
            if key not in v:
                raise ValueError(f"$patch: delete without {key} at {path}")
            original = [o for o in original if o.get(key) != v[key]]
        elif v[DIRECTIVE] == "replace":
            replace = True
        else:
            raise ValueError(f"bad $patch {v[DIRECTIVE]!r} at {path}")
    if replace:
        return rest
    for v in rest:
        if key not in v:
            raise ValueError(f"list element without {key} at {path}")
        for i, o in enumerate(original):
            if o.get(key) == v[key]:
                original[i] = _merge_map(o, v, path)
                break
        else:
            original.append(v)
    return original


def apply(original, patch):
    """`original` with the strategic merge patch `patch` applied (both left
    as they were)."""
    return _merge_map(copy.deepcopy(original), copy.deepcopy(patch), ())


def normalize(value, path=()):
    """`value` as the API server stores it (see the module's comment)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if v is None:
                if path and path[-1] in ("limits", "requests"):
                    raise ValueError(
                        f"null quantity {k} left in {'.'.join(path)}")
                continue
            v = normalize(v, path + (k,))
            if v in ({}, []):
                continue
            out[k] = v
        return out
    if isinstance(value, list):
        items = [normalize(v, path) for v in value]
        key = _merge_key(path)
        if key and all(isinstance(v, dict) for v in items):
            items.sort(key=lambda v: str(v.get(key)))
        return items
    return value
