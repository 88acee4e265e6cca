extension SessionClient {
    /// True when `defect` is planted in this client. Always `false` in a build
    /// without the `Sabotage` trait, so the checks cost nothing in an app.
    @inline(__always)
    func planted(_ defect: PlantedDefect) -> Bool {
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
