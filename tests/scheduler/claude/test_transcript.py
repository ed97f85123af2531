"""Reading a session's transcript: Claude Code's lines, bounded, hostile files refused."""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

import pytest

from scheduler.claude.transcript import TranscriptRefused, read_transcript
from tests.support.transcripts import TranscriptWriter

SESSION = "0b1e2c3d-4f50-4617-8a9b-0c1d2e3f4a5b"


def test_the_words_of_both_speakers_are_read_and_the_rest_passed_over(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path / "s.jsonl", SESSION)
    writer.user("Why is MAX_ATTEMPTS 7?")
    writer.assistant("Let me look.", tool=True)
    writer.assistant("MAX_ATTEMPTS should be exactly 7; 8 trips the limiter.")

    read = read_transcript(writer.path)

    assert [(s.speaker, s.text) for s in read.spoken] == [
        ("user", "Why is MAX_ATTEMPTS 7?"),
        ("assistant", "Let me look."),
        ("assistant", "MAX_ATTEMPTS should be exactly 7; 8 trips the limiter."),
    ]
    lines = writer.path.read_text().splitlines()
    assert read.line == len(lines) and read.offset == writer.path.stat().st_size
    assert read.spoken[0].line == 2  # the queue line comes first
    assert read.spoken[0].time is not None and read.spoken[0].uuid is not None
    assert read.skipped == 0


def test_a_read_goes_on_from_where_the_last_stopped_and_leaves_a_half_written_line(
    tmp_path: Path,
) -> None:
    writer = TranscriptWriter(tmp_path / "s.jsonl", SESSION)
    writer.user("first prompt")
    first = read_transcript(writer.path)
    writer.assistant("first answer")
    with writer.path.open("a") as out:
        out.write('{"type":"assistant","message":{"content":[{"type":"te')  # being written
    second = read_transcript(writer.path, first.offset, first.line)

    assert [s.text for s in second.spoken] == ["first answer"]
    assert second.offset < writer.path.stat().st_size
    with writer.path.open("a") as out:
        out.write('xt","text":"done"}]}}\n')
    third = read_transcript(writer.path, second.offset, second.line)
    assert [s.text for s in third.spoken] == ["done"] and third.line == second.line + 1


def test_lines_not_claude_codes_are_skipped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    huge = '{"type":"user","message":{"content":"' + "x" * 5000 + '"}}'
    path.write_bytes(
        b'not json\n[1, 2]\n{"no": "type"}\n\xff\xfe\x00garbage\n'
        + huge.encode()
        + b"\n"
        + b'{"type":"user","message":{"role":"user","content":"kept"}}\n'
        + b"\n"
    )

    read = read_transcript(path, max_line_bytes=1000)

    assert [s.text for s in read.spoken] == ["kept"]
    assert read.skipped == 5 and read.line == 7


def test_a_read_takes_at_most_its_limit_and_the_next_goes_on(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path / "s.jsonl", SESSION)
    for i in range(50):
        writer.assistant(f"answer {i} " + "y" * 200)
    seen: list[str] = []
    offset = line = 0
    for _ in range(100):
        read = read_transcript(writer.path, offset, line, max_bytes=4000)
        assert read.offset - offset <= 4000
        seen.extend(s.text.split()[1] for s in read.spoken)
        if read.offset == offset:
            break
        offset, line = read.offset, read.line
    assert seen == [str(i) for i in range(50)]


def test_a_line_longer_than_a_whole_read_is_passed_over_not_read_forever(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"z" * 10_000 + b'\n{"type":"user","message":{"content":"after"}}\n')
    offset = line = skipped = 0
    texts: list[str] = []
    for _ in range(20):
        read = read_transcript(path, offset, line, max_bytes=3000, max_line_bytes=1000)
        texts.extend(s.text for s in read.spoken)
        skipped += read.skipped
        if read.offset == offset:
            break
        offset, line = read.offset, read.line
    assert texts == ["after"] and skipped == 1


def test_a_replaced_shorter_file_is_read_from_its_start(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path / "s.jsonl", SESSION)
    writer.user("short")
    read = read_transcript(writer.path, 10**9, 500)
    assert [s.text for s in read.spoken] == ["short"]


def test_special_files_and_links_are_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "real.jsonl"
    TranscriptWriter(target, SESSION).user("secret elsewhere")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    for path, why in [
        (link, "cannot open"),
        (fifo, "not a regular file"),
        (Path("/dev/zero"), "not a regular file"),
        (tmp_path, "not a regular file"),
        (tmp_path / "missing.jsonl", "cannot open"),
    ]:
        with pytest.raises(TranscriptRefused, match=why) as caught:
            read_transcript(path)
        assert str(path) in str(caught.value)


def test_another_users_file_is_refused(tmp_path: Path) -> None:
    path = Path("/etc/passwd")  # root's, for any other user
    if os.getuid() == 0:  # root owns that one: give a file of ours to nobody instead
        path = tmp_path / "theirs.jsonl"
        TranscriptWriter(path, SESSION).user("someone else's words")
        os.chown(path, 65534, 65534)
    with pytest.raises(TranscriptRefused, match="not this user's file"):
        read_transcript(path)


def test_five_megabytes_are_read_within_a_second_in_bounded_memory(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path / "big.jsonl", SESSION)
    block = "The limiter counts per window; " * 60
    while writer.path.stat().st_size < 5 * 1024 * 1024:
        writer.user("next step please")
        writer.assistant(block, tool=True)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    read = read_transcript(writer.path)
    elapsed = time.perf_counter() - started
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert read.offset == writer.path.stat().st_size and read.skipped == 0
    assert elapsed < 1.0, elapsed
    assert grown_kib < 64 * 1024, grown_kib  # the text kept, never the whole file at once
