#!/usr/bin/env bash
# Re-planning a running plan: a farmer posts a cluster and a forecast of it; a customer solves a batch on it and
# commits the plan; the farmer reports what ran (the maps of the first slot started, one of them killed); the
# customer re-plans from the next slot: the started maps stay where they run, the killed one runs again, and the
# new plan supersedes the old one and takes over its commitment; the diff says what moved.
# From the checkout: FARMER=... CUSTOMER=... bash examples/replan.sh (the keys `npm run up` printed). Needs curl and jq.
set -euo pipefail
: "${FARMER:?set FARMER to a farmer key}" "${CUSTOMER:?set CUSTOMER to a customer key}"
API=${API:-http://localhost:3000}
EX=$(dirname "${BASH_SOURCE[0]:-examples/.}")   # the request bodies beside this script
call() { local key=$1; shift; curl -sS --fail-with-body -H "Authorization: Bearer $key" -H 'content-type: application/json' "$@"; }
# Waits for a solve to end (a re-plan is one too: GET /v1/solves/{id}) and prints its plan's id.
plan_of() {
  local solve=$1 status
  until status=$(call "$CUSTOMER" "$API/v1/solves/$solve" | jq -r .status); [[ $status =~ ^(succeeded|failed|cancelled)$ ]]; do sleep 0.5; done
  call "$CUSTOMER" "$API/v1/solves/$solve" | jq -r '.planId // error("the solve ended without a plan")'
}

# The farmer's two nodes and a forecast of their regular load from now (six 5-minute slots); the customer's
# batch (six maps, then a reduce), solved and committed: its plan holds its capacity.
CLUSTER=$(call "$FARMER" "$API/v1/clusters" -d @"$EX/sharing-cluster.json" | jq -r .id)
call "$FARMER" "$API/v1/clusters/$CLUSTER/forecasts" -d @"$EX/sharing-forecast.json" > /dev/null
BATCH=$(call "$CUSTOMER" "$API/v1/batches" -d @"$EX/sharing-batch.json" | jq -r .id)
SOLVE=$(jq -n --arg c "$CLUSTER" --arg b "$BATCH" '{clusterId: $c, batchId: $b, strategy: "auto", timeBudgetMs: 1000}' | call "$CUSTOMER" "$API/v1/solves" -d @- | jq -r .id)
PLAN=$(plan_of "$SOLVE")
call "$CUSTOMER" -X POST "$API/v1/plans/$PLAN/commit" | jq -c '{status, version}'

# What ran, as the farmer reports it: the tasks planned in the first slot started where planned; the first was killed.
call "$CUSTOMER" "$API/v1/plans/$PLAN" | jq --arg s "$SOLVE" '[.assignments[] | select(.start == 0) | {job, stage, task, node}] |
  {events: ([to_entries[] | .value + {id: "\($s)-started-\(.key)", solveId: $s, type: "started", at: (now | todate)}]
            + [.[0] + {id: "\($s)-killed-0", solveId: $s, type: "killed", at: (now + 1 | todate)}])}' |
  call "$FARMER" "$API/v1/executions/events" -d @- | jq -c .

# The re-plan from the next slot (202, Location: /v1/solves/<id>, a solve of kind replan: poll it, follow its
# events, or DELETE it to keep the best plan so far). {} would re-plan from the current time.
REPLAN=$(call "$CUSTOMER" "$API/v1/plans/$PLAN/replan" -H "Idempotency-Key: replan-$PLAN" -d '{"nowSlot": 1}' | jq -r .id)
NEW=$(plan_of "$REPLAN")
call "$CUSTOMER" "$API/v1/solves/$REPLAN" | jq -c '.replan | {nowSlot, frozen: .frozen.running, killed: .rerun.killed, commitment}'
# Both versions are kept: the new one holds the capacity now, the old one is released as superseded.
call "$CUSTOMER" "$API/v1/plans/$NEW" | jq -c '{status, version, supersedes}'
call "$CUSTOMER" "$API/v1/plans/$PLAN" | jq -c '{status, supersededBy, releaseReason}'
# What moved: the killed map to the next slot, the reduce after it; the makespan in slots before and after.
call "$CUSTOMER" "$API/v1/plans/$NEW/diff?against=$PLAN" | jq -c '{counts, moved: [.moved[] | "\(.job)/\(.stage)/\(.task): \(.before.node)@\(.before.start) -> \(.after.node)@\(.after.start)"], makespan}'
