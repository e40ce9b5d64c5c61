// Package reports turns the events of `go test -json` (or of a suite binary
// run with -test.v=test2json, through Converter) into the reports of
// `wink test`: JUnit XML, results.json, a Markdown summary and a
// self-contained HTML traceability matrix.
//
//	c := reports.NewCollector()
//	conv := reports.NewConverter(pkg, nil, func(e reports.Event) { c.Add(e) })
//	io.Copy(conv, testBinaryOutput); conv.Exited(err); conv.Close()
//	r := c.Report()  // or DecodeEvents(goTestJSON, pkg, ...) for go test -json
//	reports.WriteJUnit(w, r); reports.WriteJSON(w, r); reports.WriteMarkdown(w, r); reports.WriteHTML(w, r)
//
// A Result is one feature of an e2e-framework suite (the subtest
// Test/feature; its subtests are the assessments), or one top-level test
// without features. Features announce their labels, and assertions their
// evidence, in the test output (suites/suite/evidence.go):
//
//	wink:labels {"feature":"...","rows":["N1","N2"],"area":"nodes","needs":"simnode"}
//	wink:evidence {"kind":"object|event|exec|log","summary":"...","detail":"..."}
//
// and the rows tie results to the behaviour catalog, embedded from
// spec/windows-behaviors.md (a copy of ../shared/spec/windows-behaviors.md
// made by `go generate ./reports`), so that the reports work without the
// repository. Rows that no test cites are reported "not covered".
//
// The same package writes the reports of `wink check` (check.go is the
// result model harness/check fills): WriteCheck writes junit.xml (a
// testsuite per platform, a testcase per workload named "Kind ns/name on
// platform", the error findings as its failure, warnings in system-out),
// results.json, summary.md (the verdict, the workload × platform matrix,
// the findings with their fixes) and report.html (the matrix, each cell's
// findings on hover and in place), with the JUnit encoder and the page
// style of wink test's reports. testdata/check.json is a handmade
// CheckReport the golden files golden.check.* are written from; a test
// renders its report.html in headless Chromium and reads the matrix back.
//
// The golden files in testdata are rewritten by `go test ./reports -update`;
// testdata/record.sh re-records the event streams they are made from.
package reports
