# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/mongodb/templates/_helpers.tpl#L332
ln -sf /dev/stdout "/opt/bitnami/mongodb/logs/mongodb.log"
