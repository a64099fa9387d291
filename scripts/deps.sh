#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Installs the Debian packages cpuledger needs that are missing (apt-get;
# nothing else is downloaded). Works on a minimal Debian 12 as root.
#   scripts/deps.sh [build|test|bench]...   (default: build)
set -euo pipefail

build_pkgs=(make gcc libc6-dev pkg-config clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev
	libsqlite3-dev libmicrohttpd-dev)
test_pkgs=(util-linux procps jq sqlite3 curl prometheus)
bench_pkgs=(linux-perf bpftrace libbpf-tools)

want=()
for group in "${@:-build}"; do
	case $group in
	build) want+=("${build_pkgs[@]}") ;;
	test) want+=("${build_pkgs[@]}" "${test_pkgs[@]}") ;;
	bench) want+=("${build_pkgs[@]}" "${test_pkgs[@]}" "${bench_pkgs[@]}") ;;
	*) echo "deps.sh: unknown group '$group' (build, test, bench)" >&2; exit 2 ;;
	esac
done

missing=()
for pkg in "${want[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages: ${missing[*]}; run as root to install them" >&2
	exit 1
fi
echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Installing test tools must not start daemons (prometheus ships a service):
# a policy-rc.d that says no, for the duration of this install only.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy"
	trap 'rm -f "$policy"' EXIT
fi
# A fresh system has no package lists yet; refresh them if the install fails.
# apt's chatter goes to stderr: stdout belongs to what runs after us.
if ! apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
	apt-get update -q >&2
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi
