# source: https://github.com/influxdata/influxdata-docker/blob/d457cb9363532cbbc8d63ef7d1b065336ef0302d/kapacitor/1.8/alpine/entrypoint.sh
# image: docker.io/library/kapacitor:1.8-alpine
#!/bin/sh
set -e

if [ "${1:0:1}" = '-' ]; then
    set -- kapacitord "$@"
fi

KAPACITOR_HOSTNAME=${KAPACITOR_HOSTNAME:-$HOSTNAME}
export KAPACITOR_HOSTNAME

if [ "$(id -u)" -ne 0 ] || [ "${KAPACITOR_AS_ROOT}" = "true" ]; then
    exec "$@"
else
    exec setpriv --reuid kapacitor --regid kapacitor --init-groups "$@"
fi
