// Package rules holds the behaviour of simulated Windows and Linux nodes as
// data: embedded YAML tables (node profiles and labels, node conditions per
// kubelet version, kubelet admission rules, pod event messages), each entry
// citing its row of the behaviour catalog (simnode/facts/windows-behaviors.md)
// and the kubelet versions it holds for.
//
// The tables are loaded and validated once, at package initialisation: a
// malformed table panics the process (and fails TestDefaultRulesLoad). The Go
// code in this package only evaluates them (version ranges, templates, the
// admission predicates named by the tables).
package rules
