#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Regenerates the vendored vmlinux.h from a kernel's BTF. Builds never read
# the build host's BTF: CO-RE relocates field accesses at load time, so one
# vmlinux.h serves every kernel with BTF. Regenerate only to use new types.
#   scripts/gen-vmlinux.sh [BTF_FILE] [ARCH]
set -euo pipefail
cd "$(dirname "$0")/.."
btf=${1:-/sys/kernel/btf/vmlinux}
arch=${2:-$(uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')}
mkdir -p "vmlinux/$arch"
bpftool btf dump file "$btf" format c >"vmlinux/$arch/vmlinux.h.tmp"
mv "vmlinux/$arch/vmlinux.h.tmp" "vmlinux/$arch/vmlinux.h"
echo "vmlinux/$arch/vmlinux.h from $btf ($(uname -r))"
