#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The whole suite: install what is missing, build, run unit tests (no root)
# and integration tests (root, real BPF). Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
make -s tests
exec tests/run.sh "$@"
