#!/bin/bash
# record-why.sh SCENARIO...: for each scenario folder (config.yaml and scenario.sh), start ykplus with
# config.yaml, act as a shim as scenario.sh says, and save every REST answer `aclint why` reads for
# the applications it names, as yunikorn-core gave them (status line and body), under SCENARIO/rest/.
# Needs $YKPLUS: ../shared/yunikorn-rest/usage/tools/ykplus-main.go built in a yunikorn-core be3bb487
# clone (scheduler-interface 2858f4d through go mod edit -replace). Ports: REST :9080, control :9081.
#
# scenario.sh defines the steps with:
#   node ID MEMORY VCORE_MILLI PODS          a node
#   app ID QUEUE USER GROUPS [TAG=VALUE...]  a new application (GROUPS a,b or -), then one ask
#                                            of $MEM memory, $VCORE vcore milli, 1 pod (default 1000 each)
#   remove ID                                the application removed
#   why ID...                                record what `aclint why ID` reads, now, into rest/
set -uf  # no globbing: a group may be named *
S=localhost:9080/ws/v1; C=http://127.0.0.1:9081
save() { # save URL-PATH: the answer's body in a file named by the path, its status beside it when not 200
	local f; f="$OUT/$(printf '%s' "$1" | sed 's|^/ws/v1/||; s|/|_|g; s|?|@|g; s|\*|%2A|g')"
	local code; code=$(curl -s -o "$f" -w '%{http_code}' "localhost:9080$1")
	[ "$code" = 200 ] || printf '%s\n' "$code" > "$f.status"
}
node() { curl -s -X POST "$C/node?id=$1&memory=$2&vcore=$3&pods=$4" > /dev/null; }
app() {
	local id=$1 queue=$2 user=$3 groups=$4; shift 4
	local tags=""; for t in "$@"; do tags="$tags&tag=$t"; done
	[ "$groups" = - ] && groups=""
	curl -s -X POST "$C/app?id=$id&queue=$queue&user=$user&groups=$groups&partition=default$tags" > /dev/null; sleep "${PACE_APP:-0.3}"
	curl -s -X POST "$C/ask?app=$id&key=$id-ask-1&memory=${MEM:-1000}&vcore=${VCORE:-1000}&pods=1&partition=default" > /dev/null; sleep "${PACE_ASK:-1.2}"
}
remove() { curl -s -X POST "$C/remove-app?id=$1&partition=default" > /dev/null; sleep 3; }
why() {
	OUT="$DIR/rest/$STEP"; mkdir -p "$OUT"; STEP=$((STEP + 1))
	save /ws/v1/config
	for a in "$@"; do
		save "/ws/v1/partition/default/application/$a"
		local j; j=$(curl -s "$S/partition/default/application/$a")
		local user; user=$(printf '%s' "$j" | sed -n 's/.*"user":"\([^"]*\)".*/\1/p')
		[ -n "$user" ] && save "/ws/v1/partition/default/usage/user/$user"
		for g in $(curl -s "$S/partition/default/usage/user/$user" | sed -n 's/.*"groups":{\([^}]*\)}.*/\1/p' | tr ',' '\n' | sed 's/.*:"\([^"]*\)"/\1/' | sort -u) $(printf '%s' "$j" | sed -n 's/.*"groups":\[\([^]]*\)\].*/\1/p' | tr -d '"' | tr ',' ' '); do
			save "/ws/v1/partition/default/usage/group/$g"
		done
	done
	save /ws/v1/partition/default/queues
	for st in active rejected completed; do save "/ws/v1/partition/default/applications/$st"; done
	save /ws/v1/partition/default/usage/groups
	save "/ws/v1/events/batch?count=10000"
}
for DIR in "$@"; do
	DIR=$(cd "$DIR" && pwd); STEP=1; rm -rf "$DIR/rest"
	(cd "$DIR" && exec "${YKPLUS:?set YKPLUS to the built ykplus}" config.yaml > "$DIR/.server.log" 2>&1) & pid=$!
	for i in $(seq 1 100); do curl -s -o /dev/null localhost:9080/ws/v1/config && break; sleep 0.1; done
	curl -s localhost:9080/ws/v1/config | grep -q '^partitions:' || { echo "$DIR: the scheduler did not load config.yaml"; cat "$DIR/.server.log" | grep -i "registered\|error" | head -3; }
	. "$DIR/scenario.sh"
	kill $pid; wait $pid 2>/dev/null; rm -f "$DIR/.server.log"
done
