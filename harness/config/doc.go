// Package config loads and writes wink.yaml, the cluster configuration.
//
// Loading goes file → versioned type → defaults → validation, as kind's
// config loading does:
//
//  1. The YAML is parsed once, with go.yaml.in/yaml/v3, keeping the line of
//     every node. Malformed YAML is reported with its file and line.
//  2. apiVersion and kind must be wink.dev/v1alpha1 and Cluster; otherwise
//     only that is reported (a kind config passed by mistake would otherwise
//     give a page of unknown fields).
//  3. The document is decoded strictly into v1alpha1.Cluster: an unknown or
//     repeated field, or a value of the wrong type (a list for a string, a
//     word for a count, a malformed quantity) is an error, with a "did you
//     mean" where a known field is close. Scalars keep their YAML text for
//     string fields (windowsBuild: 10.0.20348 and a label value of yes stay
//     strings), and resource quantities may be written as strings or numbers.
//  4. v1alpha1.Default fills the unset fields, then v1alpha1.Validate checks
//     the result; each of its errors is mapped back from its field path to
//     the line that set the field (or the nearest enclosing one).
//
// Every problem is an *Error (file, line, cause), usually around a
// *v1alpha1.FieldError (path, value, message, fix), and all problems of a
// file are returned at once with errors.Join:
//
//	wink.yaml:14: nodePools[0].windowsBuild: Unsupported value: "10.0.1": supported values: "10.0.17763" (Windows Server 2019), "10.0.20348" (2022), "10.0.26100" (2025)
//
// Write saves a defaulted config (the state directory's cluster.yaml) in
// the same format, fields in the order of the types.
package config
