# source: https://github.com/docker-library/official-images/blob/37079fb336f572a88700cf32e5e1f6be54a04e8f/test/tests/composer/container.sh
#!/bin/sh

dir="$(mktemp -d)"

trap "rm -rf '$dir'" EXIT

cp composer.json "$dir"

cd "$dir"

composer --version
composer install --no-interaction --no-progress --no-ansi --profile
