import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The seed apps' case: a `supabase_session` blob in UserDefaults, imported on
/// first launch and then removed, with nothing lost if the app dies halfway.
struct LegacySessionMigrationTests {
    static let key = "supabase_session"

    /// Real UserDefaults, in a suite of its own, removed afterwards.
    struct Defaults {
        let suiteName = "sessionkit-migration-\(UUID().uuidString)"
        var store: UserDefaultsLegacySource { UserDefaultsLegacySource(suiteName: suiteName) }

        func write(_ tokens: TokenResponse, expiresAt: String? = nil) throws {
            let expiry = expiresAt ?? tokens.expiresAt.map(String.init) ?? "null"
            let json = #"{"accessToken":"\#(tokens.accessToken)","refreshToken":"\#(tokens.refreshToken)","expiresAt":\#(expiry),"user":{"id":"\#(tokens.user?.id ?? "")","email":"\#(tokens.user?.email ?? "")"}}"#
            try #require(UserDefaults(suiteName: suiteName)).set(Data(json.utf8), forKey: key)
        }

        func remove() {
            UserDefaults(suiteName: suiteName)?.removePersistentDomain(forName: suiteName)
        }
    }

    /// What the app dying between the import and the removal leaves: removal never happens.
    struct DiesBeforeRemoving: LegacyKeyValueSource {
        let base: any LegacyKeyValueSource
        func data(forKey key: String) -> Data? { base.data(forKey: key) }
        func removeValue(forKey key: String) {}
    }

    static func held(_ f: Fixture) async throws -> TokenResponse {
        try #require(await f.fake.issueSession(email: Fixture.email))
    }

    @Test func importsOnFirstLaunchThenRemovesTheBlob() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        let held = try await Self.held(f)
        try defaults.write(held)
        let migration = LegacySessionMigration(legacyStore: defaults.store, key: Self.key)

        let outcome = await migration.run(on: f.client)
        guard case .imported(let session) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(session.refreshToken == held.refreshToken)
        #expect(try await f.store.load()?.refreshToken == held.refreshToken)
        #expect(defaults.store.data(forKey: Self.key) == nil)
        // Restored at launch after it: signed in, no sign-in screen.
        #expect(try await f.client.restore() == .signedIn(session))
        // The next launch has nothing to do.
        #expect(await migration.run(on: f.client) == .nothingToMigrate)
    }

    /// The blob is stored as a JSON string rather than data: read the same.
    @Test func readsABlobStoredAsAString() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        let held = try await Self.held(f)
        let json = #"{"accessToken":"\#(held.accessToken)","refreshToken":"\#(held.refreshToken)","expiresAt":"2026-01-01T01:00:00Z"}"#
        try #require(UserDefaults(suiteName: defaults.suiteName)).set(json, forKey: Self.key)
        let outcome = await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client)
        #expect(outcome == .imported(try #require(await f.client.currentSession)))
        #expect(defaults.store.data(forKey: Self.key) == nil)
    }

    /// The import refreshed (spending the blob's refresh token) and was saved;
    /// the app died before removing the blob. The next launch must not import
    /// the spent token again: it sees the saved session and only removes the blob.
    @Test func nothingIsLostWhenTheAppDiesHalfway() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        let held = try await Self.held(f)
        try defaults.write(held)
        f.expireAccessToken()

        let first = await LegacySessionMigration(legacyStore: DiesBeforeRemoving(base: defaults.store)).run(on: f.client)
        guard case .imported(let imported) = first else { Issue.record("got \(first)"); return }
        #expect(defaults.store.data(forKey: Self.key) != nil)
        #expect(await f.fake.count(.refresh) == 1)

        // Next launch: a new client on the same store and server.
        let next = await Fixture.make(store: f.store, clock: f.clock, fake: f.fake, launchValidation: .skip)
        #expect(await LegacySessionMigration(legacyStore: defaults.store).run(on: next.client) == .alreadyMigrated)
        #expect(defaults.store.data(forKey: Self.key) == nil)
        #expect(await f.fake.count(.refresh) == 1)
        #expect(try await next.client.restore().session?.refreshToken == imported.refreshToken)
        #expect(await f.fake.isFamilyActive(refreshToken: imported.refreshToken))
    }

    /// Died (or failed to save) before the import was persisted: the blob is still the only copy, and is kept.
    @Test func aSessionNotSavedYetKeepsTheBlob() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let flaky = FlakySessionStore(wrapping: InMemorySessionStore())
        let f = await Fixture.make(store: flaky)
        let held = try await Self.held(f)
        try defaults.write(held)
        await flaky.failNextSaves(1)
        let migration = LegacySessionMigration(legacyStore: defaults.store)

        #expect(await migration.run(on: f.client) == .postponed(.persistenceFailed))
        #expect(defaults.store.data(forKey: Self.key) != nil)

        let next = await Fixture.make(store: flaky, clock: f.clock, fake: f.fake)
        guard case .imported = await migration.run(on: next.client) else { Issue.record("not imported"); return }
        #expect(try await flaky.load()?.refreshToken == held.refreshToken)
        #expect(defaults.store.data(forKey: Self.key) == nil)
    }

    @Test func aSessionTheServerEndedIsDiscarded() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        let held = try await Self.held(f)
        try defaults.write(held)
        await f.fake.revokeFamily(ofRefreshToken: held.refreshToken)
        f.expireAccessToken()

        #expect(await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client) == .discarded(.sessionExpired))
        #expect(defaults.store.data(forKey: Self.key) == nil)
        #expect(try await f.store.load() == nil)
        #expect(try await f.client.restore() == .signedOut)
    }

    /// First launch offline: the person stays signed in with the imported tokens, saved.
    @Test func anOfflineFirstLaunchKeepsThePersonSignedIn() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        let held = try await Self.held(f)
        try defaults.write(held)
        f.expireAccessToken()
        await f.fake.inject(.drop(.notConnectedToInternet), on: .refresh)

        let outcome = await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client)
        guard case .imported(let session) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(f.client.currentState == .offline(session))
        #expect(try await f.store.load()?.refreshToken == held.refreshToken)
        #expect(defaults.store.data(forKey: Self.key) == nil)
    }

    /// Shapes this version cannot read are kept, never deleted: a later release may read them.
    @Test(arguments: [
        #"{"user":{}}"#,
        #"{"session":{"token":"abc.def.ghi","refresh":"Zp9QkR2mXw4L"}}"#,
        #"{"jwt":"abc.def.ghi","rt":"Zp9QkR2mXw4L","exp":1767229200}"#,
        #"{"accessToken":"abc.def.ghi"}"#,
        "not json at all",
    ])
    func anUnrecognisedBlobIsKept(blob: String) async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        try #require(UserDefaults(suiteName: defaults.suiteName)).set(Data(blob.utf8), forKey: Self.key)
        #expect(await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client) == .unrecognised(.decoding))
        #expect(defaults.store.data(forKey: Self.key) == Data(blob.utf8))
        #expect(try await f.store.load() == nil)
    }

    /// Tokens of a shape the import refuses (a newline inside): maybe misread, so kept too.
    @Test func tokensTheImportRefusesKeepTheBlob() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        let blob = #"{"accessToken":"abc\ndef","refreshToken":"Zp9QkR2mXw4L"}"#
        try #require(UserDefaults(suiteName: defaults.suiteName)).set(Data(blob.utf8), forKey: Self.key)
        #expect(await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client) == .unrecognised(.invalidRequest))
        #expect(defaults.store.data(forKey: Self.key) != nil)
    }

    /// The shapes real apps stored, each imported with its own tokens.
    @Test(arguments: RealBlob.allCases)
    func readsTheShapesRealAppsStored(shape: RealBlob) async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        let held = try await Self.held(f)
        try #require(UserDefaults(suiteName: defaults.suiteName)).set(try shape.blob(held), forKey: Self.key)
        let outcome = await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client)
        guard case .imported(let session) = outcome else { Issue.record("\(shape): got \(outcome)"); return }
        #expect(session.refreshToken == held.refreshToken)
        #expect(session.user?.email == Fixture.email)
        #expect(defaults.store.data(forKey: Self.key) == nil)
        // Still valid: confirmed with the server, not refreshed.
        #expect(await f.fake.count(.refresh) == 0)
    }

    /// Signed in and out since the blob was written: the store's sign-out record
    /// says so, and the blob never signs the person back in.
    @Test func aSignOutRecordCountsAsMigrated() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        try await f.signIn()
        try await f.client.signOut()
        let leftover = try #require(await f.fake.issueSession(email: Fixture.email))
        try defaults.write(leftover)

        let next = await Fixture.make(store: f.store, clock: f.clock, fake: f.fake)
        #expect(await LegacySessionMigration(legacyStore: defaults.store).run(on: next.client) == .alreadyMigrated)
        #expect(defaults.store.data(forKey: Self.key) == nil)
        #expect(try await next.client.restore() == .signedOut)
        #expect(await f.fake.count(.refresh) + f.fake.count(.user) == 0)
    }

    /// A blob kept (unrecognised) goes when the person signs out.
    @Test func aSignOutRemovesTheKeptBlob() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        try #require(UserDefaults(suiteName: defaults.suiteName)).set(Data(#"{"jwt":"a.b.c"}"#.utf8), forKey: Self.key)
        #expect(await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client) == .unrecognised(.decoding))
        try await f.signIn()
        #expect(defaults.store.data(forKey: Self.key) != nil)
        try await f.client.signOut()
        #expect(defaults.store.data(forKey: Self.key) == nil)
    }

    /// A store that cannot be read now (a locked device) could hold the session already: wait.
    @Test func anUnreadableStorePostponesTheMigration() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let flaky = FlakySessionStore(wrapping: InMemorySessionStore())
        let f = await Fixture.make(store: flaky)
        try defaults.write(try await Self.held(f))
        await flaky.failNextLoads(1)
        #expect(await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client) == .postponed(.storeUnavailable))
        #expect(defaults.store.data(forKey: Self.key) != nil)
        #expect(await f.fake.count(.user) + f.fake.count(.refresh) == 0)
    }

    @Test func noBlobIsNothingToDo() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        #expect(await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client) == .nothingToMigrate)
    }
}

/// Blobs as the apps that adopt SessionKit wrote them.
enum RealBlob: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The seed app: a Codable struct through `JSONEncoder()` with its default
    /// date strategy (seconds since 2001), the user's dates too.
    case seedApp
    /// A Supabase session's JSON, snake_case, as GoTrue answered it.
    case supabaseBare
    /// supabase-swift's stored form: the session nested under `session`, the expiry beside it.
    case supabaseNested
    /// The seed app's dictionary saved with `set(_:forKey:)`, read back as a property list.
    case propertyList

    var testDescription: String { rawValue }

    struct SeedUser: Codable { var id: String; var email: String; var createdAt: Date }
    struct SeedSession: Codable { var accessToken: String; var refreshToken: String; var expiresAt: Date; var user: SeedUser }

    func blob(_ held: TokenResponse) throws -> Data {
        let expiresAt = Date(timeIntervalSince1970: TimeInterval(held.expiresAt ?? 0))
        let id = held.user?.id ?? ""
        let supabase = #"""
            {"access_token":"\#(held.accessToken)","token_type":"bearer","expires_in":3600,"expires_at":\#(held.expiresAt ?? 0),
            "refresh_token":"\#(held.refreshToken)","user":{"id":"\#(id)","aud":"authenticated","role":"authenticated",
            "email":"\#(Fixture.email)","email_confirmed_at":"2025-03-02T10:11:12.345678Z","phone":"",
            "app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"email_verified":true},
            "identities":[{"identity_id":"4f3c","id":"\#(id)","user_id":"\#(id)","identity_data":{"email":"\#(Fixture.email)"},
            "provider":"email","last_sign_in_at":"2025-03-02T10:11:12.345678Z","created_at":"2025-03-02T10:11:12.345678Z",
            "updated_at":"2025-03-02T10:11:12.345678Z","email":"\#(Fixture.email)"}],"created_at":"2025-03-02T10:11:12.345678Z",
            "updated_at":"2025-06-01T08:00:00.000000Z","is_anonymous":false}}
            """#
        switch self {
        case .seedApp:
            let seed = SeedSession(
                accessToken: held.accessToken, refreshToken: held.refreshToken, expiresAt: expiresAt,
                user: SeedUser(id: id, email: Fixture.email, createdAt: Date(timeIntervalSince1970: 1_740_000_000)))
            return try JSONEncoder().encode(seed)
        case .supabaseBare:
            return Data(supabase.utf8)
        case .supabaseNested:
            return Data(#"{"session":\#(supabase),"expirationDate":"\#(WireCoding.formatDate(expiresAt))"}"#.utf8)
        case .propertyList:
            let dictionary: [String: Any] = [
                "accessToken": held.accessToken, "refreshToken": held.refreshToken, "expiresAt": expiresAt,
                "user": ["id": id, "email": Fixture.email],
            ]
            return try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        }
    }
}
