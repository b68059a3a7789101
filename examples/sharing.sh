#!/usr/bin/env bash
# One cluster, many customers: a farmer posts a cluster, a forecast and a default quota; two customers quote
# and solve the same batch on it; the first commit holds its capacity, the second plan no longer fits (409),
# is solved again around what is held, and commits; the farmer reads the cluster's schedule; the first
# customer releases its plan. From the checkout: FARMER=... CUSTOMER=... OP=... bash examples/sharing.sh
# (the keys `npm run up` printed; the operator key makes the second customer). Needs curl and jq.
set -euo pipefail
: "${FARMER:?set FARMER to a farmer key}" "${CUSTOMER:?set CUSTOMER to a customer key}" "${OP:?set OP to the operator key}"
API=${API:-http://localhost:3000}
EX=$(dirname "${BASH_SOURCE[0]:-examples/.}")   # the request bodies beside this script
call() { local key=$1; shift; curl -sS --fail-with-body -H "Authorization: Bearer $key" -H 'content-type: application/json' "$@"; }
# Solves a batch on the cluster (every committed plan is reserved in its instance) and prints the plan's id.
plan_of() {
  local key=$1 batch=$2 solve status
  solve=$(jq -n --arg c "$CLUSTER" --arg b "$batch" '{clusterId: $c, batchId: $b, strategy: "auto", timeBudgetMs: 1000}' | call "$key" "$API/v1/solves" -d @- | jq -r .id)
  until status=$(call "$key" "$API/v1/solves/$solve" | jq -r .status); [[ $status =~ ^(succeeded|failed|cancelled)$ ]]; do sleep 0.5; done
  call "$key" "$API/v1/solves/$solve" | jq -r '.planId // error("the solve ended without a plan")'
}

# The farmer's cluster (16 cores), the forecast of its regular load, and a default quota: no customer may
# hold more than three quarters of the lendable cores at once.
CLUSTER=$(call "$FARMER" "$API/v1/clusters" -d @"$EX/sharing-cluster.json" | jq -r .id)
call "$FARMER" "$API/v1/clusters/$CLUSTER/forecasts" -d @"$EX/sharing-forecast.json" > /dev/null
call "$FARMER" -X PUT "$API/v1/clusters/$CLUSTER/quotas/default" -d '{"shares": {"cpu": 0.75}}' | jq -c '{customer, shares, borrow}'
# A second customer, made by the operator.
SECOND=$(call "$OP" "$API/v1/tenants" -d '{"name": "second-shop"}' | jq -r .id)
OTHER=$(call "$OP" "$API/v1/tenants/$SECOND/keys" -d '{"role": "customer"}' | jq -r .key)

# Each customer posts the batch. A quote says at once what it would get now; nothing is stored or held.
A_BATCH=$(call "$CUSTOMER" "$API/v1/batches" -d @"$EX/sharing-batch.json" | jq -r .id)
B_BATCH=$(call "$OTHER" "$API/v1/batches" -d @"$EX/sharing-batch.json" | jq -r .id)
call "$CUSTOMER" "$API/v1/quotes" -d "{\"clusterId\": \"$CLUSTER\", \"batchId\": \"$A_BATCH\"}" | jq -c '.jobs[] | {id, accepted, plannedEnd, revenue, reason}'
# Both solve before either commits, so both plans want the same cores.
A_PLAN=$(plan_of "$CUSTOMER" "$A_BATCH")
B_PLAN=$(plan_of "$OTHER" "$B_BATCH")
# The first commit holds its capacity; the second is a 409 naming where it no longer fits, and changes nothing.
call "$CUSTOMER" -X POST "$API/v1/plans/$A_PLAN/commit" | jq -c '{status, window}'
curl -sS -H "Authorization: Bearer $OTHER" -X POST "$API/v1/plans/$B_PLAN/commit" | jq -c '{status, first: .conflicts[0]}'
# Solved again, the second plan goes around what the first holds, and commits.
B_PLAN=$(plan_of "$OTHER" "$B_BATCH")
call "$OTHER" -X POST "$API/v1/plans/$B_PLAN/commit" | jq -c '{status, window}'
# The farmer's view: the committed plans and, per metric and slot, what is held and what is still free.
call "$FARMER" "$API/v1/clusters/$CLUSTER/schedule" | jq -c '{plans: [.plans[] | {id, tasks}], cpuReserved: .totals.metrics.cpu.reserved, cpuFree: .totals.metrics.cpu.free}'
# The first customer gives its capacity back: its plan is released and leaves the accounts.
call "$CUSTOMER" -X POST "$API/v1/plans/$A_PLAN/release" | jq -c '{status, releasedAt}'
