#!/usr/bin/env bash
# A full solve over HTTP: a farmer posts a cluster and a utilisation forecast of it, a customer posts a batch
# of MapReduce jobs, asks for a solve with a 3 s budget, polls it until it ends and reads the plan.
# From the checkout: FARMER=... CUSTOMER=... bash examples/walkthrough.sh   (the keys `npm run up` printed;
# API defaults to http://localhost:3000). Needs curl and jq.
set -euo pipefail
: "${FARMER:?set FARMER to a farmer key}" "${CUSTOMER:?set CUSTOMER to a customer key}"
API=${API:-http://localhost:3000}
EX=$(dirname "${BASH_SOURCE[0]:-examples/.}")   # the request bodies beside this script
# One request with a key; an HTTP error fails the script and prints the problem+json body.
call() { local key=$1; shift; curl -sS --fail-with-body -H "Authorization: Bearer $key" -H 'content-type: application/json' "$@"; }

# The farmer's cluster (every update makes a new version) and a forecast of its regular load.
CLUSTER=$(call "$FARMER" "$API/v1/clusters" -d @"$EX/cluster.json" | jq -r .id)
FORECAST=$(call "$FARMER" "$API/v1/clusters/$CLUSTER/forecasts" -d @"$EX/forecast.json" | jq -r .id)
# The customer's batch, and a solve of it on that cluster and forecast (202 Accepted, Location: /v1/solves/<id>).
BATCH=$(call "$CUSTOMER" "$API/v1/batches" -d @"$EX/batch.json" | jq -r .id)
SOLVE=$(jq --arg c "$CLUSTER" --arg f "$FORECAST" --arg b "$BATCH" '. + {clusterId: $c, forecastId: $f, batchId: $b}' "$EX/solve.json" |
  call "$CUSTOMER" "$API/v1/solves" -H "Idempotency-Key: walkthrough-$BATCH" -d @- | jq -r .id)
# Poll until it ends (progress shows the best plan so far; DELETE /v1/solves/$SOLVE stops it and keeps that plan).
until STATUS=$(call "$CUSTOMER" "$API/v1/solves/$SOLVE" | jq -r .status); [[ $STATUS =~ ^(succeeded|failed|cancelled)$ ]]; do
  echo "solve $SOLVE: $STATUS" >&2
  sleep 1
done
PLAN=$(call "$CUSTOMER" "$API/v1/solves/$SOLVE" | jq -r '.planId // empty')
[ -n "$PLAN" ] || { echo "solve $SOLVE ended $STATUS without a plan" >&2; exit 1; }
# The plan (fallow.plan/v1 with kpis, bound, gap, rejections) and what it runs on h01.
call "$CUSTOMER" "$API/v1/plans/$PLAN" | jq '{id, strategy, objective, bound, gap, kpis}'
call "$CUSTOMER" "$API/v1/plans/$PLAN/assignments?node=h01&limit=100" | jq -c '.items[]'
