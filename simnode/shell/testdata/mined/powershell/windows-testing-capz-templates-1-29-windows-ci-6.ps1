# source: https://github.com/kubernetes-sigs/windows-testing/blob/6ae6988090b1a0f0b6c7e93db30b8aabe030c8b4/capz/templates/1.29/windows-ci.yaml#L28-L57
# note: $$ unescaped to $, as the kubelet (command, args) and clusterctl (envsubst) pass it
$ErrorActionPreference = 'Stop'

Stop-Service kubelet -Force

$CI_VERSION="${CI_VERSION}"
if($CI_VERSION -ne "")
{
  $binaries=@("kubeadm", "kubectl", "kubelet", "kube-proxy")
  $ci_url="https://storage.googleapis.com/k8s-release-dev/ci/$CI_VERSION/bin/windows/amd64"
  foreach ( $binary in $binaries )
  {
    echo "downloading binary: $ci_url/$binary.exe"
    curl.exe --retry 10 --retry-delay 5 "$ci_url/$binary.exe" --output "c:/k/$binary.exe"
  }
}

# Tag it to the ci version.  The image knows how to use the copy locally with the configmap
# that is applied at at this stage (windows-kubeproxy-ci.yaml)
# use containerd local service vs transfer service until transfer service stabalizes in containerd 2.0
ctr.exe -n k8s.io images pull --local docker.io/sigwindowstools/kube-proxy:v1.23.1-calico-hostprocess
ctr.exe -n k8s.io images tag docker.io/sigwindowstools/kube-proxy:v1.23.1-calico-hostprocess "docker.io/sigwindowstools/kube-proxy:${CI_VERSION/+/_}-calico-hostprocess"

echo "kubeadm version: "
kubeadm.exe version -o=short
echo "kubectl version: "
kubectl.exe version --client=true
echo "kubelet version: "
kubelet.exe --version
echo "kube-proxy version: "
kube-proxy.exe --version
