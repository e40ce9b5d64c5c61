# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/dremio/templates/_init_containers.tpl#L317
set -e
echo "Copying configuration files from /opt/bitnami/dremio/conf to empty-dir volume"
# First copy the default configuration files so we can fully replace the folder

cp /opt/bitnami/dremio/conf/* /bitnami/dremio/conf/
