#!/usr/bin/env bash
# Unpacks MLIR's async runtime (libmlir_async_runtime.so, with libmlir_c_runner_utils.so beside it)
# of LLVM 14, 19 and 22 for crates/llcoro/tests/mlir.rs. The libmlir-N packages conflict with each
# other, so instead of installing them, each is downloaded with `apt-get download` and unpacked with
# `dpkg -x` into its own directory:
#
#     /opt/llcoro-mlir/N/usr/lib/llvm-N/lib/libmlir_async_runtime.so.*
#
# (LLCORO_MLIR_DIR overrides /opt/llcoro-mlir.) Their other dependency, libLLVM of the same version,
# comes with the llvm-N packages that scripts/install-test-tools.sh installs.
#
# Idempotent: a version whose runtime is already unpacked is left alone; when all are, the script
# prints "MLIR runtimes present" and runs no apt-get at all.
set -euo pipefail

ROOT=${LLCORO_MLIR_DIR:-/opt/llcoro-mlir}
VERSIONS=(14 19 22)

runtime_present() {
    compgen -G "$ROOT/$1/usr/lib/llvm-$1/lib/libmlir_async_runtime.so*" >/dev/null &&
        compgen -G "$ROOT/$1/usr/lib/llvm-$1/lib/libmlir_c_runner_utils.so*" >/dev/null
}

missing=()
for n in "${VERSIONS[@]}"; do
    runtime_present "$n" || missing+=("$n")
done
if ((${#missing[@]} == 0)); then
    echo "MLIR runtimes present in $ROOT"
    exit 0
fi

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "error: not root and sudo not available; cannot unpack into $ROOT" >&2
        exit 1
    fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# apt-get download runs as the calling user and writes into the current directory.
chmod 755 "$work"
cd "$work"

download() {
    env DEBIAN_FRONTEND=noninteractive apt-get download "libmlir-$1" >/dev/null 2>&1
}

updated=0
for n in "${missing[@]}"; do
    if ! download "$n"; then
        if ((updated == 0)); then
            "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
            updated=1
        fi
        if ! download "$n"; then
            echo "error: apt-get download libmlir-$n failed" >&2
            exit 1
        fi
    fi
    deb=$(compgen -G "libmlir-${n}_*.deb" | head -n 1)
    # Unpack into a fresh directory, then move it into place, so an interrupted run leaves no
    # half-unpacked runtime that later runs would take for a complete one.
    "${SUDO[@]}" mkdir -p "$ROOT"
    "${SUDO[@]}" rm -rf "$ROOT/$n.partial"
    "${SUDO[@]}" dpkg -x "$deb" "$ROOT/$n.partial"
    "${SUDO[@]}" rm -rf "$ROOT/$n"
    "${SUDO[@]}" mv "$ROOT/$n.partial" "$ROOT/$n"
    rm -f "$deb"
    if ! runtime_present "$n"; then
        echo "error: libmlir-$n has no libmlir_async_runtime.so / libmlir_c_runner_utils.so" >&2
        exit 1
    fi
    echo "unpacked libmlir-$n into $ROOT/$n"
done
