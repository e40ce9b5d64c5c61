# source: https://github.com/docker-library/php/blob/445bf414f1d5866f7aef715f1203eae043710070/8.2/alpine3.23/cli/docker-php-entrypoint
# image: docker.io/library/php:8.2-alpine3.23-cli
#!/bin/sh
set -e

# first arg is `-f` or `--some-option`
if [ "${1#-}" != "$1" ]; then
	set -- php "$@"
fi

exec "$@"
