#!/usr/bin/env bash
# Runs the time-slicing calibration on this machine's GPU 0 and writes, into
# OUTDIR, the files `gpushare-sim calibrate fit OUTDIR` reads
# (calibrate/README.md):
#
#   device.yaml     the worker's `info` plus kernel_us
#   throughput.csv  blocks,processes,process,kernels,seconds
#   latency.csv     corunners,corunner_blocks,sample,latency_us
#
# Usage: calibrate/run_calibration.sh OUTDIR [WORKER]
#   WORKER defaults to build-cuda/gs-calibrate-worker under the repository.
# Environment (numbers may be fractional where they are times):
#   CAL_SECONDS      seconds each throughput run lasts (default 5)
#   CAL_SAMPLES      probe launches per co-runner count (default 200)
#   CAL_INTERVAL_MS  pause after each probe launch (default 5)
#   CAL_KERNEL_US    target duration of one spin launch (default 2000)
#   CAL_START_DELAY  seconds between starting a run's processes and their
#                    common start time (default 2: enough for 8 processes
#                    to create their CUDA contexts; a worker that is late
#                    says so on stderr)
#
# With the defaults it takes about two minutes on one GPU. Progress goes to
# stderr; the last line on stdout is the command that fits the results. The
# script changes no GPU setting (no MPS, MIG, clocks or compute mode); the
# GPU should be otherwise idle. Exit status: 0 when every file is written, 1
# when a worker fails or prints something unexpected, 2 on a usage error.
set -euo pipefail

usage() {
  echo "usage: $0 OUTDIR [WORKER]" >&2
  exit 2
}
[[ $# -ge 1 && $# -le 2 ]] || usage
outdir=$1
worker=${2:-$(cd "$(dirname "$0")/.." && pwd)/build-cuda/gs-calibrate-worker}
seconds=${CAL_SECONDS:-5}
samples=${CAL_SAMPLES:-200}
interval_ms=${CAL_INTERVAL_MS:-5}
kernel_us=${CAL_KERNEL_US:-2000}
start_delay=${CAL_START_DELAY:-2}
readonly max_processes=8 max_corunners=4

die() {
  echo "run_calibration: $*" >&2
  exit 1
}
for setting in "CAL_SECONDS=$seconds" "CAL_INTERVAL_MS=$interval_ms" \
               "CAL_KERNEL_US=$kernel_us" "CAL_START_DELAY=$start_delay"; do
  [[ ${setting#*=} =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
    { echo "run_calibration: $setting is not a number" >&2; usage; }
done
[[ $samples =~ ^[1-9][0-9]*$ ]] ||
  { echo "run_calibration: CAL_SAMPLES=$samples is not a count" >&2; usage; }
[[ -x $worker ]] || die "no worker at $worker (build it: calibrate/README.md)"

mkdir -p "$outdir"
tmp=$(mktemp -d)
# Whatever this script started and is still running goes when it ends.
cleanup() {
  local pids
  pids=$(jobs -pr)
  # shellcheck disable=SC2086  # one pid a word
  [[ -z $pids ]] || kill $pids 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A CLOCK_REALTIME instant CAL_START_DELAY seconds from now, in ns.
start_time_ns() {
  echo $(($(date +%s%N) + $(awk -v s="$start_delay" 'BEGIN { printf "%d", s * 1e9 }')))
}

# ---- device.yaml
"$worker" info >"$tmp/device.yaml" || die "$worker info failed"
echo "kernel_us: $kernel_us" >>"$tmp/device.yaml"
sms=$(awk '$1 == "sms:" { print $2 }' "$tmp/device.yaml")
[[ $sms =~ ^[1-9][0-9]*$ ]] || die "$worker info printed no sms"
cp "$tmp/device.yaml" "$outdir/device.yaml"
echo "device: $(tr '\n' ' ' <"$outdir/device.yaml")" >&2

# The spin kernel's loop count, measured once with the GPU to itself, so that
# every worker of every run does the same work per launch.
iterations=$("$worker" iterations --blocks "$sms" --kernel-us "$kernel_us") ||
  die "$worker iterations failed"
[[ $iterations =~ ^[1-9][0-9]*$ ]] || die "iterations printed '$iterations'"

# ---- throughput.csv: N processes time-sliced, N = 1..8, full and quarter GPU
echo "blocks,processes,process,kernels,seconds" >"$tmp/throughput.csv"
for blocks in "$sms" $((sms / 4 > 1 ? sms / 4 : 1)); do
  for ((n = 1; n <= max_processes; n++)); do
    start=$(start_time_ns)
    pids=()
    for ((p = 0; p < n; p++)); do
      "$worker" throughput --blocks "$blocks" --seconds "$seconds" \
        --start-at-ns "$start" --kernel-us "$kernel_us" \
        --iterations "$iterations" >"$tmp/throughput.$p" &
      pids+=($!)
    done
    for ((p = 0; p < n; p++)); do
      wait "${pids[p]}" || die "throughput worker $p of $n failed"
      read -r kernels elapsed rest <"$tmp/throughput.$p" || true
      [[ ${kernels:-} =~ ^[0-9]+$ && ${elapsed:-} =~ ^[0-9]+(\.[0-9]+)?$ &&
         -z ${rest:-} ]] ||
        die "throughput worker $p printed '$(cat "$tmp/throughput.$p")'"
      echo "$blocks,$n,$p,$kernels,$elapsed" >>"$tmp/throughput.csv"
    done
    echo "throughput: $blocks blocks, $n processes: $(tail -n "$n" \
      "$tmp/throughput.csv" | awk -F, '$5 > 0 { r += $4 / $5 } END { printf "%.1f", r }'
      ) kernels/s in all" >&2
  done
done
cp "$tmp/throughput.csv" "$outdir/throughput.csv"

# ---- latency.csv: a probe's launch latency beside k full-GPU co-runners
# The probe starts once every co-runner says it is ready (spinning). The
# co-runners would outlast the probe many times over; they are stopped
# (SIGTERM: they drain and exit 0) as soon as it is done.
spin_seconds=$(awk -v d="$start_delay" -v m="$samples" -v i="$interval_ms" \
  'BEGIN { printf "%.3f", d + 10 * m * i / 1000 + 30 }')

# Waits (at most 60 s) until co-runner $1 of pid $2 has printed "ready".
wait_ready() {
  local waited=0
  until grep -qx ready "$tmp/spin.$1" 2>/dev/null; do
    kill -0 "$2" 2>/dev/null || { wait "$2" || true; die "co-runner $1 failed"; }
    ((waited++ < 1200)) || die "co-runner $1 not ready after 60 s"
    sleep 0.05
  done
}
echo "corunners,corunner_blocks,sample,latency_us" >"$tmp/latency.csv"
for ((k = 0; k <= max_corunners; k++)); do
  spinners=()
  rm -f "$tmp"/spin.*
  for ((c = 0; c < k; c++)); do
    "$worker" spin --blocks "$sms" --seconds "$spin_seconds" \
      --kernel-us "$kernel_us" --iterations "$iterations" >"$tmp/spin.$c" &
    spinners+=($!)
  done
  for ((c = 0; c < k; c++)); do
    wait_ready "$c" "${spinners[c]}"
  done
  "$worker" probe --samples "$samples" --interval-ms "$interval_ms" \
    --start-at-ns "$(start_time_ns)" >"$tmp/probe" ||
    die "probe beside $k co-runners failed"
  for pid in ${spinners[@]+"${spinners[@]}"}; do
    kill -0 "$pid" 2>/dev/null ||
      die "a co-runner ended before the probe beside $k co-runners"
    kill -TERM "$pid"
  done
  for pid in ${spinners[@]+"${spinners[@]}"}; do
    status=0
    wait "$pid" || status=$?
    [[ $status -eq 0 || $status -eq 143 ]] || die "a co-runner failed ($status)"
  done
  [[ $(wc -l <"$tmp/probe") -eq $samples ]] ||
    die "probe printed $(wc -l <"$tmp/probe") lines, not $samples"
  s=0
  while read -r latency; do
    [[ $latency =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "probe printed '$latency'"
    echo "$k,$sms,$s,$latency" >>"$tmp/latency.csv"
    s=$((s + 1))
  done <"$tmp/probe"
  echo "latency: $k co-runners: median $(sort -g "$tmp/probe" |
    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }') us" >&2
done
cp "$tmp/latency.csv" "$outdir/latency.csv"

echo "done; fit the model with:" >&2
echo "gpushare-sim calibrate fit $outdir --out calibration.yaml"
