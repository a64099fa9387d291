#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# House style checks that hold for every C file and script we own (kernel
# style: tabs, 100 columns, SPDX line first, no trailing whitespace). Prints
# one TAP line per rule; exits 1 on any violation.
set -u
cd "$(dirname "$0")/.."

mapfile -t c_files < <(git ls-files 'src/*.[ch]' 'bpf/*.[ch]' 'include/*.h' 'tests/*.[ch]' 2>/dev/null ||
	find src bpf include tests -name '*.[ch]')
# Without git (a release tarball, a minimal system) the same files by find.
mapfile -t sh_files < <(find scripts tests bench -name '*.sh' | sort; echo .ci/run)
n=0 bad=0

rule() {
	local what=$1 hits=$2
	n=$((n + 1))
	if [ -z "$hits" ]; then
		echo "ok $n - $what"
	else
		bad=$((bad + 1))
		echo "not ok $n - $what"
		printf '%s\n' "$hits" | head -20 | sed 's/^/#   /'
	fi
}

rule "C: lines at most 100 columns (tabs as 8)" \
	"$(for f in "${c_files[@]}"; do expand -t 8 "$f" | awk -v f="$f" 'length > 100 { print f ":" NR }'; done)"
rule "C: indentation uses tabs" \
	"$(grep -nE '^ {8,}[^ *]' "${c_files[@]}" /dev/null | grep -v '^[^:]*:[0-9]*: *"' | head -20)"
rule "no trailing whitespace" "$(grep -nE '[[:space:]]+$' "${c_files[@]}" "${sh_files[@]}" /dev/null | head -20)"
rule "SPDX line first (second after a shebang)" \
	"$(for f in "${c_files[@]}" "${sh_files[@]}"; do
		[ "$f" = .ci/run ] && continue
		head -2 "$f" | grep -q 'SPDX-License-Identifier' || echo "$f"
	done)"
rule "BPF objects carry a license section" \
	"$(for f in bpf/*.bpf.c; do grep -q 'SEC("license")' "$f" || echo "$f"; done)"
rule "no exit() outside src/main.c" \
	"$(grep -n '\bexit(' src/*.c src/core/*.c src/sinks/*.c | grep -v '^src/main.c' || true)"
echo "1..$n"
[ "$bad" = 0 ]
