#!/bin/sh
# One-shot (compose service temporal-setup, before register-search-attributes.sh; `npm run stack:prod-like`
# runs it too): waits until the Temporal frontend answers, then registers the namespace the service uses.
# Idempotent: a namespace that exists is left alone.
set -eu
: "${TEMPORAL_ADDRESS:?}" "${TEMPORAL_NAMESPACE:=default}" "${TEMPORAL_RETENTION:=72h}" "${TEMPORAL_WAIT_SECONDS:=120}"
# wait_for WHAT CMD...: runs CMD every 2 s until it succeeds, for at most TEMPORAL_WAIT_SECONDS.
wait_for() {
  what=$1
  shift
  waited=0
  until "$@" >/dev/null 2>&1; do
    if [ "$waited" -ge "$TEMPORAL_WAIT_SECONDS" ]; then
      echo "$what after ${TEMPORAL_WAIT_SECONDS}s" >&2
      exit 1
    fi
    sleep 2
    waited=$((waited + 2))
  done
}
wait_for "Temporal at $TEMPORAL_ADDRESS not serving" temporal operator cluster health --address "$TEMPORAL_ADDRESS"
if temporal operator namespace describe --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" >/dev/null 2>&1; then
  echo "namespace $TEMPORAL_NAMESPACE: already registered"
else
  temporal operator namespace create --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" --retention "$TEMPORAL_RETENTION"
  echo "namespace $TEMPORAL_NAMESPACE: registered (retention $TEMPORAL_RETENTION)"
fi
# A new namespace is served once the frontend's namespace cache refreshes (about 10 s): wait for it, so the
# next step (register-search-attributes.sh) finds it.
wait_for "namespace $TEMPORAL_NAMESPACE not served" temporal operator search-attribute list --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE"
