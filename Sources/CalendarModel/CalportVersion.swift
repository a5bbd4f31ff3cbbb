/// calport's version: the one place it is written. `calport --version` prints it, and tests check that
/// the manual page and CHANGELOG.md name the same version.
public enum CalportVersion {
    /// The version as semantic versioning writes it, e.g. `0.1.0`.
    public static let current = "0.1.0"
}
