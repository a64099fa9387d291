#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The main job: install what is missing, build, and run `cpuledger stat` for
# a few seconds (as root). Extra arguments go to `cpuledger stat`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
make -s
exec build/cpuledger stat --duration "${CPULEDGER_DURATION:-5s}" "$@"
