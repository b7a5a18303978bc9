#!/usr/bin/env bash
# build.sh - the matter-emu OCI image, built without pulling anything from an image registry: a root file
# system made by mmdebstrap from Debian's packages (only the libraries the binary links, and what they
# need), the release binary with the Swift runtime libraries it links beside it (its RUNPATH has
# $ORIGIN), the test PKI, and a non-root user; `podman import` turns it into localhost/matter-emu:latest.
# Run as root after scripts/setup.sh (needs mmdebstrap and podman: apt-get install mmdebstrap podman).
#
#   deploy/image/build.sh [TAG]     (default localhost/matter-emu:latest); prints the image's size
#   deploy/image/build.sh --debian-rootfs FILE   only the Debian part, as a tar (scripts/setup.sh makes
#                                   /opt/matter-emu/image-debian.tar, so that the pods suite fetches nothing)
#
# Layout: /opt/matter-emu/bin/matter-emu (+ the Swift runtime .so files), /opt/matter-emu/fixtures/pki
# (found from the binary, as in a checkout), user matter 10001:10001, /var/lib/matter-emu and
# /run/matter-emu writable by it; ENTRYPOINT matter-emu. The apt sources are the host's own (the first
# of /etc/apt/sources.list.d/*.sources, else /etc/apt/sources.list), so no mirror is named here.
# Env: BUILD_SKIP=1 uses the release binary as it is; MATTER_EMU_BINARY=PATH puts that binary in instead (the
# pods suite uses the debug build it has just made); MATTER_EMU_ROOTFS=FILE takes the Debian part from a tar
# made by --debian-rootfs instead of fetching the packages.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" = 0 ] || { echo "image: needs root (mmdebstrap, podman import)" >&2; exit 1; }
sources=$(ls /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 || true)
[ -n "$sources" ] || sources=/etc/apt/sources.list
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
# The Debian packages of the libraries the binary links (apt adds what they depend on), without apt's
# caches, documentation and translations.
debian_rootfs() {
    command -v mmdebstrap >/dev/null || { echo "image: mmdebstrap is missing (apt-get install mmdebstrap)" >&2; exit 1; }
    local packages=libc6,libgcc-s1,libstdc++6,libssl3,libavahi-client3,libqrencode4,libmicrohttpd12,libsqlite3-0
    mmdebstrap --quiet --variant=extract --include="$packages" "$suite" "$1" "$sources" >&2
    rm -rf "$1/var/cache/apt" "$1/var/lib/apt/lists" "$1/usr/share/doc" "$1/usr/share/man" \
        "$1/usr/share/locale" "$1/etc/apt"
}
if [ "${1:-}" = --debian-rootfs ]; then
    out=${2:?--debian-rootfs needs a file}
    work=$(mktemp -d /tmp/matter-emu-rootfs.XXXXXX)
    trap 'rm -rf "$work"' EXIT
    debian_rootfs "$work/rootfs"
    tar --numeric-owner -C "$work/rootfs" -cf "$out.partial" . && mv "$out.partial" "$out"
    echo "image: the Debian part in $out ($(($(stat -c %s "$out") / 1024 / 1024)) MiB)" >&2
    exit 0
fi
tag=${1:-localhost/matter-emu:latest}
command -v podman >/dev/null || { echo "image: podman is missing (apt-get install podman)" >&2; exit 1; }
if [ "${BUILD_SKIP:-0}" != 1 ] && [ -z "${MATTER_EMU_BINARY:-}" ]; then
    swift build -c release --product matter-emu -Xswiftc -warnings-as-errors 2>&1 \
        | grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Linking|Write|Planning|Applying)' >&2
fi
binary=${MATTER_EMU_BINARY:-$(swift build -c release --show-bin-path)/matter-emu}

work=$(mktemp -d /tmp/matter-emu-image.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The payload: the stripped binary, the Swift runtime libraries it links (not Debian's: those come as
# packages), the test PKI.
mkdir -p "$work/payload/bin" "$work/payload/fixtures"
cp "$binary" "$work/payload/bin/matter-emu"
strip --strip-unneeded "$work/payload/bin/matter-emu"
toolchain_libs=$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/linux
ldd "$binary" | awk '/=>/ { print $3 }' | while read -r library; do
    case $(readlink -f "$library") in
    "$(readlink -f "$toolchain_libs")"/*) cp "$library" "$work/payload/bin/" && strip --strip-unneeded "$work/payload/bin/$(basename "$library")" ;;
    esac
done
cp -r fixtures/pki "$work/payload/fixtures/pki"
root=$work/rootfs
if [ -n "${MATTER_EMU_ROOTFS:-}" ]; then
    mkdir -p "$root" && tar -C "$root" -xf "$MATTER_EMU_ROOTFS"
else
    debian_rootfs "$root"
fi
mkdir -p "$root/opt/matter-emu" "$root/tmp" "$root/var/lib/matter-emu" "$root/run/matter-emu"
cp -r "$work/payload/bin" "$work/payload/fixtures" "$root/opt/matter-emu/"
chmod 1777 "$root/tmp"
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nmatter:x:10001:10001:matter-emu:/var/lib/matter-emu:/usr/sbin/nologin\n' \
    >"$root/etc/passwd"
printf 'root:x:0:\nmatter:x:10001:\n' >"$root/etc/group"
chown 10001:10001 "$root/var/lib/matter-emu" "$root/run/matter-emu"
tar --numeric-owner -C "$root" -cf "$work/rootfs.tar" .
podman rmi -f "$tag" >/dev/null 2>&1 || true
podman import --change 'USER 10001' --change 'WORKDIR /var/lib/matter-emu' \
    --change 'ENV PATH=/opt/matter-emu/bin:/usr/bin:/bin' --change 'ENV MATTER_EMU_PKI=/opt/matter-emu/fixtures/pki' \
    --change 'ENTRYPOINT ["matter-emu"]' \
    --change 'CMD ["--help"]' --change 'LABEL org.opencontainers.image.title=matter-emu' \
    "$work/rootfs.tar" "$tag" >/dev/null
size=$(podman image inspect --format '{{.Size}}' "$tag")
echo "image: $tag, $((size / 1024 / 1024)) MiB ($size bytes; the root file system tar was $(($(stat -c %s "$work/rootfs.tar") / 1024 / 1024)) MiB)"
