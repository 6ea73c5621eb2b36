"""What one command line does, from its program and arguments: `ls` reads, `rm` destroys, `git push --force` too.

Pure. `judge_argv` takes an argv list (as a shell word list or a tool's
array argument) and judges it by tables of general command-line knowledge:

- programs that only read (`ls`, `cat`, `grep`, `ps`, `jq`...), with the
  flags that make some of them write (`sed -i`, `sort -o`, `find -delete`,
  `curl -X POST`);
- programs that only add (`mkdir`, `touch`, `cp`...) and programs that
  destroy (`rm`, `dd`, `chmod`, `kill`...);
- programs with subcommands (`git`, `kubectl`, `docker`, `npm`, `pip`,
  `systemctl`, `helm`...): the subcommand and its flags (`push --force`,
  `reset --hard`, `clean -f`, `branch -D`, `rollout restart`, `--dry-run`);
- prefixes that run another command (`sudo`, `env`, `nice`, `timeout`,
  `xargs`, `bash -c '...'`): the command they run is judged.

A program in no table runs code hintgate cannot see into: destructive.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence

from hintgate.hints.calls.argv_words import has as _has
from hintgate.hints.calls.argv_words import option_value as _option_value
from hintgate.hints.calls.argv_words import positional as _positional
from hintgate.hints.calls.argv_words import subcommand as _subcommand
from hintgate.hints.calls.cli_tools import CLI_TOOLS
from hintgate.hints.calls.judgement import Act, Judgement, riskiest, shorten
from hintgate.hints.calls.verbs import verb_act
from hintgate.hints.calls.word_tables import word_set
from hintgate.scan.deferred import compiled

__all__ = ["READ_PROGRAMS", "ShellText", "judge_argv", "knows", "program_of", "runs_code_from"]

ShellText = Callable[[str], Judgement]
"""Judges a shell command string (for `bash -c '...'`, `ssh host '...'`, `find -exec`)."""

R, A, D = Act.READ, Act.ADDITIVE, Act.DESTRUCTIVE

READ_PROGRAMS = word_set(
    """
    ls ll dir vdir cat tac head tail less more grep egrep fgrep rg ag ack wc cut tr nl rev fold fmt column
    paste join expand unexpand seq echo printf pwd whoami id groups who w users date cal uname hostname arch
    nproc lscpu lsblk lsusb lspci lsmod which whereis type file stat du df free uptime ps pgrep pstree top
    htop vmstat iostat mpstat tree diff cmp comm md5sum sha1sum sha224sum sha256sum sha384sum sha512sum
    b2sum cksum sum base32 base64 xxd od hexdump strings true false test [ basename dirname realpath
    readlink printenv locale getconf tty stty logname jq yq xq gron zcat zless zgrep bzcat xzcat lsof
    netstat ss ping ping6 traceroute tracepath mtr dig nslookup host whois getent man info help apropos
    whatis history sleep expr bc dc factor numfmt shuf look sdiff colordiff journalctl dmesg last lastlog
    pg_lsclusters pg_isready pg_controldata pg_config
    lsb_release hostid sw_vers system_profiler vm_stat mdfind mdls otool lvs pvs vgs lvdisplay pvdisplay
    vgdisplay findmnt lsns lslocks lsipc lsmem dmidecode pidof atq ipcs tokei cloc scc bat batcat exa eza lsd
    hexyl procs dust duf sar pidstat iotop iftop nethogs csvlook csvstat csvcut tldr
    finger ldd nm objdump readelf size file uniq sort awk gawk mawk nawk sed find fd fdfind locate mlocate
    env time watch timeout nice ionice nohup command builtin exec stdbuf xargs tee curl wget http https xh
    httpie openssl host dnsdomainname ip ifconfig route arp iw iwconfig nmcli lsattr getfacl id namei
    pathchk tput clear reset true yes jobs fg bg wait umask alias unalias set shopt declare typeset local
    export unset readonly source . cd pushd popd dirs hash
    """
)
"""Programs that read, or whose writing forms are told apart below (`sed -i`, `sort -o`, `curl -d`...)."""

_ADDITIVE = word_set(
    """
    mkdir touch install mktemp mkfifo mknod ln link zip
    """
)
_DESTRUCTIVE = word_set(
    """
    rm rmdir shred dd mkfs mkswap wipefs fdisk sfdisk parted gdisk mv chmod chown chgrp chattr setfacl kill
    pkill killall skill reboot shutdown halt poweroff init telinit truncate unlink crontab useradd userdel
    usermod groupadd groupdel groupmod passwd chpasswd chsh iptables ip6tables nft ufw firewall-cmd mount
    umount swapon swapoff modprobe rmmod insmod scp sftp ftp nc ncat netcat socat ssh patch
    eval
    """
)
_PREFIXES = frozenset({"sudo", "doas", "nice", "ionice", "nohup", "time", "stdbuf", "command", "builtin", "exec"})
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish", "ash", "busybox"})
_INTERPRETERS = word_set(
    """
    python python2 python3 node nodejs deno bun ruby perl php lua Rscript R osascript pwsh powershell
    """
)
_NETWORK = word_set(
    """
    curl wget http https xh httpie ping ping6 traceroute tracepath mtr dig nslookup host whois ssh scp sftp
    ftp nc ncat netcat socat rsync telnet
    """
)


_CODE_VARIABLES = word_set(
    """
    PATH BASH_ENV ENV PROMPT_COMMAND IFS SHELLOPTS BASHOPTS PS4 LESSOPEN LESSCLOSE PAGER EDITOR VISUAL
    SHELL BROWSER PERL5OPT PERL5LIB PERLLIB PYTHONSTARTUP PYTHONPATH PYTHONHOME NODE_OPTIONS RUBYOPT
    RUBYLIB JAVA_TOOL_OPTIONS _JAVA_OPTIONS GIT_EXTERNAL_DIFF GIT_SSH GIT_PROXY_COMMAND
    """
)
_COMMAND_VARIABLES = word_set("PAGER EDITOR VISUAL SHELL BROWSER PROMPT_COMMAND GIT_EXTERNAL_DIFF GIT_SSH")
_COMMAND_SUFFIXES = ("_COMMAND", "_CMD", "PAGER", "EDITOR", "_SHELL", "ASKPASS", "_SSH", "_PROGRAM", "_HOOK")
_CODE_PREFIXES = ("LD_", "DYLD_", "GIT_CONFIG")
_CODE_SUFFIXES = ("PATH", *_COMMAND_SUFFIXES)


_SYSTEM_DIRS = frozenset({"/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"})


def runs_code_from(variable: str, value: str | None = None) -> bool:
    """Whether setting `variable` to `value` chooses what code later commands run (not in the text).

    By the conventions of POSIX shells, the dynamic linker and common tools: the search paths for
    programs and libraries (`PATH`, `LD_PRELOAD`, `PYTHONPATH`), files a shell runs at start (`BASH_ENV`),
    and the commands a program starts on its own (`PAGER`, `EDITOR`, `LESSOPEN`, `GIT_SSH_COMMAND`).
    A `PATH` of the system's own program directories only (`/usr/bin:/bin`) chooses nothing new.
    """
    name = variable.split("[", 1)[0].upper()
    if not (name in _CODE_VARIABLES or name.startswith(_CODE_PREFIXES) or name.endswith(_CODE_SUFFIXES)):
        return False
    if value is None:
        return True
    if not value.strip():
        return False  # unset in effect: nothing chosen
    if name == "PATH":
        return not set(value.split(":")) <= _SYSTEM_DIRS
    if name in _COMMAND_VARIABLES or name.endswith(_COMMAND_SUFFIXES):
        # The value is a command line a program starts later (`PAGER=cat`): it chooses only what it says.
        words = value.split()
        return any("=" in w for w in words) or judge_argv(words, depth=8).act is not R
    return True


def _assigns_code(args: Sequence[str]) -> str | None:
    """The first `NAME=value` word of `args` whose variable chooses what code runs, if any."""
    for arg in args:
        name, equals, value = arg.partition("=")
        if equals and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and runs_code_from(name, value):
            return name
    return None


_DECLARES = frozenset({"export", "declare", "typeset", "local", "readonly"})


def program_of(word: str) -> str:
    """A command word's program: its base name (`/usr/bin/git` → `git`), lower case."""
    return os.path.basename(word.strip()).lower()


def knows(program: str) -> bool:
    """Whether `program` is one whose command lines are read by subcommand and flags (git, npm, kubectl...)."""
    return program_of(program) in _SUBCOMMANDS


def judge_argv(argv: Sequence[str], shell: ShellText | None = None, *, depth: int = 0) -> Judgement:
    """What running `argv` does.

    Args:
        argv: the program and its arguments, already split into words.
        shell: judges a shell text found inside the arguments (`bash -c`, `ssh host CMD`, `find -exec`);
            without it such text is judged destructive unread.
        depth: how many prefixes and shells deep this is (bounded: an endless `sudo sudo ...` is destructive).
    """
    words = [w for w in argv if isinstance(w, str)]
    if not words:
        return Judgement(R, "an empty command", "shell", True)
    if depth > 8:
        return Judgement(D, "commands nested too deep to read", "shell")
    shown = shorten(" ".join(words), 72)
    program = program_of(words[0])
    args = words[1:]
    if "=" in words[0] and not words[0].startswith("="):  # VAR=value before the command
        if _assigns_code(words[:1]):
            return Judgement(D, f"{shown} (sets {words[0].split('=', 1)[0]}: what runs is not in the text)", "shell")
        return judge_argv(args, shell, depth=depth + 1) if args else Judgement(R, shown, "shell", True)
    if program in _DECLARES or program == "env":
        variable = _assigns_code(args)
        if variable is not None:
            return Judgement(D, f"{shown} (sets {variable}: what runs is not in the text)", "shell")
        if program == "env" and _has(args, "-S", "--split-string"):
            return Judgement(D, f"{shown} (runs a command line from a string)", "shell")
    if program == "alias" and any("=" in a for a in args):
        # An alias gives a command name another meaning: what a later line that uses it runs is not in it.
        return Judgement(D, f"{shown} (redefines a command name)", "shell")
    inner = _wrapped(program, args)
    if inner is not None:
        if not inner:
            return Judgement(R if program in {"env", "time", "command", "builtin"} else D, shown, "shell")
        return judge_argv(inner, shell, depth=depth + 1)
    if program in _SHELLS or program in {"eval"}:
        return _shell_text(program, args, shell, shown, depth)
    if program in _INTERPRETERS:
        return _interpreter(program, args, shown)
    runs = _command_option(program, args)
    if runs is not None:
        return Judgement(D, f"{shown} (its option {shorten(runs, 40)} runs a command)", "shell")
    saved = _file_option(program, args)
    if saved is not None:
        act, option = saved
        return Judgement(act, f"{shown} ({option} writes a file)", "shell", None, True if program in _NETWORK else None)
    if program == "dc" and (
        any("!" in a for a in args) or any(not a.startswith("-") for a in _without_values(args, {"-e", "--expression"}))
    ):
        # dc runs `!command` lines, and a file operand is a program hintgate cannot read.
        return Judgement(D, f"{shown} (runs a command or a program file)", "shell")
    judge = _SUBCOMMANDS.get(program)
    if judge is not None:
        return judge(program, args, shown)
    special = _SPECIAL.get(program)
    if special is not None:
        return special(args, shown, shell, depth)
    open_world = True if program in _NETWORK else None
    if program in _DESTRUCTIVE:
        return Judgement(D, shown, "shell", None, open_world)
    if program in _ADDITIVE:
        overwrite = program in {"ln", "install"} and _has(args, "-f", "--force", "--remove-destination")
        idempotent = program == "mkdir" and _has(args, "-p", "--parents")
        return Judgement(D if overwrite else A, shown, "shell", idempotent or None)
    if program in READ_PROGRAMS:
        return Judgement(R, shown, "shell", True, open_world)
    if program.startswith("mkfs."):
        return Judgement(D, shown, "shell")
    return Judgement(D, f"{shown} (a program hintgate does not know)", "shell")


# Options whose value is a command the program starts (tar's `--to-command`, rsync's `--rsh`, sort's
# `--compress-program`, man's `--pager`), by their long name's last word, and the short ones per program.
_COMMAND_OPTION = compiled(r"--(?:[\w-]*-)?(?:command|program|rsh|pager|editor)$|--checkpoint-action$", re.I)
_SHORT_COMMAND_OPTIONS: Mapping[str, frozenset[str]] = {
    "tar": frozenset({"-I"}),
    "rsync": frozenset({"-e"}),
    "man": frozenset({"-P"}),
}
_SSH_COMMAND_KEYS = compiled(r"^\s*(?:proxycommand|localcommand|knownhostscommand)\s*[= ]", re.I)
_TRANSPORTS = frozenset({"ssh", "rsh"})


# Options of reading programs whose value names a file they write (appending ones add), and flags that write.
_FILE_OPTIONS: Mapping[str, frozenset[str]] = {
    "tree": frozenset({"-o"}),
    "curl": frozenset(
        {"-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii", "--libcurl", "--etag-save"}
        | {"--stderr", "--hsts", "--alt-svc"}
    ),
    "wget": frozenset({"-o", "--output-file", "-a", "--append-output", "--save-cookies"}),
    "less": frozenset({"-o", "-O", "--log-file", "--LOG-FILE"}),
    "info": frozenset({"-o", "--output"}),
    "base64": frozenset({"-o", "--output"}),
}
_APPENDING_OPTIONS = frozenset({"-a", "--append-output"})
_WRITING_FLAGS: Mapping[str, frozenset[str]] = {"file": frozenset({"-C", "--compile"})}
_NOWHERE = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "-"})


def _file_option(program: str, args: Sequence[str]) -> tuple[Act, str] | None:
    """The act and the option of `args` that makes a reading program write a file (`tree -o out.txt`,
    `curl -c cookies.txt`, `less -o copy.txt`), if any; a file of nowhere (`/dev/null`, `-`) writes nothing."""
    options = _FILE_OPTIONS.get(program, frozenset())
    flags = _WRITING_FLAGS.get(program, frozenset())
    if not options and not flags:
        return None
    for at, arg in enumerate(args):
        if arg == "--":
            return None
        if arg in flags:
            return D, arg
        name, equals, value = arg.partition("=")
        if equals and name in options:
            target = value
        elif arg in options:
            target = args[at + 1] if at + 1 < len(args) else ""
        elif len(arg) > 2 and arg[:2] in options and not arg.startswith("--"):
            name, target = arg[:2], arg[2:]  # `-Ocopy.txt`
        else:
            continue
        if target not in _NOWHERE:
            return (A if name in _APPENDING_OPTIONS else D), arg
    return None


def _without_values(args: Sequence[str], valued: set[str]) -> list[str]:
    """`args` without the options in `valued` and the value each takes."""
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in valued:
            skip = True
        elif not any(arg.startswith(f"{v}=") for v in valued if v.startswith("--")):
            kept.append(arg)
    return kept


def _command_option(program: str, args: Sequence[str]) -> str | None:
    """An option of `args` whose value is a command the program runs and that does not only read, if any.

    A value that is a reading command (`--pager=cat`), or the remote shell of a transfer (`rsync -e 'ssh -p
    2222'`, without a command of its own in `-o`), chooses nothing hidden.
    """
    short = _SHORT_COMMAND_OPTIONS.get(program, frozenset())
    for at, arg in enumerate(args):
        if arg == "--":
            return None
        name, equals, value = arg.partition("=")
        if equals and _COMMAND_OPTION.match(name):
            pass
        elif (_COMMAND_OPTION.match(arg) or arg in short) and at + 1 < len(args):
            value = args[at + 1]
        elif program in {"ssh", "scp", "sftp"} and arg == "-o" and at + 1 < len(args):
            if _SSH_COMMAND_KEYS.match(args[at + 1]):
                return f"-o {args[at + 1]}"
            continue
        elif program in {"ssh", "scp", "sftp"} and arg.startswith("-o") and _SSH_COMMAND_KEYS.match(arg[2:]):
            return arg
        else:
            continue
        if name.lower() == "--checkpoint-action" or arg.lower() == "--checkpoint-action":
            if not value.startswith("exec="):
                continue  # `dot`, `echo`, `bell`: tar's own actions
            value = value.removeprefix("exec=")
        words = value.split()
        if not words:
            continue
        if program_of(words[0]) in _TRANSPORTS and not any(_SSH_COMMAND_KEYS.match(w) for w in words):
            continue
        if _SPECIAL.get(program_of(words[0])) is _compressor and len(words) == 1:
            continue  # a compressor on a stream (`--compress-program=gzip`) touches no file
        if any("=" in w for w in words) or judge_argv(words, depth=8).act is not R:
            return arg if equals else f"{arg} {value}"
    return None


def _wrapped(program: str, args: list[str]) -> list[str] | None:
    """The command a prefix runs (`sudo -u x CMD` → CMD), `[]` when it runs none, None when not a prefix."""
    if program in _PREFIXES:
        rest = list(args)
        while rest and rest[0].startswith("-"):
            flag = rest.pop(0)
            if program in {"sudo", "doas"} and flag in {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"} and rest:
                rest.pop(0)
            if program == "nice" and flag == "-n" and rest:
                rest.pop(0)
        return rest
    if program == "env":
        rest = list(args)
        while rest and (rest[0].startswith("-") or "=" in rest[0]):
            if rest.pop(0) in {"-u", "-C", "-S"} and rest:
                rest.pop(0)
        return rest
    if program == "timeout":
        rest = [a for a in args if not a.startswith("-")]
        return rest[1:] if rest else []
    if program == "watch":
        rest = list(args)
        while rest and rest[0].startswith("-"):
            if rest.pop(0) in {"-n", "-d", "--interval"} and rest:
                rest.pop(0)
        return rest
    return None


def _shell_text(program: str, args: list[str], shell: ShellText | None, shown: str, depth: int) -> Judgement:
    """`bash -c 'TEXT'`, `eval TEXT`: the text is judged as a command; a script file or a shell on stdin runs unseen."""
    if program == "eval":
        text = " ".join(args)
    elif "-c" in args or any(re.fullmatch(r"-[a-z]*c[a-z]*", a) for a in args):
        at = next(i for i, a in enumerate(args) if a == "-c" or re.fullmatch(r"-[a-z]*c[a-z]*", a))
        text = args[at + 1] if at + 1 < len(args) else ""
    elif _has(args, "--version", "--help"):
        return Judgement(R, shown, "shell", True)
    else:
        return Judgement(D, f"{shown} (runs a script hintgate cannot read)", "shell")
    if shell is None or depth > 8:
        return Judgement(D, shown, "shell")
    inner = shell(text)
    return Judgement(inner.act, f"{program} -c: {inner.what}", "shell", inner.idempotent, inner.open_world)


def _interpreter(program: str, args: list[str], shown: str) -> Judgement:
    if args and all(a in {"--version", "-V", "--help", "-h", "-v"} for a in args):
        return Judgement(R, shown, "shell", True)
    if program.startswith("python") and len(args) >= 2 and args[0] == "-m":
        # `python -m pip install x` is pip's command line; `-m venv DIR` makes a new environment.
        module, rest = args[1], args[2:]
        if module in {"pip", "pip3"}:
            return judge_argv(["pip", *rest])
        if module == "venv":
            return Judgement(D if _has(rest, "--clear", "--upgrade") else A, shown, "shell", True)
    if program.startswith("python") and args and args[0] == "-c" and len(args) >= 2:
        # `python3 -c 'import json; print(json.load(open("x"))["v"])'`: a program in the text, read as Python.
        from hintgate.hints.calls.python_code import judge_python

        judged = judge_python(args[1])
        return Judgement(
            judged.act, f"{shown} ({judged.what})" if judged.act is R else judged.what, "shell", judged.idempotent
        )
    return Judgement(D, f"{shown} (runs code hintgate cannot judge)", "shell")


# ---------------------------------------------------------------- read programs with writing flags


_SED_WRITES = compiled(r"(^|[;}\s/])[wW]\s*\S|(^|[;}\s])e(\s|$)")
# A substitution whose flags hold `e` runs the pattern space as a command (GNU sed): `s/x/y/e`, `s|x|y|ge`.
_SED_RUNS = compiled(r"(^|[;{}\s])s([^\w\s\\])(?:\\.|(?!\2).)*\2(?:\\.|(?!\2).)*\2[gpiImM0-9]*e")


def _sed(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    if _has(args, "-i", "--in-place") or any(a.startswith("-i") for a in args if not a.startswith("--")):
        return Judgement(D, f"{shown} (edits files in place)", "shell")
    if _has(args, "-f", "--file"):
        return Judgement(D, f"{shown} (runs a script file hintgate cannot read)", "shell")
    scripts = [args[i + 1] for i, a in enumerate(args[:-1]) if a in {"-e", "--expression"}]
    scripts += [a.split("=", 1)[1] for a in args if a.startswith("--expression=")]
    scripts += [a[2:] for a in args if a.startswith("-e") and len(a) > 2 and not a.startswith("--")]
    if not scripts:
        scripts = [a for a in args if not a.startswith("-")][:1]
    if any(_SED_WRITES.search(s) or _SED_RUNS.search(s) for s in scripts):
        return Judgement(D, f"{shown} (its script writes a file or runs a command)", "shell")
    return Judgement(R, shown, "shell", True)


def _cp(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """cp replaces a destination that exists, unless told not to clobber (-n, --no-clobber, --update=none)."""
    if _has(args, "-n", "--no-clobber", "--update=none"):
        return Judgement(A, f"{shown} (never replaces what exists)", "shell", True)
    return Judgement(D, f"{shown} (replaces the destination if it exists)", "shell", True)


def _archive(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """tar: -t lists (reads); -x extracts over what exists; -c writes the archive file (replacing one there)."""
    mode = args[0] if args and not args[0].startswith("-") else ""
    flags = "".join(a.lstrip("-") for a in args if a.startswith("-") and not a.startswith("--")) + mode
    if "t" in flags or _has(args, "--list"):
        return Judgement(R, shown, "shell", True)
    if "r" in flags or "u" in flags or _has(args, "--append"):
        return Judgement(A, shown, "shell")
    return Judgement(D, shown, "shell", True if "x" in flags else None)


def _compressor(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """gzip/xz/unzip list (-l, -t) or write to stdout (-c) without touching files; otherwise they replace files."""
    if _has(args, "-l", "--list", "-t", "--test", "-c", "--stdout", "-Z") or (args and args[0] in {"-v", "--version"}):
        return Judgement(R, shown, "shell", True)
    if _has(args, "-n") and shown.startswith("unzip"):
        return Judgement(A, shown, "shell", True)
    if _has(args, "-k", "--keep") and not _has(args, "-f", "--force") and not shown.startswith(("unzip", "7z")):
        return Judgement(A, f"{shown} (keeps its input; never over an output there)", "shell", True)
    return Judgement(D, shown, "shell")


def _ssh(args: list[str], shown: str, shell: ShellText | None, _depth: int) -> Judgement:
    """ssh HOST COMMAND runs COMMAND there (judged as a command, open world); ssh HOST alone is a session."""
    rest = list(args)
    while rest and rest[0].startswith("-"):
        flag = rest.pop(0)
        if (
            flag in {"-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-b", "-c", "-E", "-e", "-m", "-S", "-W"}
            and rest
        ):
            rest.pop(0)
    if len(rest) < 2 or shell is None:
        return Judgement(D, f"{shown} (a remote session)", "shell", None, True)
    inner = shell(" ".join(rest[1:]))
    return Judgement(inner.act, f"on {rest[0]}: {inner.what}", "shell", inner.idempotent, True)


def _sort(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    if _has(args, "-o", "--output"):
        return Judgement(D, f"{shown} (writes its output to a file)", "shell")
    return Judgement(R, shown, "shell", True)


def _output_operand(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """A filter whose second operand is its output (`uniq INPUT OUTPUT`, `xxd INFILE OUTFILE`): two operands write
    the second; with one file or none it prints."""
    if len(_positional(args)) >= 2:
        return Judgement(D, f"{shown} (writes its output to a file)", "shell")
    return Judgement(R, shown, "shell", True)


_AWK_VALUED = frozenset({"-v", "--assign", "-F", "--field-separator", "-i", "--include", "-l", "--load"})


def _awk(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    programs: list[str] = []
    at = 0
    while at < len(args):
        arg = args[at]
        if arg in {"-f", "--file"} or arg.startswith("--file="):
            return Judgement(D, f"{shown} (runs a program file hintgate cannot read)", "shell")
        if arg in {"-e", "--source"} and at + 1 < len(args):
            programs.append(args[at + 1])  # gawk's program text given by option
            at += 2
        elif arg in _AWK_VALUED:
            at += 2  # `-v x=1`, `-F :`: the value is no program
        elif arg == "--":
            programs.extend(args[at + 1 : at + 2])
            break
        elif arg.startswith("-") and arg != "-":
            at += 1
        else:
            if not programs:
                programs.append(arg)
            break
    if _has(args, "-i") or any(re.search(r"system\s*\(|\bprint[f]?\b[^;}]*>|\|\s*\"|getline", p) for p in programs):
        return Judgement(D, f"{shown} (its program writes files or runs commands)", "shell")
    return Judgement(R, shown, "shell", True)


def _tee(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    files = [a for a in _positional(args) if a not in {"/dev/null", "/dev/stdout", "/dev/stderr"}]
    if not files:
        return Judgement(R, shown, "shell", True)
    if _has(args, "-a", "--append"):
        return Judgement(A, f"{shown} (appends to {files[0]})", "shell")
    return Judgement(D, f"{shown} (overwrites {files[0]})", "shell")


def _find(args: list[str], shown: str, shell: ShellText | None, depth: int) -> Judgement:
    if any(a in {"-delete", "-fprint", "-fprint0", "-fprintf", "-fls"} for a in args):
        return Judgement(D, f"{shown} (deletes or writes what it finds)", "shell")
    parts = [Judgement(R, shown, "shell", True)]
    for at, arg in enumerate(args):
        if arg in {"-exec", "-execdir", "-ok", "-okdir"}:
            command = []
            for word in args[at + 1 :]:
                if word in {";", "\\;", "+"}:
                    break
                command.append(word)
            command = [w for w in command if w != "{}"] or ["?"]
            inner = judge_argv(command, shell, depth=depth + 1)
            parts.append(Judgement(inner.act, f"{shown} (runs {inner.what} on each)", "shell", inner.idempotent))
    return riskiest(parts)


def _xargs(args: list[str], _shown: str, shell: ShellText | None, depth: int) -> Judgement:
    rest = list(args)
    while rest and rest[0].startswith("-"):
        flag = rest.pop(0)
        if flag in {"-I", "-n", "-P", "-d", "-L", "-s", "-E", "-a"} and rest:
            rest.pop(0)
    inner = judge_argv(rest or ["echo"], shell, depth=depth + 1)
    return Judgement(inner.act, f"xargs runs {inner.what}", "shell", inner.idempotent, inner.open_world)


_CURL_DATA = ("-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "-F", "--form", "--json")


def _curl(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    if _has(args, "-K", "--config") or any(a.startswith("-K") and len(a) > 2 for a in args):
        return Judgement(D, f"{shown} (takes its options from a file hintgate cannot read)", "shell", None, True)
    method = None
    for at, arg in enumerate(args):
        if arg in {"-X", "--request"} and at + 1 < len(args):
            method = args[at + 1].upper()
        elif arg.startswith("-X") and len(arg) > 2:
            method = arg[2:].upper()
        elif arg.startswith("--request="):
            method = arg.split("=", 1)[1].upper()
    if method is None and (_has(args, *_CURL_DATA) or _has(args, "-T", "--upload-file")):
        method = "POST" if not _has(args, "-T", "--upload-file") else "PUT"
    if _has(args, "-I", "--head"):
        method = method or "HEAD"
    act = _METHOD_ACTS.get(method or "GET", D)
    if act is R and _has(args, "-o", "--output", "-O", "--remote-name", "--remote-name-all"):
        writes = [args[i + 1] for i, a in enumerate(args[:-1]) if a in {"-o", "--output"}]
        if not writes or any(w not in {"-", "/dev/null"} for w in writes) or _has(args, "-O", "--remote-name"):
            return Judgement(D, f"{shown} (saves what it fetches to a file)", "shell", None, True)
    return Judgement(act, shown, "shell", act is R or method in {"PUT", "DELETE"}, True)


def _wget(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """wget saves to a new name by default (never clobbering); -O FILE or -N replaces; -O - and --spider read."""
    target = None
    for at, arg in enumerate(args):
        if arg in {"-O", "--output-document"} and at + 1 < len(args):
            target = args[at + 1]
        elif arg.startswith("--output-document="):
            target = arg.split("=", 1)[1]
        elif re.fullmatch(r"-q?O.+", arg):
            target = arg.split("O", 1)[1]
    if _has(args, "--post-data", "--post-file", "--method", "--body-data"):
        return Judgement(A, shown, "shell", None, True)
    if _has(args, "--spider") or target in {"-", "/dev/null"}:
        return Judgement(R, shown, "shell", True, True)
    if target is not None or (_has(args, "-N", "--timestamping", "-nc") and not _has(args, "-nc", "--no-clobber")):
        return Judgement(D, f"{shown} (replaces the file it saves to)", "shell", None, True)
    return Judgement(A, f"{shown} (saves what it fetches to a new file)", "shell", None, True)


_METHOD_ACTS = {"GET": R, "HEAD": R, "OPTIONS": R, "POST": A, "PUT": D, "PATCH": D, "DELETE": D}


def _ip(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    words = _positional(args)
    if len(words) <= 1 or words[1] in {"show", "list", "ls", "get"} or words[0] in {"-s"}:
        return Judgement(R, shown, "shell", True)
    return Judgement(D, shown, "shell")


def _hostname(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    return Judgement(D if _positional(args) else R, shown, "shell", True)


def _date(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """date prints; `-s`/`--set` sets the clock. `-I` takes its precision glued to it (`-Is`, `-Ins`): not `-s`."""
    flags = [a for a in args if not (a.startswith("-I") and not a.startswith("--"))]
    return Judgement(D if _has(flags, "-s", "--set") else R, shown, "shell", True)


def _sysctl(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """sysctl prints kernel parameters; `-w`, a `name=value` operand, `-p`/`--load` or `--system` (which load
    settings from files) set them."""
    if _has(args, "-w", "--write", "-p", "--load", "-f", "--system") or any("=" in a for a in _positional(args)):
        return Judgement(D, f"{shown} (sets kernel parameters)", "shell")
    return Judgement(R, shown, "shell", True)


def _crontab(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    return Judgement(R if args == ["-l"] else D, shown, "shell", True)


def _jq(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    return Judgement(D if _has(args, "-i", "--inplace", "--in-place") else R, shown, "shell", True)


def _rsync(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """rsync replaces files at its destination (and deletes with --delete); -n/--dry-run only lists what it
    would do; --ignore-existing, without a deleting option, only adds the files not there. Open world when a
    side is a remote host (`host:path`, `rsync://`)."""
    remote = any(re.match(r"^(?:[\w.@-]+:|rsync://)", a) for a in _positional(args))
    if _has(args, "-n", "--dry-run", "--list-only"):
        return Judgement(R, f"{shown} (a dry run)", "shell", True, remote)
    removes = any(a.startswith(("--del", "--remove-source-files", "--existing")) for a in args)
    if _has(args, "--ignore-existing") and not removes:
        return Judgement(A, f"{shown} (copies only files not there)", "shell", True, remote)
    return Judgement(D, shown, "shell", True, remote)


# Database clients, the dialect of their SQL and the options that carry a statement to run (their manuals).
_SQL_CLIENTS: Mapping[str, tuple[str, frozenset[str]]] = {
    "psql": ("postgres", frozenset({"-c", "--command"})),
    "mysql": ("mysql", frozenset({"-e", "--execute"})),
    "mariadb": ("mysql", frozenset({"-e", "--execute"})),
    "sqlite3": ("sqlite", frozenset({"-cmd"})),
    "duckdb": ("duckdb", frozenset({"-c", "-cmd"})),
    "sqlcmd": ("tsql", frozenset({"-Q", "-q"})),
    "clickhouse-client": ("clickhouse", frozenset({"-q", "--query"})),
    "snowsql": ("snowflake", frozenset({"-q", "--query"})),
}
# Options of those clients that take a value (so the value is not taken for a database or a statement).
_SQL_CLIENT_VALUES = word_set(
    """
    -U -h -p -d -W --username --host --port --dbname -u -P -D --user --password --database -S -d -H -F -v
    --set -o --output -s -w -t -R --separator -nullvalue -separator -newline
    """
)
# sqlite3's and duckdb's own dot-commands that only show something.
_READ_DOT_COMMANDS = word_set(
    """
    .tables .schema .indexes .indices .databases .dump .show .help .mode .headers .header .width .timer
    .fullschema .dbinfo .stats
    """
)


# The switches (options without a value) a client lets stand clustered before its statement option, and that
# option's letter: `psql -Atc 'SELECT 1'`, `mysql -NBe 'SHOW TABLES'`.
_SWITCHES: Mapping[str, tuple[str, str]] = {
    "psql": ("AabeEHlnqsStxXwW10z", "c"),
    "mysql": ("BNrsEvtqXHnf", "e"),
    "mariadb": ("BNrsEvtqXHnf", "e"),
}
# psql's backslash commands that only show something (its manual): the \d family (describe, list), \l,
# \z (privileges), \sf and \sv (a function's or view's source), \conninfo, help.
_PSQL_READ_META = compiled(r"\\(?:d[A-Za-z]*|l|list|z|sf|sv|conninfo|copyright|\?|h|help|encoding)\+?S?\+?")


_SQL_CLIENT_OUTPUT: Mapping[str, frozenset[str]] = {
    # Options that send a client's output or a log of it to a file.
    "psql": frozenset({"-o", "--output", "-L", "--log-file"}),
    "mysql": frozenset({"--tee"}),
    "mariadb": frozenset({"--tee"}),
    "sqlcmd": frozenset({"-o"}),
}


def _sql_client(program: str, args: list[str], shown: str) -> Judgement:
    """A database client judged by the statements it is given to run (`psql -c`, `mysql -e`, `sqlite3 DB
    SQL`), in its dialect; run with none it reads them from a file or its input, unseen: destructive."""
    from hintgate.hints.calls.sql import judge_sql

    dialect, options = _SQL_CLIENTS[program]
    rule = f"argv.{program}"
    texts: list[str] = []
    positional: list[str] = []
    at = 0
    writes = _SQL_CLIENT_OUTPUT.get(program, frozenset())
    while at < len(args):
        arg = args[at]
        flag, equals, value = arg.partition("=")
        glued = len(flag) > 2 and flag[:2] in writes and not flag.startswith("--")
        if flag in writes or glued:
            target = value if equals else arg[2:] if glued else args[at + 1] if at + 1 < len(args) else ""
            if target not in {"/dev/null", "/dev/stdout", "/dev/stderr"}:
                return Judgement(D, f"{shown} (writes what it prints to a file)", rule)
            at += 2 if flag in writes and not equals else 1
            continue
        if flag in options:
            if equals:
                texts.append(value)
            elif at + 1 < len(args):
                texts.append(args[at + 1])
                at += 1
        elif arg.startswith("-") and (arg in _SQL_CLIENT_VALUES or arg in {"-f", "--file", "-i", "--init"}):
            if arg in {"-f", "--file", "-i", "--init"}:
                return Judgement(D, f"{shown} (runs the statements of a file)", rule)
            at += 1
        elif program in {"psql", "mysql", "mariadb", "sqlcmd"} and re.fullmatch(r"-[ceQq].+", arg):
            texts.append(arg[2:])  # `-c'SELECT 1'` glued to its option
        elif program in _SWITCHES and re.fullmatch(rf"-[{_SWITCHES[program][0]}]+{_SWITCHES[program][1]}", arg):
            if at + 1 < len(args):  # `psql -Atc 'SELECT 1'`: switches clustered before the statement's option
                texts.append(args[at + 1])
                at += 1
        elif not arg.startswith("-"):
            positional.append(arg)
        at += 1
    if program in {"sqlite3", "duckdb"}:
        texts.extend(positional[1:])  # `sqlite3 app.db "SELECT ..."`: what follows the database file runs
    if not texts:
        if _has(args, "--version", "-V", "--help", "-l", "--list"):
            return Judgement(R, shown, rule, True)
        return Judgement(D, f"{shown} (runs statements it reads from its input)", rule)
    parts = []
    for text in texts:
        if text.lstrip().startswith("\\") and program == "psql":
            # Every backslash command on the line only shows something (`\\dt+ public.*`, `\\x \\dn`).
            read = all(_PSQL_READ_META.fullmatch(w) for w in text.split() if w.startswith("\\"))
            parts.append(Judgement(R if read else D, text, rule, True if read else None))
        elif text.lstrip().startswith(".") and program in {"sqlite3", "duckdb"}:
            command = text.split()[0].lower()
            parts.append(Judgement(R if command in _READ_DOT_COMMANDS else D, text, rule, True))
        else:
            judged = judge_sql(text, dialect)
            parts.append(Judgement(judged.act, judged.what, rule, judged.idempotent, judged.open_world))
    whole = riskiest(parts)
    return Judgement(whole.act, f"{program}: {whole.what}", rule, whole.idempotent, whole.open_world)


def _network_setting(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """ifconfig, route, arp, iw, iwconfig, nmcli show what is set when asked nothing more; a verb that sets,
    adds, removes or switches (`route add`, `arp -d`, `nmcli con down`), or a value given to an interface
    (`ifconfig eth0 10.0.0.2`), changes the host's network."""
    words = _positional(args)
    verbs = {"add", "del", "delete", "change", "replace", "flush", "set", "up", "down", "on", "off", "modify"}
    verbs |= {"connect", "disconnect", "reload", "edit", "import", "reapply", "append", "prepend", "mode"}
    program = program_of(shown.split(maxsplit=1)[0])
    arp_sets = program == "arp" and _has(args, "-d", "-s", "-f", "--delete", "--set", "--file")
    if arp_sets or any(w.lower() in verbs for w in words):
        return Judgement(D, f"{shown} (changes the network's settings)", "shell")
    if program in {"ifconfig", "iwconfig"} and len(words) > 1:
        return Judgement(D, f"{shown} (changes the network's settings)", "shell")
    return Judgement(R, shown, "shell", True)


def _openssl(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """openssl prints what it makes unless told where to write it (`-out`, `-keyout`: replaced)."""
    if any(a in {"-out", "-keyout"} or a.startswith(("-out=", "-keyout=")) for a in args):
        return Judgement(D, f"{shown} (writes files)", "shell", True)
    return Judgement(R, shown, "shell", True, True if "s_client" in args else None)


def _httpie(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """HTTPie (`http`, `https`, `xh`): `[METHOD] URL [ITEM...]`; without a method a request with data items
    (`name=value`, `name:=json`, `field@file`) is a POST, else a GET; `--offline` only prints the request."""
    words = _positional(args)
    method = words[0].upper() if words and words[0].upper() in _METHOD_ACTS else None
    items = words[2:] if method else words[1:]
    if method is None:
        data = any(re.match(r"^[^=:@]+(?:=(?!=)|:=|@|=@)", i) for i in items)
        method = "POST" if data or _has(args, "-f", "--form", "--raw") else "GET"
    if _has(args, "--offline"):
        return Judgement(R, f"{shown} (prints the request only)", "shell", True)
    act = _METHOD_ACTS.get(method, D)
    if act is R and _has(args, "-o", "--output"):
        return Judgement(D, f"{shown} (saves what it fetches to a file)", "shell", True, True)
    if act is R and _has(args, "-d", "--download"):
        return Judgement(A, f"{shown} (saves what it fetches to a new file)", "shell", None, True)
    return Judgement(act, shown, "shell", act is R or method in {"PUT", "DELETE"}, True)


def _source(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """`source FILE` / `. FILE` runs the file's commands in this shell: unseen."""
    if _positional(args):
        return Judgement(D, f"{shown} (runs a script hintgate cannot read)", "shell")
    return Judgement(R, shown, "shell", True)


# Options of `set` that change only this shell session: bash's and POSIX sh's (`set -eux`, `set -o vi`) and
# fish's scopes and modes (`set -gx`, `set -l`, `set -e`, `set --path`).
_SESSION_SET_LETTERS = frozenset("abefhkmnoptuvxBCEHPT" + "pqnSlfgxuL")
_SESSION_SET_LONG = frozenset(
    {"--append", "--prepend", "--erase", "--query", "--names", "--show", "--local", "--function", "--global"}
    | {"--export", "--unexport", "--path", "--unpath", "--long", "--help"}
)


def _set(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """`set` changes this shell session's options and variables, which end with it; an option neither bash
    nor fish gives a session scope (fish's -U/--universal keeps the variable on disk for every later
    session) is not judged a read."""
    for arg in args:
        if arg in {"--", "-", "+"} or not arg.startswith(("-", "+")):
            break
        if arg.startswith("--") and arg.split("=", 1)[0] not in _SESSION_SET_LONG:
            return Judgement(D, f"{shown} (a setting kept beyond this session)", "shell")
        if not arg.startswith("--") and not set(arg[1:]) <= _SESSION_SET_LETTERS:
            return Judgement(D, f"{shown} (a setting kept beyond this session)", "shell")
    return Judgement(R, shown, "shell", True)


def _ffmpeg(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """ffmpeg writes its outputs: `-y` overwrites any that exist; `-n`, or no answer to its question (a call
    has no terminal), leaves them, so it only adds; an output to the `null` muxer only decodes (a check)."""
    if _has(args, "-y"):
        return Judgement(D, f"{shown} (-y overwrites its output)", "shell")
    if _ffmpeg_no_output(args):
        return Judgement(R, f"{shown} (no output file: prints what it reads)", "shell", True)
    formats = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-f"]
    if args and formats and formats[-1] == "null" and args[-1] in _NOWHERE | {"NUL"}:
        return Judgement(R, f"{shown} (decodes to nowhere)", "shell", True)
    return Judgement(A, f"{shown} (writes its output where none is)", "shell", True)


# ffmpeg's options that print and exit (`-version`, `-codecs`), that only quiet its log, and that take a value
# but name no output (an input, the log level, the next input's format).
_FFMPEG_INFO = word_set(
    """
    -version -buildconf -formats -demuxers -muxers -devices -codecs -decoders -encoders -bsfs -protocols -filters
    -pix_fmts -layouts -sample_fmts -colors -hwaccels -h -help --help -L
    """
)
_FFMPEG_QUIET = word_set("-hide_banner -nostdin -nostats -stats")
_FFMPEG_VALUED = word_set("-i -loglevel -v -f")


def _ffmpeg_no_output(args: list[str]) -> bool:
    """Whether an ffmpeg line names no output file: only inputs and options of its log (`-hide_banner -i in.mp4`:
    ffmpeg prints the input's streams and stops, "At least one output file must be specified"), or an option
    that prints and exits. Any word not known here may be an output: not this case."""
    at = 0
    known = False
    while at < len(args):
        arg = args[at]
        if arg in _FFMPEG_INFO:
            known = True
            at += 1
        elif arg in _FFMPEG_QUIET:
            at += 1
        elif arg in _FFMPEG_VALUED and at + 1 < len(args):
            known = known or arg == "-i"
            at += 2
        else:
            return False
    return known


def _magick(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """ImageMagick's `identify` and `-version`/`-list` read; `mogrify` rewrites its files in place and any
    other command writes its last file, replacing one that is there."""
    tool = args[0].lower() if args else ""
    if tool == "identify" or (args and all(a.startswith("-") for a in args[:1]) and args[0] in {"-version", "-list"}):
        return Judgement(R, shown, "shell", True)
    return Judgement(D, shown, "shell", None)


def _journalctl(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """journalctl reads the journal; its maintenance options delete or rotate journal files."""
    writes = ("--vacuum-size", "--vacuum-time", "--vacuum-files", "--rotate", "--flush", "--relinquish-var")
    if _has(args, *writes, "--smart-relinquish-var", "--sync", "--setup-keys", "--update-catalog"):
        return Judgement(D, f"{shown} (rotates or deletes journal files)", "shell")
    return Judgement(R, shown, "shell", True)


def _dmesg(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """dmesg reads the kernel ring buffer; -c/-C clear it and -n/-D/-E set the console's level."""
    if _has(args, "-c", "-C", "--clear", "--read-clear", "-n", "--console-level", "-D", "-E"):
        return Judgement(D, f"{shown} (clears the buffer or sets the console)", "shell")
    return Judgement(R, shown, "shell", True)


def _history(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """history lists; -c and -d delete entries, -w and -a write the history file."""
    if _has(args, "-c", "-d", "-w", "-a"):
        return Judgement(D, shown, "shell")
    return Judgement(R, shown, "shell", True)


def _kill(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """kill -0 only checks that a process exists and -l lists the signals; any other kill sends one."""
    if args[:1] in (["-0"], ["-l"], ["-L"], ["--list"]) or "-0" in args:
        return Judgement(R, shown, "shell", True)
    return Judgement(D, shown, "shell")


def _make(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """make runs its recipes, unseen; -n/--dry-run only prints them and -q only asks whether they are due."""
    if _has(args, "-n", "--dry-run", "--just-print", "--recon", "-q", "--question", "--version", "--help"):
        return Judgement(R, f"{shown} (a dry run)", "shell", True)
    return Judgement(D, f"{shown} (runs recipes hintgate cannot read)", "shell")


def _ansible(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """ansible and ansible-playbook change their hosts; check mode (--check/-C) and the listing and syntax
    options only report (open world: remote hosts). An ad-hoc task of a module documented to only report
    (`-m ping`, `setup`, `stat`) reads; of `command`/`shell`/`raw` (the default is `command`), it does what
    the command it runs on each host does."""
    if _has(args, "--check", "-C", "--syntax-check", "--list-tasks", "--list-hosts", "--list-tags"):
        return Judgement(R, f"{shown} (check mode)", "shell", True, True)
    if shown.startswith("ansible ") and not _has(args, "-B", "--background"):
        # An ad-hoc task: one module (`-m`, `command` when none is named) with its arguments (`-a`).
        module = _option_value(args, "-m", "--module-name") or "command"
        module = module.removeprefix("ansible.builtin.").removeprefix("ansible.legacy.")
        if module in _ANSIBLE_READ_MODULES:
            return Judgement(R, f"{shown} (the {module} module only reports)", "shell", True, True)
        task = _option_value(args, "-a", "--args")
        if module in {"command", "shell", "raw"} and task and _shell is not None:
            judged = _shell(task)  # the command it runs on each host
            return Judgement(judged.act, f"{shown} (runs {shorten(task, 30)})", "shell", judged.idempotent, True)
    return Judgement(D, f"{shown} (runs tasks hintgate cannot read)", "shell", None, True)


# Modules whose documentation says they only report (connectivity, facts, a file's status, a debug message).
_ANSIBLE_READ_MODULES = frozenset(
    {"ping", "setup", "gather_facts", "stat", "debug", "service_facts", "package_facts", "slurp", "find"}
    | {"getent", "mount_facts", "assert", "fail", "wait_for_connection"}
)


def _dump(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """pg_dump and mysqldump read a database and print it; told to write a file (-f, --result-file) they
    replace it."""
    if _has(args, "-f", "--file", "-r", "--result-file") or any(a.startswith("--file=") for a in args):
        return Judgement(D, f"{shown} (writes the dump to a file)", "shell", True)
    return Judgement(R, shown, "shell", True)


def _dd(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """dd copies its input (`if=`) to its output: standard output unless `of=` names a file, which it
    overwrites (a device, a disk image)."""
    for arg in args:
        name, equals, value = arg.partition("=")
        if equals and name == "of" and value not in _NOWHERE:
            return Judgement(D, f"{shown} (writes {shorten(value, 30)})", "shell")
    return Judgement(R, shown, "shell", True)


# redis-cli's options that take a value (connection, output, the pattern of a scan).
_REDIS_CLI_VALUED = frozenset(
    {
        "-h",
        "-p",
        "-s",
        "-a",
        "-u",
        "-n",
        "-r",
        "-i",
        "-d",
        "--user",
        "--pass",
        "--pattern",
        "--count",
        "--quoted-pattern",
    }
    | {"--cacert", "--cacertdir", "--cert", "--key", "--sni", "--tls-ciphers", "--tls-ciphersuites"}
)
# Modes that only read what the server holds or how it performs.
_REDIS_CLI_READS = frozenset(
    {"--scan", "--bigkeys", "--memkeys", "--hotkeys", "--keystats", "--stat", "--latency", "--latency-history"}
    | {"--latency-dist", "--intrinsic-latency", "--help", "--version"}
)


def _redis_cli(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """redis-cli runs the Redis command its arguments end with (judged as Redis documents it), or a mode:
    a scan, key statistics and latency read; anything else (`--pipe`, `--eval` of a script, `--rdb` to a
    file, `--cluster` fixes, an interactive session) is destructive."""
    from hintgate.hints.calls.redis_commands import judge_redis

    words: list[str] = []
    modes: list[str] = []
    at = 0
    while at < len(args):
        arg = args[at]
        if arg in _REDIS_CLI_VALUED:
            at += 2
            continue
        if arg.startswith("-") and not words:
            modes.append(arg.split("=", 1)[0])
        else:
            words.append(arg)
        at += 1
    unknown = [m for m in modes if m not in _REDIS_CLI_READS and m not in _REDIS_CLI_FLAGS]
    if unknown:
        return Judgement(D, f"{shown} ({unknown[0]})", "shell")
    if any(m in _REDIS_CLI_READS for m in modes) and not words:
        return Judgement(R, shown, "shell", True)
    if not words:
        return Judgement(D, f"{shown} (an interactive session)", "shell")
    judged = judge_redis(" ".join(_redis_word(w) for w in words))
    return Judgement(judged.act, shown, "redis", judged.idempotent)


# Flags that change only how redis-cli connects or prints.
_REDIS_CLI_FLAGS = frozenset({"-c", "--tls", "--raw", "--no-raw", "--csv", "--json", "--quoted-json", "-2", "-3"})


def _redis_word(word: str) -> str:
    """A word quoted back for `judge_redis`, which splits its line as a shell would."""
    import shlex

    return shlex.quote(word)


_FIREWALL_LISTING = frozenset("LSC")  # list, list as rules, check that a rule exists
_FIREWALL_CHANGES = frozenset("AIDRFXPNZE")


def _iptables(args: list[str], shown: str, _shell: ShellText | None, _depth: int) -> Judgement:
    """iptables lists (`-L`, `-S`) and checks (`-C`) without changing rules; every other command (append,
    insert, delete, flush, policy, zero the counters...) changes the firewall."""
    letters: set[str] = set()
    for arg in args:
        if arg.startswith("--"):
            long = {"--list": "L", "--list-rules": "S", "--check": "C", "--zero": "Z", "--flush": "F"}
            letters.add(long.get(arg.split("=", 1)[0], "A" if arg in {"--append", "--insert", "--delete"} else ""))
        elif arg.startswith("-") and len(arg) > 1:
            letters.update(arg[1:])
    if letters & _FIREWALL_LISTING and not letters & _FIREWALL_CHANGES:
        return Judgement(R, shown, "shell", True)
    return Judgement(D, shown, "shell")


_SPECIAL: Mapping[str, Callable[[list[str], str, ShellText | None, int], Judgement]] = {
    "rsync": _rsync,
    "ffmpeg": _ffmpeg,
    "magick": _magick,
    "dd": _dd,
    "redis-cli": _redis_cli,
    "valkey-cli": _redis_cli,
    **dict.fromkeys(("iptables", "ip6tables"), _iptables),
    **dict.fromkeys(("ifconfig", "route", "arp", "iw", "iwconfig", "nmcli"), _network_setting),
    "openssl": _openssl,
    **dict.fromkeys(("http", "https", "xh", "xhs", "httpie"), _httpie),
    **dict.fromkeys(("source", "."), _source),
    "journalctl": _journalctl,
    "dmesg": _dmesg,
    "history": _history,
    "set": _set,
    "kill": _kill,
    **dict.fromkeys(("make", "gmake"), _make),
    **dict.fromkeys(("ansible", "ansible-playbook"), _ansible),
    **dict.fromkeys(("pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump"), _dump),
    "xxd": _output_operand,
    "cp": _cp,
    "tar": _archive,
    "gzip": _compressor,
    "gunzip": _compressor,
    "bzip2": _compressor,
    "xz": _compressor,
    "unxz": _compressor,
    "unzip": _compressor,
    "7z": _compressor,
    "zstd": _compressor,
    "ssh": _ssh,
    "sed": _sed,
    "gsed": _sed,
    "sort": _sort,
    "uniq": _output_operand,
    "awk": _awk,
    "gawk": _awk,
    "mawk": _awk,
    "nawk": _awk,
    "tee": _tee,
    "find": _find,
    "xargs": _xargs,
    "curl": _curl,
    "wget": _wget,
    "ip": _ip,
    "hostname": _hostname,
    "date": _date,
    "sysctl": _sysctl,
    "crontab": _crontab,
    "jq": _jq,
    "yq": _jq,
}


# ---------------------------------------------------------------- programs with subcommands


def _by_verb(word: str, shown: str, rule: str, *, open_world: bool | None = None) -> Judgement:
    """A subcommand judged by what its word means (`list` reads, `add` adds, `remove` removes); a word that is
    no verb hintgate knows runs something it cannot name: destructive."""
    found = verb_act(word) if word else None
    if found is None:
        return Judgement(D, shown, rule, None, open_world)
    act, idempotent, _open = found
    return Judgement(act, shown, rule, idempotent, open_world)


_GIT_GLOBAL = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"})
_GIT_READ = word_set(
    """
    status log show diff blame annotate ls-files ls-tree rev-parse rev-list describe shortlog grep cat-file
    reflog whatchanged name-rev merge-base for-each-ref show-ref show-branch count-objects fsck
    verify-commit verify-tag check-ignore check-attr cherry range-diff difftool help version var archive
    format-patch bugreport
    """
)
_GIT_ADDITIVE = word_set(
    """
    add commit init stage notes bundle
    """
)
_GIT_REMOTE_READ = frozenset({"ls-remote"})


# `git -c KEY=VALUE` keys that only change how output looks or who commits: no program is named by them.
_GIT_DATA_KEYS = ("color.", "user.", "i18n.", "log.", "column.", "advice.", "core.quotepath", "safe.directory")
_DIFF_OUTPUT = ("--output",)
_GIT_READ_WRITES: Mapping[str, tuple[str, ...]] = {
    # Options of reading subcommands that write a file or start a program.
    **dict.fromkeys(("diff", "log", "show", "whatchanged", "range-diff", "shortlog"), _DIFF_OUTPUT),
    "archive": ("-o", "--output"),
    "grep": ("-O", "--open-files-in-pager"),
    "difftool": ("-x", "--extcmd"),
    "fsck": ("--lost-found",),
}


def _git_pager_reads(setting: str) -> bool:
    """`core.pager=cat`, `pager.log=false`: a pager that is off or a program that only reads."""
    key, _equals, value = setting.partition("=")
    key = key.lower()
    if key != "core.pager" and not key.startswith("pager."):
        return False
    return value.lower() in {"false", "true", "no", "yes", "off", "on", "0", "1"} or not runs_code_from("PAGER", value)


def _git_runs_config(args: Sequence[str]) -> str | None:
    """A global option before the subcommand that may name a program git runs (`-c core.pager=...`,
    `--exec-path=DIR`, `--config-env`), if any: what the command then runs is not in its text."""
    at = 0
    while at < len(args) and args[at].startswith("-"):
        arg = args[at]
        value = args[at + 1] if at + 1 < len(args) else ""
        if arg == "-c" and not value.lower().startswith(_GIT_DATA_KEYS) and not _git_pager_reads(value):
            return value
        if arg.startswith("--config-env") or arg.startswith("--exec-path="):
            return arg
        at += 2 if arg in _GIT_GLOBAL and "=" not in arg else 1
    return None


def _git(_program: str, args: list[str], shown: str) -> Judgement:
    sub, rest = _subcommand(args, _GIT_GLOBAL)
    rule = "argv.git"
    setting = _git_runs_config(args)
    if setting is not None:
        return Judgement(D, f"{shown} (sets {shorten(setting, 40)}: what git runs is not in the text)", rule)
    if not sub:
        return Judgement(R, shown, rule, True)
    if sub == "reflog" and _subcommand(rest)[0] in {"expire", "delete"}:
        return Judgement(D, f"{shown} (drops reflog entries)", rule)
    if sub == "format-patch" and not _has(rest, "--stdout"):
        return Judgement(D, f"{shown} (writes patch files)", rule)
    if _has(rest, *_GIT_READ_WRITES.get(sub, ())) or any(a.startswith("-O") for a in rest if sub == "grep"):
        return Judgement(D, f"{shown} (writes a file or starts a program)", rule)
    if sub == "bugreport":
        return Judgement(A, f"{shown} (writes a report file)", rule)
    if sub in _GIT_READ:
        return Judgement(R, shown, rule, True)
    if sub in _GIT_REMOTE_READ:
        return Judgement(R, shown, rule, True, True)
    if sub == "commit":
        return Judgement(D if _has(rest, "--amend") else A, shown, rule)
    if sub in _GIT_ADDITIVE:
        return Judgement(A, shown, rule)
    if sub == "branch":
        if _has(rest, "-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "-f", "--force", "--set-upstream-to"):
            return Judgement(D, shown, rule)
        if _has(rest, "-u", "--unset-upstream", "--edit-description"):
            return Judgement(D, shown, rule)
        listing = _has(rest, "-l", "--list", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--contains", "--merged")
        names = _positional(rest)
        return Judgement(R if listing or not names else A, shown, rule, True if not names else None)
    if sub == "tag":
        if _has(rest, "-d", "--delete", "-f", "--force"):
            return Judgement(D, shown, rule)
        listing = _has(rest, "-l", "--list", "-n", "--contains", "--points-at", "-v", "--verify")
        return Judgement(R if listing or not _positional(rest) else A, shown, rule)
    if sub == "remote":
        what, _more = _subcommand(rest)
        if what in {"", "show", "get-url"} or (_has(rest, "-v", "--verbose") and not what):
            return Judgement(R, shown, rule, True)
        return Judgement(A if what == "add" else D, shown, rule)
    if sub == "stash":
        what, _more = _subcommand(rest)
        if what in {"list", "show"}:
            return Judgement(R, shown, rule, True)
        return Judgement(D if what in {"drop", "clear", "pop", "apply"} else A, shown, rule)
    if sub == "config":
        if _has(rest, "--get", "--get-all", "--get-regexp", "-l", "--list", "--show-origin", "--get-urlmatch"):
            return Judgement(R, shown, rule, True)
        if len(_positional(rest)) == 1 and not _has(rest, "--unset", "--unset-all", "--add", "--replace-all"):
            return Judgement(R, shown, rule, True)  # git config KEY reads it
        return Judgement(D, shown, rule)
    if sub == "push":
        destructive = _has(rest, "-f", "--force", "--force-with-lease", "--force-if-includes", "-d", "--delete")
        destructive = (
            destructive
            or _has(rest, "--mirror", "--prune")
            or any(p.startswith(":") or p.startswith("+") for p in _positional(rest))
        )
        if _has(rest, "-n", "--dry-run"):
            return Judgement(R, shown, rule, True, True)
        return Judgement(D if destructive else A, shown, rule, None, True)
    if sub in {"fetch", "clone"}:
        if _has(rest, "--dry-run"):
            return Judgement(R, shown, rule, True, True)
        return Judgement(
            D if _has(rest, "--prune", "-p", "--force", "-f") and sub == "fetch" else A, shown, rule, None, True
        )
    if sub == "clean":
        if _has(rest, "-n", "--dry-run"):
            return Judgement(R, shown, rule, True)
        return Judgement(D, shown, rule)
    if sub in {"checkout", "switch"}:
        if _has(rest, "-b", "-c", "--orphan") and not _has(rest, "-B", "-C", "-f", "--force", "--discard-changes"):
            return Judgement(A, shown, rule)
        return Judgement(D, shown, rule)
    if sub in {"revert", "cherry-pick", "merge"}:
        if _has(rest, "--abort", "--quit"):
            return Judgement(D, shown, rule)
        return Judgement(A if sub != "merge" else D, shown, rule)
    if sub == "worktree":
        what, _more = _subcommand(rest)
        if what == "list":
            return Judgement(R, shown, rule, True)
        return Judgement(A if what == "add" else D, shown, rule)
    if sub == "submodule":
        what, _more = _subcommand(rest)
        return Judgement(R if what in {"", "status", "summary", "foreach"} and what != "foreach" else D, shown, rule)
    if sub == "bisect":
        what, _more = _subcommand(rest)
        return Judgement(R if what in {"log", "visualize", "view"} else D, shown, rule)
    if sub == "apply" and _has(rest, "--check", "--stat", "--numstat", "--summary"):
        return Judgement(R, shown, rule, True)  # reports on the patch, applies nothing
    # pull, reset, rebase, restore, rm, mv, gc, prune, apply, am, filter-branch, update-ref, replace...
    return Judgement(D, shown, rule, None, True if sub == "pull" else None)


_KUBE_GLOBAL = frozenset(
    {"-n", "--namespace", "--context", "--cluster", "--user", "--kubeconfig", "-s", "--server", "--token", "-l"}
)
_KUBE_READ = word_set(
    """
    get describe logs log top explain api-resources api-versions version cluster-info diff events wait
    completion help plugin kustomize
    """
)
_KUBE_ADDITIVE = word_set(
    """
    create expose run autoscale port-forward proxy
    """
)


def _kubectl(program: str, args: list[str], shown: str) -> Judgement:
    rule = f"argv.{program}"
    sub, rest = _subcommand(args, _KUBE_GLOBAL)
    if _dry_run(rest) or _dry_run(args):
        return Judgement(R, f"{shown} (a dry run)", rule, True, True)
    if not sub or sub in _KUBE_READ:
        return Judgement(R, shown, rule, True, True)
    if sub == "config":
        what, _more = _subcommand(rest)
        read = what in {"view", "get-contexts", "current-context", "get-clusters", "get-users", ""}
        return Judgement(R if read else D, shown, rule, True if read else None)
    if sub == "auth":
        what, _more = _subcommand(rest)
        return Judgement(R if what in {"can-i", "whoami"} else D, shown, rule, None, True)
    if sub == "rollout":
        what, _more = _subcommand(rest)
        read = what in {"status", "history"}
        return Judgement(R if read else D, shown, rule, True if read else None, True)
    if sub == "exec" and "--" in rest:
        inner = judge_argv(rest[rest.index("--") + 1 :])
        return Judgement(inner.act, f"{shown} (runs {inner.what} in the container)", rule, inner.idempotent)
    if sub in {"label", "annotate"} and not _has(rest, "--overwrite") and not any(p.endswith("-") for p in rest):
        return Judgement(A, shown, rule, None, True)
    if sub == "create" and _subcommand(rest, _KUBE_GLOBAL)[0] == "job":
        # A Job runs its pods at once (`--from=cronjob/x`: the CronJob's command, not in the call).
        return Judgement(D, f"{shown} (runs a job now)", rule, None, True)
    if sub in _KUBE_ADDITIVE:
        return Judgement(A, shown, rule, None, True)
    # apply, delete, scale, patch, replace, edit, set, drain, cordon, uncordon, taint, exec, cp, attach...
    return Judgement(D, shown, rule, None, True)


def _dry_run(args: Sequence[str]) -> bool:
    for arg in args:
        if arg in {"--dry-run", "--dry-run=client", "--dry-run=server", "--dryrun", "-n=true"}:
            return True
        if arg.startswith("--dry-run=") and arg.split("=", 1)[1].lower() not in {"none", "false"}:
            return True
    return False


_DOCKER_GLOBAL = frozenset({"-H", "--host", "--context", "-c", "--config", "-l", "--log-level"})
_DOCKER_READ = word_set(
    """
    ps images inspect logs version info stats top history diff events port search help ls
    """
)
_DOCKER_ADDITIVE = word_set(
    """
    pull build create tag commit login save import load start
    """
)
"""Docker commands that add (starting a stopped container loses nothing, like `docker compose start`)."""
# `docker run` options that take no value (the others take one: `-p 8080:80`, `--name web`).
_RUN_SWITCHES = word_set(
    """
    -d --detach --rm -i --interactive -t --tty -it -ti -itd -dit -P --publish-all --privileged --init
    --read-only --no-healthcheck --oom-kill-disable -q --quiet --sig-proxy
    """
)
# Options that give a container the host's files, devices, processes or powers.
_HOST_REACH = frozenset({"-v", "--volume", "--mount", "--device", "--cap-add", "--pid", "--ipc", "--userns"})


def _container_run(args: list[str], shown: str, rule: str) -> Judgement:
    """`docker run IMAGE [COMMAND]`: a new container (additive, open world: the image may be pulled). A command
    given is judged as what runs inside; the image's own program runs unseen, which matters only when the
    container reaches the host (a bind mount, a device, `--privileged`): then it is destructive."""
    host = False
    at = 0
    while at < len(args) and args[at].startswith("-"):
        flag, equals, value = args[at].partition("=")
        # A switch, `--opt=value`, or a cluster of one-letter switches (-dit) stands alone.
        takes = flag not in _RUN_SWITCHES and not equals and not re.fullmatch(r"-[a-zA-Z]{2,}", flag)
        if takes and at + 1 < len(args):
            value = args[at + 1]
        if flag == "--privileged" or (flag in _HOST_REACH and _reaches_host(flag, value)):
            host = True
        at += 2 if takes else 1
    command = args[at + 1 :]
    if command:
        inner = judge_argv(command)
        act = max(inner.act, A)
        return Judgement(act, f"{shown} (runs {inner.what} in a new container)", rule, False, True)
    if host:
        return Judgement(D, f"{shown} (its program reaches the host)", rule, None, True)
    return Judgement(A, f"{shown} (a new container)", rule, False, True)


def _reaches_host(flag: str, value: str) -> bool:
    if flag in {"-v", "--volume"}:
        source = value.split(":", 1)[0] if ":" in value else ""
        return source.startswith(("/", ".", "~", "$"))  # a bind mount; a named volume is the container's own
    if flag == "--mount":
        return "type=bind" in value
    if flag in {"--pid", "--ipc", "--userns"}:
        return value == "host"
    return True


_DOCKER_GROUPS = frozenset(
    {
        "container",
        "image",
        "volume",
        "network",
        "system",
        "builder",
        "buildx",
        "context",
        "node",
        "service",
        "stack",
        "secret",
        "config",
        "plugin",
        "swarm",
        "manifest",
        "trust",
    }
)


def _docker(program: str, args: list[str], shown: str) -> Judgement:
    rule = f"argv.{program}"
    sub, rest = _subcommand(args, _DOCKER_GLOBAL)
    if sub == "compose" or program in {"docker-compose"}:
        what, _more = _subcommand(rest if sub == "compose" else args, frozenset({"-f", "--file", "-p"}))
        if what in {"ps", "logs", "config", "images", "top", "ls", "version", "port", "events"}:
            return Judgement(R, shown, rule, True)
        return Judgement(A if what in {"up", "create", "build", "pull", "start"} else D, shown, rule)
    if sub in _DOCKER_GROUPS:
        what, _more = _subcommand(rest)
        if what in {"ls", "list", "inspect", "df", "info", "history", "logs", "ps", "top", "events", "port", "stats"}:
            return Judgement(R, shown, rule, True)
        if what in {
            "create",
            "pull",
            "build",
            "tag",
            "push",
            "connect",
            "save",
            "import",
            "load",
            "use",
            "init",
            "start",
        }:
            return Judgement(A, shown, rule, None, what in {"pull", "push"} or None)
        return Judgement(D, shown, rule)
    if sub == "exec":
        words = list(rest)
        while words and words[0].startswith("-"):
            flag = words.pop(0)
            if flag in {"-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file"} and words:
                words.pop(0)
        if len(words) >= 2:
            inner = judge_argv(words[1:])
            return Judgement(inner.act, f"{shown} (runs {inner.what} in the container)", rule, inner.idempotent)
    if sub == "run" or (sub == "container" and _subcommand(rest)[0] == "run"):
        return _container_run(rest if sub == "run" else _subcommand(rest)[1], shown, rule)
    if sub == "push" or (sub == "image" and _subcommand(rest)[0] == "push"):
        # A tag pushed replaces what the tag named in the registry.
        return Judgement(D, f"{shown} (replaces the tag in the registry)", rule, True, True)
    if sub in _DOCKER_READ or not sub:
        return Judgement(R, shown, rule, True, True if sub == "search" else None)
    if sub in _DOCKER_ADDITIVE:
        return Judgement(A, shown, rule, None, True if sub in {"pull", "push", "login"} else None)
    # rm, rmi, kill, stop, restart, prune, cp, update, rename, pause...
    return Judgement(D, shown, rule)


_PKG_READ = word_set(
    """
    ls list ll la view info show outdated search whoami help version explain fund doctor ping why query
    freeze check config-get get prefix root bin owner dist-tag docs repo bugs tree metadata
    """
)
_PKG_ADDITIVE = word_set(
    """
    install i add link init create publish pack download wheel
    """
)


_PKG_GROUPS = word_set("owner author dist-tag dist-tags access team org token profile hook")


def _package_manager(program: str, args: list[str], shown: str) -> Judgement:
    rule = f"argv.{program}"
    sub, rest = _subcommand(args, frozenset({"--prefix", "-C", "--cwd", "-w", "--workspace"}))
    if _dry_run(rest) or _has(rest, "--dry-run", "--simulate"):
        return Judgement(R, f"{shown} (a dry run)", rule, True)
    if sub == "audit":
        fix = _positional(rest)[:1] == ["fix"]
        return Judgement(D if fix else R, shown, rule, None if fix else True, True)
    if program == "uv" and sub == "pip":
        return judge_argv(["pip", *rest])  # `uv pip install x` is pip's command line
    if program == "yarn" and sub == "npm":
        return judge_argv(["npm", *rest])  # Yarn's `yarn npm audit|info|publish`: the npm registry's commands
    if program == "go" and (sub in {"vet", "doc", "list"} or (sub == "env" and not _has(rest, "-w", "-u"))):
        # `go help`: vet reports suspicious constructs, doc shows documentation, list lists packages, env
        # prints the environment unless `-w`/`-u` writes the defaults.
        return Judgement(R, shown, rule, True)
    if sub == "version" and _positional(rest) and program in {"npm", "pnpm", "yarn"}:
        return Judgement(D, f"{shown} (bumps the package's version)", rule, False)  # `npm version patch`
    if sub in {"install", "i", "add"} and _has(rest, "-U", "--upgrade", "--force-reinstall", "--latest"):
        return Judgement(D, f"{shown} (replaces installed versions)", rule, True, True)
    if program in {"pip", "pip3"} and sub == "install" and _has(rest, "-r", "--requirement", "-c", "--constraint"):
        # A requirements file pins versions: pip replaces an installed version that differs.
        return Judgement(D, f"{shown} (installs the versions a file pins)", rule, True, True)
    if sub in _PKG_GROUPS:
        # `npm dist-tag add`, `npm owner rm`: a group of the registry's settings, read only by its listing verbs.
        what, _more = _subcommand(rest)
        return Judgement(R if what in {"", "ls", "list", "get"} else D, shown, rule, None, True)
    if not sub or sub in _PKG_READ:
        return Judgement(R, shown, rule, True, True if sub in {"search", "view", "info", "outdated"} else None)
    if sub == "config":
        what, _more = _subcommand(rest)
        return Judgement(R if what in {"get", "list", "ls", ""} else D, shown, rule)
    if sub == "cache":
        what, _more = _subcommand(rest)
        return Judgement(R if what in {"ls", "list", "verify", "dir", "info"} else D, shown, rule)
    if sub in _PKG_ADDITIVE:
        return Judgement(A, shown, rule, None, True)
    # uninstall, remove, rm, unpublish, prune, dedupe, update, upgrade, run, exec, test, start, purge...
    return Judgement(D, shown, rule)


_SERVICE_READ = word_set(
    """
    status show list-units list-unit-files list-timers list-sockets list-dependencies is-active is-enabled
    is-failed cat help get-default
    """
)


def _systemctl(program: str, args: list[str], shown: str) -> Judgement:
    """Status and listings read; starting or enabling a unit loses nothing (additive: a repeat does nothing
    more); stopping, restarting, reloading, disabling, masking, killing disrupt what runs (destructive)."""
    sub, _rest = _subcommand(args)
    if not sub or sub in _SERVICE_READ:
        return Judgement(R, shown, f"argv.{program}", True)
    if sub in {"start", "enable"}:
        return Judgement(A, shown, f"argv.{program}", True)
    return Judgement(D, shown, f"argv.{program}", None)


# launchctl's subcommands that only show (its manual page): the domain and service printers and listings.
_LAUNCHCTL_READS = word_set(
    """
    list print print-cache print-disabled blame dumpstate dumpjpcategory procinfo hostinfo resolveport version
    help getenv managerpid manageruid managername error plist
    """
)


def _launchctl(program: str, args: list[str], shown: str) -> Judgement:
    """launchctl's printers and listings read; loading or starting a job adds a running one (a repeat does
    nothing more); anything else (`bootout`, `unload`, `kill`, `disable`, `kickstart -k`, which kills the
    running instance first) stops or changes what runs."""
    sub, rest = _subcommand(args)
    if not sub or sub in _LAUNCHCTL_READS:
        return Judgement(R, shown, f"argv.{program}", True)
    if sub in {"bootstrap", "load", "enable", "start"} or (sub == "kickstart" and not _has(rest, "-k")):
        return Judgement(A, shown, f"argv.{program}", True)
    return Judgement(D, shown, f"argv.{program}", None)


def _helm(program: str, args: list[str], shown: str) -> Judgement:
    rule = f"argv.{program}"
    sub, rest = _subcommand(args, frozenset({"-n", "--namespace", "--kube-context", "--kubeconfig"}))
    if _dry_run(rest):
        return Judgement(R, f"{shown} (a dry run)", rule, True, True)
    if sub in {
        "",
        "list",
        "ls",
        "status",
        "get",
        "history",
        "show",
        "search",
        "template",
        "lint",
        "version",
        "env",
        "help",
        "verify",
        "inspect",
        "diff",
    }:
        return Judgement(R, shown, rule, True, True)
    if sub in {"repo", "plugin", "dependency", "dep", "registry"}:
        # A group: what it does is its verb (`repo add` adds, `repo list` reads, `repo remove` removes).
        what, _more = _subcommand(rest)
        return _by_verb(what, shown, rule, open_world=True)
    if sub in {"install", "pull", "package", "create"}:
        return Judgement(A, shown, rule, None, True)
    return Judgement(D, shown, rule, None, True)


def _terraform(program: str, args: list[str], shown: str) -> Judgement:
    """Terraform by its documented subcommands: `plan`, `show`, `output`, `validate`, `state list|show|pull`
    read; `fmt` rewrites files unless `-check`; `init`, `get` download providers and modules, `import`
    adds an existing object to the state, `workspace new` adds one (additive); `apply`, `destroy`,
    `refresh`, `taint`, `state rm|mv|push`, `workspace select|delete`, `force-unlock` change what exists."""
    rule = f"argv.{program}"
    sub, rest = _subcommand(args, frozenset({"-chdir"}))
    what, _more = _subcommand(rest)
    local = sub in {"fmt", "validate", "output", "version", "graph", "console", "state", "workspace", "show"}
    if sub in {"", "plan", "show", "output", "validate", "graph", "providers", "version", "console"}:
        return Judgement(R, shown, rule, True, not local)
    if sub == "fmt":
        check = _has(rest, "-check", "-diff")
        return Judgement(R if check else D, shown, rule, True, False)
    if sub == "state":
        read = what in {"list", "show", "pull", ""}
        return Judgement(R if read else D, shown, rule, True if read else None, False)
    if sub == "workspace":
        if what in {"list", "show", ""}:
            return Judgement(R, shown, rule, True, False)
        return Judgement(A if what == "new" else D, shown, rule, None, False)
    if sub in {"init", "get", "import", "login"}:
        return Judgement(A, shown, rule, True if sub != "login" else None, True)
    return Judgement(D, shown, rule, None, True)


_APT_READ = word_set(
    """
    list search show showpkg policy depends rdepends madison changelog info query
    """
)


# Each package manager's own options that only show what a command would do (apt-get's manual: -s and its
# aliases; dpkg's --no-act; yum's and dnf's --assumeno answers no before anything changes). Another program's
# `-s` means something else (`brew install -s` builds from source).
_SIMULATES: Mapping[str, tuple[str, ...]] = {
    "apt": ("-s", "--simulate", "--dry-run", "--just-print", "--recon", "--no-act"),
    "apt-get": ("-s", "--simulate", "--dry-run", "--just-print", "--recon", "--no-act"),
    "dpkg": ("--dry-run", "--no-act", "--simulate"),
    "yum": ("--assumeno",),
    "dnf": ("--assumeno",),
}


def _system_packages(program: str, args: list[str], shown: str) -> Judgement:
    rule = f"argv.{program}"
    sub, _rest = _subcommand(args, frozenset({"-o", "-c"}))
    if _has(_without_values(args, {"-o", "-c"}), *_SIMULATES.get(program, ())):
        return Judgement(R, f"{shown} (a simulation)", rule, True)
    if not sub or sub in _APT_READ:
        return Judgement(R, shown, rule, True)
    if sub in {"install", "update", "download", "source", "fetch", "tap"}:
        return Judgement(A, shown, rule, None, True)
    return Judgement(D, shown, rule)


def _gh(program: str, args: list[str], shown: str) -> Judgement:
    rule = f"argv.{program}"
    group, rest = _subcommand(args, frozenset({"-R", "--repo"}))
    what, _more = _subcommand(rest, frozenset({"-R", "--repo"}))
    if group in {"", "status", "search", "browse", "help", "version", "auth"} and group != "auth":
        return Judgement(R, shown, rule, True, True)
    if group == "api":
        method = "GET"
        for at, arg in enumerate(rest):
            if arg in {"-X", "--method"} and at + 1 < len(rest):
                method = rest[at + 1].upper()
        if method == "GET" and _has(rest, "-f", "-F", "--field", "--raw-field", "--input"):
            method = "POST"
        act = _METHOD_ACTS.get(method, D)
        if _positional(rest)[:1] == ["graphql"] and method == "POST":
            operation = _gh_graphql(rest)
            if operation is not None:  # `gh api graphql -f query='query {...}'`: what the document does
                return Judgement(operation.act, shown, rule, operation.idempotent, True)
        return Judgement(act, shown, rule, act is R, True)
    if what in {"list", "view", "status", "diff", "checks", "ls", "show"}:
        return Judgement(R, shown, rule, True, True)
    if what in {"create", "comment", "fork", "clone", "download", "review"}:
        return Judgement(A, shown, rule, None, True)
    return Judgement(D, shown, rule, None, True)


def _gh_graphql(args: Sequence[str]) -> Judgement | None:
    """What the GraphQL document `gh api graphql` sends does (its `query` field, and `operationName` if one)."""
    from hintgate.hints.calls.graphql import judge_graphql

    fields: dict[str, str] = {}
    for at, arg in enumerate(args[:-1]):
        if arg in {"-f", "-F", "--field", "--raw-field"}:
            name, equals, value = args[at + 1].partition("=")
            if equals:
                fields[name] = value
    if _has(args, "--input") or "query" not in fields:
        return None
    return judge_graphql({"query": fields["query"], "operationName": fields.get("operationName")})


_CLOUD_GLOBAL = word_set(
    """
    --profile --region --output --query --endpoint-url --color --ca-bundle --cli-read-timeout
    --cli-connect-timeout --project --account --configuration --format --verbosity --impersonate-service-account
    --subscription --resource-group -g
    """
)
_S3 = {"ls": R, "presign": R, "mb": A, "cp": D, "mv": D, "rm": D, "sync": D, "rb": D, "website": D}
# Verbs of cloud CLIs' commands that the name lexicon does not hold (`gcloud storage cp`, `aws logs tail`).
_CLOUD_WORDS = {"cp": D, "mv": D, "rsync": D, "sync": D, "tail": R, "ls": R, "cat": R, "what-if": R}


def _cloud(program: str, args: list[str], shown: str) -> Judgement:
    """aws, gcloud, az: a product, then groups, then a command named verb-first (`describe-instances`,
    `instances list`, `config set`). The command's verb decides by its meaning; `run-*` launches new
    resources (additive, as `docker run`); a command that sends a command or script to run (`ssm
    send-command`, `vm run-command`) or invokes a function runs what it cannot see: destructive; a dry run
    reads. Every command reaches the provider's API: open world."""
    rule = f"argv.{program}"
    if _has(args, "--dry-run", "--dryrun", "--validate-only"):
        return Judgement(R, f"{shown} (a dry run)", rule, True, True)
    words: list[str] = []
    at = 0
    while at < len(args):
        arg = args[at]
        if arg.startswith("-"):
            at += 2 if arg in _CLOUD_GLOBAL and "=" not in arg else 1
            continue
        words.append(arg.lower())
        at += 1
    if not words or words[0] in {"help", "version", "info"} or _has(args, "--help", "--version"):
        return Judgement(R, shown, rule, True, True)
    if program == "aws":
        service = words[0]
        operation = words[1] if len(words) > 1 else ""
        if service == "s3" and operation in _S3:
            act = _S3[operation]
            return Judgement(act, shown, rule, True, True)
        if service == "configure":
            read = operation in {"list", "get", "list-profiles"}
            return Judgement(R if read else D, shown, rule, True if read else None, False)
        # A tool wrapping one service names only its operation (`{action: get_value}` of "AWS Secrets Manager").
        candidates = [operation] if len(words) > 1 else words
    else:
        candidates = words[1:] or words[:1]
    for word in candidates:
        if not word:
            continue
        parts = word.split("-")
        if {"command", "commands", "script", "scripts"} & set(parts[1:]):
            return Judgement(D, f"{shown} (runs a command it does not show)", rule, None, True)
        if parts[0] == "run":
            return Judgement(A, f"{shown} (launches new resources)", rule, False, True)
        if word in _CLOUD_WORDS:
            return Judgement(_CLOUD_WORDS[word], shown, rule, True, True)
        found = verb_act(word)
        if found is not None:
            act, idempotent, _open = found
            if act is A and _has(args, "--overwrite", "--force"):
                return Judgement(D, f"{shown} (replaces what exists)", rule, idempotent, True)  # `blob upload`
            return Judgement(act, shown, rule, idempotent, True)
    return Judgement(D, f"{shown} (a command hintgate does not know)", rule, None, True)


_SUBCOMMANDS: Mapping[str, Callable[[str, list[str], str], Judgement]] = {
    "aws": _cloud,
    "gcloud": _cloud,
    "az": _cloud,
    **dict.fromkeys(_SQL_CLIENTS, _sql_client),
    "git": _git,
    "kubectl": _kubectl,
    "oc": _kubectl,
    "k": _kubectl,
    "docker": _docker,
    "podman": _docker,
    "nerdctl": _docker,
    "docker-compose": _docker,
    "npm": _package_manager,
    "pnpm": _package_manager,
    "yarn": _package_manager,
    "pip": _package_manager,
    "pip3": _package_manager,
    "uv": _package_manager,
    "poetry": _package_manager,
    "cargo": _package_manager,
    "gem": _package_manager,
    "go": _package_manager,
    "composer": _package_manager,
    "systemctl": _systemctl,
    "service": _systemctl,
    "launchctl": _launchctl,
    "helm": _helm,
    "terraform": _terraform,
    "tofu": _terraform,
    "apt": _system_packages,
    "apt-get": _system_packages,
    "apt-cache": _system_packages,
    "dpkg": _system_packages,
    "yum": _system_packages,
    "dnf": _system_packages,
    "brew": _system_packages,
    "apk": _system_packages,
    "pacman": _system_packages,
    "snap": _system_packages,
    "gh": _gh,
    "glab": _gh,
    **CLI_TOOLS,
}
"""Programs judged by their subcommand and flags."""
