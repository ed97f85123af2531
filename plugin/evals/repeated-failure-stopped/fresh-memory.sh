#!/bin/sh
# A memory of its own for this run: ./nous.yaml names an agent no other run uses (the hooks
# of the session under test read it), so no censor of an earlier run is already there.
set -eu
# A `nous-eval-agent` program on PATH may name the agent (the suite's test does, to forget
# it afterwards; the eval passes a scaffold no other environment).
agent="$(nous-eval-agent 2>/dev/null || echo "nous-eval-$$-$(date +%s)")"
printf 'agent_id: %s\n' "$agent" > nous.yaml
