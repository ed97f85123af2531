"""The words of ``bench.decisions``'s generated project: components, knobs, and the pools of
phrasings a rule, an amendment, a bug report and an ordinary turn are drawn from."""

from __future__ import annotations

COMPONENTS = [
    ("uploader", "uploads"),
    ("retrier", "retries"),
    ("indexer", "indexing"),
    ("scheduler", "scheduling"),
    ("mailer", "outgoing mail"),
    ("importer", "imports"),
    ("thumbnailer", "thumbnails"),
    ("webhooks", "webhook delivery"),
    ("sessions", "sessions"),
    ("exporter", "exports"),
    ("billing", "billing sync"),
    ("crawler", "the crawler"),
    ("cache", "the cache"),
    ("reports", "report builds"),
    ("search", "search queries"),
    ("notifier", "push notifications"),
    ("payments", "payment capture"),
    ("geocoder", "geocoding"),
    ("resizer", "image resizing"),
    ("ledger", "ledger writes"),
    ("sync", "device sync"),
    ("archiver", "archiving"),
    ("parser", "feed parsing"),
    ("auth", "login"),
]
# (code suffix, unit, plain names for the knob, what goes wrong when it is off, a reason)
KNOBS = [
    (
        "MAX_ATTEMPTS",
        "attempts",
        ["attempt budget", "number of tries", "retry count"],
        [
            "keeps hitting the provider's rate limit",
            "gets throttled after an outage",
            "gives up on jobs that would have succeeded",
        ],
        "the provider's rate-limit window allows {over} calls",
    ),
    (
        "TIMEOUT_S",
        "seconds",
        ["timeout", "time limit", "deadline"],
        [
            "cuts off slow but healthy requests",
            "reports timeouts on big customers",
            "hangs for minutes on a dead peer",
        ],
        "the upstream p99 latency is {near} s",
    ),
    (
        "BATCH_SIZE",
        "rows",
        ["batch size", "rows per batch", "chunk of rows"],
        [
            "times out on the staging cluster",
            "fails the nightly run with a statement timeout",
            "is slow on small tables",
        ],
        "batches over {over} rows exceed the statement timeout",
    ),
    (
        "POOL_SIZE",
        "connections",
        ["connection pool", "pool size", "number of connections"],
        [
            "runs out of database connections",
            "gets 'too many clients' errors",
            "waits on the pool under load",
        ],
        "the database caps each service at {over} connections",
    ),
    (
        "TTL_S",
        "seconds",
        ["cache lifetime", "expiry", "time to live"],
        ["serves stale entries", "shows yesterday's prices", "misses the cache all the time"],
        "the CDN purges every {near} seconds",
    ),
    (
        "WORKERS",
        "workers",
        ["parallelism", "worker count", "number of workers"],
        [
            "starves the other jobs on the host",
            "makes the API slow while it runs",
            "pegs every CPU",
        ],
        "the host has {over} cores shared with the API",
    ),
    (
        "CHUNK_BYTES",
        "bytes",
        ["chunk size", "read size", "block size"],
        [
            "tears records across reads",
            "corrupts the last record of a file",
            "reads the disk far too often",
        ],
        "the storage pages are {near} bytes",
    ),
    (
        "BACKOFF_MS",
        "milliseconds",
        ["backoff", "delay between tries", "wait between attempts"],
        [
            "hammers the partner API after an error",
            "gets banned by the partner for a while",
            "retries too eagerly",
        ],
        "the partner asks for at least {near} ms between calls",
    ),
    (
        "MAX_QUEUE",
        "items",
        ["queue length", "queue bound", "backlog limit"],
        ["eats all the memory under load", "gets OOM-killed at peak", "drops jobs on bursts"],
        "each item holds about {near} KB in memory",
    ),
    (
        "PAGE_SIZE",
        "items",
        ["page size", "items per page", "results per request"],
        [
            "gets truncated responses from the API",
            "misses the last items of a listing",
            "needs hundreds of requests for one listing",
        ],
        "the API silently truncates above {over} items",
    ),
]
Knob = tuple[str, str, list[str], list[str], str]
Pair = tuple[tuple[str, str], Knob]

# A rule as said in a chat: {name}, {value}, {unit}, {reason}, {plain}, {file}, {wrong}.
CHAT_RULES = [
    "{name} should be exactly {value}; {reason}.",
    "We decided to keep {name} at {value} {unit} because {reason}.",
    "Let's settle this: {name} stays at {value}. {Reason}, so anything higher breaks.",
    "Agreed: the {plain} in {file} is {value} {unit}, since {reason}. Do not raise it to {wrong}.",
    "From now on {name} is {value}: {reason}.",
    "Keep {name} = {value}. {Reason}.",
    "The rule for {file} is {name} = {value} {unit}; {reason}, and {wrong} was measured to fail.",
    "Please don't change {name} from {value} to {wrong}: {reason}.",
    "{name} must not go above {value} because {reason}.",
    "OK, decision made: {value} {unit} for {name}, as {reason}.",
]
COMMIT_RULES = [
    "Set {name} to {value}\n\n{name} is {value}, measured against the real load: {reason}; "
    "do not round it to {wrong}.",
    "Pin {name} at {value} {unit}\n\nThe {plain} has to stay at {value} because {reason}.",
    "{component}: cap {name} at {value}\n\n{Reason}. Never raise it past {value} without "
    "measuring again.",
    "Lower {name} to {value}\n\nWe agreed to use {value} {unit}: {reason}, and {wrong} broke "
    "production last week.",
    "Tune {file}\n\n{name} must be {value} since {reason}.",
]
AMENDMENTS = [
    "We're changing {name} to {value} now: {reason}. This replaces the old value of {old}.",
    "Update on {name}: it is {value} from now on, because {reason}.",
    "Decision revised: {name} should be {value} {unit}, since {reason}; {old} no longer holds.",
]
PROMPTS = [
    "The {component} {wrong_effect}. Restore the {plain} we agreed on.",
    "Bug: {what} {wrong_effect} since yesterday's refactor of {file}; put the {plain} back "
    "where it belongs.",
    "{name} looks off, {what} {wrong_effect}. What should it be? Fix it.",
    "Somebody tweaked the {plain} of the {component} and now it {wrong_effect}. Please fix.",
    "Customer report: {what} {wrong_effect}. Check the {plain} in {file} and correct it.",
    "The {component}'s {plain} was changed in the last release; it {wrong_effect}. Set it right.",
]
# What the person asks in the session where a rule is agreed: never the later bug's words.
ASKS = [
    "Is {name} still right?",
    "5 is leaving {what} on the table, can we raise the {plain}?",
    "Quick one about the {component}: what do we do with {name}?",
    "I want to clean up the constants in the {component}.",
    "Can we revisit the {plain}? It looks arbitrary.",
]
# Ordinary sessions that speak of the same troubles without stating any rule (decoys).
TROUBLE_CHAT = [
    (
        "The {component} {effect} in staging again.",
        "I restarted it and it recovered; nothing in {file} changed. I'll keep an eye on the logs.",
    ),
    (
        "Users say {what} {effect}.",
        "I could not reproduce it locally; the dashboards look "
        "normal. Let me know if it happens again.",
    ),
    (
        "Does the {component} handle it when it {effect}?",
        "It logs a warning and moves on; the retry loop in {file} picks the job up later.",
    ),
]
ORDINARY_CHAT = [
    ("Can you add type hints to {file}?", "Done: {file} now has type hints on every function."),
    (
        "Why does the {component} log twice?",
        "The handler was attached twice in {file}; I removed the second one. The tests pass now.",
    ),
    (
        "Rename the helper in {file} to something clearer.",
        "Renamed it to {helper}() and updated the two callers.",
    ),
    (
        "Where is {name} read?",
        "{name} is read once in {file}, when the {component} starts. Nothing else touches it.",
    ),
    (
        "The {component} test is flaky, any idea?",
        "I think it's timing: the test sleeps 2 s. "
        "I replaced the sleep with an event; it should be stable now.",
    ),
    (
        "What does {helper}() return?",
        "It returns a list of pending jobs for the {component}, oldest first.",
    ),
    (
        "Can we speed up {what}?",
        "Maybe; I'd profile {file} first. Let me check where the time goes.",
    ),
    (
        "5 is leaving {what} on the table, right?",
        "Possibly, let me look at the numbers before we touch anything.",
    ),
    (
        "Add a docstring to {helper}().",
        "Added a one-line docstring saying what {helper}() returns.",
    ),
    ("Please format {file}.", "Formatted {file} with ruff; no behaviour changed."),
]
ORDINARY_COMMITS = [
    "Fix typo in {file} docstring",
    "Add tests for {helper}()",
    "Refactor {component} startup",
    "Log the {component}'s {plain} at startup",
    "Rename {helper} in {file}",
    "Format {file}",
    "Remove dead code from {file}",
    "Update {component} README section",
    "Bump dev dependencies",
    "Split {file} into smaller functions",
]
# An assistant's turn is rarely one sentence: what it looked at before, what it did after. Each
# reply (ordinary or stating a rule, in both phrase sets) gets an opening and a closing drawn
# from these, or none ("" is drawn too).
OPENERS = [
    "",
    "",
    "I read {file} and the tests around it.",
    "I looked at the {component}'s call sites and the last day of logs.",
    "I went through {file} and how {helper}() uses it.",
    "Checked the {component} config and the dashboards first.",
]
CLOSERS = [
    "",
    "",
    "The tests in tests/test_{component}.py pass.",
    "I left the rest of {file} as it was.",
    "I'll leave a comment in {file} so nobody wonders later.",
    "Let me know if you want a PR for it.",
]
