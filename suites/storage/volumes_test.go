package storage

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestReadOnlyMount follows upstream test/e2e/windows/volumes.go: writing
// into a read-only volume fails with exactly "Access is denied." (B11).
func TestReadOnlyMount(t *testing.T) {
	f := suite.Feature("writes to a read-only mount are denied (B11)", "storage", "any", "B11").
		Assess("cmd's stderr is exactly `Access is denied.`; the writable mount takes the write", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "read-only")
			pod := suite.WindowsPod("volumes", suite.Build2022, "ping", "-t", "localhost")
			pod.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
			pod.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{
				{Name: "data", MountPath: `C:\test-volume-ro`, ReadOnly: true},
				{Name: "data", MountPath: `C:\test-volume`},
			}
			suite.RunPod(ctx, t, cs, ns, pod)
			run := func(argv ...string) suite.ExecResult {
				res := suite.Exec(ctx, t, cfg, ns, pod.Name, "main", argv...)
				suite.ExecEvidence(t, pod.Name, argv, res)
				return res
			}
			res := run("cmd", "/c", `echo windows-volume-test > C:\test-volume-ro\file.txt`)
			if strings.TrimSpace(res.Stderr) != "Access is denied." || res.ExitCode == 0 {
				t.Errorf("[B11] write to read-only mount: exit %d stderr %q, want a failure with %q", res.ExitCode, res.Stderr, "Access is denied.")
			}
			if res := run("cmd", "/c", `echo windows-volume-test> C:\test-volume\file.txt`); res.ExitCode != 0 {
				t.Errorf("[B11] write to writable mount: exit %d stderr %q", res.ExitCode, res.Stderr)
			}
			res = run("cmd", "/c", `type C:\test-volume-ro\file.txt`)
			if strings.TrimSpace(res.Stdout) != "windows-volume-test" {
				t.Errorf("[B11] the read-only view of the same volume reads %q, want windows-volume-test", res.Stdout)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestConfigMapsAndSecrets: B12 — ConfigMaps and Secrets as files (type,
// Get-Content) and as environment variables (set, $env:).
func TestConfigMapsAndSecrets(t *testing.T) {
	f := suite.Feature("ConfigMaps and Secrets as volumes and environment (B12)", "storage", "any", "B12").
		Assess("files read with type and Get-Content, variables with set and $env:", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "config")
			if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: map[string]string{"color": "blue"}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "creds"}, StringData: map[string]string{"password": "s3cr3t"}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			pod := suite.WindowsPod("config", suite.Build2022, "ping", "-t", "localhost")
			pod.Spec.Volumes = []corev1.Volume{
				{Name: "settings", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "settings"}}}},
				{Name: "creds", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "creds"}}},
			}
			c := &pod.Spec.Containers[0]
			c.Image = "mcr.microsoft.com/windows/servercore:ltsc2022" // PowerShell: not in nanoserver (issue 18)
			c.VolumeMounts = []corev1.VolumeMount{{Name: "settings", MountPath: `C:\settings`}, {Name: "creds", MountPath: `C:\creds`}}
			c.Env = []corev1.EnvVar{
				{Name: "COLOR", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "settings"}, Key: "color"}}},
				{Name: "PASSWORD", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "creds"}, Key: "password"}}},
			}
			suite.RunPod(ctx, t, cs, ns, pod)
			checks := []struct {
				argv []string
				want string
			}{
				{[]string{"cmd", "/c", `type C:\settings\color`}, "blue"},
				{[]string{"powershell", "-Command", `Get-Content C:\creds\password`}, "s3cr3t"},
				{[]string{"cmd", "/c", "set COLOR"}, "COLOR=blue"},
				{[]string{"powershell", "-Command", "$env:PASSWORD"}, "s3cr3t"},
			}
			for _, c := range checks {
				res := suite.Exec(ctx, t, cfg, ns, pod.Name, "main", c.argv...)
				suite.ExecEvidence(t, pod.Name, c.argv, res)
				if strings.TrimSpace(res.Stdout) != c.want {
					t.Errorf("[B12] %v: %q (exit %d, stderr %q), want %q", c.argv, res.Stdout, res.ExitCode, res.Stderr, c.want)
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
