# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/tensorflow-resnet/templates/deployment.yaml#L77
if [ -f /seed/.initialized ]; then
    echo "Already initialized. Skipping"
else
    curl -Lo /seed/model.tar.gz https://www.kaggle.com/api/v1/models/tensorflow/resnet-50/tensorFlow2/classification/1/download
    cd /seed/ && mkdir 1 && tar -xzf model.tar.gz -C 1
    if [ $? -ne 0 ]; then
        echo "Failed to download model"
        exit 1
    fi
    rm model.tar.gz
    touch /seed/.initialized
fi
