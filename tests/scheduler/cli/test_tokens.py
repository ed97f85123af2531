"""``nous tokens``: a token made once, listed without its secret, refused twice, revoked."""

from __future__ import annotations

import json

from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from scheduler.claude.tokens import check_name, plausible, token_hash
from scheduler.cli import main
from tests.scheduler.cli.conftest import EMPTY, Nous


async def test_a_token_is_shown_once_kept_as_a_hash_listed_and_revoked(
    nous: Nous, memory: Memory, agent_id: str
) -> None:
    name = f"alice{agent_id[-8:]}"
    made = await nous("tokens", "create", name, "--json")
    assert made.code == 0, made.err
    created = json.loads(made.out)
    token = created["token"]
    assert plausible(token) and created["agent_id"] == agent_id and created["name"] == name
    store = memory.tokens
    found = await store.by_hash(token_hash(token))
    assert found is not None and found.id == created["id"] and found.agent_id == agent_id
    assert await store.by_hash(token) is None  # the token itself is no key: only its hash

    listed = await nous("tokens", "list")
    assert listed.code == 0 and name in listed.out and created["id"] in listed.out
    assert token not in listed.out and token_hash(token) not in listed.out

    again = await nous("tokens", "create", name)
    assert again.code == 2 and "already named" in again.err and token not in again.err

    revoked = await nous("tokens", "revoke", name)
    assert revoked.code == 0 and created["id"] in revoked.out
    assert await store.by_hash(token_hash(token)) is None
    gone = await nous("tokens", "revoke", name)
    assert gone.code == 1 and "no live token" in gone.err
    # The name is free again; the revoked token stays listed, with when it was revoked.
    second = json.loads((await nous("tokens", "create", name, "--json")).out)
    assert second["token"] != token
    rows = json.loads((await nous("tokens", "list", "--json")).out)
    mine = [r for r in rows if r["name"] == name]
    assert [r["revoked_at"] is None for r in mine] == [True, False]
    by_id = await nous("tokens", "revoke", second["id"])
    assert by_id.code == 0 and await store.by_hash(token_hash(second["token"])) is None


def test_create_needs_an_agent_and_a_sane_name(capsys: object) -> None:
    assert main(["tokens", "create", "bob", "--config", str(EMPTY)]) == 2
    assert main(["tokens", "create", "../bob", "--config", str(EMPTY), "--agent-id", "x"]) == 2
    assert check_name("bob.smith@team") is None
    for bad in ("", "-bob", "a" * 65, "bob smith", "bob\x00", "ünïcode"):
        assert check_name(bad) is not None, bad
    assert not plausible("Bearer nous_x") and not plausible("nous_" + "a" * 300)


async def test_the_lookup_by_hash_seeks_an_index(driver: GraphDriver) -> None:
    plan = json.dumps(await driver.explain("tokens/by_hash"))
    assert "NodeUniqueIndexSeek" in plan and "NodeByLabelScan" not in plan
