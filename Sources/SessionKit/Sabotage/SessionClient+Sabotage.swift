import Foundation

extension SessionClient {
    /// The error the `sticky-failure` sabotage answers; always nil without the trait.
    func stuckFailure() -> SessionError? {
        #if Sabotage
        return StuckFailures.shared.error(for: ObjectIdentifier(self))
        #else
        return nil
        #endif
    }

    /// Keeps the first failed refresh's error for the `sticky-failure` sabotage.
    func keepStuckFailure(_ error: SessionError) {
        #if Sabotage
        StuckFailures.shared.keepFirst(error, for: ObjectIdentifier(self))
        #endif
    }

    /// True when `defect` is planted in this client. Always `false` in a build
    /// without the `Sabotage` trait, so the checks cost nothing in an app.
    /// Nonisolated: it reads only a `let`, and `send`'s path beside the actor asks it too.
    @inline(__always)
    nonisolated func planted(_ defect: PlantedDefect) -> Bool {
        #if Sabotage
        return plantedDefect == defect
        #else
        return false
        #endif
    }
}

#if Sabotage
/// A planted client defect, for the chaos harness only (`reliability --sabotage NAME`).
///
/// Exists only with the package trait `Sabotage`, which the Server package
/// enables for its harness and tests; no app build can name it.
public struct Sabotage: Sendable, Hashable, CustomStringConvertible {
    let defect: PlantedDefect

    /// The sabotage called `name` (as `--list-sabotages` prints it), if any.
    public init?(name: String) {
        guard let defect = PlantedDefect(rawValue: name) else { return nil }
        self.defect = defect
    }

    /// Every sabotage, in a stable order.
    public static let all: [Sabotage] = PlantedDefect.allCases.map { Sabotage(defect: $0) }

    init(defect: PlantedDefect) { self.defect = defect }

    public var name: String { defect.rawValue }
    public var description: String { name }
}

extension SessionClient {
    /// A client with `sabotage` planted (nil: none). For the chaos harness only.
    public init(configuration: SessionClientConfiguration, sabotage: Sabotage?) {
        self.init(configuration: configuration, plantedDefect: sabotage?.defect)
    }
}
#endif

#if Sabotage
/// The `sticky-failure` sabotage's memory, beside the clients rather than in
/// them: a stored property for it in `SessionClient` (conditional or not) made
/// the Server package's tests crash copying a `SessionState` (a bad pointer in
/// `swift_retain`), so a planted defect stays out of the client's layout.
final class StuckFailures: @unchecked Sendable {
    static let shared = StuckFailures()
    // `@unchecked`: `errors` is only touched under `lock`.
    private let lock = NSLock()
    private var errors: [ObjectIdentifier: SessionError] = [:]

    func error(for client: ObjectIdentifier) -> SessionError? { lock.withLock { errors[client] } }

    func keepFirst(_ error: SessionError, for client: ObjectIdentifier) {
        lock.withLock { if errors[client] == nil { errors[client] = error } }
    }
}
#endif
