#!/usr/bin/env bash
# test-pods.sh - the fleet shards as pods (issue 34): deploy/kubernetes's macvlan overlay rendered as Pods
# (deploy/kubernetes/render.py --pods) and run by `podman kube play` on the virtual LAN of scripts/lan.sh
# (1 host, prefix pods, root), each pod with an address of its own on the LAN through a podman macvlan
# network, as Multus macvlan gives a pod in a cluster; the image is deploy/image/build.sh's, made here
# with the debug binary just built. The checks are Tests/MatterLANTests/PodFleetTests.swift: every pod
# prints the rows `fleet codes` computes for its shard, and a controller on host 1 commissions one device
# of every shard by its computed QR code (found through host 1's Avahi) and switches it on.
#
# This script only sets up: the LAN, a veth from the LAN's bridge to this namespace (no address; the
# macvlan network's parent), the podman network and a containers.conf (runc, and explicit nofile and nproc
# limits: this machine's crun and default limits fail), and undoes them. Needs podman, catatonit and
# mmdebstrap (scripts/setup.sh installs them).
#
# Last line: `pods: N passed, N failed`. Env: MATTER_LAN_PREFIX (default pods), MATTER_LAN_STATE as for lan.sh;
# SUITE_SKIP_BUILD=1 as for the other LAN suites.
set -uo pipefail
export MATTER_LAN_PREFIX=${MATTER_LAN_PREFIX:-pods}
pods_work=$(mktemp -d /tmp/matter-emu-pods.XXXXXX)
export MATTER_PODS_WORK=$pods_work MATTER_PODS_NETWORK=$MATTER_LAN_PREFIX-matter
export CONTAINERS_CONF=$pods_work/containers.conf
veth_host=${MATTER_LAN_PREFIX}pods0

suite_after_up() {
    for tool in podman mmdebstrap catatonit; do
        command -v "$tool" >/dev/null || { echo "pods: $tool is missing (run scripts/setup.sh)" >&2; return 1; }
    done
    printf '[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=4096:4096"]\n[engine]\nruntime = "runc"\n' \
        "$(ulimit -Hn)" "$(ulimit -Hn)" >"$CONTAINERS_CONF"
    # The Debian part comes from scripts/setup.sh's tar: the suite fetches nothing from outside.
    local debian=${MATTER_EMU_ROOTFS:-/opt/matter-emu/image-debian.tar}
    [ -f "$debian" ] || { echo "pods: $debian is missing (run scripts/setup.sh)" >&2; return 1; }
    MATTER_EMU_ROOTFS=$debian MATTER_EMU_BINARY=$(swift build --show-bin-path)/matter-emu \
        bash deploy/image/build.sh localhost/matter-emu:latest >&2 || return 1
    ip link add "$veth_host" type veth peer name "$MATTER_LAN_PREFIX-pods" netns "$MATTER_LAN_PREFIX-lan" || return 1
    ip -n "$MATTER_LAN_PREFIX-lan" link set "$MATTER_LAN_PREFIX-pods" master "$MATTER_LAN_PREFIX-br0" up || return 1
    sysctl -qw "net.ipv6.conf.$veth_host.disable_ipv6=1"
    ip link set "$veth_host" up || return 1
    podman network rm -f "$MATTER_PODS_NETWORK" >/dev/null 2>&1
    podman network create -d macvlan -o parent="$veth_host" --subnet 10.213.0.0/24 --ip-range 10.213.0.128/26 \
        "$MATTER_PODS_NETWORK" >/dev/null
}

suite_before_down() {
    [ ! -f "$pods_work/pods.yaml" ] || podman kube down "$pods_work/pods.yaml" >/dev/null 2>&1
    podman network rm -f "$MATTER_PODS_NETWORK" >/dev/null 2>&1
    ip link del "$veth_host" 2>/dev/null
    rm -rf "$pods_work"
}

source "$(dirname "$0")/lib/suite.sh"
lan_suite pods MatterLANTests.PodFleetTests 1
