# source: https://github.com/antrea-io/antrea/blob/fc70f2bb7037f398196fd42210d34800cb6aa398/build/images/scripts/Install-WindowsCNI.ps1
$ErrorActionPreference = "Stop";

mkdir -force /host/var/run/secrets/kubernetes.io/serviceaccount
cp -force /var/run/secrets/kubernetes.io/serviceaccount/* /host/var/run/secrets/kubernetes.io/serviceaccount/
mkdir -force /host/k/antrea/etc/
cp /k/antrea/cni/* /host/opt/cni/bin/
cp /etc/antrea/antrea-agent.conf /host/k/antrea/etc/

cp /etc/antrea/antrea-cni.conflist /host/etc/cni/net.d/10-antrea.conflist
