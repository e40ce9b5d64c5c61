# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/milvus/templates/_helpers.tpl#L877
echo "Copying milvus default configuration"
cp -r /opt/bitnami/milvus/configs/. /bitnami/milvus/rendered-conf
