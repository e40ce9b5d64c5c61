# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/cilium/templates/hubble-ui/_init_containers.tpl#L89
. /opt/bitnami/scripts/libfs.sh

# We copy the logs folder because it has symlinks to stdout and stderr
if ! is_dir_empty /opt/bitnami/nginx/logs; then
  cp -r /opt/bitnami/nginx/logs /emptydir/nginx-logs-dir
fi
