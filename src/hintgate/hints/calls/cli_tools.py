"""What developers' and operators' tools do from their command lines: formatters and linters, migration,
infrastructure, secret-store, registry and message-broker CLIs.

Pure. Each program is judged by its own manual: the subcommands and flags
that only show something (a formatter's `--check`, `kustomize build`,
`pulumi preview`, `alembic upgrade --sql`, `rclone --dry-run`, `skopeo
inspect`, `kafka-topics --describe`) read; the ones that create something
new add; anything else, and any subcommand the manual's reading list does
not hold, is destructive (it may run code or change what exists).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from hintgate.hints.calls.argv_words import has, option_value, subcommand
from hintgate.hints.calls.judgement import Act, Judgement
from hintgate.hints.calls.verbs import verb_act
from hintgate.hints.calls.word_tables import word_set

__all__ = ["CLI_TOOLS"]

R, A, D = Act.READ, Act.ADDITIVE, Act.DESTRUCTIVE


def _judged(act: Act, shown: str, program: str, open_world: bool | None = None) -> Judgement:
    return Judgement(act, shown, f"argv.{program}", True if act is R else None, open_world)


_NOWHERE = frozenset({"-", "/dev/stdout", "/dev/null", "/dev/stderr"})


def _writes_to(args: Sequence[str], *options: str) -> bool:
    """Whether one of `options` names a file the output goes to (not standard output)."""
    value = option_value(args, *options)
    return value is not None and value not in _NOWHERE


# ---------------------------------------------------------------- formatters and linters


def _prettier(program: str, args: list[str], shown: str) -> Judgement:
    """prettier prints the formatted text; `--write` rewrites the files; `--check`, `--list-different` report."""
    return _judged(D if has(args, "--write", "-w") else R, shown, program, False)


def _black(program: str, args: list[str], shown: str) -> Judgement:
    """black rewrites files in place unless told only to check, diff or format a given string."""
    read = has(args, "--check", "--diff", "-c", "--code", "--version", "-h", "--help")
    return _judged(R if read else D, shown, program, False)


def _isort(program: str, args: list[str], shown: str) -> Judgement:
    """isort rewrites files in place unless told only to check, diff or show its settings."""
    read = has(args, "--check-only", "--check", "-c", "--diff", "--show-files", "--show-config", "--version")
    return _judged(R if read or has(args, "-h", "--help") else D, shown, program, False)


def _ruff(program: str, args: list[str], shown: str) -> Judgement:
    """`ruff check` reports (writes with `--fix` or `--add-noqa`, unless `--diff` only shows the fixes);
    `ruff format` rewrites files unless `--check` or `--diff`; `rule`, `config`, `linter`, `version` print."""
    sub, rest = subcommand(args)
    if sub in {"", "check"} or (sub and not sub.isalpha()):  # `ruff src/` is `ruff check src/`
        fixes = has(args, "--fix") and not has(args, "--no-fix", "--diff")
        writes = fixes or has(args, "--add-noqa") or _writes_to(args, "-o", "--output-file")
        return _judged(D if writes else R, shown, program, False)
    if sub == "format":
        return _judged(R if has(rest, "--check", "--diff") else D, shown, program, False)
    if sub in {"rule", "config", "linter", "version", "help", "analyze"}:
        return _judged(R, shown, program, False)
    return _judged(D, shown, program, False)  # clean, server...


def _gofmt(program: str, args: list[str], shown: str) -> Judgement:
    """gofmt (and clang-format) print the formatted source; `-w` (`-i`) rewrites the files."""
    flag = "-i" if program == "clang-format" else "-w"
    return _judged(D if has(args, flag) else R, shown, program, False)


def _rustfmt(program: str, args: list[str], shown: str) -> Judgement:
    """rustfmt rewrites files in place unless told to check or to print to standard output."""
    read = has(args, "--check", "--version", "-V", "--help", "-h") or option_value(args, "--emit") == "stdout"
    return _judged(R if read else D, shown, program, False)


def _eslint(program: str, args: list[str], shown: str) -> Judgement:
    """eslint reports; `--fix` rewrites files, `-o` writes the report to a file, `--init` adds a config."""
    if has(args, "--fix") or _writes_to(args, "-o", "--output-file"):
        return _judged(D, shown, program, False)
    return _judged(A if has(args, "--init") else R, shown, program, False)


def _linter(program: str, args: list[str], shown: str) -> Judgement:
    """Linters and type checkers that only report (flake8, pylint, mypy, shellcheck...); an option that sends
    the report to a file writes it; mypy's `--install-types` installs packages."""
    if _writes_to(args, "--output-file", "--output", "-o"):
        return _judged(D, shown, program, False)
    if has(args, "--install-types"):
        return _judged(A, shown, program, True)
    return _judged(R, shown, program, False)


# ---------------------------------------------------------------- migrations and builds


def _alembic(program: str, args: list[str], shown: str) -> Judgement:
    """alembic: `current`, `history`, `heads`, `branches`, `show`, `check` read; `upgrade`/`downgrade`/`stamp`
    with `--sql` (offline mode) print the SQL without running it; `revision`, `merge`, `init` add files;
    `upgrade`, `downgrade`, `stamp` run migrations whose code is not in the call."""
    sub, rest = subcommand(args, frozenset({"-c", "--config", "-n", "--name", "-x"}))
    if sub in {"upgrade", "downgrade", "stamp"} and has(rest, "--sql"):
        return _judged(R, f"{shown} (offline: prints the SQL)", program, False)
    if sub in {"", "current", "history", "heads", "branches", "show", "check", "list_templates"}:
        return _judged(R, shown, program, False)
    if sub in {"revision", "merge", "init", "ensure_version"}:
        return _judged(A, shown, program, False)
    return _judged(D, f"{shown} (runs migrations hintgate cannot read)", program)


def _dbt(program: str, args: list[str], shown: str) -> Judgement:
    """dbt: `ls`, `compile`, `parse`, `debug`, `show`, `docs`, `source freshness` only read the warehouse and
    the project; `deps` and `init` add; `run`, `build`, `seed`, `snapshot`, `test`, `run-operation` run SQL
    the call does not show."""
    sub, _rest = subcommand(args)
    if sub in {"", "ls", "list", "compile", "parse", "debug", "show", "docs", "source", "help"} or has(
        args, "--version", "--help"
    ):
        return _judged(R, shown, program, False)
    if sub in {"deps", "init"}:
        return _judged(A, shown, program, True)
    return _judged(D, f"{shown} (runs SQL hintgate cannot read)", program)


# ---------------------------------------------------------------- infrastructure


_KUSTOMIZE_READ = word_set("build version help completion cfg docs-fn docs-fn-spec docs-io-annotations docs-merge")


def _kustomize(program: str, args: list[str], shown: str) -> Judgement:
    """kustomize builds manifests to standard output (`-o` writes them to files); `cfg cat|count|grep|tree`
    show; `create`, `init`, `localize` add files; `edit` changes the kustomization; `fn run` runs functions."""
    sub, rest = subcommand(args)
    if sub == "build" and _writes_to(rest, "-o", "--output"):
        return _judged(D, f"{shown} (writes the manifests to files)", program, False)
    if sub == "cfg":
        what, _more = subcommand(rest)
        return _judged(R if what in {"cat", "count", "grep", "tree"} else D, shown, program, False)
    if not sub or sub in _KUSTOMIZE_READ:
        return _judged(R, shown, program, False)
    return _judged(A if sub in {"create", "init", "localize"} else D, shown, program, False)


_PULUMI_READ = word_set("preview whoami version about logs help console")


def _pulumi(program: str, args: list[str], shown: str) -> Judgement:
    """pulumi: `preview` and `--preview-only` only show what would change; `whoami`, `about`, `logs`,
    `stack ls|output|history|export`, `config get` read; `new`, `stack init`, `import`, `login`,
    `plugin install` add; `up`, `destroy`, `refresh`, `cancel`, `config set`, `state`... change the stack."""
    sub, rest = subcommand(args, frozenset({"-C", "--cwd", "-s", "--stack"}))
    what, _more = subcommand(rest, frozenset({"-s", "--stack"}))
    if has(args, "--preview-only") or not sub or sub in _PULUMI_READ or has(args, "--version", "--help"):
        return _judged(R, shown, program, True)
    if sub == "stack" and what in {"", "ls", "output", "history", "export", "graph"}:
        graph = what == "graph"  # writes the graph to the file it names
        return _judged(D if graph else R, shown, program, True)
    if sub == "config" and what in {"", "get"}:
        return _judged(R, shown, program, False)
    if sub in {"plugin", "policy", "org"} and what in {"ls", "list", "get-default"}:
        return _judged(R, shown, program, True)
    if sub in {"new", "import", "login"} or (sub == "stack" and what == "init") or (sub, what) == ("plugin", "install"):
        return _judged(A, shown, program, True)
    return _judged(D, shown, program, True)


_RCLONE_READ = word_set(
    """
    ls lsd lsl lsf lsjson cat size about check cryptcheck checksum md5sum sha1sum hashsum tree ncdu
    listremotes version help obscure completion
    """
)
_RCLONE_VALUED = frozenset({"--config", "--log-file", "--log-level", "--transfers", "--checkers", "--bwlimit"})


def _rclone(program: str, args: list[str], shown: str) -> Judgement:
    """rclone: listings, checks and sums read; `--dry-run` (`-n`) only shows what a transfer would do;
    `mkdir` adds; `copy`, `sync`, `move`, `delete`, `purge`... replace or remove files; `config show` reads."""
    if has(args, "--dry-run", "-n"):
        return _judged(R, f"{shown} (a dry run)", program, True)
    if _writes_to(args, "--log-file"):
        return _judged(D, f"{shown} (writes a log file)", program, True)
    sub, rest = subcommand(args, _RCLONE_VALUED)
    if not sub or sub in _RCLONE_READ:
        return _judged(R, shown, program, True)
    if sub == "config":
        what, _more = subcommand(rest)
        if what in {"show", "file", "providers", "dump", "paths", "redacted"}:
            return _judged(R, shown, program, False)
        return _judged(A if what == "create" else D, shown, program, False)
    if sub in {"mkdir", "link"}:
        return _judged(A, shown, program, True)
    if sub in {"copy", "copyto"} and has(rest, "--ignore-existing"):
        # "Skip all files that exist on destination": a copy that never deletes only adds what is missing.
        return _judged(A, f"{shown} (copies only files the destination lacks)", program, True)
    return _judged(D, shown, program, True)


# ---------------------------------------------------------------- service CLIs


_STRIPE_VALUED = frozenset({"--api-key", "--project-name", "-p", "--device-name", "--color", "--log-level", "--config"})


def _stripe(program: str, args: list[str], shown: str) -> Judgement:
    """The Stripe CLI: `get` reads, `post` and `delete` write as their HTTP methods do; a resource's
    operation (`customers list`, `products create`) does what its verb says; `logs tail`, `status`,
    `version` read; `trigger`, `listen` and anything else act (webhooks fire)."""
    sub, rest = subcommand(args, _STRIPE_VALUED)
    what, _more = subcommand(rest, _STRIPE_VALUED)
    if sub in {"", "help", "version", "status", "completion"} or (sub, what) == ("logs", "tail"):
        return _judged(R, shown, program, True)
    if sub in {"get", "post", "delete"}:
        return _judged({"get": R, "post": A, "delete": D}[sub], shown, program, True)
    if sub == "config" and has(rest, "--list"):
        return _judged(R, shown, program, False)
    if sub == "login":
        return _judged(A, shown, program, True)
    found = verb_act(what) if what and sub not in {"trigger", "listen", "logout", "config", "samples"} else None
    if found is not None:
        return Judgement(found[0], shown, f"argv.{program}", found[1], True)
    return _judged(D, shown, program, True)


def _skopeo(program: str, args: list[str], shown: str) -> Judgement:
    """skopeo: `inspect`, `list-tags`, `manifest-digest`, `standalone-verify` read (a registry: open
    world); `login`, `standalone-sign`, `generate-sigstore-key` add; `copy`, `sync` replace tags, `delete`
    removes one."""
    sub, _rest = subcommand(args)
    if sub in {"", "inspect", "list-tags", "manifest-digest", "standalone-verify", "help"} or has(args, "--version"):
        return _judged(R, shown, program, True)
    if sub in {"login", "standalone-sign", "generate-sigstore-key"}:
        return _judged(A, shown, program, True)
    return _judged(D, shown, program, True)


_TRIVY_SCANS = word_set("image i filesystem fs rootfs repository repo config conf sbom vm kubernetes k8s aws")


def _trivy(program: str, args: list[str], shown: str) -> Judgement:
    """trivy's scans report (an image or a repository is fetched: open world); `-o` writes the report to a
    file; `plugin`/`module` install, `clean` and the server act."""
    sub, rest = subcommand(args, frozenset({"--cache-dir", "-f", "--format", "-o", "--output"}))
    if _writes_to(args, "-o", "--output"):
        return _judged(D, f"{shown} (writes the report to a file)", program)
    if not sub or sub in _TRIVY_SCANS or sub in {"version", "help", "convert"}:
        return _judged(R, shown, program, True if sub in {"image", "i", "repository", "repo"} else None)
    if sub in {"plugin", "module"}:
        what, _more = subcommand(rest)
        if what in {"list", "info", "search"}:
            return _judged(R, shown, program, True)
        return _judged(A if what == "install" else D, shown, program, True)
    return _judged(D, shown, program)


_ETCD_VALUED = frozenset(
    {"--endpoints", "--cacert", "--cert", "--key", "--user", "--password", "--dial-timeout", "--command-timeout"}
    | {"-w", "--write-out"}
)
_ETCD_READ = word_set("get watch version help check")
_ETCD_GROUP_READS = word_set("list get status health hashkv timetolive")


def _etcdctl(program: str, args: list[str], shown: str) -> Judgement:
    """etcdctl: `get`, `watch`, `endpoint health|status`, `member list`, `lease timetolive`, `snapshot
    status` read; `lease grant`, `member add`, `user add`, `role add` add; `put`, `del`, `txn`, `compaction`,
    `defrag`, `snapshot save`... change the store."""
    sub, rest = subcommand(args, _ETCD_VALUED)
    what, _more = subcommand(rest, _ETCD_VALUED)
    if sub == "check" and what == "datascale":
        return _judged(D, f"{shown} (writes test keys)", program, False)
    if not sub or sub in _ETCD_READ or sub == "endpoint":
        return _judged(R, shown, program, False)
    if what in _ETCD_GROUP_READS or (sub, what) == ("auth", "status"):
        return _judged(R, shown, program, False)
    if what in {"grant", "add"} and sub in {"lease", "member", "user", "role"}:
        return _judged(A, shown, program, False)
    return _judged(D, shown, program, False)


def _kafka(program: str, args: list[str], shown: str) -> Judgement:
    """Kafka's admin scripts act by their flag: `--list` and `--describe` read; `--create` and `--add` add;
    `--delete`, `--alter`, `--remove` change; `kafka-consumer-groups --reset-offsets` only shows the new
    offsets unless `--execute`."""
    name = program.removesuffix(".sh")
    if has(args, "--delete", "--alter", "--remove", "--delete-offsets", "--execute"):
        return _judged(D, shown, program, False)
    if name == "kafka-consumer-groups" and has(args, "--reset-offsets"):
        return _judged(R, f"{shown} (a dry run)", program, False)
    if has(args, "--create", "--add"):
        return _judged(A, shown, program, False)
    if has(args, "--list", "--describe", "--help", "--version"):
        return _judged(R, shown, program, False)
    return _judged(D, shown, program, False)


# ---------------------------------------------------------------- system settings and services


def _ctl(program: str, args: list[str], shown: str) -> Judgement:
    """systemd's control tools (timedatectl, hostnamectl, loginctl, localectl, resolvectl, networkctl,
    busctl, coredumpctl, systemd-analyze): `status`, `show`, `list-*`, `get-*`, `is-*`, `cat`, `query`,
    `info` and no verb show; any other verb sets, starts, stops or flushes something."""
    sub, _rest = subcommand(args)
    read = not sub or sub in {"status", "show", "cat", "query", "info", "help", "statistics", "dump", "verify"}
    read = read or sub.startswith(("list", "get-", "is-", "show-")) or sub in {"time", "blame", "critical-chain"}
    return _judged(R if read else D, shown, program, False)


def _defaults(program: str, args: list[str], shown: str) -> Judgement:
    """macOS `defaults`: `read`, `read-type`, `domains`, `find` show; `write`, `delete`, `import`... change."""
    sub, _rest = subcommand(args)
    return _judged(R if sub in {"read", "read-type", "domains", "find", "help"} else D, shown, program, False)


def _diskutil(program: str, args: list[str], shown: str) -> Judgement:
    """macOS `diskutil`: `list`, `info`, `activity` show; anything else mounts, erases or changes a disk."""
    sub, _rest = subcommand(args)
    return _judged(R if sub in {"list", "info", "activity", "listfilesystems"} else D, shown, program, False)


_CONFIG_CHECKS: Mapping[str, tuple[str, ...]] = {
    "nginx": ("-t", "-T", "-v", "-V", "-h", "-?"),
    "apachectl": ("-t", "configtest", "-S", "-M", "-v", "-V", "status", "fullstatus"),
    "apache2ctl": ("-t", "configtest", "-S", "-M", "-v", "-V", "status", "fullstatus"),
    "sshd": ("-t", "-T", "-V"),
    "visudo": ("-c", "--check"),
    "haproxy": ("-c", "-v", "-vv"),
}


def _config_check(program: str, args: list[str], shown: str) -> Judgement:
    """Servers asked only to test their configuration or print their version (`nginx -t`, `apachectl
    configtest`, `sshd -t`, `visudo -c`, `haproxy -c`) read; otherwise they start, signal or edit."""
    checks = any(a in _CONFIG_CHECKS[program] for a in args)
    if program == "nginx" and has(args, "-s"):
        checks = False  # `nginx -s reload`: a signal to the running server
    return _judged(R if checks else D, shown, program, False)


def _crictl(program: str, args: list[str], shown: str) -> Judgement:
    """crictl: listings, inspection, logs and stats read; anything else runs, stops or removes."""
    sub, _rest = subcommand(args, frozenset({"-r", "--runtime-endpoint", "-i", "--image-endpoint"}))
    read = {"", "ps", "pods", "images", "img", "inspect", "inspecti", "inspectp", "logs", "stats", "statsp", "info"}
    return _judged(R if sub in read | {"version", "help", "imagefsinfo"} else D, shown, program, False)


def _ssh_keygen(program: str, args: list[str], shown: str) -> Judgement:
    """ssh-keygen shows a key's fingerprint (`-l`), finds a host (`-F`) or prints a public key (`-y`);
    otherwise it writes keys or known_hosts."""
    return _judged(R if has(args, "-l", "-F", "-y", "-B") and not has(args, "-R") else D, shown, program, False)


_GPG_READS = frozenset(
    {"--list-keys", "-k", "--list-public-keys", "--list-secret-keys", "-K", "--fingerprint", "--verify"}
    | {"--list-packets", "--card-status", "--list-sigs", "--check-sigs", "--version", "--help"}
)


def _gpg(program: str, args: list[str], shown: str) -> Judgement:
    """gpg lists keys and verifies signatures without changing the keyring; anything else (import, sign,
    encrypt to a file, delete, edit) writes."""
    commands = [a for a in args if a.startswith("-") and a not in {"--batch", "--with-colons", "-q", "--quiet"}]
    read = bool(commands) and all(
        a.split("=", 1)[0] in _GPG_READS | {"--keyid-format", "--with-fingerprint"} for a in commands
    )
    return _judged(R if read else D, shown, program, False)


def _firewall(program: str, args: list[str], shown: str) -> Judgement:
    """Firewall front ends asked only for their state: `ufw status`, `nft list ...`, `firewall-cmd` with
    `--state`, `--list-*`, `--get-*`, `--query-*` only; any other command changes the rules."""
    if program == "ufw":
        read = subcommand(args)[0] in {"status", "show", "version", "help"}
    elif program == "nft":
        read = subcommand(args, frozenset({"-f", "--file", "-I", "--includepath"}))[0] == "list" and not has(
            args, "-f", "--file"
        )
    else:
        options = [a.split("=", 1)[0] for a in args if a.startswith("--")]
        allowed = (
            "--state",
            "--list-",
            "--get-",
            "--query-",
            "--zone",
            "--permanent",
            "--info-",
            "--version",
            "--help",
        )
        read = (
            bool(options)
            and all(o.startswith(allowed) for o in options)
            and any(o not in {"--zone", "--permanent"} for o in options)
        )
    return _judged(R if read else D, shown, program, False)


CLI_TOOLS: Mapping[str, Callable[[str, list[str], str], Judgement]] = {
    "prettier": _prettier,
    "black": _black,
    "isort": _isort,
    "ruff": _ruff,
    "gofmt": _gofmt,
    "clang-format": _gofmt,
    "rustfmt": _rustfmt,
    "eslint": _eslint,
    **dict.fromkeys(("flake8", "pylint", "mypy", "pyright", "shellcheck", "hadolint", "yamllint"), _linter),
    "alembic": _alembic,
    "dbt": _dbt,
    "kustomize": _kustomize,
    "pulumi": _pulumi,
    "rclone": _rclone,
    "stripe": _stripe,
    "skopeo": _skopeo,
    "trivy": _trivy,
    "etcdctl": _etcdctl,
    **dict.fromkeys(
        (
            "timedatectl",
            "hostnamectl",
            "loginctl",
            "localectl",
            "resolvectl",
            "networkctl",
            "busctl",
            "coredumpctl",
            "systemd-analyze",
        ),
        _ctl,
    ),
    "defaults": _defaults,
    "diskutil": _diskutil,
    **dict.fromkeys(("nginx", "apachectl", "apache2ctl", "sshd", "visudo", "haproxy"), _config_check),
    "crictl": _crictl,
    "ssh-keygen": _ssh_keygen,
    **dict.fromkeys(("gpg", "gpg2"), _gpg),
    **dict.fromkeys(("ufw", "nft", "firewall-cmd"), _firewall),
    **{
        f"{name}{suffix}": _kafka
        for name in ("kafka-topics", "kafka-consumer-groups", "kafka-configs", "kafka-acls")
        for suffix in ("", ".sh")
    },
}
"""Programs judged here, by their own manuals' subcommands and flags."""
