package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/api/resource"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/simnode/atomicfile"
)

// Error is a problem of a config file at a known place. Err is usually a
// *v1alpha1.FieldError; errors.As reaches it through an Error.
type Error struct {
	// Source names the file, as given to Load or Parse.
	Source string
	// Line is the 1-based line of the problem, 0 when unknown (for example
	// a defaulted field of a pool the file does not list).
	Line int
	// Err is the problem itself.
	Err error
}

// Error returns "<source>:<line>: <problem>", leaving out what is unknown.
func (e *Error) Error() string {
	switch {
	case e.Source != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.Source, e.Line, e.Err)
	case e.Source != "":
		return fmt.Sprintf("%s: %v", e.Source, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return e.Err.Error()
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Load reads the wink.yaml at path and returns it decoded, defaulted and
// validated (see Parse). An empty path means no file: the defaults alone.
func Load(path string) (*v1alpha1.Cluster, error) {
	if path == "" {
		c := &v1alpha1.Cluster{APIVersion: v1alpha1.APIVersion, Kind: v1alpha1.Kind}
		v1alpha1.Default(c)
		if err := v1alpha1.Validate(c); err != nil {
			return nil, fmt.Errorf("default cluster config: %w", err) // a bug in the defaults
		}
		return c, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read cluster config: %w", err)
	}
	return Parse(data, path)
}

// Parse decodes a wink.yaml strictly, defaults it (v1alpha1.Default) and
// validates it (v1alpha1.Validate). source names the data in errors,
// usually its file name. The error joins an *Error for every problem found;
// decoding problems are reported before, and instead of, validation ones.
func Parse(data []byte, source string) (*v1alpha1.Cluster, error) {
	root, err := parseYAML(data, source)
	if err != nil {
		return nil, err
	}
	if root != nil && root.Kind != yaml.MappingNode {
		return nil, &Error{Source: source, Line: root.Line, Err: errors.New(
			"the file must be a YAML mapping that starts with apiVersion: " + v1alpha1.APIVersion + " and kind: " + v1alpha1.Kind)}
	}
	loc := locator{source: source, root: root}

	// apiVersion and kind first: a file of another kind would otherwise
	// give a page of unknown fields.
	probe := &v1alpha1.Cluster{APIVersion: scalarAt(root, "apiVersion"), Kind: scalarAt(root, "kind")}
	if probe.Kind == "<mapping>" {
		return nil, loc.locate(&v1alpha1.FieldError{
			Path: "kind", Type: v1alpha1.ErrorTypeInvalid, Value: probe.Kind, Message: "must be " + v1alpha1.Kind,
			Fix: "write kind: " + v1alpha1.Kind + ", and put the kind backend's settings under kindBackend:",
		})
	}
	var identity []error
	for _, err := range unjoin(v1alpha1.Validate(probe)) {
		var fe *v1alpha1.FieldError
		if errors.As(err, &fe) && (fe.Path == "apiVersion" || fe.Path == "kind") {
			identity = append(identity, err)
		}
	}
	if len(identity) > 0 {
		return nil, loc.locate(errors.Join(identity...))
	}

	d := decoder{source: source}
	value := d.convert(root, clusterType, "")
	if len(d.errs) > 0 {
		return nil, errors.Join(d.errs...)
	}
	raw, err := json.Marshal(value)
	if err != nil {
		return nil, &Error{Source: source, Err: fmt.Errorf("decode: %w", err)}
	}
	c := &v1alpha1.Cluster{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		return nil, &Error{Source: source, Err: fmt.Errorf("decode: %w", err)}
	}

	v1alpha1.Default(c)
	if err := v1alpha1.Validate(c); err != nil {
		return nil, loc.locate(err)
	}
	return c, nil
}

// Write saves c, usually defaulted, as YAML at path with mode 0644. It
// writes a temporary file next to path and renames it, so that readers
// never see half a file.
func Write(path string, c *v1alpha1.Cluster) error {
	data, err := Marshal(c)
	if err != nil {
		return err
	}
	err = atomicfile.Write(path, data, 0o644)
	if err != nil {
		return fmt.Errorf("write cluster config %s: %w", path, err)
	}
	return nil
}

// Marshal returns c as YAML in wink.yaml's format, with its fields in the
// order of the types (not sorted as sigs.k8s.io/yaml would).
func Marshal(c *v1alpha1.Cluster) ([]byte, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("marshal cluster config: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	node, err := jsonToNode(dec)
	if err != nil {
		return nil, fmt.Errorf("marshal cluster config: %w", err)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return nil, fmt.Errorf("marshal cluster config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("marshal cluster config: %w", err)
	}
	return buf.Bytes(), nil
}

// ---- YAML parsing ----

var syntaxErrorRE = regexp.MustCompile(`(?s)^yaml: (?:line (\d+): )?(.*)$`)

// parseYAML returns the top node of the single YAML document in data, nil
// when the document is empty.
func parseYAML(data []byte, source string) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, syntaxError(err, data, source)
	}
	for {
		var extra yaml.Node
		err := dec.Decode(&extra)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, syntaxError(err, data, source)
		}
		if len(extra.Content) > 0 && !isNull(extra.Content[0]) { // a trailing --- alone is fine
			return nil, &Error{Source: source, Line: extra.Line, Err: errors.New(
				"a second YAML document: wink.yaml holds one Cluster; remove the --- and what follows")}
		}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	top := resolve(doc.Content[0])
	if isNull(top) {
		return nil, nil
	}
	return top, nil
}

// parserProblems are the libyaml parser's (not scanner's) problems.
var parserProblems = []string{
	"did not find expected key", "did not find expected node content",
	"did not find expected '-' indicator", "did not find expected ',' or ']'",
	"did not find expected ',' or '}'", "did not find expected <document start>",
	"found undefined tag handle", "found duplicate %YAML directive",
	"found incompatible YAML document", "found duplicate %TAG directive",
}

// syntaxError turns a yaml.v3 parse error into an *Error with its line.
//
// yaml.v3 reports a parser (not scanner) error at the line before the
// enclosing block began, which can be far above the problem. yaml.v2, the
// same libyaml port, reports the problem's own mark for those (0-based, so
// one is added); the file is parsed again with it to get that line.
func syntaxError(err error, data []byte, source string) error {
	m := syntaxErrorRE.FindStringSubmatch(err.Error())
	if m == nil {
		return &Error{Source: source, Err: fmt.Errorf("malformed YAML: %w", err)}
	}
	line, _ := strconv.Atoi(m[1])
	if slices.Contains(parserProblems, m[2]) {
		dec := yamlv2.NewDecoder(bytes.NewReader(data))
		for {
			var v any
			err2 := dec.Decode(&v)
			if err2 == nil {
				continue
			}
			if m2 := syntaxErrorRE.FindStringSubmatch(err2.Error()); m2 != nil && m2[2] == m[2] {
				if l, _ := strconv.Atoi(m2[1]); l > 0 {
					line = l + 1
				}
			}
			break
		}
	}
	if last := strings.Count(strings.TrimRight(string(data), "\n"), "\n") + 1; line > last {
		line = last // the end of the file
	}
	fix := "check the indentation and the quoting on this line and the one before"
	if line == 0 {
		fix = "check that the file is UTF-8 text in YAML"
	}
	// yaml.v3 reports a tab in the indentation on the line before it.
	lines := strings.Split(string(data), "\n")
	for _, l := range []int{line, line + 1, line - 1} {
		if line > 0 && l >= 1 && l <= len(lines) && strings.HasPrefix(strings.TrimLeft(lines[l-1], " "), "\t") {
			line, fix = l, "indent with spaces: YAML does not allow tabs"
			break
		}
	}
	return &Error{Source: source, Line: line, Err: fmt.Errorf("malformed YAML: %s; %s", m[2], fix)}
}

// resolve follows aliases (*anchor) to the node they name.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// entry is a key and its value in a YAML mapping.
type entry struct {
	key, value *yaml.Node
}

// entries returns the entries of mapping n, with merge keys (<<: *anchor)
// expanded: keys written in n win over merged ones, and earlier merged
// mappings over later ones.
func entries(n *yaml.Node) []entry {
	return mergedEntries(n, map[*yaml.Node]bool{n: true})
}

// mergedEntries is entries; visited holds the mappings already expanded,
// so that merges of merges cost no more than the file's size.
func mergedEntries(n *yaml.Node, visited map[*yaml.Node]bool) []entry {
	var own, merged []entry
	merge := func(m *yaml.Node) {
		if m = resolve(m); m != nil && m.Kind == yaml.MappingNode && !visited[m] {
			visited[m] = true
			merged = append(merged, mergedEntries(m, visited)...)
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			if v = resolve(v); v != nil && v.Kind == yaml.SequenceNode {
				for _, m := range v.Content {
					merge(m)
				}
			} else {
				merge(v)
			}
			continue
		}
		own = append(own, entry{k, v})
	}
	if len(merged) == 0 {
		return own
	}
	seen := make(map[string]bool, len(own)+len(merged))
	out := make([]entry, 0, len(own)+len(merged))
	for _, e := range slices.Concat(own, merged) {
		if !seen[e.key.Value] {
			seen[e.key.Value] = true
			out = append(out, e)
		}
	}
	return out
}

// scalarAt returns the value of key in mapping n as yamlValue does, ""
// when absent or null.
func scalarAt(n *yaml.Node, key string) string {
	if n == nil || n.Kind != yaml.MappingNode {
		return ""
	}
	for _, e := range entries(n) {
		if e.key.Value == key {
			if v := resolve(e.value); !isNull(v) {
				return yamlValue(v)
			}
		}
	}
	return ""
}

// ---- strict decoding ----

var (
	clusterType         = reflect.TypeFor[v1alpha1.Cluster]()
	quantityType        = reflect.TypeFor[resource.Quantity]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// decoder turns the YAML tree into JSON-ready values (map[string]any,
// []any, string, int64, bool, nil) guided by the Go type each node decodes
// into, and reports every unknown field, repeated key and wrongly typed
// value with its line.
type decoder struct {
	source string
	errs   []error
}

func (d *decoder) fail(n *yaml.Node, path string, typ v1alpha1.ErrorType, value any, message, fix string) {
	d.errs = append(d.errs, &Error{Source: d.source, Line: n.Line, Err: &v1alpha1.FieldError{
		Path: path, Type: typ, Value: value, Message: message, Fix: fix,
	}})
}

// yamlValue is a node's value for an error message: its text for a
// scalar, <list> or <mapping> otherwise.
func yamlValue(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "<list>"
	case yaml.MappingNode:
		return "<mapping>"
	}
	return n.Value
}

func (d *decoder) wrongType(n *yaml.Node, path, want, fix string) {
	d.fail(n, path, v1alpha1.ErrorTypeInvalid, yamlValue(n), "must be "+want, fix)
}

func (d *decoder) convert(n *yaml.Node, t reflect.Type, path string) any {
	n = resolve(n)
	if isNull(n) {
		return nil
	}
	if t == quantityType {
		if n.Kind != yaml.ScalarNode {
			d.wrongType(n, path, "a quantity", "write a quantity such as 4, 500m, 16Gi or 100G")
			return nil
		}
		if _, err := resource.ParseQuantity(n.Value); err != nil {
			d.fail(n, path, v1alpha1.ErrorTypeInvalid, n.Value, "not a quantity",
				"write a quantity such as 4, 500m, 16Gi or 100G (Gi = 2^30 bytes, G = 10^9)")
			return nil
		}
		return n.Value
	}
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(jsonUnmarshalerType) {
		// A leaf with its own JSON form (metav1.Time): hand over the text and
		// let its decoder judge it now, with a line to report.
		if n.Kind != yaml.ScalarNode {
			d.wrongType(n, path, "a single value", "write it on one line after the colon")
			return nil
		}
		raw, _ := json.Marshal(n.Value)
		if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
			d.fail(n, path, v1alpha1.ErrorTypeInvalid, n.Value, err.Error(), "correct or remove it")
			return nil
		}
		return n.Value
	}
	switch t.Kind() {
	case reflect.Pointer:
		return d.convert(n, t.Elem(), path)
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			d.wrongType(n, path, "a mapping", "write its fields indented on the lines below "+lastName(path)+":")
			return nil
		}
		return d.structFields(n, t, path)
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			d.wrongType(n, path, "a mapping", "write key: value lines indented below "+lastName(path)+":")
			return nil
		}
		out := make(map[string]any, len(n.Content)/2)
		lines := make(map[string]int, len(n.Content)/2)
		for _, e := range entries(n) {
			k := resolve(e.key)
			if k.Kind != yaml.ScalarNode {
				d.wrongType(k, path, "a mapping with single-value keys", "write key: value lines")
				continue
			}
			p := path + "[" + k.Value + "]"
			if first, dup := lines[k.Value]; dup {
				d.fail(k, p, v1alpha1.ErrorTypeDuplicate, yamlValue(resolve(e.value)),
					fmt.Sprintf("%s is already set on line %d", k.Value, first), "remove one of the two")
				continue
			}
			lines[k.Value] = k.Line
			out[k.Value] = d.convert(e.value, t.Elem(), p)
		}
		return out
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.wrongType(n, path, "a list", "write each item on a line of its own starting with \"- \", or write []")
			return nil
		}
		out := make([]any, len(n.Content))
		for i, item := range n.Content {
			out[i] = d.convert(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
		}
		return out
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			d.wrongType(n, path, "a single value", "write it on one line after the colon, quoted if need be")
			return nil
		}
		return n.Value // the text as written: 10.0 stays "10.0", yes stays "yes"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var i int64
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&i) != nil ||
			reflect.New(t).Elem().OverflowInt(i) {
			d.wrongType(n, path, "a whole number", "write a number without quotes, e.g. "+lastName(path)+": 2")
			return nil
		}
		return i
	case reflect.Bool:
		var b bool
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(&b) != nil {
			d.wrongType(n, path, "true or false", "write true or false without quotes")
			return nil
		}
		return b
	}
	d.fail(n, path, v1alpha1.ErrorTypeInvalid, yamlValue(n), fmt.Sprintf("cannot decode into %s", t), "remove it")
	return nil
}

func (d *decoder) structFields(n *yaml.Node, t reflect.Type, path string) map[string]any {
	fields := jsonFields(t)
	out := make(map[string]any, len(fields))
	lines := make(map[string]int, len(fields))
	for _, e := range entries(n) {
		k := resolve(e.key)
		if k.Kind != yaml.ScalarNode {
			d.wrongType(k, path, "a mapping with field names as keys", "write name: value lines")
			continue
		}
		name := k.Value
		p := joinField(path, name)
		ft, known := fields[name]
		if !known {
			d.fail(k, p, v1alpha1.ErrorTypeUnknownField, nil, "", unknownFieldFix(t, name, path))
			continue
		}
		if first, dup := lines[name]; dup {
			d.fail(k, p, v1alpha1.ErrorTypeDuplicate, yamlValue(resolve(e.value)),
				fmt.Sprintf("%s is already set on line %d", name, first), "remove one of the two")
			continue
		}
		lines[name] = k.Line
		out[name] = d.convert(e.value, ft, p)
	}
	return out
}

// jsonFields maps the JSON names of t's fields to their types, inlining
// untagged embedded structs as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := make(map[string]reflect.Type, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			for n, ft := range jsonFields(f.Type) {
				fields[n] = ft
			}
		case !f.IsExported():
		case name == "":
			fields[f.Name] = f.Type
		default:
			fields[name] = f.Type
		}
	}
	return fields
}

// unknownFieldFix suggests the field the user may have meant: a known one
// that differs only in case or by a typo or two, or one of a nested struct
// (podSubnet belongs under networking); else it lists the known fields.
func unknownFieldFix(t reflect.Type, name, path string) string {
	fields := jsonFields(t)
	known := make([]string, 0, len(fields))
	for n := range fields {
		known = append(known, n)
	}
	slices.Sort(known)
	best, bestDistance := "", 3
	for _, n := range known {
		if strings.EqualFold(n, name) {
			return fmt.Sprintf("did you mean %q? (field names are case-sensitive)", n)
		}
		if dist := levenshtein(strings.ToLower(n), strings.ToLower(name)); dist < bestDistance && dist < len(name)/2+1 {
			best, bestDistance = n, dist
		}
	}
	if best == "" && len(name) >= 4 {
		for _, n := range known { // network for networking, nodePool for nodePools
			if strings.HasPrefix(strings.ToLower(n), strings.ToLower(name)) || strings.HasPrefix(strings.ToLower(name), strings.ToLower(n)) {
				best = n
				break
			}
		}
	}
	if best != "" {
		return fmt.Sprintf("did you mean %q?", best)
	}
	for _, n := range known {
		ft := fields[n]
		list := false
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			list = list || ft.Kind() == reflect.Slice
			ft = ft.Elem()
		}
		if ft.Kind() != reflect.Struct || reflect.PointerTo(ft).Implements(jsonUnmarshalerType) {
			continue
		}
		if _, ok := jsonFields(ft)[name]; ok {
			where := joinField(path, n)
			if list {
				return fmt.Sprintf("%s is a field of each item of %s: move it there", name, where)
			}
			return fmt.Sprintf("%s is a field of %s: move it there", name, where)
		}
	}
	return "known fields: " + strings.Join(known, ", ")
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func joinField(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// lastName returns the last field name of path: count for nodePools[0].count.
func lastName(path string) string {
	if i := strings.LastIndex(path, "."); i >= 0 {
		path = path[i+1:]
	}
	if i := strings.Index(path, "["); i >= 0 {
		path = path[:i]
	}
	return path
}

// ---- mapping field paths back to lines ----

// locator maps the field paths of validation errors back to lines.
type locator struct {
	source string
	root   *yaml.Node
}

// locate wraps every error joined in err in an *Error with the line of its
// field path, when the file has it, or of the nearest enclosing field.
func (l locator) locate(err error) error {
	errs := unjoin(err)
	out := make([]error, len(errs))
	for i, e := range errs {
		line := 0
		var fe *v1alpha1.FieldError
		if errors.As(e, &fe) {
			line = l.line(fe.Path)
		}
		out[i] = &Error{Source: l.source, Line: line, Err: e}
	}
	return errors.Join(out...)
}

// line returns the line of the deepest node of path that the file has, 0
// when it has none. Path elements are field names, [index] and [key].
func (l locator) line(path string) int {
	n, line := l.root, 0
	for _, seg := range splitPath(path) {
		if n = resolve(n); n == nil {
			break
		}
		var next *yaml.Node
		switch {
		case n.Kind == yaml.SequenceNode && seg.bracket:
			if i, err := strconv.Atoi(seg.name); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
				line = next.Line
			}
		case n.Kind == yaml.MappingNode:
			for _, e := range entries(n) {
				if e.key.Value == seg.name {
					next = e.value
					line = e.key.Line
					break
				}
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return line
}

type segment struct {
	name    string
	bracket bool // [index] or [key]
}

// splitPath splits nodePools[0].labels[example.com/team] into nodePools,
// [0], labels, [example.com/team]; dots inside brackets belong to the key.
func splitPath(path string) []segment {
	var segs []segment
	for path != "" {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				end = len(path)
			}
			segs = append(segs, segment{name: path[1:end], bracket: true})
			path = path[min(end+1, len(path)):]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			segs = append(segs, segment{name: path[:end]})
			path = path[end:]
		}
	}
	return segs
}

// unjoin returns the errors joined in err (errors.Join), or err alone.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// ---- JSON to YAML ----

// yaml11Bools are words that YAML 1.1 readers (yaml.v2, and so much of the
// Kubernetes tooling) take for booleans; they are quoted when strings.
var yaml11Bools = []string{"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"}

// jsonToNode reads one JSON value from dec into a YAML node, keeping the
// order of object keys.
func jsonToNode(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if t == '[' {
			n = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		}
		for dec.More() {
			if n.Kind == yaml.MappingNode {
				key, err := jsonToNode(dec)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, key)
			}
			value, err := jsonToNode(dec)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, value)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	case string:
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t}
		if slices.Contains(yaml11Bools, t) {
			n.Style = yaml.DoubleQuotedStyle
		}
		return n, nil
	case json.Number:
		tag := "!!int"
		if _, err := t.Int64(); err != nil {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: t.String()}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t)}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}
