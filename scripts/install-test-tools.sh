#!/usr/bin/env bash
# Installs the external tools that llcoro's tests use (clang/LLVM 19 and 22,
# LLVM 14 (with clang-14, which builds MLIR 14's IR), MLIR 14/19/22 as a second producer of coroutine IR, asio headers,
# Boost 1.81's headers (Boost.Asio for the library programs),
# valgrind, gdb, GNU time, python3, and CMake, Ninja and ccache for the
# `llcoro cc` launcher test, and chromium, which loads the HTML frame report
# headless) on Debian/Ubuntu, then MLIR's async
# runtime libraries (scripts/install-mlir-runtimes.sh).
#
# Idempotent: when every tool is already on PATH it only prints
# "all test tools present" and exits (no apt-get invocation at all).
set -euo pipefail

# command -> Debian package providing it
declare -A PKG_OF=(
    [clang-19]=clang-19
    [clang++-19]=clang-19
    [opt-19]=llvm-19
    [llvm-diff-19]=llvm-19
    [lli-19]=llvm-19
    [clang-22]=clang-22
    [clang++-22]=clang-22
    [opt-22]=llvm-22
    [llvm-diff-22]=llvm-22
    [lli-22]=llvm-22
    [clang-14]=clang-14
    [clang++-14]=clang-14
    [opt-14]=llvm-14
    [llvm-diff-14]=llvm-14
    [lli-14]=llvm-14
    [valgrind]=valgrind
    [gdb]=gdb
    [/usr/bin/time]=time
    [python3]=python3
    [mlir-opt-14]=mlir-14-tools
    [mlir-translate-14]=mlir-14-tools
    [mlir-opt-19]=mlir-19-tools
    [mlir-translate-19]=mlir-19-tools
    [mlir-opt-22]=mlir-22-tools
    [mlir-translate-22]=mlir-22-tools
    [/usr/include/asio.hpp]=libasio-dev
    [/usr/include/boost/asio.hpp]=libboost1.81-dev
    [cmake]=cmake
    [ninja]=ninja-build
    [ccache]=ccache
    [chromium]=chromium
)
# Fixed order so the output is stable.
TOOLS=(clang-19 clang++-19 opt-19 llvm-diff-19 lli-19
       clang-22 clang++-22 opt-22 llvm-diff-22 lli-22
       clang-14 clang++-14 opt-14 llvm-diff-14 lli-14
       valgrind gdb /usr/bin/time python3
       mlir-opt-14 mlir-translate-14 mlir-opt-19 mlir-translate-19
       mlir-opt-22 mlir-translate-22 /usr/include/asio.hpp
       /usr/include/boost/asio.hpp
       cmake ninja ccache chromium)

have() {
    case "$1" in
        /*) [[ -e "$1" ]] ;;
        *) command -v "$1" >/dev/null 2>&1 ;;
    esac
}

missing_tools=()
packages=()
for tool in "${TOOLS[@]}"; do
    if ! have "$tool"; then
        missing_tools+=("$tool")
        pkg=${PKG_OF[$tool]}
        # de-duplicate packages, keeping first-seen order
        if [[ " ${packages[*]-} " != *" $pkg "* ]]; then
            packages+=("$pkg")
        fi
    fi
done

runtimes() {
    if [[ -x "$(dirname "$0")/install-mlir-runtimes.sh" ]]; then
        "$(dirname "$0")/install-mlir-runtimes.sh"
    fi
}

if ((${#missing_tools[@]} == 0)); then
    echo "all test tools present"
    runtimes
    exit 0
fi

echo "missing: ${missing_tools[*]}"
echo "installing packages: ${packages[*]}"

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "error: not root and sudo not available; install manually: ${packages[*]}" >&2
        exit 1
    fi
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: apt-get not found; install manually: ${packages[*]}" >&2
    exit 1
fi

"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${packages[@]}"

still_missing=()
for tool in "${missing_tools[@]}"; do
    have "$tool" || still_missing+=("$tool")
done
if ((${#still_missing[@]} > 0)); then
    echo "error: still missing after install: ${still_missing[*]}" >&2
    echo "(clang-19/22 and llvm-19/22 may need the apt.llvm.org repository on older releases)" >&2
    exit 1
fi

echo "installed: ${packages[*]}"
runtimes
