#!/usr/bin/env bash
# bench/gpu-check.sh: builds, verifies and times every GPU example (assets/examples/, target gpu) in all modes,
# POOL against EXTERNAL, at a small size (per-call overheads dominate) and a large one; prints a short table and
# writes bench/results/gpu-check.json (schema transient-lab/gpu-check@1) next to one profile@1 JSON per run.
#
# Every example is first built in all modes with `transient-lab build` (nvcc, no device needed). The timing half
# ONLY RUNS ON A MACHINE WITH A CUDA DEVICE (a GPU node): there each example goes through `transient-lab profile`,
# i.e. the runner's GPU path (device arguments, CUDA-event device times, pool attributes, verification on the
# device, docs/gpu.md "The runner on a GPU"). On a machine without a device it says so and exits 0 (1 if a
# build failed): nothing can be measured without one. Budget: under 5 minutes on one GPU with the defaults.
#
# Environment: GPU_CHECK_SMALL (default 64) and GPU_CHECK_LARGE (default 1024) are the --default-symbol values
# of the two sizes; GPU_CHECK_CALLS (default 50) timed calls per mode; GPU_CHECK_OUT the output folder;
# GPU_CHECK_POOL_RELEASE_THRESHOLD (default max, DaCe's) the --pool-release-threshold of every profile.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli=(node "$root/dist/electron/cli/main.js")
out="${GPU_CHECK_OUT:-$root/bench/results/gpu-check}"
small="${GPU_CHECK_SMALL:-64}"
large="${GPU_CHECK_LARGE:-1024}"
calls="${GPU_CHECK_CALLS:-50}"
threshold="${GPU_CHECK_POOL_RELEASE_THRESHOLD:-max}"

if [[ ! -f "$root/dist/electron/cli/main.js" ]]; then
  echo "gpu-check: Transient Lab is not built here (run npm ci, or npm run build)" >&2
  exit 2
fi

mkdir -p "$out"
examples=()
for f in "$root"/assets/examples/*.sdfg "$root"/assets/examples/*/*.sdfg; do
  [[ -f "$f" ]] || continue
  target="$("${cli[@]}" analyze "$f" --json --default-symbol "$small" 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{process.stdout.write(JSON.parse(s).target)}catch{}})')"
  [[ "$target" == "gpu" ]] && examples+=("$f")
done
if [[ ${#examples[@]} -eq 0 ]]; then
  echo "gpu-check: no GPU example in assets/examples (none whose target is gpu): nothing to check" >&2
  exit 1
fi

# Build first: it needs nvcc, not a device, so a machine without one still checks that every GPU example
# compiles in every mode (transient-lab build, docs/build.md).
build_failed=0
for f in "${examples[@]}"; do
  name="$(basename "$f" .sdfg)"
  set +e
  "${cli[@]}" build "$f" --default-symbol "$small" --layout both --out "$out/build/$name-$small" > "$out/$name-build.txt" 2>&1
  code=$?
  set -e
  if [[ $code -eq 0 ]]; then
    echo "gpu-check: built $name in all modes: $(head -n 1 "$out/$name-build.txt")"
  else
    build_failed=1
    echo "gpu-check: building $name failed (exit $code): $(tail -n 3 "$out/$name-build.txt")" >&2
  fi
done

set +e
devices="$("${cli[@]}" devices 2>&1)"
status=$?
set -e
if [[ $status -eq 4 ]]; then
  echo "gpu-check: this machine has no CUDA device, so nothing was verified or timed (the builds above need none)."
  echo "$devices" | sed 's/^/  /'
  echo "gpu-check: run it on a GPU node (or: transient-lab profile FILE --remote HOST)."
  exit $build_failed
elif [[ $status -ne 0 ]]; then
  echo "gpu-check: the device probe failed:" >&2
  echo "$devices" >&2
  exit 1
fi
echo "$devices"

runs=()
failed=0
started=$(date +%s)
for f in "${examples[@]}"; do
  name="$(basename "$f" .sdfg)"
  for size in "$small" "$large"; do
    json="$out/$name-$size.json"
    set +e
    "${cli[@]}" profile "$f" --default-symbol "$size" --layout both --calls "$calls" --warmup 5 --processes 1 --timeout 120 --pool-release-threshold "$threshold" --out "$json" > "$out/$name-$size.txt" 2>&1
    code=$?
    set -e
    [[ $code -eq 0 ]] || { failed=1; echo "gpu-check: $name at $size failed (exit $code): $(tail -n 3 "$out/$name-$size.txt")" >&2; }
    runs+=("$name|$size|$code|$json")
  done
done
elapsed=$(( $(date +%s) - started ))

# The table and the summary JSON (node: the results are JSON).
printf '%s\n' "${runs[@]}" | node - "$out/../gpu-check.json" "$elapsed" "$devices" <<'JS'
const fs = require('node:fs');
const [summaryPath, elapsed, devices] = process.argv.slice(2);
const lines = fs.readFileSync(0, 'utf8').trim().split('\n');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return null;
  const p = (s.length - 1) / 2;
  return s[Math.floor(p)] + (s[Math.ceil(p)] - s[Math.floor(p)]) * (p - Math.floor(p));
};
const fmt = (ns) => (ns == null || !Number.isFinite(ns) ? '-' : ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);
const rows = [];
const runs = [];
for (const line of lines) {
  const [example, size, code, file] = line.split('|');
  const run = { example, defaultSymbol: Number(size), exitCode: Number(code), result: file, modes: [] };
  if (fs.existsSync(file)) {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const m of doc.modes) {
      const s = m.summary;
      // Host time around the allocation API calls per call (cudaMallocAsync/cudaFreeAsync enqueue in POOL).
      const allocNsPerCall = median(m.calls.allocNs.map((a, i) => a + m.calls.freeNs[i]));
      const mode = { label: m.label, medianNs: s.medianNs, deviceMedianNs: m.gpu?.deviceMedianNs ?? null, allocNsPerCall, allocShare: s.allocShare, pool: m.gpu?.pool ?? null };
      run.modes.push(mode);
      rows.push([example, size, m.label, fmt(s.medianNs), fmt(m.gpu?.deviceMedianNs), fmt(allocNsPerCall), `${(100 * s.allocShare).toFixed(1)}%`, m.gpu?.pool ? `${(m.gpu.pool.reservedHighBytes / 2 ** 20).toFixed(2)} / ${(m.gpu.pool.usedHighBytes / 2 ** 20).toFixed(2)} MiB` : '-']);
    }
    run.device = doc.device ?? null;
    run.verified = doc.verification.ok;
    run.poolReleaseThreshold = doc.settings.poolReleaseThreshold ?? null;
    const pool = run.modes.find((x) => x.label === 'POOL');
    const ext = run.modes.find((x) => x.label === 'EXTERNAL (packed)');
    run.poolOverExternal = pool && ext ? pool.medianNs / ext.medianNs : null;
    run.poolOverExternalDevice = pool?.deviceMedianNs && ext?.deviceMedianNs ? pool.deviceMedianNs / ext.deviceMedianNs : null;
  }
  runs.push(run);
}
const head = ['example', 'size', 'mode', 'host/call', 'device/call', 'alloc+free/call', 'alloc share', 'pool high reserved / used'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const show = (r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ');
console.log(show(head));
for (const r of rows) console.log(show(r));
for (const run of runs) {
  if (run.poolOverExternal) {
    const device = run.poolOverExternalDevice ? `, device ${run.poolOverExternalDevice.toFixed(2)}×` : '';
    console.log(`${run.example} @${run.defaultSymbol}: POOL / EXTERNAL (packed) = host ${run.poolOverExternal.toFixed(2)}×${device}${run.verified ? '' : ' (VERIFICATION FAILED)'}`);
  }
}
fs.writeFileSync(summaryPath, JSON.stringify({ schema: 'transient-lab/gpu-check@1', createdAt: new Date().toISOString(), elapsedSeconds: Number(elapsed), devices: devices.split('\n'), runs }, null, 2) + '\n');
console.log(`gpu-check: ${runs.length} runs in ${elapsed} s; summary ${summaryPath}`);
JS
exit $failed
