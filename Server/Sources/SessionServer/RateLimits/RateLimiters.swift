import Foundation

/// Every limiter of the server, built once from ``RateLimitRule/all``: shared
/// by every replica on PostgreSQL, this process's own on SQLite
/// (docs/DESIGN.md, "Rate limits").
struct RateLimiters: Sendable {
    private let limiters: [String: any RateLimiting]

    init(configuration: AuthServerConfiguration, store: AuthStore) {
        var limiters: [String: any RateLimiting] = [:]
        for rule in RateLimitRule.all {
            let limit = rule.limit(in: configuration)
            let limiter: any RateLimiting =
                switch store.flavor {
                case .postgres:
                    SharedRateLimiter(store: store, name: rule.name, limit: limit, window: rule.window, clock: configuration.clock)
                case .sqlite:
                    RateLimiter(limit: limit, window: rule.window, clock: configuration.clock, width: rule.sketchWidth)
                }
            limiters[rule.name] = limiter
        }
        self.limiters = limiters
    }

    /// The limiter of `rule`, which ``RateLimitRule/all`` lists.
    subscript(_ rule: RateLimitRule) -> any RateLimiting {
        guard let limiter = limiters[rule.name] else {
            // A programming error, found by the first test that takes the route: the rule is missing from the table.
            preconditionFailure("The rate limit '\(rule.name)' is not in RateLimitRule.all")
        }
        return limiter
    }
}
