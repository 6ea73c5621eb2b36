"""The poisoning scan: text someone else wrote (definitions, server prose, tool results) read for orders to the model.

What reads untrusted text lives here; what the gateway makes of tools lives in
`hintgate.hints` (the annotation model: annotations, inference, the catalog,
pins, quarantine, lint). The package is pure but for `workers`:

- `poisoning`: the scan itself (`scan_tool`, `scan_texts`, `scan_result`),
  over the parts below; `findings`: its vocabulary without it (its rules, a
  finding and its level, where a text is in a JSON value), for what holds,
  records or acts on findings; `verdicts`: a definition's scan kept beyond
  the process (its key, the rules' version, its stored form);
- `reading`: the text as the model reads it, every disguise undone;
- `concealed`: markup a client does not draw (a Markdown comment, an element
  styled out of sight, a terminal's concealed text, text after padding), which
  `reading` gives a hidden view as it does an HTML comment; `unseen`: what a
  definition says where people do not look (hidden markup, a schema's
  `$comment`, vendor `x-*` keys, a value of words joined by underscores)
  when it speaks to its reader;
- `phrases`: the phrases that address the model and reach beyond a tool's job;
- `orders` and `cues`: the sentence judge, whom a sentence addresses and what
  it asks for, and its patterns (RE2 where it can read them); `vocatives`
  (the model called by its role, a handle or a vocative), `triggers` (rules
  for its later turns) and `conduct` (what a sentence said to it asks of its
  conduct: an identity, a call written out, its user) are parts of that judge;
- `fields`: a value whose key names the model as its reader ("assistant_memo",
  `_agent`), in structured data or written in a text, read as a note to it;
  `turns`: a line of data headed as a message of the chat's system, developer
  or operator ("[system] ...", "developer_message: ..."), read the same way;
- `remedies`: a result's error or notice whose fix reaches beyond the call
  (a script fetched and run, a check switched off, a secret or money sent
  away, another tool's change) behind the user's back, claimed approved or
  said to the model; and an approval a result claims ("the director has
  approved") to license another tool's change; `redirected`: a result that
  sets another tool or server aside and turns the model's calls elsewhere;
- `diverted`: other tools' work diverted to a definition's own tool (their
  calls routed here, a claim to replace one, a hook on a named tool's calls);
- `steering`: what a tool's definition asks of the model's work beyond the
  tool in any voice, plainly or as a note about the tool (the user's view
  fixed, standing rules, the user's say skipped, the model's loyalties
  changed, a persona, another server's tool made part of the call);
- `provenance`: where a parameter's value is said to come from, when that is
  beyond the call (the conversation, the user's secrets, other tools' output,
  what the model opened, the process environment) and beyond the tool's job;
- `precedence`: a definition that claims standing over the model (its earlier
  instructions dropped, a new directive or an identity given, the user's
  word ranked below the text);
- `quoting`: attack wording quoted rather than said (a sentence about it, a
  quotation still open), which the judges above share;
- `anchors` and `prefilter`: where a phrase can start, and one RE2 pass that
  rules out what cannot match (speed only: the findings are the same);
  `screens`: whether a family of rules can find anything in any part of a
  text, asked once of the whole (speed only, as well);
- `patterns`: the scan's own regular expressions read as text (where a class
  or group ends, the top-level branches), which those three derive from;
- `deferred`: a pattern compiled where it is first used, not at import (a
  text reaches few of them);
- `guard`: the result guard, a tool result marked, redacted or withheld by
  what the scan found in it;
- `workers`: the scan off the event loop (worker processes, a deadline). It
  starts processes, so it sits in the pipeline layer, above the rest of the
  package (docs/architecture.md).

What stayed in `hints` and why: `names` (one spelling for look-alike tool
names) serves policy globs, config and discovery as much as the scan, which
only borrows its folding; `others` (the tools of every server but one) is a
view of the catalog that pins and quarantine build and hand to the scan;
`quarantine` and `lint` hold tools and report findings, using the scan's
answer as one input among others; `inference.naming` (the words of a tool's
name, their singulars, and the verb lexicon that classes a name's action:
read, create, update, delete, send, ...) is the annotation inference's, and
the scan asks it what a tool's name says (`chaining`, `toolcalls`,
`documents`, `orders`, `poisoning`) rather than keep word splits and verb
lists of its own.
"""
