import Foundation
import Logging

/// Where a hand-rolled session blob is kept: removed when the person signs
/// out, so a leftover blob never signs a signed-out person back in.
struct LegacySessionLocation: Sendable {
    let source: any LegacyKeyValueSource
    let key: String
}

extension SessionClient {
    /// Notes a blob a ``LegacySessionMigration`` found, for ``signOut(scope:)`` to remove.
    func rememberLegacySession(_ location: LegacySessionLocation) {
        legacySessions.append(location)
    }

    /// Removes every blob noted: the person signed out, so none may bring the session back.
    func forgetLegacySessions() {
        for location in legacySessions {
            location.source.removeValue(forKey: location.key)
        }
        if !legacySessions.isEmpty { logger.info("Removed the old session kept before SessionKit") }
        legacySessions.removeAll()
    }
}
