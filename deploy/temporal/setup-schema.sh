#!/bin/sh
# One-shot (compose service temporal-schema; `npm run stack:prod-like` runs it too): creates Temporal's two
# Postgres databases and brings their schema to the version of the temporal-sql-tool that runs it (the schema
# is embedded in the tool, so the tool and the server must be the same release). Idempotent: a database that
# exists is kept, and update-schema applies only the versions it lacks, so run it before every server upgrade.
# Connection from the tool's own variables: SQL_HOST, SQL_PORT, SQL_USER, SQL_PASSWORD (SQL_PLUGIN=postgres12).
set -eu
: "${SQL_HOST:?}" "${SQL_USER:?}" "${SQL_PORT:=5432}" "${SQL_PLUGIN:=postgres12}"
export SQL_HOST SQL_USER SQL_PORT SQL_PLUGIN
for pair in "${DBNAME:-temporal}:temporal" "${VISIBILITY_DBNAME:-temporal_visibility}:visibility"; do
  db=${pair%%:*}
  schema=postgresql/v12/${pair#*:}
  # Fails when the database exists already (or the server is unreachable: the next command then says so).
  if temporal-sql-tool --database "$db" create-database >/dev/null 2>&1; then
    echo "database $db: created"
  else
    echo "database $db: exists"
  fi
  temporal-sql-tool --database "$db" setup-schema --version 0.0
  temporal-sql-tool --database "$db" update-schema --schema-name "$schema"
  echo "database $db: schema $schema up to date"
done
