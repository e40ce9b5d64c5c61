# source: https://github.com/kubernetes-sigs/windows-testing/blob/6ae6988090b1a0f0b6c7e93db30b8aabe030c8b4/capz/templates/1.29/windows-pr.yaml#L28-L52
# note: $$ unescaped to $, as the kubelet (command, args) and clusterctl (envsubst) pass it
$ErrorActionPreference = 'Stop'

Stop-Service kubelet -Force

$KUBE_GIT_VERSION="${KUBE_GIT_VERSION}"
if($KUBE_GIT_VERSION -ne "")
{
  $binaries=@("kubeadm", "kubectl", "kubelet", "kube-proxy")
  $ci_url="https://${AZURE_STORAGE_ACCOUNT}.blob.core.windows.net/${AZURE_BLOB_CONTAINER_NAME}/${KUBE_GIT_VERSION}/bin/windows/amd64"
  foreach ( $binary in $binaries )
  {
    echo "downloading binary: $ci_url/$binary.exe"
    curl.exe --retry 10 --retry-delay 5 "$ci_url/$binary.exe" --output "c:/k/$binary.exe"
  }
}

# Tag it to the ci version.  The image knows how to use the copy locally with the configmap
# that is applied at at this stage (windows-kubeproxy-ci.yaml)
ctr.exe -n k8s.io images pull docker.io/sigwindowstools/kube-proxy:v1.23.1-calico-hostprocess
ctr.exe -n k8s.io images tag docker.io/sigwindowstools/kube-proxy:v1.23.1-calico-hostprocess "docker.io/sigwindowstools/kube-proxy:${CI_VERSION/+/_}-calico-hostprocess"

kubeadm.exe version -o=short
kubectl.exe version --client=true --short=true
kubelet.exe --version
kube-proxy.exe --version
