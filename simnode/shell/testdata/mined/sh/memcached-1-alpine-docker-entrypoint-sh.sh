# source: https://github.com/docker-library/memcached/blob/53ac0ecb0bf88b471a0110f8996ce791baf1a667/1/alpine/docker-entrypoint.sh
# image: docker.io/library/memcached:1-alpine
#!/bin/sh
set -e

# first arg is `-f` or `--some-option`
if [ "${1#-}" != "$1" ]; then
	set -- memcached "$@"
fi

exec "$@"
