"""Runs every shell example of README.md and docs/*.md and compares its output with the documented
one, so the docs cannot drift from what the code does (scripts/check-docs; the convention is
docs/CONTRIBUTING.md, "Shell examples in the docs").

A ```console block is a transcript: `$ command` lines, each followed by the output it prints
(stdout and stderr together, as a terminal shows them). In expected output, `…` matches any run of
characters within a line, and a line that is only `…` matches any number of lines (none included).
Words after `console` on the fence line mark a block:

  server            the check starts `archivegate serve` (shipped config/ plus the demo tenant, a
                    temporary store) before the block, on a free loopback port
  server VAR=VALUE  the same with these ARCHIVEGATE_* variables (the server restarts when they
                    differ from the running one's; the store is kept)
  shared            needs ../shared (the corpora); skipped, saying so, when it is absent
  skip: REASON      not run (illustrative, or it needs what a check cannot have); listed as "not
                    run by design" with REASON

A ```sh, ```bash or ```shell block must say `skip: REASON` too, and a ```text (or unlabelled)
block holding `$ ` lines fails: every shell example either runs or says why not. The port numbers
8080 and 8000 in any example stand for two free loopback ports the check picks (8080 is the
server's). All blocks of one document run in order in one bash process
(variables carry over), in a fresh folder holding copies of examples/ and config/, links to the
other top-level entries of the repository and a sibling `shared` link to ../shared.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

SHELL_LANGUAGES = {"console", "sh", "bash", "shell", "shell-session", "zsh"}
UNLABELLED = {"", "text", "txt", "plain", "plaintext"}   # a `$ ` line in one of these is a transcript in disguise
ELLIPSIS = "…"
DOCUMENT_TIMEOUT_SECONDS = 600
SERVER_WAIT_SECONDS = 60


@dataclasses.dataclass
class Command:
    line: int              # 1-based line of the `$ ` line in its document
    text: str              # the command as bash reads it (continuation lines included)
    expected: list[str]    # the documented output lines


@dataclasses.dataclass
class Block:
    path: pathlib.Path
    line: int              # 1-based line of the opening fence
    language: str
    server_env: list[str] | None   # None: no server; else the ARCHIVEGATE_* assignments
    shared: bool
    skip_reason: str | None
    commands: list[Command]


class DocError(Exception):
    """A block that breaks the convention (the message names the file and line)."""


def parse_blocks(path: pathlib.Path, display: str) -> list[Block]:
    """The shell blocks of one Markdown document, in order."""
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        opening = re.match(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$", lines[index])
        if not opening:
            index += 1
            continue
        indent, fence, language, attributes = opening.groups()
        body: list[str] = []
        end = index + 1
        while end < len(lines) and not re.match(r"^\s*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$", lines[end]):
            line = lines[end]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            end += 1
        if end >= len(lines):
            raise DocError(f"{display}:{index + 1}: a code fence that never closes")
        if language.lower() in SHELL_LANGUAGES:
            blocks.append(make_block(path, display, index + 1, language.lower(), attributes.strip(), body))
        elif language.lower() in UNLABELLED and any(line.startswith("$ ") for line in body):
            raise DocError(f"{display}:{index + 1}: a transcript (`$ ` lines) in a ```{language} block escapes the check: "
                           "make it ```console")
        index = end + 1
    return blocks


def make_block(path: pathlib.Path, display: str, line: int, language: str, attributes: str, body: list[str]) -> Block:
    skip_reason = None
    if "skip:" in attributes:
        attributes, _, skip_reason = attributes.partition("skip:")
        skip_reason = skip_reason.strip()
        if not skip_reason:
            raise DocError(f"{display}:{line}: `skip:` needs a reason")
    server_env: list[str] | None = None
    shared = False
    for word in attributes.split():
        if word == "server":
            server_env = server_env or []
        elif word == "shared":
            shared = True
        elif "=" in word and server_env is not None:
            if not word.startswith("ARCHIVEGATE_"):
                raise DocError(f"{display}:{line}: the server takes only ARCHIVEGATE_* variables, not {word}")
            server_env.append(word)
        else:
            raise DocError(f"{display}:{line}: unknown marker {word!r} on a ```{language} block")
    if language != "console" and skip_reason is None:
        raise DocError(f"{display}:{line}: a ```{language} block is neither run nor explained: write it as a ```console "
                       "transcript ($ command, then its output) or mark it `skip: <reason>`")
    commands = [] if skip_reason is not None else parse_transcript(body, display, line)
    return Block(path, line, language, server_env, shared, skip_reason, commands)


def parse_transcript(body: list[str], display: str, fence_line: int) -> list[Command]:
    """`$ command` lines (a trailing `\\` or an open here-document continues a command), each
    followed by its expected output."""
    commands: list[Command] = []
    index = 0
    while index < len(body):
        line = body[index]
        if not line.startswith("$ "):
            if line.strip():
                raise DocError(f"{display}:{fence_line + 1 + index}: output before the first `$ ` command: {line!r}")
            index += 1
            continue
        start = index
        text = [line[2:]]
        index += 1
        pending = heredoc_terminators(text[0])
        while index < len(body) and (pending or text[-1].endswith("\\")):
            continued = body[index]
            text.append(continued)
            index += 1
            if pending:
                if continued.strip() == pending[0]:
                    pending.pop(0)
            else:
                pending = heredoc_terminators(continued)
        expected: list[str] = []
        while index < len(body) and not body[index].startswith("$ "):
            expected.append(body[index])
            index += 1
        while expected and not expected[-1].strip():
            expected.pop()
        commands.append(Command(fence_line + 1 + start, "\n".join(text), expected))
    return commands


def heredoc_terminators(line: str) -> list[str]:
    """The words that end the here-documents a command line opens (`<<'JSON'`, `<<-EOF`)."""
    return re.findall(r"(?<!<)<<(?!<)-?\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?", line)


def output_matches(expected: list[str], actual: str) -> bool:
    """`…` is any run of characters within a line; a line of `…` alone is any number of lines."""
    pattern = ""
    for line in expected:
        if line.strip() == ELLIPSIS:
            pattern += r"(?:[^\n]*\n)*?"
        else:
            pattern += "".join(r"[^\n]*" if part == ELLIPSIS else re.escape(part)
                               for part in re.split(f"({ELLIPSIS})", line.rstrip())) + r"[ \t]*\n"
    text = "\n".join(line.rstrip() for line in actual.split("\n"))
    text = text.rstrip("\n") + "\n" if text.strip("\n") else ""
    return re.fullmatch(pattern, text, flags=re.DOTALL) is not None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def substitute_ports(text: str, ports: dict[str, int]) -> str:
    for documented, real in ports.items():
        text = re.sub(rf"\b{documented}\b", str(real), text)
    return text


PRELUDE = r"""
# The server runs outside this shell's job table (started from a subshell), so that an example's
# own `kill %1` names the example's first background job, as in a reader's shell.
__ag_server_env="none"
__ag_server_pid() { cat "$AG_STATE/server.pid" 2>/dev/null; }
__ag_server_stop() {
    local pid; pid="$(__ag_server_pid)"
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done  # waits for the exit, orders nothing
    rm -f "$AG_STATE/server.pid"
}
__ag_server() {  # (re)starts the document's server with these ARCHIVEGATE_* assignments
    local pid; pid="$(__ag_server_pid)"
    if [ "$__ag_server_env" = "$*" ] && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then return 0; fi
    __ag_server_stop
    __ag_server_env="$*"
    ( env ARCHIVEGATE_STORE_PATH="$AG_STATE/results.sqlite" "$@" archivegate serve --config config \
        --extra-tenants examples/demo-tenant --port "$AG_SERVER_PORT" --log-level warning \
        >> "$AG_STATE/server.log" 2>&1 < /dev/null &
      echo $! > "$AG_STATE/server.pid" )
    pid="$(__ag_server_pid)"
    local tries=0
    until curl -fsS -o /dev/null "http://127.0.0.1:$AG_SERVER_PORT/healthz" 2>/dev/null; do
        tries=$((tries + 1))
        if [ "$tries" -gt $((AG_SERVER_WAIT * 10)) ] || ! kill -0 "$pid" 2>/dev/null; then
            echo "the server did not start:" >&2; tail -n 20 "$AG_STATE/server.log" >&2; exit 90
        fi
        sleep 0.1  # polls for readiness, orders nothing
    done
}
trap '__ag_server_stop; kill $(jobs -p) 2>/dev/null' EXIT  # and whatever an example left running
"""


@dataclasses.dataclass
class Outcome:
    failures: list[str]
    skips: list[str]      # blocks this machine cannot run (scripts/test counts them as skips)
    not_run: list[str]    # blocks their document marks `skip: REASON` (a decision, not a skip)
    ran: int


def run_document(display: str, blocks: list[Block], repository: pathlib.Path, bin_dir: pathlib.Path | None,
                 shared: pathlib.Path | None) -> Outcome:
    failures: list[str] = []
    skips: list[str] = []
    not_run: list[str] = []
    runnable: list[Block] = []
    for block in blocks:
        if block.skip_reason is not None:
            not_run.append(f"{display}:{block.line}: {block.skip_reason}")
        elif block.shared and shared is None:
            skips.append(f"{display}:{block.line}: needs ../shared (the corpora), which is absent")
        elif block.commands:
            runnable.append(block)
    if not runnable:
        return Outcome(failures, skips, not_run, 0)
    if bin_dir is None and any(block.server_env is not None for block in runnable):
        raise DocError(f"{display}: a server block needs the archivegate binaries")

    with tempfile.TemporaryDirectory(prefix="archivegate-docs-") as scratch:
        scratch_path = pathlib.Path(scratch)
        work = scratch_path / "repo"
        state = scratch_path / "state"
        outputs = state / "outputs"
        outputs.mkdir(parents=True)
        work.mkdir()
        for entry in repository.iterdir():
            if entry.name.startswith(".") or entry.name in {"examples", "config"}:
                continue
            (work / entry.name).symlink_to(entry)
        for copied in ("examples", "config"):
            shutil.copytree(repository / copied, work / copied, symlinks=True)
        if shared is not None:
            (scratch_path / "shared").symlink_to(shared)

        ports = {"8080": free_port(), "8000": free_port()}
        script = [PRELUDE]
        commands: list[tuple[Block, Command, int]] = []
        for block in runnable:
            if block.server_env is not None:
                script.append("__ag_server " + " ".join(shlex.quote(substitute_ports(word, ports)) for word in block.server_env))
            for command in block.commands:
                number = len(commands)
                commands.append((block, command, number))
                script.append("{ " + substitute_ports(command.text, ports) +
                              f"\n}} > \"$AG_STATE/outputs/{number}\" 2>&1 < /dev/null\n"
                              f"__ag_status=$?; echo $__ag_status > \"$AG_STATE/outputs/{number}.status\"; (exit $__ag_status)")
        (state / "document.sh").write_text("\n".join(script) + "\n", encoding="utf-8")

        # A reader's environment: no ARCHIVEGATE_* setting of the caller's reaches the examples.
        environment = {name: value for name, value in os.environ.items() if not name.startswith("ARCHIVEGATE_")}
        environment.update({
            "AG_STATE": str(state), "AG_SERVER_PORT": str(ports["8080"]), "AG_SERVER_WAIT": str(SERVER_WAIT_SECONDS),
            "LC_ALL": "C.UTF-8", "TERM": "dumb",
        })
        if bin_dir is not None:
            environment["PATH"] = f"{bin_dir}{os.pathsep}{environment.get('PATH', '')}"
        process = subprocess.Popen(["bash", str(state / "document.sh")], cwd=work, env=environment,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, start_new_session=True)
        try:
            _, stderr = process.communicate(timeout=DOCUMENT_TIMEOUT_SECONDS)
            if process.returncode == 90:
                failures.append(f"{display}: {stderr.strip()}")
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            failures.append(f"{display}: its examples did not finish within {DOCUMENT_TIMEOUT_SECONDS} s")

        for block, command, number in commands:
            output_file = outputs / str(number)
            if not output_file.exists():
                failures.append(f"{display}:{command.line}: `$ {first_line(command.text)}` never ran (an earlier command ended the run)")
                continue
            actual = output_file.read_text(encoding="utf-8", errors="replace")
            expected = [substitute_ports(line, ports) for line in command.expected]
            if not output_matches(expected, actual):
                failures.append(describe_mismatch(display, command, expected, actual))
    return Outcome(failures, skips, not_run, len(commands))


def first_line(text: str) -> str:
    return text.split("\n", 1)[0]


def describe_mismatch(display: str, command: Command, expected: list[str], actual: str) -> str:
    shown = actual if len(actual) <= 4000 else actual[:4000] + "\n[… output cut at 4,000 characters]"
    return (f"{display}:{command.line}: `$ {first_line(command.text)}` printed other output than documented\n"
            + "  documented:\n" + "".join(f"    | {line}\n" for line in expected or ["(nothing)"])
            + "  printed:\n" + "".join(f"    | {line}\n" for line in (shown.rstrip("\n").split("\n") if shown.strip() else ["(nothing)"])))


def check(paths: list[pathlib.Path], repository: pathlib.Path, bin_dir: pathlib.Path | None,
          shared: pathlib.Path | None, out=sys.stdout) -> bool:
    failures: list[str] = []
    ran = 0
    for path in paths:
        display = os.path.relpath(path, repository)
        try:
            blocks = parse_blocks(path, display)
            outcome = run_document(display, blocks, repository, bin_dir, shared)
        except DocError as error:
            failures.append(str(error))
            continue
        ran += outcome.ran
        for reason in outcome.not_run:
            print(f"check-docs: not run by design: {reason}", file=out)
        for skip in outcome.skips:
            print(f"check-docs: SKIPPED: {skip}", file=out)
        failures += outcome.failures
    for failure in failures:
        print(f"check-docs: FAIL: {failure}", file=out)
    print(f"check-docs: {ran} commands run in {len(paths)} documents, {len(failures)} failures", file=out)
    return not failures



def main(argv: list[str]) -> int:
    import argparse
    parser = argparse.ArgumentParser(prog="scripts/check-docs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--self-test", action="store_true", help="check the check on documents with known outcomes")
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parents[2])
    parser.add_argument("--bin-dir", type=pathlib.Path, help="folder holding archivegate and archivegate-server")
    parser.add_argument("files", nargs="*", type=pathlib.Path, help="documents (default: README.md and docs/*.md)")
    arguments = parser.parse_args(argv)
    if arguments.self_test:
        from self_test import self_test
        return 0 if self_test(check) else 1
    root = arguments.root.resolve()
    files = [path.resolve() for path in arguments.files] or [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    shared = (root.parent / "shared").resolve()
    return 0 if check(files, root, arguments.bin_dir, shared if shared.is_dir() else None) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
