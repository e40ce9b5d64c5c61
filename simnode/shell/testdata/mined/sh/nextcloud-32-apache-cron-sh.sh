# source: https://github.com/nextcloud/docker/blob/4de1eed65a44c61ecce601ef1d27abd2059b52e6/32/apache/cron.sh
# image: docker.io/library/nextcloud:32-apache
#!/bin/sh
set -eu

exec busybox crond -f -L /dev/stdout
