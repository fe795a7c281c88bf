#!/usr/bin/env bash
# The suites that spawn real agent processes, run N times (default 10) while two busy loops keep both
# cores of this machine occupied: races between a child's spawn and a kill-tree sample show up here,
# not on an idle machine. Not part of CI (it takes N times the suites' time). Prints one line a round
# and a closing "N passed, N failed" line over the rounds; exits 1 if any round failed.
#   bash scripts/stress-process-suites.sh [rounds] [extra vitest args…]
set -uo pipefail
cd "$(dirname "$0")/.."

rounds="${1:-10}"
shift || true
suites=(test/agents/adapters test/agents/claude-code/live-cli.test.ts test/agents/codex/codex-live.test.ts)
busy=()
for _ in 1 2; do
  node -e 'for (;;) {}' &
  busy+=("$!")
done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT

mkdir -p test-output/stress
passed=0
failed=0
for round in $(seq 1 "$rounds"); do
  log="test-output/stress/round-$round.log"
  started=$(date +%s)
  if node_modules/.bin/vitest run "${suites[@]}" "$@" >"$log" 2>&1; then
    passed=$((passed + 1))
    verdict=pass
  else
    failed=$((failed + 1))
    verdict="FAIL (see $log)"
  fi
  echo "round $round/$rounds: $verdict in $(( $(date +%s) - started )) s, load $(cut -d' ' -f1 /proc/loadavg)"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
