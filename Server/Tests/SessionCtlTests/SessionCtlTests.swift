import Testing

/// Runs the built `sessionctl` binary against a live `auth-server`.
///
/// Serialized: every test spawns processes, and the concurrent-refresh test
/// must not share the machine's two cores with the others.
@Suite(.serialized)
struct SessionCtlTests {}
