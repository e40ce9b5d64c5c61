# source: https://github.com/docker-library/official-images/blob/37079fb336f572a88700cf32e5e1f6be54a04e8f/test/tests/ruby-binstubs/container.sh
#!/usr/bin/env sh
set -eu

dir="$(mktemp -d)"
trap "rm -rf '$dir'" EXIT

cp Gemfile "$dir"

cd "$dir"

bundle install

if bundle info bundler-compose; then
	bundle compose help > /dev/null
else
	bundle info bundler-audit
	bundle audit version
fi

bundle info brakeman
brakeman --version
