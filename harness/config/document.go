package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"go.yaml.in/yaml/v3"

	"wink.dev/wink/harness/config/v1alpha1"
)

// Document is one YAML file of wink's own (besides wink.yaml: `wink check`'s
// platform profiles and --expect files) read the way Parse reads wink.yaml:
// strictly, every problem with its file and line. It lets such a file embed
// wink.yaml's types (node pools) and report their validation errors at the
// lines that set them.
type Document struct {
	source string
	root   *yaml.Node
}

// ParseDocument parses data, one YAML document, for Decode and Locate.
// source names the data in errors, usually its file name.
func ParseDocument(data []byte, source string) (*Document, error) {
	root, err := parseYAML(data, source)
	if err != nil {
		return nil, err
	}
	return &Document{source: source, root: root}, nil
}

// Decode decodes the document strictly into out, a pointer to a struct
// with json tags: an unknown or repeated field or a wrongly typed value is
// an *Error naming the file, line, field path and fix. An empty document
// leaves out as it is.
func (d *Document) Decode(out any) error {
	t := reflect.TypeOf(out)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("config.Document.Decode: want a pointer to a struct, got %T", out)
	}
	if d.root == nil {
		return nil
	}
	dec := decoder{source: d.source}
	value := dec.convert(d.root, t.Elem(), "")
	if len(dec.errs) > 0 {
		return errors.Join(dec.errs...)
	}
	raw, err := json.Marshal(value)
	if err != nil {
		return &Error{Source: d.source, Err: fmt.Errorf("decode: %w", err)}
	}
	jd := json.NewDecoder(bytes.NewReader(raw))
	jd.DisallowUnknownFields()
	if err := jd.Decode(out); err != nil {
		return &Error{Source: d.source, Err: fmt.Errorf("decode: %w", err)}
	}
	return nil
}

// Locate wraps every error joined in err in an *Error with the file and the
// line of its field path. Each *v1alpha1.FieldError's path is taken as
// relative to prefix (e.g. "profiles[2]." for a node pool list validated
// as a Cluster's), and prefix is put before it in the message too.
func (d *Document) Locate(err error, prefix string) error {
	if err == nil {
		return nil
	}
	errs := unjoin(err)
	out := make([]error, len(errs))
	for i, e := range errs {
		var fe *v1alpha1.FieldError
		if errors.As(e, &fe) {
			c := *fe
			c.Path = prefix + c.Path
			e = &c
		}
		out[i] = e
	}
	return locator{source: d.source, root: d.root}.locate(errors.Join(out...))
}
