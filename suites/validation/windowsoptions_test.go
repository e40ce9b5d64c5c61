package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"wink.dev/wink/suites/suite"
)

// validateWindowsSecurityContextOptions, k8s.io/kubernetes@v1.35.4
// pkg/apis/core/validation/validation.go:8449–8526 (VAL). Every error is a
// field.Invalid whose bad value is the *string field itself, so the
// apiserver prints it JSON-encoded (k8s.io/apimachinery@v0.35.4
// pkg/util/validation/field/errors.go:91–107): control characters as \u00XX,
// a backslash as \\.
//
// The checks hold for any pod (pod level VAL:5564, containers VAL:8407), so
// these pods say spec.os.name=windows like real ones.

// TestRunAsUserNameSyntax: row A10, one pod per error of VAL:8472–8522.
func TestRunAsUserNameSyntax(t *testing.T) {
	const path = "spec.securityContext.windowsOptions.runAsUserName: Invalid value: "
	user := func(u string) func(*corev1.Pod) {
		return func(p *corev1.Pod) { winOpts(p).RunAsUserName = ptr.To(u) }
	}
	// A domain of five 51-character DNS labels: 259 characters, valid DNS
	// format, so only the length check (VAL:8495, >= 256) fails.
	label := strings.Repeat("d", 51)
	longDomain := strings.Join([]string{label, label, label, label, label}, ".")
	longUser := strings.Repeat("u", 105)
	cases := []podCase{
		{name: "empty", mutate: user(""), // VAL:8473–8474
			errs: []string{path + `"": runAsUserName cannot be an empty string`}},
		{name: "control-character", mutate: user("user\x07name"), // VAL:8475–8477
			errs: []string{path + `"user\u0007name": runAsUserName cannot contain control characters`}},
		{name: "two-backslashes", mutate: user(`a\b\c`), // VAL:8478–8480
			errs: []string{path + `"a\\b\\c": runAsUserName cannot contain more than one backslash`}},
		{name: "long-domain", mutate: user(longDomain + `\user`), // VAL:8495–8497
			errs: []string{path + `"` + longDomain + `\\user": runAsUserName's Domain length must be under 256 characters`}},
		{name: "bad-domain", mutate: user(`.corp\user`), // VAL:8500–8502: a leading dot fails NetBios and DNS
			errs: []string{path + `".corp\\user": runAsUserName's Domain doesn't match the NetBios nor the DNS format`}},
		{name: "empty-user", mutate: user(`corp\`), // VAL:8505–8507
			errs: []string{path + `"corp\\": runAsUserName's User cannot be empty`}},
		{name: "long-user", mutate: user(longUser), // VAL:8508–8510
			errs: []string{path + `"` + longUser + `": runAsUserName's User length must not be longer than 104 characters`}},
		{name: "dots-spaces", mutate: user(". ."), // VAL:8513–8515
			errs: []string{path + `". .": runAsUserName's User cannot contain only periods or spaces`}},
		{name: "forbidden-character", mutate: user("user@corp"), // VAL:8518–8520
			errs: []string{path + `"user@corp": runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`}},
		{
			// Several checks of the else branch report together.
			name: "bad-domain-and-user", mutate: user(`.corp\a@b`),
			errs: []string{
				path + `".corp\\a@b": runAsUserName's Domain doesn't match the NetBios nor the DNS format`,
				path + `".corp\\a@b": runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`,
			},
		},
		{name: "container", mutate: func(p *corev1.Pod) { cWinOpts(p, false, 0).RunAsUserName = ptr.To("") },
			errs: []string{`spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string`}},
		{name: "init-container", mutate: func(p *corev1.Pod) { withInit(p); cWinOpts(p, true, 0).RunAsUserName = ptr.To(`a\b\c`) },
			errs: []string{`spec.initContainers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "a\\b\\c": runAsUserName cannot contain more than one backslash`}},
		{name: "empty", deployment: true, mutate: user(""),
			errs: []string{`spec.template.spec.securityContext.windowsOptions.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string`}},
		// Valid forms: a local user, a NetBios domain with a space, a DNS domain.
		{name: "valid-local", mutate: user("ContainerUser"), dry: true},
		{name: "valid-netbios", mutate: user(`NT AUTHORITY\NETWORK SERVICE`), dry: true},
		{name: "valid-dns", mutate: user(`corp.example.com\svc-web`), dry: true},
	}
	b := suite.Feature("runAsUserName syntax", area, "any", "A10").
		Setup(inNamespace("a10-runasusername", nil))
	testenv.Test(t, assessPods(b, "A10", winPod, cases).Feature())
}

// TestGMSAFields: row A11, VAL:8456–8470. The name must be a DNS-1123
// subdomain (k8s.io/apimachinery@v0.35.4 pkg/util/validation/validation.go:198
// IsDNS1123Subdomain, messages :185 and :425); the inline credential spec
// must be non-empty and at most 64 KiB (VAL:8424–8425).
func TestGMSAFields(t *testing.T) {
	const (
		name = "spec.securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value: "
		spec = "spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "
		dns  = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	)
	credName := func(n string) func(*corev1.Pod) {
		return func(p *corev1.Pod) { winOpts(p).GMSACredentialSpecName = ptr.To(n) }
	}
	credSpec := func(s string) func(*corev1.Pod) {
		return func(p *corev1.Pod) { winOpts(p).GMSACredentialSpec = ptr.To(s) }
	}
	longName := strings.Repeat("a", 254)
	big := strings.Repeat("x", 64*1024+1)
	cases := []podCase{
		{name: "name-not-dns1123", mutate: credName("Web_Cred"), errs: []string{name + `"Web_Cred": ` + dns}},
		{name: "name-too-long", mutate: credName(longName), errs: []string{name + `"` + longName + `": must be no more than 253 characters`}},
		{name: "spec-empty", mutate: credSpec(""), errs: []string{spec + `"": gmsaCredentialSpec cannot be an empty string`}},
		{name: "spec-over-64kib", mutate: credSpec(big), errs: []string{spec + `"` + big + `": gmsaCredentialSpec size must be under 64 KiB`}},
		{name: "container-name-not-dns1123", mutate: func(p *corev1.Pod) { cWinOpts(p, false, 0).GMSACredentialSpecName = ptr.To("Web_Cred") },
			errs: []string{`spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value: "Web_Cred": ` + dns}},
		{name: "spec-empty", deployment: true, mutate: credSpec(""),
			errs: []string{`spec.template.spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string`}},
		{name: "valid-name", mutate: credName("webapp1-credspec"), dry: true},
		{name: "spec-exactly-64kib", mutate: credSpec(strings.Repeat("x", 64*1024)), dry: true},
	}
	b := suite.Feature("GMSA field syntax", area, "any", "A11").
		Setup(inNamespace("a11-gmsa", nil))
	testenv.Test(t, assessPods(b, "A11", winPod, cases).Feature())
}
