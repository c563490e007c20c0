"""``python -m archivegate …`` runs the bundled binary with the same arguments (and exit status)."""

import os
import sys

from ._binary import find_binary


def main() -> None:
    binary = find_binary()
    if os.name == "posix":
        os.execv(binary, [binary, *sys.argv[1:]])
    import subprocess
    sys.exit(subprocess.call([binary, *sys.argv[1:]]))


if __name__ == "__main__":
    main()
