/// The version of SessionKit this build is.
///
/// A Swift package's version is the Git tag an app resolves; a built binary
/// cannot see that tag, so the release states it here too. `scripts/release.sh`
/// tags a release only when this, the newest heading of CHANGELOG.md and the
/// README's install line agree, and `SessionKitVersionTests` fails when they
/// drift.
public enum SessionKitVersion {
    /// The semantic version, as the release tag names it (`0.4.0`, no `v`).
    public static let current = "0.4.0"
}
