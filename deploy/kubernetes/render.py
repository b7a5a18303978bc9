#!/usr/bin/env python3
"""render.py - an offline renderer of the small Kustomize subset that deploy/kubernetes uses, for
machines without `kubectl kustomize` (which it stands in for; where kubectl is present, the k8s suite
checks that both render the same objects).

    python3 deploy/kubernetes/render.py OVERLAY_DIR            # YAML documents on stdout
    python3 deploy/kubernetes/render.py OVERLAY_DIR --json     # one JSON list of the objects
    python3 deploy/kubernetes/render.py OVERLAY_DIR --pods     # the StatefulSet as one Pod per ordinal
                                                               # (hostname = pod name), for podman kube play
                                                               # ($(NAME) expanded, container ports dropped,
                                                               # emptyDir volumes named after the pod)

The subset: a kustomization.yaml with `resources` (YAML files, or directories holding a
kustomization.yaml) and `patches` (`path:` of a strategic-merge patch naming its target by kind and
metadata.name). Strategic merge here: maps merge key by key, lists of maps whose items all have a
`name` merge item by item on it (containers, volumes, env, ...), other lists and scalars are replaced,
and a null deletes the key. Anything else in a kustomization.yaml is refused, so the renderer never
quietly renders less than kubectl would. Needs PyYAML (Debian's python3-yaml).
"""
import copy
import json
import os
import sys

import yaml

KNOWN_KEYS = {"apiVersion", "kind", "resources", "patches"}


class RenderError(Exception):
    pass


def load_documents(path):
    with open(path, encoding="utf-8") as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc is not None]


def merge(base, patch):
    """Strategic merge of `patch` into `base` (the subset described above); returns the result."""
    if isinstance(base, dict) and isinstance(patch, dict):
        result = dict(base)
        for key, value in patch.items():
            if value is None:
                result.pop(key, None)
            elif key in result:
                result[key] = merge(result[key], value)
            else:
                result[key] = copy.deepcopy(value)
        return result
    if isinstance(base, list) and isinstance(patch, list) and named(base) and named(patch):
        result = [copy.deepcopy(item) for item in base]
        for item in patch:
            for index, existing in enumerate(result):
                if existing["name"] == item["name"]:
                    result[index] = merge(existing, item)
                    break
            else:
                result.append(copy.deepcopy(item))
        return result
    return copy.deepcopy(patch)


def named(items):
    return bool(items) and all(isinstance(item, dict) and "name" in item for item in items)


def key(obj):
    return (obj.get("kind"), obj.get("metadata", {}).get("name"))


def render(directory):
    path = os.path.join(directory, "kustomization.yaml")
    if not os.path.isfile(path):
        raise RenderError(f"{directory}: no kustomization.yaml")
    with open(path, encoding="utf-8") as handle:
        kustomization = yaml.safe_load(handle) or {}
    unknown = sorted(set(kustomization) - KNOWN_KEYS)
    if unknown:
        raise RenderError(f"{path}: {', '.join(unknown)} is beyond this renderer's subset: use kubectl kustomize")
    objects = []
    for resource in kustomization.get("resources", []):
        target = os.path.normpath(os.path.join(directory, resource))
        found = render(target) if os.path.isdir(target) else load_documents(target)
        for obj in found:
            if any(key(obj) == key(other) for other in objects):
                raise RenderError(f"{path}: {key(obj)} is defined twice")
            objects.append(obj)
    for entry in kustomization.get("patches", []):
        if set(entry) != {"path"}:
            raise RenderError(f"{path}: only patches with a path are in this renderer's subset")
        for patch in load_documents(os.path.join(directory, entry["path"])):
            matches = [index for index, obj in enumerate(objects) if key(obj) == key(patch)]
            if len(matches) != 1:
                raise RenderError(f"{path}: patch {entry['path']} matches no resource {key(patch)}")
            objects[matches[0]] = merge(objects[matches[0]], patch)
    return objects


def as_pods(objects):
    """The StatefulSets as Pods, one per ordinal with the StatefulSet's host names; the rest as it is.

    For podman kube play (4.3), each container's $(NAME) references in command and args are expanded from
    the ConfigMaps of its envFrom, as the kubelet does (podman does not), and its ports are dropped (podman
    turns a containerPort into a port forward on the host; a pod with an address on the LAN needs none), and
    its emptyDir volumes are named after the pod (podman makes them named volumes shared by name).
    """
    config_maps = {
        obj["metadata"]["name"]: obj.get("data", {}) for obj in objects if obj.get("kind") == "ConfigMap"
    }
    result = []
    for obj in objects:
        if obj.get("kind") != "StatefulSet":
            result.append(obj)
            continue
        name = obj["metadata"]["name"]
        template = obj["spec"]["template"]
        for ordinal in range(obj["spec"].get("replicas", 1)):
            pod_name = f"{name}-{ordinal}"
            spec = copy.deepcopy(template["spec"])
            # podman makes an emptyDir a named volume shared by every pod of that name: one per pod here.
            renamed = {}
            for volume in spec.get("volumes", []):
                if "emptyDir" in volume:
                    renamed[volume["name"]] = f"{pod_name}-{volume['name']}"
                    volume["name"] = renamed[volume["name"]]
            for container in spec.get("containers", []):
                container.pop("ports", None)
                for mount in container.get("volumeMounts", []):
                    mount["name"] = renamed.get(mount["name"], mount["name"])
                environment = {}
                for source in container.get("envFrom", []):
                    environment.update(config_maps.get(source.get("configMapRef", {}).get("name"), {}))
                for entry in container.get("env", []):
                    if "value" in entry:
                        environment[entry["name"]] = entry["value"]
                for field in ("command", "args"):
                    if field in container:
                        container[field] = [expand(item, environment) for item in container[field]]
            spec["hostname"] = pod_name
            spec["subdomain"] = obj["spec"].get("serviceName", name)
            metadata = copy.deepcopy(template.get("metadata", {}))
            metadata["name"] = pod_name
            result.append({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec})
    return result


def expand(text, environment):
    """$(NAME) replaced by its value where NAME is defined, as the kubelet expands command and args."""
    for name, value in environment.items():
        text = text.replace(f"$({name})", str(value))
    return text


def main(argv):
    args = [arg for arg in argv if not arg.startswith("--")]
    flags = {arg for arg in argv if arg.startswith("--")}
    if len(args) != 1 or not flags <= {"--json", "--pods"}:
        print("usage: render.py OVERLAY_DIR [--json] [--pods]", file=sys.stderr)
        return 2
    try:
        objects = render(args[0])
    except (RenderError, OSError, yaml.YAMLError) as error:
        print(f"render.py: {error}", file=sys.stderr)
        return 1
    if "--pods" in flags:
        objects = as_pods(objects)
    if "--json" in flags:
        print(json.dumps(objects, indent=1, sort_keys=True))
    else:
        print(yaml.safe_dump_all(objects, sort_keys=False, default_flow_style=False), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
