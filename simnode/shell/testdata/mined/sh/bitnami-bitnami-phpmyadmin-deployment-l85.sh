# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/phpmyadmin/templates/deployment.yaml#L85
#!/bin/bash

. /opt/bitnami/scripts/liblog.sh
. /opt/bitnami/scripts/libfs.sh

info "Copying base dir to empty dir"
# In order to not break the application functionality (such as upgrades or plugins) we need
# to make the base directory writable, so we need to copy it to an empty dir volume
cp -r --preserve=mode /opt/bitnami/phpmyadmin /emptydir/app-base-dir

info "Copying symlinks to stdout/stderr"
# We copy the logs folder because it has symlinks to stdout and stderr
if ! is_dir_empty /opt/bitnami/apache/logs; then
  cp -r /opt/bitnami/apache/logs /emptydir/apache-logs-dir
fi
info "Copying php var directory"
# PhpMyAdmin will fail to start if the php var folder is not populated
if ! is_dir_empty /opt/bitnami/php/var; then
  cp -r /opt/bitnami/php/var /emptydir/php-var-dir
fi
info "Copy operation completed"
