"""The database as the approval queue (`hintgate approvals --db`): the machine's user is never taken for a person."""

from __future__ import annotations

import getpass
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hintgate.cli.approval_queues import EXIT_REFUSED, StoreQueue
from hintgate.policy.approvals import Answer, PendingApproval
from hintgate.policy.principal import Approvers
from hintgate.store import Store

pytestmark = pytest.mark.anyio


def waiting(caller: str | None, approvers: Approvers | None) -> PendingApproval:
    now = datetime.now(UTC)
    return PendingApproval(
        id=str(uuid.uuid4()), tool="db_drop_table", title="Drop a table", server="db", arguments={"table": "t"},
        reason="Destructive tools ask.", warnings=[], session_id=None, client_name="agent", created_at=now,
        expires_at=now + timedelta(minutes=5), _future=None, caller=caller, approvers=approvers,
    )  # fmt: skip


async def test_the_machines_user_answers_as_operator_only_what_names_no_approvers(tmp_path: Path) -> None:
    me = getpass.getuser()
    async with await Store.open(f"sqlite:///{tmp_path / 'q.db'}", replica="test") as store:
        named = waiting("bob@example.com", Approvers(groups=frozenset({"dba"})))
        globbed = waiting("bob@example.com", Approvers(users=("*",)))
        anyone = waiting("bob@example.com", Approvers())
        laptop = waiting(None, None)  # no identity provider: as it always was
        for approval in (named, globbed, anyone, laptop):
            await store.approvals.add(approval)
        queue = StoreQueue(store)
        answers = {}
        for name, approval in (("named", named), ("globbed", globbed), ("anyone", anyone), ("laptop", laptop)):
            row = await queue.resolve(approval.id)
            assert isinstance(row, dict)
            answers[name] = await queue.settle(row, Answer.APPROVE_ONCE, None)
        kept = {name: await store.approvals.get(a.id) for name, a in (("anyone", anyone), ("laptop", laptop))}
        still = [a.id for a in await store.approvals.pending()]
    assert answers["named"][0] == answers["globbed"][0] == EXIT_REFUSED
    assert f"only group dba may answer this call; operator:{me} is not a signed-in person" in answers["named"][1]
    assert "--url URL --token TOKEN" in answers["named"][1]
    assert "only user * may answer" in answers["globbed"][1], "a glob of people does not take in the operator"
    assert still == [named.id, globbed.id]
    assert answers["anyone"] == (0, f"db_drop_table ({anyone.id[:8]}): approved once as operator:{me}")
    assert kept["anyone"] is not None
    assert kept["anyone"]["answered_by"] == f"operator:{me}"
    assert kept["laptop"] is not None
    assert kept["laptop"]["answered_by"] == me


def test_db_given_reads_the_database_even_with_hintgate_url_in_the_environment(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    db = f"sqlite:///{tmp_path / 'q.db'}"
    nowhere = "http://127.0.0.1:9"  # nothing listens: reaching for it would fail with exit 3

    def approvals(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hintgate", "approvals", *args],
            capture_output=True, text=True, timeout=60, check=False,
            env={**os.environ, "HINTGATE_URL": nowhere, "COLUMNS": "100"},
        )  # fmt: skip

    from_db, both = approvals("--db", db), approvals("--db", db, "--url", "http://127.0.0.1:8")
    through_url = approvals()
    assert from_db.returncode == 0, from_db.stderr
    assert "No approvals are waiting" in from_db.stdout
    assert both.returncode == 2
    assert "not both" in both.stderr
    assert through_url.returncode == 3
    assert f"cannot reach the gateway at {nowhere}" in through_url.stderr
