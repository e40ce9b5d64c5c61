#!/usr/bin/env bash
# The shell steps of the wink check GitHub Action (action.yml at the
# repository root), one subcommand per step, so that the action and its test
# (cmd/wink/action_test.go) run the same code:
#
#   run.sh key       the cache key of a wink built from the action's checkout
#                    (its files and the Go version), as step output "key"
#   run.sh build     go build the action's own checkout into $RUNNER_TEMP/wink,
#                    unless the cache (or an earlier use in the job) put it there
#   run.sh check     wink check with the action's inputs (INPUT_* variables)
#   run.sh summary   append the report's summary.md to $GITHUB_STEP_SUMMARY
#
# Inputs come as the action's step env maps them: INPUT_CHARTS, INPUT_VALUES,
# INPUT_PLATFORMS, INPUT_SET, INPUT_EXPECT, INPUT_TIMEOUT, INPUT_OUTPUT.
# check exits as wink check does: 0 every workload behaves as intended on
# every platform, 1 findings, 2 usage error.
set -euo pipefail

wink="${RUNNER_TEMP:?RUNNER_TEMP is not set}/wink"

# split prints the items of a list given one per line or separated by
# commas, trimmed, empty ones dropped.
split() {
  tr ',' '\n' <<<"$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep -v '^$' || true
}

usage() {
  echo "::error title=wink check::$*"
  exit 2
}

case "${1:-}" in
key)
  # actions/cache's hashFiles() sees only the workspace, not the action's
  # checkout: hash the checkout here.
  cd "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
  sum="$(find . -type f -not -path './.git/*' -not -path './bin/*' | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -c1-32)"
  echo "key=wink-${RUNNER_OS:-$(uname -s)}-$(uname -m)-$(go env GOVERSION)-$sum" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
  ;;
build)
  if [ -x "$wink" ]; then
    echo "using $wink, from the cache or built earlier in this job"
    exit 0
  fi
  cd "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
  echo "go build -o $wink ./cmd/wink (in $GITHUB_ACTION_PATH)"
  go build -o "$wink" ./cmd/wink
  "$wink" version || true
  ;;
check)
  args=(check --output "${INPUT_OUTPUT:-wink-check-report}")
  while IFS= read -r f; do args+=(-f "$f"); done < <(split "${INPUT_VALUES:-}")
  while IFS= read -r p; do args+=(--platform "$p"); done < <(split "${INPUT_PLATFORMS:-}")
  # --set values may hold commas (a={b,c}): one per line.
  while IFS= read -r s; do
    s="$(sed 's/^[[:space:]]*//; s/[[:space:]]*$//' <<<"$s")"
    if [ -n "$s" ]; then args+=(--set "$s"); fi
  done <<<"${INPUT_SET:-}"
  if [ -n "${INPUT_EXPECT:-}" ]; then args+=(--expect "$INPUT_EXPECT"); fi
  if [ -n "${INPUT_TIMEOUT:-}" ]; then args+=(--timeout "$INPUT_TIMEOUT"); fi
  charts=()
  while IFS= read -r c; do charts+=("$c"); done < <(split "${INPUT_CHARTS:-}")
  ((${#charts[@]})) || usage "input charts is empty: give one or more charts (a directory, a .tgz, repo/name or oci://), e.g. charts: charts/agent"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "report=${INPUT_OUTPUT:-wink-check-report}" >>"$GITHUB_OUTPUT"
  fi
  echo "wink ${args[*]} -- ${charts[*]}"
  rc=0
  "$wink" "${args[@]}" -- "${charts[@]}" || rc=$?
  case "$rc" in
  0) ;;
  1) echo "::error title=wink check::findings: see the job summary and the report artifact" ;;
  2) echo "::error title=wink check::usage error: check the action's inputs (the message above says which)" ;;
  *) echo "::error title=wink check::wink check ended with exit code $rc" ;;
  esac
  exit "$rc"
  ;;
summary)
  summary="${INPUT_OUTPUT:-wink-check-report}/summary.md"
  : "${GITHUB_STEP_SUMMARY:?GITHUB_STEP_SUMMARY is not set}"
  if [ -f "$summary" ]; then
    cat "$summary" >>"$GITHUB_STEP_SUMMARY"
  else
    echo "wink check wrote no $summary: see the step's log." >>"$GITHUB_STEP_SUMMARY"
  fi
  ;;
*)
  echo "usage: run.sh key|build|check|summary" >&2
  exit 2
  ;;
esac
