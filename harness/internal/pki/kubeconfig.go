package pki

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// ContextName is the kubeconfig context (and cluster entry) name of a wink
// cluster: wink-<cluster>.
func ContextName(clusterName string) string {
	return "wink-" + clusterName
}

// WriteKubeconfig writes to path a kubeconfig for server (https://host:port)
// whose single context, wink-<clusterName>, uses the client certificate
// certFile/keyFile as user and trusts caFile. The files' contents are
// embedded, so the kubeconfig keeps working when copied. The file is written
// atomically with mode 0600, which also replaces the mode of an existing file;
// its directory is created 0700 when missing.
func WriteKubeconfig(path, server, clusterName string, caFile string, certFile, keyFile string, user string) error {
	if server == "" || clusterName == "" || user == "" {
		return fmt.Errorf("kubeconfig %s: server, cluster name and user must be set", path)
	}
	caData, err := os.ReadFile(caFile)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	certData, err := os.ReadFile(certFile)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	keyData, err := os.ReadFile(keyFile)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	name := ContextName(clusterName)
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[name] = &clientcmdapi.Cluster{
		Server:                   server,
		CertificateAuthorityData: caData,
	}
	cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{
		ClientCertificateData: certData,
		ClientKeyData:         keyData,
	}
	cfg.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: user}
	cfg.CurrentContext = name
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), DirMode); err != nil {
		return fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	if err := WriteFile(path, data, KeyMode); err != nil {
		return fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	return nil
}
