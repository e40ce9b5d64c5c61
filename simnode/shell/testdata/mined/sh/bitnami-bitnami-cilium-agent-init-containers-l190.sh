# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/cilium/templates/agent/_init_containers.tpl#L190
if [[ "$CLEAN_CILIUM_BPF_STATE" = "true" ]]; then
    cilium-dbg post-uninstall-cleanup -f --bpf-state
fi
if [[ "$CLEAN_CILIUM_STATE" = "true" ]]; then
    cilium-dbg post-uninstall-cleanup -f --all-state
fi
