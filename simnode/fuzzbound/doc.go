// Package fuzzbound is what wink's fuzz targets check of every case besides
// panics (issue 18: bounded by construction): that it ends in time, that
// the heap did not grow past a bound while it ran, and, through Writer,
// that what it wrote stayed within bounds, per write and in all.
package fuzzbound
