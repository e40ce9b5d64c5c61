# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/jenkins/templates/deployment.yaml#L72
#!/bin/bash

. /opt/bitnami/scripts/libfs.sh

if ! is_dir_empty /opt/bitnami/jenkins/plugins; then
    cp -r /opt/bitnami/jenkins/plugins/* /plugins
fi
