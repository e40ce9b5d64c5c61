# source: https://github.com/influxdata/influxdata-docker/blob/d457cb9363532cbbc8d63ef7d1b065336ef0302d/influxdb/1.10/entrypoint.sh
# image: docker.io/library/influxdb:1.10
#!/bin/bash
set -e

if [ "${1:0:1}" = '-' ]; then
    set -- influxd "$@"
fi

if [ "$1" = 'influxd' ]; then
	/init-influxdb.sh "${@:2}"
fi

exec "$@"
