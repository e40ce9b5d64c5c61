package rules

import (
	"net/url"
	"strings"
	"time"
)

// Query is the value of the query parameter name of the request's path
// ("" when absent), for http.yaml templates: {{.Query "msg"}}.
func (d HTTPData) Query(name string) string {
	_, q, _ := strings.Cut(d.Path, "?")
	v, _ := url.ParseQuery(q)
	return v.Get(name)
}

// LogDate is Now as Go's log package prefixes a line (2006/01/02
// 15:04:05), for the log lines of agnhost servers.
func (d HTTPData) LogDate() string {
	t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700 MST", d.Now)
	if err != nil {
		return d.Now
	}
	return t.Format("2006/01/02 15:04:05")
}
