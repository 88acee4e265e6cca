import SessionCore

/// The user's factors, as supabase-swift's `listFactors()` groups them.
public struct MFAFactors: Sendable, Hashable {
    /// Every factor, verified or not.
    public var all: [UserFactor]
    /// The verified TOTP factors: the ones a code can be asked for.
    public var totp: [UserFactor]

    public init(all: [UserFactor]) {
        self.all = all
        self.totp = all.filter { $0.factorType == "totp" && $0.isVerified }
    }
}
