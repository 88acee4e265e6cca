/// A figure's target: met when the median over repetitions meets it.
struct Goal: Sendable, CustomStringConvertible {
    let description: String
    private let test: @Sendable (Double) -> Bool

    private init(_ description: String, _ test: @escaping @Sendable (Double) -> Bool) {
        self.description = description
        self.test = test
    }

    static func atMost(_ limit: Double, _ shown: String? = nil) -> Goal {
        Goal("≤ \(shown ?? Format.compact(limit))") { $0 <= limit }
    }

    static func atLeast(_ floor: Double, _ shown: String? = nil) -> Goal {
        Goal("≥ \(shown ?? Format.compact(floor))") { $0 >= floor }
    }

    static func exactly(_ value: Double) -> Goal {
        Goal(Format.compact(value)) { $0 == value }
    }

    func isMet(by value: Double) -> Bool { !value.isNaN && test(value) }
}
