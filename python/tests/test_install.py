"""The wheel as installed: the binary on the venv's PATH, no Swift needed, one version everywhere."""

import os
import shutil
import subprocess
import sys

import archivegate


def test_package_is_the_installed_wheel_not_the_source_tree():
    assert os.path.realpath(archivegate.__file__).startswith(os.path.realpath(sys.prefix))
    assert "site-packages" in archivegate.__file__


def test_console_command_is_the_bundled_binary_in_the_venv_scripts():
    scripts = os.path.join(sys.prefix, "bin")
    assert shutil.which("archivegate") == os.path.join(scripts, "archivegate")
    assert archivegate.find_binary() == os.path.join(scripts, "archivegate")


def test_no_swift_on_path_and_no_swift_libraries_loaded():
    assert shutil.which("swift") is None, "the test venv must run without Swift on PATH"
    assert "/opt/swift" not in os.environ.get("LD_LIBRARY_PATH", "")
    ldd = subprocess.run(["ldd", archivegate.find_binary()], capture_output=True, text=True)
    libraries = ldd.stdout + ldd.stderr
    assert "swift" not in libraries.lower(), libraries
    assert "not found" not in libraries, libraries


def test_version_is_one_string_everywhere():
    printed = subprocess.run(["archivegate", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    assert printed == archivegate.__version__ == archivegate.version()
    assert printed[0].isdigit()


def test_python_dash_m_runs_the_binary_with_its_exit_status(tmp_path):
    bad = tmp_path / "bad.plist"
    bad.write_bytes(b"bplist00 not really")
    answer = subprocess.run([sys.executable, "-m", "archivegate", "convert", str(bad)], capture_output=True, text=True)
    assert answer.returncode == 2
    assert "malformed: plist.truncated at byte" in answer.stderr
