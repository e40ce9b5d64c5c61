# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/appsmith/templates/client/deployment.yaml#L85
#!/bin/bash
. /opt/bitnami/scripts/libfs.sh
. /opt/bitnami/scripts/liblog.sh

info "Copying the nginx symlinks"
# We copy the logs folder because it has symlinks to stdout and stderr
if ! is_dir_empty /opt/bitnami/nginx/logs; then
  cp -r /opt/bitnami/nginx/logs /emptydir/nginx-logs-dir
fi
info "Copy operation completed"
