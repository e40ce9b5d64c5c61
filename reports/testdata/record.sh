#!/bin/sh
# Re-records the event streams the golden tests of package reports read.
# Run from reports/testdata; then `go test ./reports -update` rewrites the goldens.
set -e
cd "$(dirname "$0")/../.."
pkg=wink.dev/wink/reports/testdata/fakesuite
# 1. go test -json of two packages: a suite, and one whose setup fails.
go test -count=1 -p 1 -json ./reports/testdata/fakesuite ./reports/testdata/fakesetup > reports/testdata/events.jsonl || true
# 2. the raw -test.v=test2json output of the suite's binary, and what
#    `go tool test2json` makes of it (Converter must make the same).
go test -c -o /tmp/fakesuite.test ./reports/testdata/fakesuite
(cd reports/testdata/fakesuite && /tmp/fakesuite.test -test.v=test2json > ../fakesuite.test2json 2>&1) || true
go tool test2json -t -p $pkg < reports/testdata/fakesuite.test2json > reports/testdata/fakesuite.test2json.jsonl || true
rm -f /tmp/fakesuite.test
