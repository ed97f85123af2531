"""Cognitive frames and how one is chosen for a piece of text (seed 004, section 2).

A frame is a way of attending to an input: a decision wants past decisions
and many facts, a chat wants little. This module is the pure part: the frame
data, the six frames Nous starts with, and :func:`select_frame`. Storing
frames as ``Frame`` nodes and counting their use is the memory's job.

Frame data: seed 004 names the six frames, their tie-break priorities and
token budgets, but takes their patterns from a seed script it does not
include. The names, descriptions, activation patterns, default categories
and stakes below are those of that script in the project seed 004 came from
(``sql/seed.sql`` of tfatykhov/nous, with the ``default_stakes`` its review
added). The script leaves ``questions_to_ask`` empty; the questions here are
Nous's own. So are the words the task and debug frames add to the script's
(:data:`TASK_WORDS`, :data:`DEBUG_WORDS`): with the script's five task words,
"Write a test for …", "Add logging to …" or "Rename …" (most of what people ask
a coding agent) matched no frame and fell to the conversation frame, which
opens no decision and recalls no episodes or procedures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graph.models.frame import ContextBudget, FrameSpec, frame_words

DEFAULT_FRAME = "conversation"


def score_frame(text: str, frame: FrameSpec) -> int:
    """How strongly ``text`` activates ``frame``; 0 means not at all.

    Matching is case-insensitive and by whole words: ``deploy`` does not
    match ``deployment``. A pattern of several words (``how are you``) must
    appear as consecutive words. Each pattern that matches counts once,
    weighted by its number of words.

    The weighting is a departure from seed 004, which counts every matching
    pattern as one and checks single words only: under that rule its own
    test, "hey how are you" choosing the conversation frame, cannot pass,
    because ``how`` ties it with the question frame, which has the higher
    priority. Counting the words a phrase covers lets the more specific
    phrase win.
    """
    words = frame_words(text)
    if not words:
        return 0
    ngrams: dict[int, set[tuple[str, ...]]] = {}
    score = 0
    for pattern in frame.activation_patterns:
        wanted = frame_words(pattern)
        size = len(wanted)
        if size not in ngrams:
            ngrams[size] = {words[i : i + size] for i in range(len(words) - size + 1)}
        if wanted in ngrams[size]:
            score += size
    return score


def select_frame(
    text: str,
    frames: Sequence[FrameSpec],
    usage: Mapping[str, int] | None = None,
) -> FrameSpec:
    """Choose the frame for ``text`` by pattern matching (seed 004); no LLM.

    The frame with the highest :func:`score_frame` wins. Ties go to the
    higher ``priority`` (for the seed frames decision > debug > task >
    question > creative > conversation), then to the frame used more often
    according to ``usage`` (frame name to count; ``None`` means no counts),
    then to the one earlier in ``frames``. When nothing matches, the frame
    named ``"conversation"`` is returned: the one in ``frames`` if there is
    one, else the seed's.
    """
    counts: Mapping[str, int] = usage if usage is not None else {}
    best: FrameSpec | None = None
    best_key: tuple[int, int, int] = (0, 0, 0)
    for frame in frames:
        score = score_frame(text, frame)
        if score == 0:
            continue
        key = (score, frame.priority, counts.get(frame.name, 0))
        # Strictly greater, so an earlier frame keeps a full tie.
        if best is None or key > best_key:
            best, best_key = frame, key
    if best is not None:
        return best
    return next((frame for frame in frames if frame.name == DEFAULT_FRAME), _SEED_DEFAULT)


# The script's five task words, then the imperatives people give a coding agent. Migration
# 023 gives these and DEBUG_WORDS to stored frames that still hold only the script's.
TASK_WORDS = (
    "build", "fix", "create", "implement", "deploy",
    "write", "add", "update", "change", "refactor", "rename", "remove", "delete", "move",
    "replace", "make", "run", "install", "upgrade", "migrate", "convert", "set up", "clean up",
)  # fmt: skip
# The script's six, then the words a failure is reported in ("the tests fail", "a traceback").
DEBUG_WORDS = (
    "error", "bug", "broken", "failing", "crash", "wrong",
    "fail", "fails", "failed", "exception", "traceback",
)  # fmt: skip

SEED_FRAMES: tuple[FrameSpec, ...] = (
    FrameSpec(
        name="task",
        title="Task Execution",
        description="Focused on completing a specific task",
        activation_patterns=TASK_WORDS,
        default_category="tooling",
        default_stakes="medium",
        questions_to_ask=(
            "What does done look like?",
            "Which files or systems does this touch?",
            "How will the result be checked?",
        ),
        priority=4,
        budget=ContextBudget(total=8000),
    ),
    FrameSpec(
        name="question",
        title="Question Answering",
        description="Answering questions, looking things up",
        activation_patterns=("what", "how", "why", "explain", "tell me"),
        default_category="process",
        default_stakes="low",
        questions_to_ask=(
            "What exactly is being asked?",
            "What is already known about it, and how sure is it?",
        ),
        priority=3,
        budget=ContextBudget(total=6000, decisions=1000, facts=1500, procedures=500, episodes=500),
    ),
    FrameSpec(
        name="decision",
        title="Decision Making",
        description="Evaluating options, choosing a path",
        activation_patterns=("should", "choose", "decide", "compare", "trade-off"),
        default_category="architecture",
        default_stakes="high",
        questions_to_ask=(
            "What are the options, including doing nothing?",
            "What came of similar decisions before?",
            "What would make this choice wrong, and can it be undone?",
        ),
        priority=6,
        budget=ContextBudget(
            total=12000, decisions=3000, facts=2000, procedures=2000, episodes=1000
        ),
    ),
    FrameSpec(
        name="creative",
        title="Creative",
        description="Brainstorming, ideation, exploration",
        activation_patterns=("imagine", "brainstorm", "what if", "design", "explore"),
        default_category="architecture",
        default_stakes="low",
        questions_to_ask=(
            "Which constraints are real and which are assumed?",
            "What are three different directions?",
        ),
        priority=2,
        budget=ContextBudget(
            total=6000, censors=100, decisions=1000, facts=1500, procedures=500, episodes=500
        ),
    ),
    FrameSpec(
        name="conversation",
        title="Conversation",
        description="Casual or social interaction",
        activation_patterns=("hello", "hi", "thanks", "how are you"),
        default_category="process",
        default_stakes="low",
        questions_to_ask=("What does the person want from this exchange?",),
        priority=1,
        budget=ContextBudget(total=3000, decisions=500, facts=500, procedures=0, episodes=0),
    ),
    FrameSpec(
        name="debug",
        title="Debug",
        description="Investigating problems, tracing errors",
        activation_patterns=DEBUG_WORDS,
        default_category="tooling",
        default_stakes="medium",
        questions_to_ask=(
            "What is the exact error, and where does it first appear?",
            "What changed since it last worked?",
            "Has this failure been seen before, and what fixed it then?",
        ),
        priority=5,
        budget=ContextBudget(
            total=10000, decisions=1500, facts=1000, procedures=2500, episodes=1000
        ),
    ),
)

_SEED_DEFAULT = next(frame for frame in SEED_FRAMES if frame.name == DEFAULT_FRAME)
