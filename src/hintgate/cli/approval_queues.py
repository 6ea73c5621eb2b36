"""Where `hintgate approvals` reads and answers the approval queue, and as whom.

- `StoreQueue`: the database itself (`--db`), as the machine's user. With
  people from an identity provider, nobody proved who that is: an approval
  whose approvers name people (`approvers: {group: dba}`, or the global
  `policy.approvers`) is refused, with the way to answer as a person; one any
  signed-in person may answer is recorded as `operator:NAME`, never as a
  person's name.
- `GatewayQueue`: a running gateway's REST API (`--url`), as whoever its
  bearer token proves: a person's access token from the identity provider
  (`--token`, `HINTGATE_TOKEN`), or the API token. The gateway checks that
  person against the approval's approvers and their own call, and records
  who answered.

Both answer with one atomic update in the store, so of two racing answers
exactly one wins.
"""

from __future__ import annotations

import getpass
from collections.abc import Mapping
from typing import Any, Protocol

from hintgate.cli.common import EXIT_TARGET, fail
from hintgate.policy.approvals import Answer, Settlement
from hintgate.policy.principal import Approvers, Principal, PrincipalKind

__all__ = [
    "EXIT_NOT_FOUND",
    "EXIT_REFUSED",
    "EXIT_SETTLED",
    "GatewayQueue",
    "Queue",
    "StoreQueue",
    "operator",
]

EXIT_NOT_FOUND = 1
"""No approval has that id (or prefix), or the prefix names several."""
EXIT_SETTLED = 5
"""The approval was already answered, expired or withdrawn: this answer changed nothing."""
EXIT_REFUSED = 6
"""This answerer may not answer it: not among its approvers, their own call, or a token the gateway refuses."""

_HOW = {Answer.APPROVE_ONCE: "approved once", Answer.APPROVE_SESSION: "approved for the session"}


class Queue(Protocol):
    """The approvals waiting for a person, wherever they are read from."""

    async def pending(self) -> list[dict[str, Any]]:
        """Every pending approval, oldest first, as plain dicts."""
        ...

    async def resolve(self, prefix: str) -> dict[str, Any] | tuple[int, str]:
        """The one approval `prefix` names, or (exit code, message)."""
        ...

    async def settle(self, row: Mapping[str, Any], answer: Answer, note: str | None) -> tuple[int, str]:
        """Answer it: (0, what happened), or (exit code, why not)."""
        ...


def operator() -> Principal:
    """The machine's user at the database, which no identity provider vouched for."""
    try:
        name = getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container)
        name = "cli"
    return Principal(f"operator:{name}", PrincipalKind.OPERATOR)


def _what(row: Mapping[str, Any]) -> str:
    return f"{row['tool']} ({str(row['id'])[:8]})"


class StoreQueue:
    """The queue in the database (`--db`), answered as the machine's user."""

    def __init__(self, store: Any) -> None:
        self.store = store

    async def pending(self) -> list[dict[str, Any]]:
        from hintgate.store.approvals import dead_here

        rows: list[dict[str, Any]] = await self.store.approvals.pending_rows()
        for row in rows:
            row["caller_connected"] = not dead_here(row["replica"])
        return rows

    async def resolve(self, prefix: str) -> dict[str, Any] | tuple[int, str]:
        matches: list[dict[str, Any]] = await self.store.approvals.find(prefix)
        exact = [m for m in matches if m["id"] == prefix.strip()]
        pending = [m for m in matches if m["state"] == "pending"]
        chosen = exact or pending or matches
        if not chosen:
            return EXIT_NOT_FOUND, f"no approval has an id starting with {prefix!r}: `hintgate approvals` lists them"
        if len(chosen) > 1:
            names = ", ".join(f"{m['id']} ({m['tool']}, {m['state']})" for m in chosen)
            return EXIT_NOT_FOUND, f"{prefix!r} names several approvals: {names}; give more of the id"
        return chosen[0]

    async def settle(self, row: Mapping[str, Any], answer: Answer, note: str | None) -> tuple[int, str]:
        approvers = Approvers.from_json(row.get("approvers"))
        if approvers is None:
            # Not a person's call (no identity provider): the machine's user answers, as always.
            actor = operator().name.removeprefix("operator:")
        else:
            who = operator()
            refusal = approvers.refusal(who, row.get("user_key"), row.get("user_name"))
            if refusal is not None:
                return EXIT_REFUSED, (
                    f"{refusal}; answer as that person through the gateway: hintgate approvals "
                    f"{'deny' if answer is Answer.DENY else 'approve'} {row['id']} --url URL --token TOKEN "
                    "(an access token from the identity provider)"
                )
            actor = who.name
        ended = await self.store.approvals.settle(row["id"], Settlement.answered(answer, actor, "cli", note))
        if ended is None:
            return EXIT_NOT_FOUND, f"approval {row['id']} is gone (pruned)"
        if not ended.won:
            return EXIT_SETTLED, f"{_what(row)} was already {ended.state}: {ended.reason}"
        return 0, f"{_what(row)}: {_HOW.get(answer, 'denied')} as {actor}"


class GatewayQueue:
    """The queue of a running gateway, through its REST API, as whoever the bearer token proves.

    Args:
        url: the gateway's base URL.
        token: a person's access token from the identity provider, or the API token; None: none sent.
    """

    def __init__(self, url: str, token: str | None) -> None:
        import httpx2

        from hintgate import __version__
        from hintgate.web.auth import CSRF_HEADER

        self.url = url.rstrip("/")
        headers = {"User-Agent": f"hintgate/{__version__}", CSRF_HEADER: "1"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.client = httpx2.AsyncClient(base_url=self.url, headers=headers, timeout=30)

    async def aclose(self) -> None:
        """Close the connections to the gateway."""
        await self.client.aclose()

    async def _request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        import httpx2

        try:
            response = await self.client.request(method, path, json=body)
        except httpx2.HTTPError as exc:
            fail(f"cannot reach the gateway at {self.url}: {exc}", EXIT_TARGET)
        try:
            data = response.json()
        except ValueError:
            data = {"detail": response.text}
        return response.status_code, data

    async def pending(self) -> list[dict[str, Any]]:
        status, data = await self._request("GET", "/api/approvals")
        if status != 200 or not isinstance(data, list):
            refused = status in (401, 403)
            fail(self._problem("GET /api/approvals", status, data), EXIT_REFUSED if refused else EXIT_TARGET)
        for row in data:
            row.setdefault("asked_at", row.get("created_at"))
        return data

    async def resolve(self, prefix: str) -> dict[str, Any] | tuple[int, str]:
        wanted = prefix.strip()
        if not wanted:
            return EXIT_NOT_FOUND, "an approval id (or a unique prefix of one) is needed"
        rows = await self.pending()
        chosen = [r for r in rows if r["id"] == wanted] or [r for r in rows if str(r["id"]).startswith(wanted)]
        if len(chosen) > 1:
            names = ", ".join(f"{r['id']} ({r['tool']})" for r in chosen)
            return EXIT_NOT_FOUND, f"{prefix!r} names several approvals: {names}; give more of the id"
        if not chosen:
            # Not pending: the gateway says whether it was answered, expired or never existed.
            return {"id": wanted, "tool": "approval"}
        return chosen[0]

    async def settle(self, row: Mapping[str, Any], answer: Answer, note: str | None) -> tuple[int, str]:
        from urllib.parse import quote

        body: dict[str, Any] = {"answer": answer.value}
        if note is not None:
            body["reason"] = note
        path = f"/api/approvals/{quote(str(row['id']), safe='')}"
        status, data = await self._request("POST", path, body)
        detail = data.get("detail") if isinstance(data, Mapping) else data
        if status == 200:
            return 0, f"{_what(row)}: {_HOW.get(answer, 'denied')}"
        if status == 404:
            return EXIT_NOT_FOUND, f"no pending approval has the id {row['id']!r}: `hintgate approvals` lists them"
        if status == 409:
            return EXIT_SETTLED, f"{_what(row)}: {detail}"
        if status in (401, 403):
            return EXIT_REFUSED, f"{_what(row)}: the gateway refused this answer: {detail}"
        return EXIT_TARGET, self._problem(f"POST {path}", status, data)

    def _problem(self, request: str, status: int, data: Any) -> str:
        detail = data.get("detail") if isinstance(data, Mapping) else data
        if status == 401:
            return (
                f"{request}: 401: {detail}; give a token: --token or HINTGATE_TOKEN (an access token from the "
                "identity provider for this gateway, or the API token)"
            )
        return f"{request}: {status}: {detail}"
