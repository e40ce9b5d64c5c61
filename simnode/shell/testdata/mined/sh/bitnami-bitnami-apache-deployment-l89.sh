# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/apache/templates/deployment.yaml#L89
#!/bin/bash

. /opt/bitnami/scripts/libfs.sh
# We copy the logs folder because it has symlinks to stdout and stderr
if ! is_dir_empty /opt/bitnami/apache/logs; then
  cp -r /opt/bitnami/apache/logs /emptydir/app-logs-dir
fi
