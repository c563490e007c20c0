/// ArchiveGate's version: the one place it is written. `archivegate --version` prints it, and
/// `scripts/build-wheel` reads it from this file for the Python package's `__version__` and the
/// wheel's metadata, so the CLI and the package it ships in cannot disagree.
enum ArchiveGateVersion {
    static let string = "0.1.0"
}
