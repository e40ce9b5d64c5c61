# source: https://github.com/docker-library/official-images/blob/37079fb336f572a88700cf32e5e1f6be54a04e8f/test/tests/php-ext-install/container.sh
#!/bin/sh
set -e

docker-php-ext-install pdo_mysql 2>&1
php -d display_errors=stderr -r 'exit(extension_loaded("pdo_mysql") ? 0 : 1);'
grep -q '^extension=' /usr/local/etc/php/conf.d/*pdo_mysql*.ini

# TODO now that opcache is built-in (8.5+), we could use a new zend_extension to test that they're loaded correctly too 🙈
