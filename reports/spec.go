package reports

// The behaviour catalog the reports trace tests to is simnode/facts' copy of
// ../shared/spec/windows-behaviors.md; this refreshes it.
//go:generate cp ../../shared/spec/windows-behaviors.md ../simnode/facts/windows-behaviors.md
