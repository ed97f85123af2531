"""A second set of phrasings for ``bench.decisions`` (``--phrases heldout``), used only to check
that what Nous finds is not the shipped set's shapes: written once, before the extraction
rules were changed for issue 58's second round, and never tuned to.

Other shapes than :mod:`bench.decisions_phrases`: the passive ("was set to … on purpose"),
"we went with X because Y", "going forward", "never let X exceed", a rule in a bullet list,
the reason in a later message of the same session (``|||`` separates the reply, the person's
follow-up and the reply that gives the reason), a revert's commit, a conventional commit,
and bug reports that name neither the code name nor the rule's words.
"""

from __future__ import annotations

CHAT_RULES = [
    "{name} was set to {value} {unit} on purpose, after the incident review: {reason}.",
    "We went with {value} {unit} for the {component}'s {plain} because {reason}.",
    "Going forward the {component} uses {value} {unit} for its {plain}; {reason}.",
    "Never let {name} exceed {value}. {Reason}.",
    "Summary of what we settled:\n- {name}: {value} {unit}\n- why: {reason}\n- owner: platform",
    "Let's make {name} {value}.|||Why {value} and not {wrong}?|||{Reason}; anything "
    "above that fails in production.",
    "{value} it is for {name} ({reason}).",
    "I'd leave {name} at {value}: {reason}. Changing it caused the last incident.",
    "Conclusion: {file} keeps {name} = {value}. Rationale: {reason}.",
    "The {plain} of the {component} is intentionally {value} {unit} ({reason}).",
]
COMMIT_RULES = [
    "{component}: {name} {wrong} -> {value}\n\nReverts last week's bump. {Reason}.",
    "Make {name} configurable, default {value}\n\nThe default is {value} {unit} because "
    "{reason}. Please do not change the default without a load test.",
    "fix({component}): limit the {plain} to {value}\n\n{Reason}, so anything above {value} "
    "fails in production.",
    "{component}: document why {name} is {value}\n\n- {reason}\n- {wrong} was tried and failed",
    'Revert "Raise {name} to {wrong}"\n\nThis reverts the change: {reason}. {name} stays {value}.',
]
AMENDMENTS = [
    "Heads-up: {name} moves from {old} to {value}. {Reason}.",
    "After the provider change we bumped {name} to {value} ({reason}); the old {old} is obsolete.",
    "New number for {name}: {value} {unit}. {Reason}, so the earlier {old} is wrong now.",
]
PROMPTS = [
    "Since Tuesday {what} {wrong_effect}. Can you take a look and fix the config?",
    "Incident: the {component} {wrong_effect} again. What's the right setting?",
    "I think someone changed the {component} config; it {wrong_effect}. Put it back.",
    "Looking at {file}: {what} {wrong_effect}. Fix whatever setting causes it.",
    "Ops says {what} {wrong_effect}. Make it behave like before.",
    "{what} {wrong_effect} after the last deploy, please sort it out.",
]
ASKS = [
    "What value should {name} have?",
    "The {component} config is a mess, let's agree on the {plain}.",
    "Why is the {plain} what it is?",
    "Ops asked about the {component}'s {plain}.",
]
REVISIT = "Ops wants to look at {name} again."
