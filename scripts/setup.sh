#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (as root) for matter-emu and builds it. Idempotent: packages
# already installed are not fetched again, and the build is incremental.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
    libssl-dev libavahi-client-dev libsqlite3-dev libqrencode-dev   # C libraries we link
    libmicrohttpd-dev                                               # the --http server (MatterHTTP)
    avahi-daemon avahi-utils dbus iproute2                          # discovery and the virtual LAN
    python3-venv libnl-route-3-200                                  # the SDK controller (interop suite)
    chromium chromium-driver                                        # the browser suite (scripts/test-browser.sh)
    python3-yaml                                                    # deploy/kubernetes/render.py (k8s suite)
    podman catatonit runc mmdebstrap                                # the image and the pods suite (scripts/test-pods.sh)
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: these Debian packages are missing and installing them needs root: ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # The daemons must not start on the host: tests run their own inside network namespaces. A
    # policy-rc.d that says 101 ("action forbidden") keeps the packages' scripts from starting them.
    own_policy=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
    fi
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    [ "$own_policy" = 0 ] || rm -f /usr/sbin/policy-rc.d
fi

# The connectedhomeip SDK's Python controller, for the interoperability suite (scripts/interop-chip.sh).
CHIP_VENV=${CHIP_VENV:-/opt/matter-emu/chipvenv}
if [ "$(id -u)" -eq 0 ] && ! "$CHIP_VENV/bin/python" -c 'import chip.ChipDeviceCtrl' 2>/dev/null; then
    echo "setup: creating $CHIP_VENV (home-assistant-chip-core 2025.7.0)" >&2
    mkdir -p "$(dirname "$CHIP_VENV")"
    python3 -m venv "$CHIP_VENV"
    "$CHIP_VENV/bin/pip" install -q home-assistant-chip-core==2025.7.0 home-assistant-chip-clusters==2025.7.0
fi

# Home Assistant's Matter Server, for the ha suite (scripts/test-ha.sh). Its own venv: 7.0.1 (the newest
# that installs with Debian 12's Python 3.11) pins home-assistant-chip-core 2024.11.4, not the 2025.7.0 above.
HA_VENV=${HA_VENV:-/opt/matter-emu/havenv}
if [ "$(id -u)" -eq 0 ] && ! "$HA_VENV/bin/python" -c 'import matter_server.server, chip.ChipDeviceCtrl' 2>/dev/null; then
    echo "setup: creating $HA_VENV (python-matter-server 7.0.1)" >&2
    mkdir -p "$(dirname "$HA_VENV")"
    python3 -m venv "$HA_VENV"
    "$HA_VENV/bin/pip" install -q "python-matter-server[server]==7.0.1"
fi

# esp-matter-dm-validator, the data-model validator of the conformance suite (scripts/test-dmv.sh), in
# its own venv (it needs click and tabulate, which the SDK's venv does not carry).
DMV_VENV=${DMV_VENV:-/opt/matter-emu/dmvenv}
if [ "$(id -u)" -eq 0 ] && ! "$DMV_VENV/bin/python" -c 'import dmv_tool' 2>/dev/null; then
    echo "setup: creating $DMV_VENV (esp-matter-dm-validator 1.0.5)" >&2
    mkdir -p "$(dirname "$DMV_VENV")"
    python3 -m venv "$DMV_VENV"
    "$DMV_VENV/bin/pip" install -q esp-matter-dm-validator==1.0.5
fi

# Selenium, for the browser suite (scripts/test-browser.sh): it drives Debian's chromium through
# chromium-driver (both from the packages above; Selenium downloads no browser or driver of its own).
WEB_VENV=${WEB_VENV:-/opt/matter-emu/webvenv}
if [ "$(id -u)" -eq 0 ] && ! "$WEB_VENV/bin/python" -c 'import selenium' 2>/dev/null; then
    echo "setup: creating $WEB_VENV (selenium 4.27.1)" >&2
    mkdir -p "$(dirname "$WEB_VENV")"
    python3 -m venv "$WEB_VENV"
    "$WEB_VENV/bin/pip" install -q selenium==4.27.1
fi

# kubernetes-validate, for the k8s suite (scripts/test-k8s.sh): the rendered manifests checked offline against
# the Kubernetes API schemas it carries.
K8S_VENV=${K8S_VENV:-/opt/matter-emu/k8svenv}
if [ "$(id -u)" -eq 0 ] && ! "$K8S_VENV/bin/kubernetes-validate" --version >/dev/null 2>&1; then
    echo "setup: creating $K8S_VENV (kubernetes-validate 1.37.0)" >&2
    mkdir -p "$(dirname "$K8S_VENV")"
    python3 -m venv "$K8S_VENV"
    "$K8S_VENV/bin/pip" install -q kubernetes-validate==1.37.0
fi

# The Debian part of the OCI image (deploy/image/build.sh --debian-rootfs), fetched here so that the pods
# suite (scripts/test-pods.sh) builds its image from it without reaching outside.
IMAGE_DEBIAN=${IMAGE_DEBIAN:-/opt/matter-emu/image-debian.tar}
if [ "$(id -u)" -eq 0 ] && [ ! -f "$IMAGE_DEBIAN" ] && command -v mmdebstrap >/dev/null; then
    echo "setup: fetching the Debian part of the image into $IMAGE_DEBIAN" >&2
    bash deploy/image/build.sh --debian-rootfs "$IMAGE_DEBIAN"
fi

command -v swift >/dev/null || { echo "setup: the Swift toolchain (swift) is not on PATH" >&2; exit 1; }

echo "setup: building matter-emu" >&2
swift build -Xswiftc -warnings-as-errors 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Linking|Write|Planning|Applying)' >&2
echo "setup: done; the binary is $(swift build --show-bin-path)/matter-emu" >&2
