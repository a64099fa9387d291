#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Containers and pods from cgroup paths: cgroups named the way each runtime
# and driver names them, made under the cgroup2 mount (found in mountinfo),
# with test processes moved in; stat --by container/pod/cgroup must name
# them; a container removed mid-interval is still named; threads of one
# process in different cgroups are charged to their own cgroup.
. "$(dirname "$0")/lib.sh"
need_root
root=$(cgroup2_mount)
[ -n "$root" ] || skip_all "no cgroup2 hierarchy mounted"

hex64() { printf '%s' "$1" | sha256sum | cut -c1-64; }
uid() { local h; h=$(hex64 "$1"); echo "${h:0:8}-${h:8:4}-${h:12:4}-${h:16:4}-${h:20:12}"; }
tag=$$
ids=()
# make_path REL...: mkdir -p under the root, each level removed at cleanup.
make_path() {
	local rel=$1 acc=""
	IFS=/ read -ra parts <<<"${rel#/}"
	for p in "${parts[@]}"; do
		acc="$acc/$p"
		if [ ! -d "$root$acc" ]; then
			mkdir "$root$acc" || return 1
			on_cleanup "rmdir '$root$acc'"
		fi
	done
}
# run_in REL: a workload in cgroup REL; sets WL.
run_in() {
	make_path "$1" || return 1
	"$WORKLOAD" --forever --slice-ms 5 --sleep-ms 5 &
	WL=$!
	track $WL
	echo $WL >"$root$1/cgroup.procs"
}

d1=$(hex64 docker$tag); c2=$(hex64 containerd$tag); c3=$(hex64 crio$tag)
p4=$(hex64 podman$tag); d5=$(hex64 dockerfs$tag); k6=$(hex64 kubefs$tag)
u2=$(uid pod2$tag); u3=$(uid pod3$tag); u6=$(uid pod6$tag)
layouts=(
	"docker $d1 - /cltest$tag.slice/docker-$d1.scope"
	"containerd $c2 $u2 /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${u2//-/_}.slice/cri-containerd-$c2.scope"
	"cri-o $c3 $u3 /kubepods.slice/kubepods-pod${u3//-/_}.slice/crio-$c3.scope"
	"podman $p4 - /machine.slice/libpod-$p4.scope"
	"docker $d5 - /docker/$d5"
	"- $k6 $u6 /kubepods/besteffort/pod$u6/$k6"
)
for l in "${layouts[@]}"; do
	read -r runtime id pod path <<<"$l"
	run_in "$path" || not_ok "created $path"
done
sleep 0.3
out=$TEST_TMP/containers.csv
"$CPULEDGER" stat --by container -f csv -i 1s -d 2s >"$out" 2>"$TEST_TMP/err"
check_eq "stat --by container exits 0" "$?" 0
check_eq "header" "$(head -1 "$out" | cut -d, -f1-7)" \
	"time_ns,interval_ns,cgroup,container_id,container_runtime,pod_uid,oncpu_ns"
for l in "${layouts[@]}"; do
	read -r runtime id pod path <<<"$l"
	[ "$runtime" = - ] && runtime=""
	[ "$pod" = - ] && pod=""
	row=$(awk -F, -v id="$id" '$4 == id { print $3 "|" $5 "|" $6; exit }' "$out")
	check_eq "${path%%/*}${path:0:40}...: id, runtime, pod uid" "$row" "$path|$runtime|$pod"
	busy=$(awk -F, -v id="$id" '$4 == id { s += $7 } END { printf "%.0f", s }' "$out")
	check_ge "container ${id:0:12} is charged its CPU time" "$busy" 100000000
done
check "processes outside containers are rows of their cgroup" \
	grep -q '^[0-9]*,[0-9]*,/,,,,' "$out"

out=$TEST_TMP/pods.csv
"$CPULEDGER" stat --by pod -f csv -i 1s -d 1s >"$out" 2>/dev/null
for u in "$u2" "$u3" "$u6"; do
	check_eq "--by pod: one row for pod $u" "$(awk -F, -v u="$u" '$6 == u' "$out" | wc -l)" 1
done
check "--by pod: the pod's row is the pod's cgroup" \
	grep -q ",/kubepods.slice/kubepods-pod${u3//-/_}.slice,,,$u3," "$out"

"$CPULEDGER" stat --by cgroup -f csv -i 1s -d 1s >"$TEST_TMP/cg.csv" 2>/dev/null
check "--by cgroup: the docker scope's row" grep -q ",/cltest$tag.slice/docker-$d1.scope,$d1,docker,," \
	"$TEST_TMP/cg.csv"
"$CPULEDGER" stat --by container -i 1s -d 1s >"$TEST_TMP/table" 2>/dev/null
check "table: short container id and runtime" grep -Eq "^${d1:0:12} +docker " "$TEST_TMP/table"

# A container that comes and goes within one interval is still named.
gone=$(hex64 gone$tag)
path=/cltest$tag.slice/docker-$gone.scope
out=$TEST_TMP/gone.csv
start_stat_csv "$out" --by container -i 3s
mkdir "$root$path"
bash -c "echo \$\$ > '$root$path/cgroup.procs'; exec '$WORKLOAD' --busy-ms 200"
rmdir "$root$path"
sleep 3.5
stop_stat
row=$(awk -F, -v id="$gone" '$4 == id { print $3 "|" $5; exit }' "$out")
check_eq "a container removed mid-interval is still named" "$row" "$path|docker"
check_ge "... and charged" "$(awk -F, -v id="$gone" '$4 == id { s += $7 } END { print s + 0 }' "$out")" \
	150000000

# Threads of one process in different cgroups (a threaded subtree).
make_path "/cltest$tag.slice/threaded"
make_path "/cltest$tag.slice/threaded/a"
make_path "/cltest$tag.slice/threaded/b"
if echo threaded >"$root/cltest$tag.slice/threaded/a/cgroup.type" 2>/dev/null &&
	echo threaded >"$root/cltest$tag.slice/threaded/b/cgroup.type" 2>/dev/null; then
	"$WORKLOAD" --threads 2 --forever --slice-ms 5 --sleep-ms 5 &
	wl=$!
	track $wl
	wait_until 5 test "$(ls /proc/$wl/task | wc -l)" -ge 2
	echo $wl >"$root/cltest$tag.slice/threaded/cgroup.procs"
	set -- $(ls /proc/$wl/task)
	echo "$1" >"$root/cltest$tag.slice/threaded/a/cgroup.threads"
	echo "$2" >"$root/cltest$tag.slice/threaded/b/cgroup.threads"
	"$CPULEDGER" stat --by cgroup -f csv -i 1s -d 1s >"$TEST_TMP/thr.csv" 2>/dev/null
	for sub in a b; do
		busy=$(csv_sum "$TEST_TMP/thr.csv" oncpu_ns cgroup "/cltest$tag.slice/threaded/$sub")
		check_ge "thread in cgroup $sub is charged there" "$busy" 100000000
	done
	kill $wl
	wait $wl 2>/dev/null
else
	echo "# threaded cgroups not available here: per-thread cgroups not tried"
fi

done_testing
