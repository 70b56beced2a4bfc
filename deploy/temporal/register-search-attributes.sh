#!/bin/sh
# One-shot (compose service temporal-setup): registers the service's custom search attributes on the
# namespace, so the workflows can set them and operators can list workflows by team, status, collection
# method and user. Idempotent: attributes already there are left alone. The list comes from
# SEARCH_ATTRIBUTES ("Name=Type ..."), which a unit test keeps equal to domain/search-attributes.ts.
set -eu
: "${TEMPORAL_ADDRESS:?}" "${TEMPORAL_NAMESPACE:=default}" "${SEARCH_ATTRIBUTES:?}"
existing=$(temporal operator search-attribute list --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE")
for pair in $SEARCH_ATTRIBUTES; do
  name=${pair%%=*}
  type=${pair#*=}
  if printf '%s\n' "$existing" | grep -qw "$name"; then
    echo "search attribute $name: already registered"
  else
    temporal operator search-attribute create --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" --name "$name" --type "$type"
    echo "search attribute $name: registered ($type)"
  fi
done
