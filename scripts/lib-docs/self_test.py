"""The docs check's own test (scripts/check-docs --self-test): documents whose outcome is known, one
per rule of the convention, each checked for its verdict and the line its report must hold."""

from __future__ import annotations

import io
import pathlib
import tempfile

SELF_TEST_DOCUMENTS = {
    # name: (text, whether the check must pass, a string its report must hold)
    "good.md": ("""# Good
```console
$ echo hello
hello
$ answer=42
$ printf 'a\\nb\\nc\\n'
a
…
$ echo 'status 3 of 7'
status … of 7
$ (exit 3)
$ echo $?
3
```
Variables carry over to the next block; here-documents and continuation lines are one command:
```console
$ cat <<'END'
the answer is $answer
END
the answer is $answer
$ echo "answer=$answer" \\
    && ls examples
answer=42
sample.txt
```
""", True, "8 commands run in 1 documents, 0 failures"),
    "wrong.md": ("# Wrong\n\n```console\n$ echo hello\ngoodbye\n```\n", False, "wrong.md:4: `$ echo hello` printed other output"),
    "extra.md": ("```console\n$ printf 'a\\nb\\n'\na\n```\n", False, "extra.md:2:"),
    "span.md": ("```console\n$ printf 'a\\nb\\n'\na…b\n```\n", False, "span.md:2:"),
    "silent.md": ("```console\n$ true\nsomething\n```\n", False, "silent.md:2:"),
    "unmarked.md": ("```sh\necho hello\n```\n", False, "unmarked.md:1: a ```sh block is neither run nor explained"),
    "disguised.md": ("```text\n$ echo hello\nhello\n```\n", False, "disguised.md:1: a transcript"),
    "skipped.md": ("```sh skip: needs a Docker engine\ndocker build .\n```\n", True, "not run by design: skipped.md:1: needs a Docker engine"),
    "needs-shared.md": ("```console shared\n$ ls ../shared\n```\n", True, "SKIPPED: needs-shared.md:1: needs ../shared"),
}


def self_test(check) -> bool:
    """Runs `check` (check_docs.check) on documents whose outcome is known: a right output passes,
    a drifted one fails."""
    ok = True
    with tempfile.TemporaryDirectory(prefix="archivegate-docs-self-test-") as scratch:
        repository = pathlib.Path(scratch)
        (repository / "examples").mkdir()
        (repository / "examples" / "sample.txt").write_text("x\n")
        (repository / "config").mkdir()
        for name, (text, passes, needle) in SELF_TEST_DOCUMENTS.items():
            document = repository / name
            document.write_text(text, encoding="utf-8")
            report = io.StringIO()
            passed = check([document], repository, None, None, out=report)
            document.unlink()
            if passed != passes or needle not in report.getvalue():
                ok = False
                print(f"check-docs: self-test FAIL: {name}: expected {'a pass' if passes else 'a failure'} "
                      f"and {needle!r}; got {'a pass' if passed else 'a failure'}:\n{report.getvalue()}")
            else:
                print(f"check-docs: self-test ok: {name} ({'passes' if passes else 'fails'} as it must)")
    return ok
