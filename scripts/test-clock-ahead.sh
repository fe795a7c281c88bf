#!/usr/bin/env bash
# The suites whose code reads a clock, run a second time with this process tree's clock a year ahead
# (Debian's faketime). A test that only passes near the day its fixtures were recorded fails here.
# Suites that spawn the real CLIs, Chromium or a pty are left out (they are vitest's `e2e` project, so
# this runs the `unit`, `unit-isolated` and `integration` projects only: with projects, vitest applies no --exclude given on the command line): libfaketime preloaded into those
# children (Codex's sandbox, Chromium's zygote) breaks them for reasons that have nothing to do with
# dates, and a statically linked binary (opencode) keeps the real clock, so its timestamps would be
# a year behind the tests' — a skew no real machine has. The many-instance load test is left out for
# the same reason: its store is a real Postgres whose clock faketime cannot move. test/clock/clock-ahead.test.ts fails this run if the clock was not in fact shifted.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v faketime >/dev/null 2>&1; then
  echo "npm run test:clock-ahead needs Debian's faketime: apt-get install faketime" >&2
  exit 2
fi

export CHATRAIL_CLOCK_AHEAD="${CHATRAIL_CLOCK_AHEAD:-+365d}"
# Only the wall clock moves: timers and timeouts run on the monotonic clock as usual.
export FAKETIME_DONT_FAKE_MONOTONIC=1
exec faketime -f "$CHATRAIL_CLOCK_AHEAD" node_modules/.bin/vitest run \
  --reporter=default --reporter=json --outputFile.json=test-output/vitest-clock-ahead.json \
  test/clock test/agents test/cli test/testing test/conversation test/controller test/contract test/store \
  test/server test/protocol test/client test/ai-sdk test/tools examples \
  --project unit --project unit-isolated --project integration "$@"
