"""The API objects and pods of the stand-in kubectl (tests/fake_cluster.py),
for the tests that run apply.sh and rollback.sh.

KUBECTL_OBJECTS is Python spliced into that kubectl's script after it has
read its state and split its arguments: it answers the commands below and
exits, and leaves node commands to the node model. Objects live in the state
file under "objects" (key GROUP/kind/NAMESPACE/NAME), pods under "pods"
({namespace, name, schedulerName, phase}), DaemonSets under "daemonsets"
("NAMESPACE/NAME"). As the API server does (k8s.io/apiserver
pkg/registry/rest and pkg/storage/etcd3/store.go), every stored object
carries metadata.uid, resourceVersion (bumped only when the object changes:
a write that changes nothing is not stored) and creationTimestamp, and a
custom resource a generation and a status; an update whose
resourceVersion is not the stored one fails with a Conflict, a create with
a resourceVersion is refused, a replace without one overwrites (kubectl
replace sends the stored version, cli-runtime pkg/resource/helper.go
Replace). Commands (kubectl's messages and exit codes):
  apply [--server-side] -f FILE [--dry-run=server] [-o yaml]
      (a file without objects: "no objects passed to apply", exit 1)
      a three-way merge of each document with the object and the file's
      last applied version (kubectl's last-applied annotation; with
      --server-side no annotation): keys the file drops are removed, keys
      others set are kept, lists replaced; prints KIND/NAME created,
      configured or unchanged (or, with -o yaml, the objects as stored)
  create -f FILE | replace -f FILE [--dry-run=server]
  delete RESOURCE NAME [-n NS] [--ignore-not-found] [--dry-run=server]
  get RESOURCE NAME [-n NS] -o yaml|name [--ignore-not-found]
      (RESOURCE: kind, kind + "s" or KIND.GROUP; -o yaml shows
      managedFields too, as --show-managed-fields does)
  get pods -A [--field-selector=status.phase!=P,...] -o
      jsonpath={range .items[?(@.spec.schedulerName=="S")]}
      {.metadata.namespace}/{.metadata.name}{"\\n"}{end}
  get daemonset NAME -n NS -o name [--ignore-not-found]
  rollout restart -n NS daemonset/NAME [--dry-run=server]
Every change is appended to "mutations" (none under --dry-run).
"""

KUBECTL_OBJECTS = r'''
import copy

CLUSTER_SCOPED = {"deviceclass", "clusterqueue", "resourceflavor", "cohort",
                  "queue", "namespace", "workloadpriorityclass", "topology"}
SERVER_FIELDS = ("creationTimestamp", "generation", "managedFields",
                 "resourceVersion", "uid")
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


class _Literal(str):
    pass


def _dump(obj):
    """YAML as kubectl prints it: sorted keys, lists not indented,
    multi-line strings as literal blocks, no folding."""
    import yaml
    def blocks(o):
        if isinstance(o, dict):
            return {k: blocks(v) for k, v in o.items()}
        if isinstance(o, list):
            return [blocks(v) for v in o]
        if isinstance(o, str) and "\n" in o:
            return _Literal(o)
        return o
    dumper = yaml.SafeDumper
    dumper.add_representer(_Literal, lambda d, text: d.represent_scalar(
        "tag:yaml.org,2002:str", text, style="|"))
    return yaml.dump(blocks(obj), Dumper=dumper, default_flow_style=False,
                     sort_keys=True, width=1 << 30)


def _options(argv):
    opts, pos, i = {}, [], 0
    while i < len(argv):
        a = argv[i]
        if a in ("-f", "-n", "-o", "-l"):
            opts[a] = argv[i + 1]
            i += 2
            continue
        if a.startswith("--"):
            k, _, v = a.partition("=")
            opts[k] = v
        elif a == "-A":
            opts["-A"] = ""
        else:
            pos.append(a)
        i += 1
    return opts, pos


def _group(api_version):
    return api_version.split("/")[0] if "/" in api_version else ""


def _key(group, kind, ns, name):
    kind = kind.lower()
    if kind in CLUSTER_SCOPED:
        ns = ""
    return "%s/%s/%s/%s" % (group, kind, ns or "", name)


def _resource(arg):
    kind, _, group = arg.partition(".")
    kind = kind.lower()
    if kind.endswith("s") and kind[:-1] in CLUSTER_SCOPED | {
            "configmap", "resourceclaimtemplate", "localqueue", "daemonset"}:
        kind = kind[:-1]
    return group, kind


def _object_key(doc, opts):
    meta = doc.get("metadata") or {}
    ns = meta.get("namespace") or opts.get("-n") or "default"
    return _key(_group(doc["apiVersion"]), doc["kind"], ns, meta["name"])


def _docs(path):
    import yaml
    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d]


def _plural(kind):
    return kind.lower() + "s"


def _strip(obj):
    out = copy.deepcopy(obj)
    meta = out.get("metadata") or {}
    for k in SERVER_FIELDS:
        meta.pop(k, None)
    out.pop("status", None)
    return out


def _merge3(live, last, new):
    out = copy.deepcopy(live)
    for k, v in new.items():
        if isinstance(v, dict) and isinstance(live.get(k), dict):
            out[k] = _merge3(live[k], (last or {}).get(k) or {}, v)
        else:
            out[k] = copy.deepcopy(v)
    for k in (last or {}):
        if k not in new:
            out.pop(k, None)
    return out


def _store(key, new, old, what):
    """Stores `new` (server fields from `old`) unless nothing changed;
    returns the stored object and whether it changed."""
    if old is not None and _strip(new) == _strip(old) and \
            new.get("status") == old.get("status"):
        return old, False
    rv, uid = state.get("rv", 1000) + 1, state.get("uid", 0) + 1
    if not dry:
        state["rv"] = rv
    meta = new.setdefault("metadata", {})
    if old is None:
        if not dry:
            state["uid"] = uid
        meta["uid"] = "00000000-0000-4000-8000-%012d" % uid
        meta["creationTimestamp"] = "2026-01-01T00:00:00Z"
    else:
        for k in ("uid", "creationTimestamp"):
            meta[k] = old["metadata"][k]
    meta["resourceVersion"] = str(rv)
    meta["managedFields"] = [{"apiVersion": new["apiVersion"],
                              "fieldsType": "FieldsV1",
                              "fieldsV1": {"f:metadata": {}},
                              "manager": "kubectl", "operation": what,
                              "time": "2026-01-01T00:00:00Z"}]
    if _group(new["apiVersion"]) not in ("", "apps"):
        meta["generation"] = (old or {}).get("metadata", {}).get(
            "generation", 0) + 1
        new["status"] = (old or {}).get("status") or {
            "conditions": [{"type": "Active", "status": "True"}]}
    if not dry:
        objects[key] = new
        mutate([what, key])
    return new, True


def _not_found(group, kind, name):
    plural = kind + "s" + ("." + group if group else "")
    return 'Error from server (NotFound): %s "%s" not found' % (plural, name)


def _kind_name(obj):
    g = _group(obj["apiVersion"])
    return "%s%s/%s" % (obj["kind"].lower(), "." + g if g else "",
                        obj["metadata"]["name"])


def _suffix():
    return " (server dry run)" if dry else ""


def _apply(opts):
    shown = []
    if not _docs(opts["-f"]):
        fail("error: no objects passed to apply")
    for doc in _docs(opts["-f"]):
        key = _object_key(doc, opts)
        if doc["kind"].lower() not in CLUSTER_SCOPED:
            doc["metadata"].setdefault("namespace", key.split("/")[2])
        old = objects.get(key)
        new_doc = copy.deepcopy(doc)
        last = None
        if old is not None:
            text = ((old["metadata"].get("annotations") or {})
                    .get(LAST_APPLIED))
            last = json.loads(text) if text else None
        if "--server-side" not in opts:
            new_doc["metadata"].setdefault("annotations", {})[LAST_APPLIED] = (
                json.dumps(doc, sort_keys=True, separators=(",", ":")) + "\n")
        if old is None:
            if (doc.get("metadata") or {}).get("resourceVersion"):
                fail("Error from server (BadRequest): resourceVersion should "
                     "not be set on objects to be created")
            obj, _ = _store(key, new_doc, None, "create")
            word = "created"
        else:
            merged = _merge3(old, last, new_doc)
            obj, changed = _store(key, merged, old, "apply")
            word = "configured" if changed else "unchanged"
        if "--server-side" in opts and word != "unchanged":
            word = "serverside-applied"
        shown.append(obj)
        if opts.get("-o") != "yaml":
            print("%s %s%s" % (_kind_name(obj), word, _suffix()))
    if opts.get("-o") == "yaml":
        sys.stdout.write(_dump(shown[0] if len(shown) == 1 else
                               {"apiVersion": "v1", "kind": "List",
                                "items": shown}))


def _write(opts, create):
    for doc in _docs(opts["-f"]):
        key = _object_key(doc, opts)
        group, kind = _group(doc["apiVersion"]), doc["kind"].lower()
        old = objects.get(key)
        rv = (doc.get("metadata") or {}).get("resourceVersion")
        if create:
            if old is not None:
                fail('Error from server (AlreadyExists): error when creating '
                     '"%s": %s "%s" already exists' % (
                         opts["-f"], _plural(kind), doc["metadata"]["name"]))
            if rv:
                fail("Error from server (BadRequest): error when creating "
                     '"%s": resourceVersion should not be set on objects to '
                     "be created" % opts["-f"])
            obj, _ = _store(key, copy.deepcopy(doc), None, "create")
            print("%s created%s" % (_kind_name(obj), _suffix()))
            continue
        if old is None:
            fail(_not_found(group, kind, doc["metadata"]["name"]))
        if rv and rv != old["metadata"]["resourceVersion"]:
            fail('Error from server (Conflict): error when replacing "%s": '
                 'Operation cannot be fulfilled on %s "%s": the object has '
                 "been modified; please apply your changes to the latest "
                 "version and try again" % (opts["-f"], _plural(kind),
                                            doc["metadata"]["name"]))
        new = copy.deepcopy(doc)
        if "status" in old:
            new["status"] = old["status"]
        obj, _ = _store(key, new, old, "replace")
        print("%s replaced%s" % (_kind_name(obj), _suffix()))


def _lookup(pos, opts):
    group, kind = _resource(pos[1])
    name = pos[2]
    return group, kind, name, objects.get(
        _key(group, kind, opts.get("-n") or "default", name))


def _pods(opts):
    out = opts.get("-o", "")
    m = re.fullmatch(
        r'jsonpath=\{range \.items\[\?\(@\.spec\.schedulerName=="([^"]*)"\)'
        r'\]\}\{\.metadata\.namespace\}/\{\.metadata\.name\}\{"\\n"\}\{end\}',
        out)
    if not m or "-A" not in opts:
        fail("fake kubectl: unsupported pod query " + " ".join(sys.argv[1:]))
    skip = set()
    for cond in filter(None, opts.get("--field-selector", "").split(",")):
        field, _, value = cond.partition("!=")
        if field != "status.phase":
            fail("fake kubectl: unsupported field selector " + cond)
        skip.add(value)
    for p in sorted(pods, key=lambda p: (p["namespace"], p["name"])):
        if p.get("phase", "Running") not in skip and \
                p.get("schedulerName", "default-scheduler") == m.group(1):
            sys.stdout.write("%s/%s\n" % (p["namespace"], p["name"]))


def _objects_command():
    opts, pos = _options(sys.argv[1:])
    verb = pos[0] if pos else ""
    if verb == "apply":
        _apply(opts)
    elif verb in ("create", "replace"):
        _write(opts, verb == "create")
    elif verb == "delete":
        group, kind, name, obj = _lookup(pos, opts)
        if obj is None:
            if "--ignore-not-found" not in opts:
                fail(_not_found(group, kind, name))
            return
        if not dry:
            del objects[_key(group, kind, opts.get("-n") or "default", name)]
            mutate(["delete", pos[1], name])
        print('%s "%s" deleted%s' % (kind, name, _suffix()))
    elif verb == "get" and pos[1] in ("pod", "pods"):
        _pods(opts)
    elif verb == "get" and pos[1] in ("daemonset", "daemonsets"):
        full = "%s/%s" % (opts.get("-n", "default"), pos[2])
        if full in state.get("daemonsets", []):
            print("daemonset.apps/" + pos[2])
        elif "--ignore-not-found" not in opts:
            fail(_not_found("apps", "daemonset", pos[2]))
    elif verb == "get":
        group, kind, name, obj = _lookup(pos, opts)
        if obj is None:
            if "--ignore-not-found" not in opts:
                fail(_not_found(group, kind, name))
            return
        if opts.get("-o") == "yaml":
            sys.stdout.write(_dump(obj))
        elif opts.get("-o") == "name":
            print(_kind_name(obj))
        else:
            fail("fake kubectl: unsupported output " + opts.get("-o", ""))
    elif verb == "rollout" and pos[1:2] == ["restart"]:
        target = pos[2]
        full = "%s/%s" % (opts.get("-n", "default"), target.split("/")[-1])
        if full not in state.get("daemonsets", []):
            fail('Error from server (NotFound): daemonsets.apps "%s" not found'
                 % target.split("/")[-1])
        if not dry:
            state.setdefault("restarts", []).append(full)
            mutate(["rollout restart", full])
        print("%s restarted%s" % (target, _suffix()))
    else:
        fail("fake kubectl: unsupported command " + " ".join(sys.argv[1:]))


objects = state.setdefault("objects", {})
pods = state.setdefault("pods", [])
# (The MIG manager pod's restart is the node model's: tests/fake_cluster.py.)
mig_manager_restart = (verb == "delete"
                       and flags.get("-l") == "app=nvidia-mig-manager")
if not mig_manager_restart and (
        verb in ("apply", "create", "replace", "delete", "rollout", "diff") or (
        verb == "get" and args[1:2] and args[1] not in ("node", "nodes"))):
    _objects_command()
    save()
    sys.exit(0)
'''
