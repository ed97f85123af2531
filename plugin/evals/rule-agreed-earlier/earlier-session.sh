#!/bin/sh
# The earlier session, replayed into Nous as Claude Code's hooks report one: the user and the
# agent agree that this project installs packages with pnpm. Each run gets a memory of its
# own: ./nous.yaml names an agent no other run uses, and the hooks of the session under test
# read the same file. Needs `nous` on PATH (or NOUS_BIN) and its Neo4j.
set -eu
nous="${NOUS_BIN:-nous}"
root="$PWD"
run="$$-$(date +%s)"
# A `nous-eval-agent` program on PATH may name the agent (the suite's test does, to forget
# it afterwards; the eval passes a scaffold no other environment).
agent="$(nous-eval-agent 2>/dev/null || echo "nous-eval-$run")"
printf 'agent_id: %s\n' "$agent" > nous.yaml
session="eval-earlier-$run"
hook() {
  printf '{"session_id": "%s", "hook_event_name": "%s", %s}' "$session" "$1" "$2" |
    "$nous" hook "$1" --root "$root" > /dev/null
}
hook SessionStart '"source": "startup"'
hook UserPromptSubmit '"prompt": "From now on, in this project we install packages with pnpm (pnpm add NAME), never with npm install: the lockfile is pnpm-lock.yaml. Please keep that rule."'
hook Stop '"last_assistant_message": "Agreed: packages are installed with pnpm add, never npm install."'
hook SessionEnd '"reason": "other"'
