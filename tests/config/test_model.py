"""Config loading: real client files load unchanged; bad files say where and what."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hintgate.config.loading import check_config, load_config, parse_config
from hintgate.config.model import (
    DEFAULT_ENV_ALLOW,
    HttpTransport,
    ServerConfig,
    StdioTransport,
    ToolOverride,
    Trust,
    TrustFrom,
    child_environment,
)
from hintgate.errors import ConfigError
from hintgate.hints.annotations import Hint

CLAUDE_DESKTOP = {
    "mcpServers": {
        "filesystem": {
            "command": "npx",
            "args": [
                "-y",
                "@modelcontextprotocol/server-filesystem",
                "/Users/me/Desktop",
                "/Users/me/Downloads",
            ],
        },
        "github": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-github"],
            "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_literal"},
        },
        "time": {"command": "uvx", "args": ["mcp-server-time", "--local-timezone=Europe/Paris"]},
    },
    "globalShortcut": "",
}

CURSOR = """\
{
  // Cursor writes JSON; people add comments and trailing commas.
  "mcpServers": {
    "linear": {
      "url": "https://mcp.linear.app/sse",
      "type": "sse",
    },
    "context7": {
      "url": "https://mcp.context7.com/mcp",
      "headers": {"CONTEXT7_API_KEY": "${env:CONTEXT7_KEY}"}
    },
    "postgres": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-postgres", "${DATABASE_URL}"],
      "disabled": true,
      "autoApprove": []
    }
  }
}
"""

VSCODE = """\
{
\t"inputs": [
\t\t{"type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true}
\t],
\t"servers": {
\t\t"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"},
\t\t"fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"],
\t\t          "envFile": "${workspaceFolder}/.env", "cwd": "${workspaceFolder}"}
\t}
}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems(path: Path, environ: dict[str, str] | None = None) -> str:
    """The error text, with file names relative to the test's directory."""
    with pytest.raises(ConfigError) as info:
        load_config(path, environ=environ or {})
    assert info.value.file == str(path)
    return str(info.value).replace(f"{path.parent}{os.sep}", "")


def stdio(name: str = "s", **kw: object) -> ServerConfig:
    return ServerConfig(name=name, transport=StdioTransport("cmd", (), {}, None), prefix=name, **kw)  # type: ignore[arg-type]


# -- real client files


def test_claude_desktop_config_loads_unchanged(tmp_path: Path) -> None:
    path = write(tmp_path, "claude_desktop_config.json", json.dumps(CLAUDE_DESKTOP, indent=2))
    config = load_config(path, environ={})
    assert list(config.servers) == ["filesystem", "github", "time"]
    github = config.servers["github"]
    assert isinstance(github.transport, StdioTransport)
    assert github.transport.command == "npx"
    assert github.transport.args == ("-y", "@modelcontextprotocol/server-github")
    assert dict(github.transport.env) == {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_literal"}
    # No trust key: a server launched from a local command is `local` by default.
    assert (github.trust, github.trust_from) == (Trust.LOCAL, TrustFrom.ORIGIN)
    assert github.enabled
    assert github.prefix == "github"
    assert config.source == path
    assert config.inference_profile == "conservative"
    assert (github.call_timeout, github.startup_timeout) == (60.0, 30.0)


def test_cursor_config_with_comments_sse_and_disabled_loads(tmp_path: Path) -> None:
    path = write(tmp_path, "mcp.json", CURSOR)
    config = load_config(path, environ={"CONTEXT7_KEY": "k", "DATABASE_URL": "postgres://db"})
    linear = config.servers["linear"].transport
    assert isinstance(linear, HttpTransport)
    assert linear.kind == "sse"
    context7 = config.servers["context7"].transport
    assert isinstance(context7, HttpTransport)
    assert context7.kind == "streamable-http"
    assert dict(context7.headers) == {"CONTEXT7_API_KEY": "k"}
    postgres = config.servers["postgres"]
    assert not postgres.enabled
    assert isinstance(postgres.transport, StdioTransport)
    assert postgres.transport.args[-1] == "postgres://db"


def test_vscode_servers_key_with_inputs_and_tabs_loads(tmp_path: Path) -> None:
    path = write(tmp_path, "mcp.json", VSCODE)
    config = load_config(path, environ={})
    assert list(config.servers) == ["github", "fetch"]
    github = config.servers["github"].transport
    assert isinstance(github, HttpTransport)
    assert github.kind == "streamable-http"
    fetch = config.servers["fetch"].transport
    assert isinstance(fetch, StdioTransport)
    assert fetch.cwd == str(tmp_path)  # ${workspaceFolder}: the folder holding the file
    assert any("envFile" in w and "ignored" in w for w in config.warnings)


def test_workspace_folder_of_a_vscode_file_is_the_folder_above_vscode(tmp_path: Path) -> None:
    (tmp_path / ".vscode").mkdir()
    text = '{"servers": {"a": {"command": "${workspaceFolder}/bin/srv", "cwd": "sub"}}}'
    config = load_config(write(tmp_path, ".vscode/mcp.json", text), environ={})
    transport = config.servers["a"].transport
    assert isinstance(transport, StdioTransport)
    assert transport.command == f"{tmp_path}/bin/srv"
    assert transport.cwd == str(tmp_path / ".vscode" / "sub")  # relative cwd: from the file's folder


def test_a_file_with_another_extension_is_read_as_json_or_yaml(tmp_path: Path) -> None:
    assert list(load_config(write(tmp_path, "a.conf", '{"mcpServers": {"a": {"command": "x"}}}')).servers) == ["a"]
    assert list(load_config(write(tmp_path, "b.conf", "mcpServers:\n  b: {command: x}\n")).servers) == ["b"]


def test_yaml_config_with_hintgate_keys_loads(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "servers.yaml",
        """\
        $schema: https://example.com/schema.json
        x-team: platform
        inference: {profile: permissive}
        timeouts: {call: 10, startup: 5, list: 7.5}
        env: {allow: [HTTPS_PROXY]}
        mcpServers:
          git:
            command: uvx
            args: [mcp-server-git]
            trust: trusted
            prefix: ""
            include: ["git_*"]
            exclude: [git_reset]
            startup_timeout: 12
            overrides:
              git_log: {readOnlyHint: true, title: Git log}
              "git_*": {destructive: false}
        """,
    )
    config = load_config(path, environ={})
    git = config.servers["git"]
    assert git.trust is Trust.TRUSTED
    assert git.prefix == ""
    assert git.call_timeout == 10.0
    assert git.startup_timeout == 12.0
    assert config.timeouts.list == 7.5
    assert config.env_allow == ("HTTPS_PROXY",)
    assert config.inference_profile == "permissive"
    assert git.override_for("git_log") == ToolOverride({Hint.READ_ONLY: True}, "Git log")
    assert git.override_for("git_push") == ToolOverride({Hint.DESTRUCTIVE: False})


def test_a_file_with_no_servers_loads_and_check_warns(tmp_path: Path) -> None:
    path = write(tmp_path, "empty.yaml", "mcpServers: {}\n")
    assert load_config(path, environ={}).servers == {}
    assert any("no servers" in w for w in check_config(path))


def test_check_warns_about_disabled_servers_and_overrides_that_never_apply(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "c.yaml",
        """\
        mcpServers:
          a: {command: x, enabled: false, exclude: [rm], overrides: {rm: {readOnlyHint: false}}}
        """,
    )
    warnings = check_config(path)
    assert any("every server is disabled" in w for w in warnings)
    assert any('"rm" never applies' in w for w in warnings)


def test_check_names_a_server_whose_command_is_not_on_path_or_does_not_exist_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a relative command without cwd is run from the gateway's directory
    path = write(
        tmp_path,
        "c.yaml",
        """\
        mcpServers:
          time: {command: no-such-command-anywhere, args: [mcp-server-time]}
          local: {command: ./bin/server}
          shell: {command: sh}
        """,
    )
    said = "\n".join(check_config(path))
    assert 'c.yaml:2:3: server "time": command "no-such-command-anywhere" was not found on PATH' in said
    assert f'c.yaml:3:3: server "local": command "./bin/server" does not exist ({tmp_path / "bin" / "server"})' in said
    assert '"shell"' not in said


def test_check_warns_that_policy_naming_people_does_nothing_without_an_identity_section(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "people.yaml",
        """\
        mcpServers:
          time: {command: sh}
        policy:
          approvers: {group: dba}
          rules:
            - deny: {tool: "time_*", group: interns}
            - ask: {tier: destructive, approvers: {user: ops@example.com}}
            - allow: {tool: "*"}
        """,
    )
    warnings = [w.replace(f"{tmp_path}{os.sep}", "") for w in check_config(path)]
    assert [w.split(": ", 2)[:2] for w in warnings] == [
        ["people.yaml:4:3", "policy.approvers"],
        ["people.yaml:6:30", "policy.rules[0].deny.group"],
        ["people.yaml:7:32", "policy.rules[1].ask.approvers"],
    ]
    assert (
        "this deny rule names people, but without an identity section no call has a person: it never applies"
        in (warnings[1])
    )
    assert "whoever reaches the dashboard, the REST API or the client answers" in warnings[2]


# -- environment variables


def test_variables_expand_with_defaults_and_dollar_escapes() -> None:
    data = {
        "mcpServers": {
            "s": {
                "command": "${TOOL_BIN}",
                "args": ["${MODE:-fast}", "${EMPTY:-filled}", "cost: $$5", "${env:TOOL_BIN}", "$HOME"],
            }
        }
    }
    config = parse_config(data, environ={"TOOL_BIN": "/bin/tool", "EMPTY": ""})
    transport = config.servers["s"].transport
    assert isinstance(transport, StdioTransport)
    assert transport.command == "/bin/tool"
    assert transport.args == ("fast", "filled", "cost: $5", "/bin/tool", "$HOME")


def test_unset_variable_names_key_path_and_variable_but_not_values(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "servers.yaml",
        """\
        mcpServers:
          github:
            command: npx
            env:
              GITHUB_TOKEN: ${GITHUB_TOKEN}
              OTHER: ${SET_ONE}
        """,
    )
    message = problems(path, {"SET_ONE": "hunter2"})
    assert "servers.yaml:5:21: mcpServers.github.env.GITHUB_TOKEN:" in message
    assert "GITHUB_TOKEN is not set" in message
    assert "hunter2" not in message


OVERRIDE_FROM_ENV = """\
mcpServers:
  tracker:
    command: x
    overrides:
      update_*: {destructiveHint: "${UPDATE_DESTRUCTIVE}", idempotent: "${IDEMPOTENT:-TRUE}"}
"""


@pytest.mark.parametrize(("value", "expected"), [("true", True), ("false", False), (" False ", False)])
def test_an_override_value_may_come_from_the_environment(tmp_path: Path, value: str, expected: bool) -> None:
    path = write(tmp_path, "c.yaml", OVERRIDE_FROM_ENV)
    config = load_config(path, environ={"UPDATE_DESTRUCTIVE": value})
    override = config.servers["tracker"].overrides["update_*"]
    assert override.hints == {Hint.DESTRUCTIVE: expected, Hint.IDEMPOTENT: True}
    assert config.servers["tracker"].from_environment == ()  # a hint's value is not kept as a secret


def test_an_override_from_an_unset_variable_names_the_file_line_and_variable(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", OVERRIDE_FROM_ENV)
    message = problems(path)
    assert message.startswith("c.yaml:5:35: mcpServers.tracker.overrides.update_*.destructiveHint: ")
    assert "environment variable UPDATE_DESTRUCTIVE is not set" in message


@pytest.mark.parametrize("value", ["yes", "1", "", "hunter2-secret"])
def test_an_override_from_a_variable_that_is_not_a_boolean_names_it_without_its_value(
    tmp_path: Path, value: str
) -> None:
    path = write(tmp_path, "c.yaml", OVERRIDE_FROM_ENV)
    message = problems(path, {"UPDATE_DESTRUCTIVE": value})
    assert message == (
        "c.yaml:5:35: mcpServers.tracker.overrides.update_*.destructiveHint: "
        "expected true or false from the environment, but UPDATE_DESTRUCTIVE gave something else"
    )
    assert "hunter2" not in message


def test_a_quoted_boolean_override_says_to_drop_the_quotes(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", 'mcpServers:\n  a:\n    command: x\n    overrides: {t: {readOnlyHint: "true"}}\n')
    assert 'got "true"; write it without quotes' in problems(path)


def test_vscode_input_variables_are_explained(tmp_path: Path) -> None:
    path = write(tmp_path, "c.json", '{"servers": {"p": {"command": "x", "env": {"K": "${input:perplexity-key}"}}}}')
    assert "VS Code input prompt" in problems(path)


# -- errors: where and what


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    assert "nope.yaml: no such file" in problems(tmp_path / "nope.yaml")


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert "bin.yaml: not UTF-8 text" in problems(path)


def test_yaml_syntax_error_gives_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", "mcpServers:\n  a: {command: x\n  b: 1\n")
    message = problems(path)
    assert message.startswith("bad.yaml:2:6: invalid YAML: this '{' mapping is not closed by '}'")


SERVER = "mcpServers:\n  time:\n"


@pytest.mark.parametrize(
    ("text", "where", "said"),
    [
        # A key without its colon: YAML reads it and the next line as one text, and stops on the next line.
        (SERVER + "    command uvx\n    args: [mcp-server-time]\n", "3:5", "'command uvx' has no colon after its key"),
        # A key indented one space short of its siblings.
        (SERVER + "    command: uvx\n   args: [mcp-server-time]\n", "4:4", "not indented like the keys above it"),
        # A key indented further than its sibling: it reads as the rest of the value above.
        (SERVER + "    command: uvx\n      args: [a]\n", "4:", "indented more than 'command: uvx' on line 3"),
        # A quote never closed: PyYAML stops at the end of the file.
        (
            SERVER + '    command: "uvx\n    args: [a]\n  other:\n    command: x\n',
            "3:14",
            "quoted text is never closed",
        ),
        # A list never closed: PyYAML stops on the next line.
        (SERVER + "    command: uvx\n    args: [mcp-server-time\n  other:\n    command: x\n", "4:11", "'[' list"),
        # A tab as indentation.
        (SERVER + "\tcommand: uvx\n", "3:1", "a tab cannot indent YAML"),
    ],
    ids=["missing colon", "indented short", "indented too far", "unclosed quote", "unclosed list", "tab"],
)
def test_a_yaml_mistake_is_reported_on_its_own_line_with_what_to_fix(
    tmp_path: Path, text: str, where: str, said: str
) -> None:
    message = problems(write(tmp_path, "servers.yaml", text))
    assert message.startswith(f"servers.yaml:{where}"), message
    assert said in message


def test_a_missing_comma_in_json_is_reported_after_the_value_it_should_follow(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", '{\n  "mcpServers": {\n    "a": {"command": "x"}\n    "b": {}\n  }\n}\n')
    assert problems(path).startswith("bad.json:3:26: invalid JSON: a ',' is missing after this")


def test_json_syntax_error_gives_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", '{\n  "mcpServers": {\n    "a": {"command": "x"},\n    b: 1\n  }\n}\n')
    assert problems(path).startswith("bad.json:4:5: invalid JSON: Expecting property name")


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    assert "list.yaml:1:1: expected a mapping" in problems(write(tmp_path, "list.yaml", "- a\n- b\n"))
    assert "empty.yaml: the file is empty" in problems(write(tmp_path, "empty.yaml", "# nothing\n"))


def test_unknown_top_level_key_suggests_the_right_one(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "mcpServers: {}\ntimeout: {call: 3}\n")
    assert 'c.yaml:2:1: timeout: unknown key "timeout"; did you mean "timeouts"?' in problems(path)


def test_server_written_at_top_level_is_pointed_to_mcpservers(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "github:\n  command: npx\n")
    assert "servers go under mcpServers" in problems(path)


def test_server_without_command_or_url_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "mcpServers:\n  a:\n    args: [x]\n")
    assert 'c.yaml:2:3: mcpServers.a: needs "command"' in problems(path)


def test_server_with_both_command_and_url_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "mcpServers:\n  a:\n    command: x\n    url: https://h/mcp\n")
    assert 'c.yaml:3:5: mcpServers.a: has both "command"' in problems(path)


def test_args_must_be_a_list_of_strings(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "mcpServers:\n  a:\n    command: x\n    args: [one, 2]\n")
    assert "c.yaml:4:17: mcpServers.a.args[1]: expected a string, got 2" in problems(path)
    path = write(tmp_path, "d.yaml", "mcpServers:\n  a:\n    command: x\n    args: one two\n")
    assert "d.yaml:4:11: mcpServers.a.args: expected a list of strings" in problems(path)


def test_json_number_in_env_is_an_error_naming_the_key_without_the_value(tmp_path: Path) -> None:
    path = write(tmp_path, "c.json", '{"mcpServers": {\n  "a": {"command": "x", "env": {"PORT": 31337}}}}')
    message = problems(path)
    assert "c.json:2:41: mcpServers.a.env.PORT: expected a string, got a number; quote it" in message
    assert "31337" not in message


def test_trust_must_be_trusted_local_or_untrusted(tmp_path: Path) -> None:
    path = write(tmp_path, "servers.yaml", "mcpServers:\n  github:\n    command: x\n    trust: yes\n")
    expected = 'servers.yaml:4:12: mcpServers.github.trust: expected one of "trusted", "local", "untrusted", got "yes"'
    assert expected in problems(path)


def test_a_trust_level_of_another_type_names_the_levels_not_quoting(tmp_path: Path) -> None:
    path = write(tmp_path, "servers.yaml", "mcpServers:\n  github:\n    command: x\n    trust: 5\n")
    expected = 'servers.yaml:4:12: mcpServers.github.trust: expected one of "trusted", "local", "untrusted", got 5'
    assert expected in problems(path)
    assert "quote it" not in problems(path)


def test_non_boolean_hint_override_is_an_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "c.yaml",
        """\
        mcpServers:
          a:
            command: x
            overrides:
              delete_*: {readOnlyHint: yes}
        """,
    )
    expected = 'c.yaml:5:32: mcpServers.a.overrides.delete_*.readOnlyHint: expected true or false, got "yes"'
    assert expected in problems(path)


def test_unknown_hint_suggests_the_right_one(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "mcpServers:\n  a:\n    command: x\n    overrides: {t: {readOnly: true}}\n")
    assert 'c.yaml:4:21: mcpServers.a.overrides.t.readOnly: unknown hint "readOnly"; did you mean' in problems(path)


def test_unknown_server_key_suggests_the_right_one(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "mcpServers:\n  a:\n    command: x\n    exlude: [rm]\n")
    assert 'c.yaml:4:5: mcpServers.a.exlude: unknown key "exlude"; did you mean "exclude"?' in problems(path)


def test_keys_other_clients_write_are_tolerated(tmp_path: Path) -> None:
    entry = {
        "command": "x",
        "type": "stdio",
        "alwaysAllow": ["read"],
        "autoApprove": [],
        "description": "d",
        "timeout": 90,
        "disabledTools": ["rm"],
        "dev": {"watch": "src/**"},
    }
    path = write(tmp_path, "c.json", json.dumps({"mcpServers": {"a": entry}}))
    config = load_config(path, environ={})
    server = config.servers["a"]
    assert server.call_timeout == 90.0
    assert not server.wants("rm")
    assert any("alwaysAllow" in w and "policy" in w for w in config.warnings)


def test_windsurf_server_url_is_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, "mcp_config.json", '{"mcpServers": {"a": {"serverUrl": "https://h.example/mcp"}}}')
    transport = load_config(path, environ={}).servers["a"].transport
    assert isinstance(transport, HttpTransport)
    assert transport.url == "https://h.example/mcp"


def test_camel_and_snake_spellings_of_one_key_together_are_an_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "c.yaml",
        "mcpServers:\n  a:\n    command: x\n    startupTimeout: 1\n    startup_timeout: 2\n",
    )
    assert 'c.yaml:5:5: mcpServers.a.startup_timeout: "startup_timeout" repeats "startupTimeout"' in problems(path)


def test_prefix_with_invalid_characters_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "mcpServers:\n  a:\n    command: x\n    prefix: my/tools\n")
    assert 'c.yaml:4:13: mcpServers.a.prefix: expected letters, digits, "_", "-" and "."' in problems(path)


def test_duplicate_prefixes_name_both_servers(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "c.yaml",
        "mcpServers:\n  github:\n    command: x\n  gh:\n    command: y\n    prefix: github\n",
    )
    message = problems(path)
    assert 'c.yaml:6:13: mcpServers.gh.prefix: prefix "github" is also the prefix of server "github"' in message


def test_duplicate_server_names_are_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "c.json", '{"mcpServers": {\n"a": {"command": "x"},\n"a": {"command": "y"}}}')
    assert "c.json:3:1: mcpServers.a: duplicate key (first given on line 2)" in problems(path)


def test_a_json_file_that_loads_is_read_without_pyyaml_and_one_with_a_problem_still_says_where(
    tmp_path: Path,
) -> None:
    fine = write(tmp_path, "fine.json", '{"mcpServers": {\n  "a": {"command": "x"}\n}}')
    wrong = write(tmp_path, "wrong.json", '{"mcpServers": {\n  "a": {"command": "x",\n    "trust": "yes"}\n}}')
    script = textwrap.dedent(
        f"""
        import sys
        from hintgate.config.loading import load_config
        load_config({str(fine)!r})
        print("yaml" in sys.modules)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.split() == ["False"]  # a start's config, read before its upstreams are spawned
    assert "wrong.json:3:14: mcpServers.a.trust:" in problems(wrong)  # located once there is a problem to say


def test_unknown_transport_type_is_an_error_naming_every_known_type(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "mcpServers:\n  a:\n    type: websocket\n    url: wss://h/\n")
    assert problems(path) == (
        'c.yaml:3:11: mcpServers.a.type: expected one of "stdio", "http", "streamable-http", "streamableHttp", '
        '"sse", got "websocket"'
    )


@pytest.mark.parametrize(
    ("given", "kind"),
    [("http", "streamable-http"), ("streamable-http", "streamable-http"), ("streamableHttp", "streamable-http"),
     ("sse", "sse")],
)  # fmt: skip
def test_every_known_remote_transport_type_is_read_as_its_transport(given: str, kind: str) -> None:
    transport = parse_config({"mcpServers": {"a": {"type": given, "url": "https://h/mcp"}}}).servers["a"].transport
    assert transport == HttpTransport(url="https://h/mcp", kind=kind)


def test_the_stdio_transport_type_is_read_as_a_command(tmp_path: Path) -> None:
    config = parse_config({"mcpServers": {"a": {"type": "stdio", "command": "x", "args": ["y"]}}}, base_dir=tmp_path)
    assert config.servers["a"].transport == StdioTransport("x", ("y",), {}, None)


def test_unknown_inference_profile_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "inference: {profile: reckless}\n")
    assert 'c.yaml:1:22: inference.profile: expected "conservative" or "permissive"' in problems(path)


def test_every_error_in_a_file_is_reported_together_in_file_order(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "c.yaml",
        """\
        mcpServers:
          a:
            command: x
            trust: maybe
          b:
            url: ftp://h/
          c:
            command: y
            timeout: -1
        """,
    )
    lines = problems(path).splitlines()
    assert [line.split(":")[1] for line in lines] == ["4", "6", "9"]
    assert all(line.startswith("c.yaml:") for line in lines)


# -- child environment and secrets


def test_child_environment_passes_only_allowed_variables_and_the_servers_env() -> None:
    config = parse_config(
        {"env": {"allow": ["EXTRA"]}, "mcpServers": {"a": {"command": "x", "env": {"API_KEY": "mine"}}}}
    )
    environ = {"PATH": "/bin", "HOME": "/h", "SECRET_TOKEN": "s3cret", "EXTRA": "1", "BASH_FUNC_f%%": "() {"}
    env = child_environment(config.servers["a"], config, environ)
    assert env == {"PATH": "/bin", "HOME": "/h", "EXTRA": "1", "API_KEY": "mine"}
    assert "PATH" in DEFAULT_ENV_ALLOW


def test_redacted_hides_env_and_header_values_but_keeps_keys() -> None:
    config = parse_config(
        {
            "mcpServers": {
                "a": {"command": "x", "env": {"TOKEN": "s3cret"}},
                "b": {
                    "url": "https://user:pw@h.example/mcp?key=s3cret",
                    "headers": {"Authorization": "Bearer s3cret"},
                },
            }
        }
    )
    shown = json.dumps([config.servers["a"].redacted(), config.servers["b"].redacted()])
    assert "s3cret" not in shown
    assert "pw" not in shown
    assert config.servers["a"].redacted()["transport"]["env"] == {"TOKEN": "***"}
    assert config.servers["b"].redacted()["transport"]["headers"] == {"Authorization": "***"}
    assert "s3cret" not in config.servers["b"].describe()


# -- tool selection and overrides


def test_wants_applies_include_then_exclude_globs() -> None:
    everything = stdio()
    assert everything.wants("anything")
    server = stdio(include=("git_*", "status"), exclude=("git_reset*",))
    assert server.wants("git_log")
    assert server.wants("status")
    assert not server.wants("git_reset_hard")
    assert not server.wants("other")
    assert server.wants("GIT_LOG")  # globs ignore case: an include is about the name people read


@pytest.mark.parametrize("name", ["delete repo", "Delete_repo", "d\u0435lete_repo", "DELETE_repo"])
def test_exclude_catches_a_name_spelled_to_escape_it(name: str) -> None:
    assert not stdio(exclude=("delete_*",)).wants(name)
    assert stdio(exclude=("delete_*",)).wants("list_repos")


def test_override_for_prefers_exact_name_then_longest_glob() -> None:
    exact = ToolOverride({Hint.READ_ONLY: True})
    short = ToolOverride({Hint.DESTRUCTIVE: True})
    long = ToolOverride({Hint.DESTRUCTIVE: False})
    server = stdio(overrides={"*": short, "delete_*_soft": long, "delete_x_soft": exact})
    assert server.override_for("delete_x_soft") is exact
    assert server.override_for("delete_y_soft") is long
    assert server.override_for("list") is short
    assert stdio().override_for("list") is None


def test_hint_overrides_accept_camel_and_snake_case() -> None:
    config = parse_config(
        {"mcpServers": {"a": {"command": "x", "overrides": {"t": {"open_world": False, "idempotentHint": True}}}}}
    )
    override = config.servers["a"].override_for("t")
    assert override is not None
    assert dict(override.hints) == {Hint.OPEN_WORLD: False, Hint.IDEMPOTENT: True}


# -- the reference


DOCS = Path(__file__).parents[2] / "docs" / "config.md"


def test_the_documented_example_loads(tmp_path: Path) -> None:
    text = DOCS.read_text(encoding="utf-8")
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    path = write(tmp_path, "servers.yaml", example)
    config = load_config(path, environ={"GITHUB_TOKEN": "t", "DOCS_TOKEN": "d"})
    assert list(config.servers) == ["github", "docs", "old-sse"]


def test_every_accepted_key_is_documented() -> None:
    from hintgate.config import mcp_entry
    from hintgate.config import sections as module
    from hintgate.config.types import SOURCE_TYPES

    text = DOCS.read_text(encoding="utf-8")
    sections = [*module.SETTINGS_SECTIONS, "policy", *(k for row in SOURCE_TYPES for k in (row.key, *row.aliases))]
    keys = [*mcp_entry.SERVER_KEYS, *mcp_entry.FOREIGN_SERVER_KEYS, *sections, *module.FOREIGN_TOP_KEYS]
    assert [k for k in keys if not re.search(rf"`{re.escape(k)}[`.]", text)] == []


def test_an_auth_key_under_a_server_is_an_error_that_points_to_oauth_and_headers(tmp_path: Path) -> None:
    path = tmp_path / "servers.yaml"
    path.write_text("mcpServers:\n  remote:\n    url: https://example.com/mcp\n    auth: {token: abc}\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert "servers.yaml:4:5: mcpServers.remote.auth" in message
    assert '"oauth"' in message
    assert "headers" in message


def test_metrics_by_user_is_off_by_default_a_boolean_and_said_to_be_empty_without_people(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, "a.yaml", "mcpServers: {}\n")).metrics_by_user is False
    alone = load_config(write(tmp_path, "b.yaml", "mcpServers: {}\nmetrics:\n  byUser: true\n"))
    assert alone.metrics_by_user is True
    assert any("b.yaml:3:3: metrics.byUser: no identity section" in w for w in alone.warnings)
    assert "c.yaml:3:11: metrics.byUser: expected true or false" in problems(
        write(tmp_path, "c.yaml", "mcpServers: {}\nmetrics:\n  byUser: yes please\n")
    )
    assert 'c.yaml:2:11: metrics.perUser: unknown key "perUser"; did you mean "byUser"?' in problems(
        write(tmp_path, "c.yaml", "mcpServers: {}\nmetrics: {perUser: true}\n")
    )
