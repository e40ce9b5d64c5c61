package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "simnode.yaml")
	data := `clusterName: wink
kubeconfig: /x/kubeconfig
controlPlaneVersion: v1.35.4
nodeAddressBase: 127.10.0.2
stateDir: /x/simnode
podStartDelay: 300ms
pools:
- name: win2022
  os: windows
  windowsBuild: "10.0.20348"
  count: 2
  taints: [{key: os, value: windows, effect: NoSchedule}]
  capacity: {cpu: "4", memory: 8Gi}
`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg.NodeNames(), ","); got != "wink-win2022-0,wink-win2022-1" {
		t.Fatalf("names %s", got)
	}
	if cfg.PodStartDelay.Duration != 300*time.Millisecond {
		t.Fatalf("podStartDelay %v", cfg.PodStartDelay)
	}
	if err := os.WriteFile(path, []byte(data+"bogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Fatalf("unknown field accepted: %v", err)
	}
}
