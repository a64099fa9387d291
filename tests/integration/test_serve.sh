#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# cpuledger serve: counters that never go backwards, promtool's lint, a real
# Prometheus scraping it on loopback, and bad requests answered with proper
# HTTP errors without taking the server down.
. "$(dirname "$0")/lib.sh"
need_root
command -v curl >/dev/null || skip_all "curl not installed"
root=$(cgroup2_mount)
[ -n "$root" ] || skip_all "no cgroup2 hierarchy mounted"

port=$((20000 + RANDOM % 20000))
url=http://127.0.0.1:$port

# A container to see.
id=$(printf 'serve%s' "$$" | sha256sum | cut -c1-64)
cg=$root/clserve$$.slice
mkdir -p "$cg/docker-$id.scope" && on_cleanup "rmdir '$cg'" && on_cleanup "rmdir '$cg/docker-$id.scope'"
"$WORKLOAD" --forever --slice-ms 5 --sleep-ms 5 --pages 1000000000 &
wl=$!
track $wl
echo $wl >"$cg/docker-$id.scope/cgroup.procs"

"$CPULEDGER" serve --listen "127.0.0.1:$port" -i 500ms >"$TEST_TMP/out" 2>"$TEST_TMP/err" &
srv=$!
track $srv
wait_until 15 curl -sf -o /dev/null "$url/healthz" || { not_ok "serve answers /healthz" "$(cat "$TEST_TMP/err")"; done_testing; }
ok "serve answers /healthz"
check "it says where it listens" grep -q "serving metrics on http://127.0.0.1:$port/metrics" "$TEST_TMP/err"

sleep 1.2
curl -sf -D "$TEST_TMP/h1" "$url/metrics" >"$TEST_TMP/m1"
check_eq "/metrics: 200" "$(head -1 "$TEST_TMP/h1" | tr -d '\r' | cut -d' ' -f2)" 200
check "text format 0.0.4" grep -qi '^content-type: text/plain; version=0.0.4' "$TEST_TMP/h1"
sel="container_id=\"$id\",container_runtime=\"docker\""
check "the container's on-CPU series, labelled by container" \
	grep -q "^cpuledger_oncpu_seconds_total{$sel,pod_uid=\"\",cgroup=\"/clserve$$.slice/docker-$id.scope\"} " \
	"$TEST_TMP/m1"
for m in cpuledger_context_switches_total cpuledger_runq_wait_seconds_total \
	cpuledger_page_faults_total cpuledger_page_allocs_total cpuledger_reclaim_seconds_total \
	cpuledger_preemptions_total cpuledger_dropped_total cpuledger_build_info \
	cpuledger_scrape_duration_seconds cpuledger_hotplug_events_total process_resident_memory_bytes; do
	check "has $m" grep -q "^$m" "$TEST_TMP/m1"
done
if grep -q 'cycles.*not counted' "$TEST_TMP/err"; then
	check "no cycles series on a machine without a PMU (never 0)" bash -c \
		"! grep -q '^cpuledger_cycles_total' '$TEST_TMP/m1'"
fi
if command -v promtool >/dev/null; then
	check "promtool check metrics passes" bash -c "promtool check metrics < '$TEST_TMP/m1'"
fi

sleep 1.5
curl -sf "$url/metrics" >"$TEST_TMP/m2"
# Every counter sample of the first scrape is <= the same sample in the second.
back=$(awk 'FNR == NR { if ($0 !~ /^#/ && $1 ~ /_total/) v[$1] = $2; next }
	$0 !~ /^#/ && ($1 in v) && $2 + 0 < v[$1] + 0 { print $1; n++ } END { print n + 0 }' \
	"$TEST_TMP/m1" "$TEST_TMP/m2" | tail -1)
check_eq "no counter went backwards between two scrapes" "$back" 0
grow=$(awk -v s="cpuledger_oncpu_seconds_total{$sel" 'index($0, s) == 1 { print $2 }' "$TEST_TMP/m1" "$TEST_TMP/m2" |
	awk 'NR == 1 { a = $1 } NR == 2 { print ($1 > a) ? "grew" : "stuck" }')
check_eq "the container's on-CPU counter grew" "$grow" grew

curl -sf -D "$TEST_TMP/h3" -H 'Accept: application/openmetrics-text; version=1.0.0' "$url/metrics" \
	>"$TEST_TMP/m3"
check "OpenMetrics when asked" grep -qi '^content-type: application/openmetrics-text' "$TEST_TMP/h3"
check_eq "OpenMetrics ends with # EOF" "$(tail -1 "$TEST_TMP/m3")" "# EOF"
check "OpenMetrics names counter families without _total" \
	grep -q '^# TYPE cpuledger_oncpu_seconds counter$' "$TEST_TMP/m3"

# Bad requests: proper errors, and the server lives on.
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
check_eq "unknown path: 404" "$(code "$url/nope")" 404
check_eq "POST: 405" "$(code -X POST -d x=1 "$url/metrics")" 405
check_eq "DELETE: 405" "$(code -X DELETE "$url/metrics")" 405
{ printf 'X-Big: '; head -c 200000 /dev/zero | tr '\0' a; echo; } >"$TEST_TMP/big.h"
c=$(code -H @"$TEST_TMP/big.h" "$url/metrics")
if [ "$c" = 431 ] || [ "$c" = 413 ] || [ "$c" = 400 ] || [ "$c" = 000 ]; then
	ok "huge headers refused ($c)"
else
	not_ok "huge headers refused" "got HTTP $c"
fi
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'THIS IS NOT HTTP\r\n\r\n' >&3
garbage=$(timeout 5 head -1 <&3 | tr -d '\r')
exec 3>&-
case $garbage in
HTTP/1.?\ 4??*) ok "garbage gets a 4xx ($garbage)" ;;
*) not_ok "garbage gets a 4xx" "got '$garbage'" ;;
esac
# A flood of idle connections: beyond the per-address limit they are refused
# (the server protects itself); once they are gone it answers again.
flood=()
for i in $(seq 50); do
	(exec 4<>"/dev/tcp/127.0.0.1/$port"; sleep 1) 2>/dev/null &
	flood+=($!)
done
wait "${flood[@]}"
check_eq "after all that, /healthz still answers 200" "$(code "$url/healthz")" 200
check "the server is still running" kill -0 $srv

# A real Prometheus, on loopback, scrapes it and its query API returns the series.
if command -v prometheus >/dev/null; then
	pport=$((port + 1))
	cat >"$TEST_TMP/prometheus.yml" <<YML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: cpuledger
    static_configs:
      - targets: ['127.0.0.1:$port']
YML
	prometheus --config.file="$TEST_TMP/prometheus.yml" --storage.tsdb.path="$TEST_TMP/tsdb" \
		--web.listen-address="127.0.0.1:$pport" >"$TEST_TMP/prom.log" 2>&1 &
	track $!
	q="cpuledger_oncpu_seconds_total{container_id=\"$id\"}"
	found() {
		curl -s -G "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$q" |
			jq -e '.status == "success" and (.data.result | length) == 1' >/dev/null 2>&1
	}
	if wait_until 30 found; then
		ok "Prometheus scraped it: its query API returns the container's series"
	else
		not_ok "Prometheus scraped it" "$(tail -5 "$TEST_TMP/prom.log")"
	fi
	target_up() {
		curl -s -G "http://127.0.0.1:$pport/api/v1/query" \
			--data-urlencode 'query=up{job="cpuledger"}' |
			jq -e '.data.result[0].value[1] == "1"' >/dev/null 2>&1
	}
	check "Prometheus sees the target up" wait_until 10 target_up
else
	echo "# prometheus not installed: the real-scraper check was not run"
fi

kill -INT $srv
wait $srv
check_eq "serve exits 0 on SIGINT" "$?" 0

# Usage: a bad --listen is a usage error before anything loads.
"$CPULEDGER" serve --listen nonsense >/dev/null 2>"$TEST_TMP/err"
check_eq "bad --listen exits 2" "$?" 2
"$CPULEDGER" serve --by thread >/dev/null 2>&1
check_eq "--by thread is refused (cardinality) with 2" "$?" 2

done_testing
