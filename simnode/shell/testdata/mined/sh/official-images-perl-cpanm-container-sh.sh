# source: https://github.com/docker-library/official-images/blob/37079fb336f572a88700cf32e5e1f6be54a04e8f/test/tests/perl-cpanm/container.sh
#!/bin/sh
set -eux

cpanm --notest Mojolicious
