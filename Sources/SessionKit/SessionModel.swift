#if canImport(Observation)
import Foundation
import Observation
import SessionCore

/// The session for SwiftUI: where the person stands, who they are, and the
/// last error worth showing, kept up to date from the client's streams.
///
/// ```swift
/// @main struct MyApp: App {
///     @State private var model = SessionModel(client: AppSession.client)
///     var body: some Scene {
///         WindowGroup {
///             Group {
///                 switch model.phase {
///                 case .restoring: ProgressView()          // never the sign-in screen while reading
///                 case .signedIn: ContentView()
///                 case .signedOut: SignInView()
///                 }
///             }
///             .environment(model)
///             .task { await model.run() }
///         }
///     }
/// }
/// ```
///
/// The phase is ``Phase/restoring`` until the client has read its store, so
/// a person who is signed in never sees the sign-in screen flash at launch.
@Observable @MainActor
public final class SessionModel {
    /// What the app shows, from ``SessionModel/state``.
    public enum Phase: Sendable, Hashable {
        /// The stored session is still being read: show neither screen.
        case restoring
        /// Signed in: online, offline or needing attention (see ``SessionModel/state``).
        case signedIn
        /// Show the sign-in screen, with ``SessionModel/lastError``'s message once, if any.
        case signedOut

        /// The phase a state shows as.
        public init(_ state: SessionState) {
            switch state {
            case .restoring: self = .restoring
            case .signedIn, .offline, .needsAttention: self = .signedIn
            case .signedOut, .expired: self = .signedOut
            }
        }
    }

    /// The client this model follows.
    public let client: SessionClient
    /// Where the person stands, as the client last published it.
    public private(set) var state: SessionState
    /// The last error the person should hear about: one thrown by an action
    /// of this model, the end of the session (the state's `expired` reason, as
    /// ``SessionError/sessionExpired`` with that message), or a session that
    /// could not be saved. Outages are not errors here: they show in ``state`` (`offline`,
    /// `needsAttention`). Cleared by an action that succeeds, a sign-in, and ``clearError()``.
    public private(set) var lastError: SessionError?

    /// What to show.
    public var phase: Phase { Phase(state) }
    /// True while the stored session is being read.
    public var isRestoring: Bool { phase == .restoring }
    /// True when signed in (online, offline or needing attention).
    public var isSignedIn: Bool { state.isSignedIn }
    /// The signed-in person, if the server named them.
    public var user: SessionUser? { state.session?.user }

    /// - Parameter client: the app's one client; the model starts from its current state.
    public init(client: SessionClient) {
        self.client = client
        self.state = client.currentState
    }

    /// Follows the client and restores the stored session; returns when the
    /// calling task is cancelled or the client shuts down. Call it from `.task`.
    public func run() async {
        // Subscribed before restoring: the streams start with the current state, so nothing is missed.
        let states = client.states
        let events = client.events
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await state in states { await self.apply(state) }
            }
            group.addTask {
                for await event in events { await self.apply(event) }
            }
            group.addTask { await self.restore() }
            await group.waitForAll()
        }
    }

    /// Reads the stored session (``SessionClient/restore()``).
    public func restore() async {
        await perform { client throws(SessionError) in _ = try await client.restore() }
    }

    /// Signs in with email and password.
    ///
    /// - Returns: whether it succeeded; otherwise ``lastError`` says why.
    @discardableResult
    public func signIn(email: String, password: String) async -> Bool {
        await perform { client throws(SessionError) in _ = try await client.signIn(email: email, password: password) }
    }

    /// Signs in with an OAuth provider in a web authentication session.
    ///
    /// - Returns: whether it succeeded; otherwise ``lastError`` says why (a cancelled sheet is ``SessionError/oauthDenied``).
    @discardableResult
    public func signIn(
        provider: String, redirectTo: URL, scopes: [String] = [], presenter: any WebAuthenticationPresenter
    ) async -> Bool {
        await perform { client throws(SessionError) in
            _ = try await WebOAuthSignIn(client: client, presenter: presenter)
                .signIn(provider: provider, redirectTo: redirectTo, scopes: scopes)
        }
    }

    /// Creates an account (``SessionClient/signUp(email:password:data:)``).
    ///
    /// - Returns: what it came to (signed in, or "confirm your email"), or
    ///   `nil` when it failed; ``lastError`` then says why.
    @discardableResult
    public func signUp(email: String, password: String, data: [String: JSONValue]? = nil) async -> SignUpResult? {
        await attempt { client throws(SessionError) in try await client.signUp(email: email, password: password, data: data) }
    }

    /// Signs in with tokens your own backend obtained
    /// (``SessionClient/importSession(accessToken:refreshToken:expiresIn:user:)``).
    @discardableResult
    public func importSession(accessToken: String, refreshToken: String, expiresIn: TimeInterval? = nil) async -> Bool {
        await perform { client throws(SessionError) in
            _ = try await client.importSession(accessToken: accessToken, refreshToken: refreshToken, expiresIn: expiresIn)
        }
    }

    /// Changes the profile on `auth-server` (``SessionClient/updateProfile(_:)``).
    @discardableResult
    public func updateProfile(_ update: ProfileUpdate) async -> Bool {
        await perform { client throws(SessionError) in _ = try await client.updateProfile(update) }
    }

    /// Changes the email, password or metadata (``SessionClient/updateUser(_:)``), hosted Supabase included.
    @discardableResult
    public func updateUser(_ attributes: UserAttributes) async -> Bool {
        await perform { client throws(SessionError) in _ = try await client.updateUser(attributes) }
    }

    /// Deletes the account (``SessionClient/deleteAccount(currentPassword:nonce:)``).
    ///
    /// - Returns: whether it succeeded; with ``SessionError/reauthenticationRequired``
    ///   in ``lastError``, ask for the password (or call ``reauthenticate()``
    ///   and ask for the mailed code) and call again with it.
    @discardableResult
    public func deleteAccount(currentPassword: String? = nil, nonce: String? = nil) async -> Bool {
        await perform { client throws(SessionError) in
            try await client.deleteAccount(currentPassword: currentPassword, nonce: nonce)
        }
    }

    /// Mails a code that proves presence (``SessionClient/reauthenticate()``).
    @discardableResult
    public func reauthenticate() async -> Bool {
        await perform { client throws(SessionError) in try await client.reauthenticate() }
    }

    /// Signs out (``SessionClient/signOut(scope:)``).
    @discardableResult
    public func signOut(scope: SignOutScope = .local) async -> Bool {
        await perform { client throws(SessionError) in try await client.signOut(scope: scope) }
    }

    /// Forgets ``lastError`` (the person has seen it).
    public func clearError() {
        lastError = nil
    }

    @discardableResult
    func perform(_ action: @Sendable (SessionClient) async throws(SessionError) -> Void) async -> Bool {
        await attempt(action) != nil
    }

    /// Runs `action`, keeping its error in ``lastError``; `nil` when it failed.
    func attempt<Value: Sendable>(
        _ action: @Sendable (SessionClient) async throws(SessionError) -> Value
    ) async -> Value? {
        do throws(SessionError) {
            let value = try await action(client)
            // What failed before is behind the person now.
            lastError = nil
            return value
        } catch {
            lastError = error
            return nil
        }
    }

    func apply(_ state: SessionState) {
        // The end of a session is told once: on the change into `expired`,
        // not again when a new `run()` replays the current state.
        if case .expired(let reason) = state, self.state != state {
            // The kind the client ended it with (a suspended account stays `accountSuspended`).
            let ending = client.broadcaster.endingError.flatMap { $0.message == reason ? $0 : nil }
            lastError = ending ?? SessionError.sessionExpired.with(message: reason)
        }
        // A launch read that failed while the device was locked and succeeded when retried is behind the person.
        if Phase(state) != .restoring, lastError == .storeUnavailable { lastError = nil }
        self.state = state
    }

    func apply(_ event: SessionEvent) {
        switch event {
        case .signedIn:
            lastError = nil
        case .persistenceFailed(let error):
            lastError = error
        case .initialSession, .sessionExpired, .tokenRefreshed, .refreshFailed, .signedOut, .offline, .online, .adoptedStoredSession, .userUpdated:
            // Reflected in `state`, or nothing the person must act on.
            break
        }
    }
}
#endif
