/// ArchiveGate's version: the one place it is written. `archivegate --version` prints it, the
/// server answers it on `GET /version` and in `/healthz`, and `scripts/build-wheel` reads it from
/// this file for the Python package's `__version__` and the wheel's metadata, so the CLI, the
/// service and the package they ship in cannot disagree.
public enum ArchiveGateVersion {
    /// The release, e.g. `0.1.0`.
    public static let string = "0.1.0"
}
