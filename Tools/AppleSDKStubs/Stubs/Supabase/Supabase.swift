// Interface stub of supabase-swift's `Supabase` module: only the declarations
// the documentation's blocks use (MovingFromSupabaseSwift.md), each with the
// signature supabase-swift 2.x declares (Sources/Supabase/Types.swift,
// SupabaseClient.swift; Sources/Auth/Types.swift, AuthClient.swift). The
// names that clash with SessionKit's (`Session`, `User`, `UserAttributes`,
// `SignOutScope`) are here so a block that imports both must qualify them,
// as an app must. Never built into anything an app resolves (../../check.sh).
import Foundation

public struct Session: Codable, Hashable, Sendable {
    public var accessToken: String
    public var refreshToken: String
    public var expiresAt: TimeInterval
}

public struct User: Codable, Hashable, Identifiable, Sendable {
    public var id: UUID
    public var email: String?
}

public struct UserAttributes: Encodable, Hashable, Sendable {
    public var email: String?
    public var password: String?
    public init(email: String? = nil, password: String? = nil) {
        self.email = email
        self.password = password
    }
}

public enum SignOutScope: String, Sendable {
    case global, local, others
}

public enum AuthFlowType: Sendable {
    case implicit, pkce
}

public actor AuthClient {
    public func signOut(scope: SignOutScope = .global) async throws { stub() }
    public var session: Session { get async throws { stub() } }
    public func update(user: UserAttributes, redirectTo: URL? = nil) async throws -> User { stub() }
}

public struct SupabaseClientOptions: Sendable {
    public struct AuthOptions: Sendable {
        // The Apple-platform initialiser (supabase-swift's default Keychain storage).
        public init(
            redirectToURL: URL? = nil,
            storageKey: String? = nil,
            flowType: AuthFlowType = .pkce,
            autoRefreshToken: Bool = true,
            accessToken: (@Sendable () async throws -> String?)? = nil
        ) { stub() }
    }

    public init(auth: AuthOptions) { stub() }
}

public final class SupabaseClient: Sendable {
    public init(supabaseURL: URL, supabaseKey: String, options: SupabaseClientOptions) { stub() }
    public var auth: AuthClient { stub() }
}

func stub() -> Never { fatalError("supabase-swift interface stub: type-checking only") }
