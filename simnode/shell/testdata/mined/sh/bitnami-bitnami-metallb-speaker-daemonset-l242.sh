# source: https://github.com/bitnami/charts/blob/5165628ae06697f8f68a670bef7739d93c4b7f44/bitnami/metallb/templates/speaker/daemonset.yaml#L242
. /usr/lib/frr/frrcommon.sh
/usr/lib/frr/watchfrr $(daemon_list) &
attempts=0
until [[ -f /etc/frr/frr.log || $attempts -eq 60 ]]; do
  sleep 1
  attempts=$(( $attempts + 1 ))
done
tail -f /etc/frr/frr.log
