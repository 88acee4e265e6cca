import SessionKit

/// A life event of the device rather than of the network (issue 31, rows
/// 5–10): each is a scripted scene against the live server, on the
/// simulated keychain (`SimulatedDeviceKeychain`), with its own invariant.
///
/// One life in `SimulationParameters.deviceEventEvery` (4) plays one of them
/// after its app life, the kinds in turn by the life's index, so a
/// CI-sized run plays each several times and a planted defect that one of
/// them exists to catch is caught whatever the seed (docs/RELIABILITY.md,
/// "The device's life events").
public enum DeviceEvent: String, Sendable, CaseIterable {
    /// Row 10: a sign-out while a legacy blob is still present, the process
    /// killed before the blob's deletion was flushed.
    case signOutAgainstMigration = "sign-out-against-migration"
    /// Row 8: two clients on one store in one process, one dropped with its refresh timer armed.
    case twoClientsOneStore = "two-clients-one-store"
    /// Row 6: an update that moves the item (service renamed, access group
    /// added), then a downgrade that meets a newer record.
    case updateMovesTheRecord = "update-moves-the-record"
    /// Row 5: a prewarmed launch on a locked device (iOS 15+ answers "not
    /// found"), no protected-data notification, then unlocked and opened.
    case prewarmedLaunch = "prewarmed-launch"
    /// Row 7: a widget sharing the session through an access group, the app
    /// switching people while the widget holds the first in memory.
    case widgetSharesSession = "widget-shares-session"
    /// Row 9: a device restored from the backup of one still in use, with
    /// the default class (nothing moves) and with the opt-in that lets the record move.
    case deviceRestore = "device-restore"

    /// The event the `turn`-th playing life plays.
    static func played(byLife turn: Int) -> DeviceEvent {
        allCases[turn % allCases.count]
    }

    /// The planted defect this event exists to catch.
    public var plantedDefect: HarnessSabotage {
        switch self {
        case .signOutAgainstMigration: .client(Sabotage(name: "sign-out-deletes-record")!)
        case .twoClientsOneStore: .client(Sabotage(name: "timer-keeps-client")!)
        case .updateMovesTheRecord: .updateForgetsEarlierItem
        case .prewarmedLaunch: .client(Sabotage(name: "locked-store-signs-out")!)
        case .widgetSharesSession: .client(Sabotage(name: "restore-keeps-memory")!)
        case .deviceRestore: .deviceMarkerMoves
        }
    }

    /// The invariant this event checks, as the report's table names it.
    public var invariant: String {
        switch self {
        case .signOutAgainstMigration:
            "sign-out against migration: launches after a sign-out that came back signed in, or sent the blob's tokens"
        case .twoClientsOneStore:
            "two clients on one store: refresh tokens sent more than once, or a dropped client that spoke"
        case .updateMovesTheRecord:
            "update and downgrade: people signed out, or records destroyed, by a change of where the session lives"
        case .prewarmedLaunch:
            "prewarmed launch: signed-out states published, writes while locked, or sessions not back after the unlock"
        case .widgetSharesSession:
            "widget: the signed-out person's tokens sent by the widget, or the widget left on them"
        case .deviceRestore:
            "device restore: a restored copy's refresh token sent, or a device signed out by reuse detection"
        }
    }
}

/// What one device event did, and what it broke.
public struct DeviceEventReport: Sendable {
    public var event: DeviceEvent
    /// Each broken rule, in words; empty when the event held its invariant.
    public var violations: [String] = []
    /// The event's steps, for a failing event's report.
    public var trace: [String] = []
    /// HTTP requests the event's processes sent.
    public var requests = 0

    init(event: DeviceEvent) { self.event = event }

    mutating func expect(_ condition: Bool, _ violation: @autoclosure () -> String) {
        if !condition { violations.append(violation()) }
    }
}
