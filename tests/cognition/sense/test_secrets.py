"""The secret filter: one case per kind of secret, what is not a secret, and hostile text.

Every test secret is made here, in pieces, so no real credential (nor a
string a scanner of this repository would flag as one) is written down.
"""

from __future__ import annotations

import time

import pytest

from cognition.sense.secrets import DETECTORS, PRIVATE, marker, redact

AWS_ID = "AKIA" + "IOSFODNN7Q3XAMPLZ"[:16]
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "Q3XAMPLEKY"
GITHUB = "ghp_" + "Zq7" * 12
PEM_BODY = "MIIEowIBAAKCAQEA" + "q3Vx" * 12
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----"

# (kind, text holding one secret, the secret itself)
CASES = [
    ("aws-access-key", f"aws_access_key_id={AWS_ID}", AWS_ID),
    ("aws-secret-key", f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET),
    ("github-token", f"remote: invalid token {GITHUB} for push", GITHUB),
    ("github-token", "github_pat_" + "11ABCDEFG" + "x1y2" * 12, "github_pat_"),
    ("gitlab-token", "glpat-" + "Ab3dE" * 5, "glpat-Ab3d"),
    ("private-key", f"key:\n{PEM}\nthat was it", PEM_BODY),
    (
        "jwt",
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTYifQ.s1gn4tur3Xyz",
        "eyJhbGciOiJIUzI1NiJ9",
    ),
    ("slack-token", "SLACK=xoxb-" + "1234-5678-abcdEFGH", "xoxb-1234"),
    (
        "slack-webhook",
        "post to https://hooks.slack.com/services/T0001/B0002/" + "XyZ" * 8,
        "hooks.slack.com/services/T0001",
    ),
    ("stripe-key", "stripe: sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC3"),
    ("anthropic-key", "key sk-ant-" + "api03-" + "Xy9" * 10, "sk-ant-api03"),
    ("openai-key", "OPENAI sk-proj-" + "Ab1" * 10, "sk-proj-Ab1"),
    ("google-api-key", "maps AIza" + "SyD" + "x" * 32, "AIzaSyD"),
    ("npm-token", "//registry/:_authToken npm_" + "a1B2" * 9, "npm_a1B2"),
    ("nous-token", "Authorization: Bearer nous_" + "Qw-_9" * 8 + "abc", "nous_Qw-_9"),
    ("basic-auth", "clone https://alice:" + "s3cretPw9" + "@git.example.com/r", "s3cretPw9"),
    ("keyword-secret", 'DB_PASSWORD="' + "hunter2" + 'x9"', "hunter2x9"),
    ("keyword-secret", "api_key: " + "k7f9a0b1c2", "k7f9a0b1c2"),
]


@pytest.mark.parametrize(("kind", "text", "secret"), CASES, ids=[c[0] for c in CASES])
def test_each_kind_is_replaced_by_its_marker(kind: str, text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out.text
    assert marker(kind) in out.text
    assert kind in out.kinds


def test_every_detector_has_a_case() -> None:
    assert {d.kind for d in DETECTORS} <= {c[0] for c in CASES}


def test_a_private_span_is_dropped_whole_and_an_unclosed_one_to_the_end() -> None:
    out = redact("keep <private>my home is 12 Elm St</private> keep <PRIVATE>and the rest")
    assert out.text == f"keep {PRIVATE} keep {PRIVATE}"
    assert out.kinds == ("private",)


def test_what_is_not_a_secret_is_kept() -> None:
    text = (
        "password = settings.password; token = ${GITHUB_TOKEN}; secret: <your key>; "
        "max_tokens=1024 sha 3f2a1c0e9b8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b "
        "id 01JABCDEFGHJKMNPQRSTVWXYZ0 "
        "https://example.com/a:b@c sk_test is a prefix"
    )
    out = redact(text)
    assert out.text == text
    assert out.kinds == ()


def test_a_key_whose_head_was_clipped_is_still_taken_out() -> None:
    tail = PEM.split("\n", 2)[2]  # the body's last line and the END line
    out = redact("[... 900 characters omitted ...]\n" + tail)
    assert PEM_BODY not in out.text
    assert "private-key" in out.kinds


def test_markers_are_left_alone_when_text_is_filtered_again() -> None:
    once = redact(f"{AWS_ID} {GITHUB} password={AWS_SECRET}")
    assert redact(once.text).text == once.text


def test_hostile_text_is_handled_quickly() -> None:
    odd = "\x00\udcff\u202e" + "=" * 50_000 + "-----BEGIN PRIVATE KEY-----" + "A" * 100_000
    out = redact(odd)
    assert "AAAA" not in out.text
    assert out.kinds == ("private-key",)
    # Many lines of key-like text, and many END lines: once quadratic (20 s), now linear.
    lines = ("A" * 20 + "\n") * 10_000 + ("B" * 20 + "\n-----END PRIVATE KEY-----\n") * 5_000
    started = time.perf_counter()
    out = redact(lines)
    assert time.perf_counter() - started < 2.0
    assert "BBBB" not in out.text and out.kinds == ("private-key",)
