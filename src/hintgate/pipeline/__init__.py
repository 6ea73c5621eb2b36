"""The life of one tools/call: decide, ask if need be, forward, retry what may be retried, guard, record.

allow: forwarded. deny: a tool error whose text gives the reason; the source
is never called. ask: the client is asked through MCP elicitation when it
declared support (`elicitation/create` on 2025-11-25 connections, an
`InputRequiredResult` whose sealed `requestState` it cannot forge on
2026-07-28 ones, answered once, by the session asked, before `approvalTimeout`:
see `hintgate.policy.seals`); otherwise, or when the policy says so, the call waits in the
approval queue that the REST API and the dashboard answer. No answer in time
means deny. Every decision, with who answered, how and how long it took, goes
on the call's outcome. A source's own question for a 2026-07-28 client (a
person's login page) goes out the same way (`InputRequired`); the call that
carries the answer is decided afresh, and only it is recorded. When the policy
asked about that call and it was approved in the same request, the question's
sealed state carries the approval (`ApprovalSeals.carry`): the answering
request of the same call, session and person runs without being asked again.

One immutable `CallOutcome` leaves every call that got an answer, and the
observers given to `ToolCalls` receive it: the store's recorder, metrics and
tracing are observers, so the call path knows none of them.

The stages, each a module of its own, in the order a call meets them::

    deciding    Deciding → Decided     the call, its facts and hints in force, the policy, the decision
    asking      Asking                 a person's answer, when the decision asks
    forwarding  Forwarding             the source's answer, retried once when that is safe
    guarding    ResultGuard            what the source said, as the client may read it
    recording   Recording → CallOutcome  told to the observers
    calls       ToolCalls              builds the stages and runs a call through them
"""

from hintgate.pipeline.calls import HandedOff, TaskFinish, TaskHandoff, ToolCalls
from hintgate.pipeline.deciding import Decided, SessionLookup

__all__ = ["Decided", "HandedOff", "SessionLookup", "TaskFinish", "TaskHandoff", "ToolCalls"]
