#!/bin/sh
# One-shot (compose service temporal-setup, before register-search-attributes.sh; `npm run stack:prod-like`
# runs it too): waits until the Temporal frontend answers, then registers the namespace the service uses.
# Idempotent: a namespace that exists is left alone.
set -eu
: "${TEMPORAL_ADDRESS:?}" "${TEMPORAL_NAMESPACE:=default}" "${TEMPORAL_RETENTION:=72h}" "${TEMPORAL_WAIT_SECONDS:=120}"
waited=0
until temporal operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; do
  if [ "$waited" -ge "$TEMPORAL_WAIT_SECONDS" ]; then
    echo "Temporal at $TEMPORAL_ADDRESS not serving after ${TEMPORAL_WAIT_SECONDS}s" >&2
    exit 1
  fi
  sleep 2
  waited=$((waited + 2))
done
if temporal operator namespace describe --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" >/dev/null 2>&1; then
  echo "namespace $TEMPORAL_NAMESPACE: already registered"
else
  temporal operator namespace create --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" --retention "$TEMPORAL_RETENTION"
  echo "namespace $TEMPORAL_NAMESPACE: registered (retention $TEMPORAL_RETENTION)"
fi
# A new namespace is served once the frontend's namespace cache refreshes (about 10 s): wait for it, so the
# next step (register-search-attributes.sh) finds it.
waited=0
until temporal operator search-attribute list --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" >/dev/null 2>&1; do
  if [ "$waited" -ge "$TEMPORAL_WAIT_SECONDS" ]; then
    echo "namespace $TEMPORAL_NAMESPACE not served after ${TEMPORAL_WAIT_SECONDS}s" >&2
    exit 1
  fi
  sleep 1
  waited=$((waited + 1))
done
