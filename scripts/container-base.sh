#!/usr/bin/env bash
# Prepares this machine for building and running the registry's container image with podman (the image test in
# test/container does the same on its own):
#
# - writes a containers.conf with no default ulimits (a container that may not raise RLIMIT_NOFILE fails to start
#   otherwise) to $CONTAINER_CACHE_DIR (default ~/.cache/reg-container); point CONTAINERS_CONF at it;
# - builds a stand-in base image, Debian trixie with its Node.js 20, as $CONTAINER_BASE (default
#   localhost/reg-base:trixie) when podman's image store does not hold it yet, for machines that cannot pull the
#   image named in the Containerfile. Building it needs root (debootstrap) and a Debian mirror
#   ($DEBIAN_MIRROR, default deb.debian.org).
#
# Running it again does nothing new. It prints each step with its duration.
set -euo pipefail

cache="${CONTAINER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reg-container}"
base="${CONTAINER_BASE:-localhost/reg-base:trixie}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

step() { printf 'container-base: %s\n' "$*"; }
since() { printf '%d s' $(($(date +%s) - $1)); }

mkdir -p "$cache"
conf="$cache/containers.conf"
cat >"$conf.new" <<'EOF'
# Containers start with the file limits they inherit: setting the defaults is refused where the engine may not
# raise RLIMIT_NOFILE.
[containers]
default_ulimits = []
EOF
mv "$conf.new" "$conf"
export CONTAINERS_CONF="$conf"
step "wrote $conf (use it with CONTAINERS_CONF=$conf)"

if podman image exists "$base"; then
  step "$base is present, nothing to build"
  exit 0
fi

for tool in debootstrap podman; do
  command -v "$tool" >/dev/null || {
    step "$tool is missing (apt-get install podman runc debootstrap)" >&2
    exit 1
  }
done

started=$(date +%s)
rootfs="$(mktemp -d "${TMPDIR:-/var/tmp}/reg-base.XXXXXX")"
trap 'rm -rf "$rootfs"' EXIT
step "building $base: debootstrap trixie into $rootfs"
# minbase: essential packages and apt only. npm is not among them (installing it here fails); the image's
# builder stage installs it with apt.
debootstrap --variant=minbase --include=nodejs,ca-certificates trixie "$rootfs" "$mirror" >"$rootfs.log" 2>&1 || {
  tail -n 30 "$rootfs.log" >&2
  rm -f "$rootfs.log"
  exit 1
}
rm -f "$rootfs.log"
# The downloaded packages and package lists are not part of a base image.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log
step "debootstrap took $(since "$started"), node $(chroot "$rootfs" node --version)"

imported=$(date +%s)
tar -C "$rootfs" --numeric-owner -c . |
  podman import --quiet --change 'CMD ["node"]' --message "Debian trixie minbase with nodejs" - "$base" >/dev/null
step "imported $base in $(since "$imported") ($(podman image inspect --format '{{.Size}}' "$base") bytes)"
step "built $base in $(since "$started")"
