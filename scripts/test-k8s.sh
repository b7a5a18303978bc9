#!/usr/bin/env bash
# test-k8s.sh - the Kubernetes manifests suite (deploy/kubernetes, docs/SCALE-OUT.md), offline and in
# seconds, no root needed (only to create the venv under /opt):
#   1. renders both overlays (hostnetwork, macvlan) with deploy/kubernetes/render.py, and the macvlan one
#      as Pods (--pods, what podman kube play runs), and validates every rendering against the Kubernetes
#      API schemas of two versions (1.30 and 1.37) with PyPI kubernetes-validate 1.37.0 --strict (unknown
#      fields refused; Multus's NetworkAttachmentDefinition has no schema there, the Swift suite checks it),
#      venv K8S_VENV, created here when missing (scripts/setup.sh makes it too);
#   2. runs Tests/MatterEmuCLITests/KubernetesManifestTests.swift (MATTER_K8S_SUITE exported): one shard per
#      pod from the ConfigMap, `fleet codes` with the pods' options, what each overlay needs for mDNS, the
#      memory request against the measured figure, and render.py against `kubectl kustomize` where kubectl is.
# Last line: `k8s: N passed, N failed` (each validation one check, each Swift test one); exit status
# non-zero when anything failed. Env: K8S_VENV (default /opt/matter-emu/k8svenv); SUITE_SKIP_BUILD=1 skips
# the incremental `swift build --build-tests` (scripts/test.sh has just built).
set -uo pipefail
cd "$(dirname "$0")/.."
K8S_VENV=${K8S_VENV:-/opt/matter-emu/k8svenv}
passed=0
failed=0
finish() {
    echo "k8s: $passed passed, $failed failed"
    [ "$failed" = 0 ]
    exit $?
}
if ! "$K8S_VENV/bin/kubernetes-validate" --version >/dev/null 2>&1; then
    echo "k8s: creating $K8S_VENV (kubernetes-validate 1.37.0)" >&2
    if ! { python3 -m venv "$K8S_VENV" && "$K8S_VENV/bin/pip" install -q kubernetes-validate==1.37.0 >&2; }; then
        echo "k8s: could not install kubernetes-validate" >&2
        failed=1
        finish
    fi
fi
work=$(mktemp -d /tmp/matter-emu-k8s.XXXXXX)
log=$work/log
trap 'rm -rf "$work"' EXIT

# 1. Render and validate.
for rendering in hostnetwork macvlan macvlan:pods; do
    overlay=${rendering%%:*}
    flags=()
    [ "$rendering" = "$overlay" ] || flags=(--pods)
    file=$work/${rendering/:/-}.yaml
    if ! python3 deploy/kubernetes/render.py "deploy/kubernetes/overlays/$overlay" "${flags[@]}" >"$file"; then
        echo "k8s: FAIL rendering $rendering" >&2
        failed=$((failed + 1))
        continue
    fi
    for version in 1.30.0 1.37.0; do
        if "$K8S_VENV/bin/kubernetes-validate" --strict -k "$version" "$file" >"$log" 2>&1; then
            passed=$((passed + 1))
            echo "k8s: ok   $rendering validated against Kubernetes $version (strict)" >&2
        else
            failed=$((failed + 1))
            cat "$log" >&2
            echo "k8s: FAIL $rendering against Kubernetes $version (strict)" >&2
        fi
    done
done

# 2. The Swift suite.
if [ "${SUITE_SKIP_BUILD:-0}" != 1 ]; then
    echo "k8s: building (swift build --build-tests)" >&2
    if ! swift build --build-tests -Xswiftc -warnings-as-errors >"$log" 2>&1; then
        cat "$log" >&2
        failed=$((failed + 1))
        finish
    fi
fi
source scripts/lib/suite.sh
MATTER_K8S_SUITE=1 swift test --skip-build --filter MatterEmuCLITests.KubernetesManifestTests 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
read -r p f < <(suite_count "$log")
if [ "$status" != 0 ] && [ "$f" = 0 ]; then f=1; fi
if [ "$p" = 0 ] && [ "$f" = 0 ]; then f=1; fi
passed=$((passed + p))
failed=$((failed + f))
finish
