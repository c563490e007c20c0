"""The CI gate: exit 4 when nothing was scanned, `--format sarif` read by SARIF tools from PyPI, and
the pre-commit hook run with `pre-commit try-repo` in a throwaway git repository (docs/GATES.md).

scripts/test-python installs sarif-pydantic, sarif-tools and pre-commit into the test venv; the
tests that need one skip, saying which, when it is missing.
"""

import json
import os
import shutil
import subprocess
import sqlite3

import pytest

import archivegate


def _run(*arguments, cwd=None):
    return subprocess.run([archivegate.find_binary(), *arguments], capture_output=True, text=True, cwd=cwd)


def _gate_folder(repo, folder):
    """A rejected archive (examples/payload.archive under the example policy), a truncated binary
    plist and a text file (skipped) in `folder`."""
    folder.mkdir()
    shutil.copy(os.path.join(repo, "examples", "payload.archive"), folder / "payload.archive")
    (folder / "cut.plist").write_bytes(b"bplist00cut")
    (folder / "note.txt").write_text("not a property list")
    return folder


def test_nothing_scanned_is_exit_4_and_a_typed_exception(tmp_path):
    (tmp_path / "only-text").mkdir()
    (tmp_path / "only-text" / "note.txt").write_text("hello")
    completed = _run("validate", str(tmp_path / "only-text"))
    assert completed.returncode == 4
    assert "inconclusive (batch.no_archive)" in completed.stderr
    assert archivegate.EXIT_CODES[4][1] is archivegate.NothingScanned
    with pytest.raises(archivegate.NothingScanned) as raised:
        list(archivegate.batch(tmp_path / "only-text"))
    assert raised.value.code == "batch.no_archive"
    assert "no archive or property list among the files" in raised.value.message

    database = tmp_path / "photos.sqlite"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE thumbs (id INTEGER PRIMARY KEY, jpeg BLOB)")
        connection.execute("INSERT INTO thumbs (jpeg) VALUES (?)", (b"\xff\xd8\xff\xe0not an archive",))
    with pytest.raises(archivegate.NothingScanned):
        list(archivegate.scan_db(database))


def test_sarif_loads_in_a_sarif_model_and_sarif_summary_reads_it(repo, tmp_path):
    sarif_pydantic = pytest.importorskip("sarif_pydantic", reason="sarif-pydantic is not installed in the test venv")
    if shutil.which("sarif") is None:
        pytest.skip("sarif-tools (the `sarif` command) is not installed in the test venv")
    folder = _gate_folder(repo, tmp_path / "evidence")
    completed = _run("validate", "--format", "sarif", "--policy", os.path.join(repo, "config", "policies", "example.json"),
                     str(folder))
    assert completed.returncode == 2, completed.stderr  # the worst verdict: malformed
    log_path = tmp_path / "archivegate.sarif"
    log_path.write_text(completed.stdout)

    log = sarif_pydantic.Sarif.model_validate(json.loads(completed.stdout))
    assert log.version == "2.1.0"
    run = log.runs[0]
    assert run.tool.driver.name == "archivegate"
    assert run.tool.driver.version == archivegate.__version__
    assert [rule.id for rule in run.tool.driver.rules] == ["plist.truncated", "policy.class_mismatch"]
    by_rule = {result.rule_id: result for result in run.results}
    assert set(by_rule) == {"plist.truncated", "policy.class_mismatch"}
    rejected = by_rule["policy.class_mismatch"]
    assert rejected.level == sarif_pydantic.Level.ERROR
    location = rejected.locations[0]
    assert location.physical_location.artifact_location.uri.endswith("/evidence/payload.archive")
    assert [logical.fully_qualified_name for logical in location.logical_locations] == ["/root"]
    truncated = by_rule["plist.truncated"]
    assert truncated.locations[0].physical_location.region.byte_offset == 11
    assert run.invocations[0].execution_successful is True

    summary = subprocess.run(["sarif", "summary", str(log_path)], capture_output=True, text=True)
    assert summary.returncode == 0, summary.stderr
    assert "error: 2" in summary.stdout, summary.stdout
    assert "plist.truncated" in summary.stdout and "policy.class_mismatch" in summary.stdout


def test_sarif_of_nothing_scanned_carries_the_notice(tmp_path):
    sarif_pydantic = pytest.importorskip("sarif_pydantic", reason="sarif-pydantic is not installed in the test venv")
    (tmp_path / "note.txt").write_text("hello")
    completed = _run("validate", "--format", "sarif", str(tmp_path))
    assert completed.returncode == 4
    run = sarif_pydantic.Sarif.model_validate(json.loads(completed.stdout)).runs[0]
    assert run.results == []
    invocation = run.invocations[0]
    assert invocation.execution_successful is False
    notices = invocation.model_extra["toolExecutionNotifications"]
    assert [notice["descriptor"]["id"] for notice in notices] == ["batch.no_archive"]


def test_pre_commit_hook_fails_on_a_rejected_archive_and_passes_on_a_clean_one(repo, tmp_path):
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed in the test venv")
    if subprocess.run(["git", "-C", repo, "rev-parse", "--git-dir"], capture_output=True).returncode != 0:
        pytest.skip(f"{repo} is not a git checkout: pre-commit try-repo needs one")
    project = tmp_path / "project"
    project.mkdir()
    environment = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
                       GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid",
                       PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))

    def git(*arguments):
        subprocess.run(["git", *arguments], cwd=project, check=True, capture_output=True, env=environment)

    git("init", "--quiet")
    shutil.copy(os.path.join(repo, "examples", "payload.archive"), project / "payload.archive")
    shutil.copy(os.path.join(repo, "examples", "contact.archive"), project / "contact.archive")
    git("add", ".")

    def try_repo(*files):
        return subprocess.run(["pre-commit", "try-repo", repo, "archivegate", "--files", *files],
                              cwd=project, capture_output=True, text=True, env=environment)

    # The built-in foundation policy: the contact archive holds only Foundation classes; the
    # payload's Sneaky.Payload is not allowed.
    clean = try_repo("contact.archive")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout
    rejected = try_repo("payload.archive")
    assert rejected.returncode == 1, rejected.stdout + rejected.stderr
    assert "Failed" in rejected.stdout
    assert "policy.class_not_allowed" in rejected.stdout
    both = try_repo("contact.archive", "payload.archive")
    assert both.returncode == 1
