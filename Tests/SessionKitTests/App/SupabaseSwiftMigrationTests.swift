import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// An app that replaces supabase-swift's `Auth` keeps its people signed in:
/// the session supabase-swift kept in the Keychain is imported once, removed
/// only when saved, kept when unreadable, and never brought back after a sign-out.
///
/// The items are planted as supabase-swift's `KeychainLocalStorage` writes them
/// (generic password, account = storage key, service = bundle id or
/// `supabase.gotrue.swift`), their bytes as its three encoders wrote a `Session`.
struct SupabaseSwiftMigrationTests {
    static let bundleID = "com.example.app"
    static let projectURL = URL(string: "https://abcdefghijklmnop.supabase.co")!
    static let currentKey = "sb-abcdefghijklmnop-auth-token"

    /// The encodings supabase-swift has written a session in.
    enum Encoding: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Today's: `JSONEncoder()` on `Session`: camelCase keys, `Date`s as seconds since 2001.
        case plainEncoder
        /// Before its `useDefaultEncoder` migration: snake_case keys, ISO-8601 dates.
        case snakeCase
        /// Before its `storeSessionDirectly` migration: `{"session": …, "expiration_date": …}`.
        case storedSessionWrapper

        var testDescription: String { rawValue }

        func bytes(_ held: TokenResponse) -> Data {
            // supabase-swift's `User.id` is a `UUID`: JSONEncoder writes it upper-case.
            let id = (held.user?.id ?? "").uppercased()
            let expiresAt = held.expiresAt ?? 0
            let snake = #"""
                {"access_token":"\#(held.accessToken)","token_type":"bearer","expires_in":3600,"expires_at":\#(expiresAt),\#
                "refresh_token":"\#(held.refreshToken)","user":{"id":"\#(id)","app_metadata":{"provider":"email","providers":["email"]},\#
                "user_metadata":{},"aud":"authenticated","email":"\#(Fixture.email)","created_at":"2025-03-02T10:11:12.345Z",\#
                "updated_at":"2025-06-01T08:00:00.000Z","role":"authenticated","is_anonymous":false}}
                """#
            switch self {
            case .plainEncoder:
                return Data(#"""
                    {"accessToken":"\#(held.accessToken)","tokenType":"bearer","expiresIn":3600,"expiresAt":\#(expiresAt),\#
                    "refreshToken":"\#(held.refreshToken)","user":{"id":"\#(id)","appMetadata":{"provider":"email","providers":["email"]},\#
                    "userMetadata":{},"aud":"authenticated","email":"\#(Fixture.email)","createdAt":762608472.345,\#
                    "updatedAt":770457600,"role":"authenticated","isAnonymous":false}}
                    """#.utf8)
            case .snakeCase:
                return Data(snake.utf8)
            case .storedSessionWrapper:
                let expiry = WireCoding.formatDate(Date(timeIntervalSince1970: TimeInterval(expiresAt)))
                return Data(#"{"session":\#(snake),"expiration_date":"\#(expiry)"}"#.utf8)
            }
        }
    }

    struct Setup {
        let f: Fixture
        let keychain: InMemoryKeychain
        let source: SupabaseSwiftKeychainSource
        var migration: SupabaseSwiftMigration { SupabaseSwiftMigration(source: source, supabaseURL: SupabaseSwiftMigrationTests.projectURL) }

        func plant(_ data: Data, key: String, service: String = SupabaseSwiftMigrationTests.bundleID) {
            keychain.plant(data, for: source.item(service: service, key: key))
        }

        func holds(key: String, service: String = SupabaseSwiftMigrationTests.bundleID) -> Bool {
            keychain.storedItem(source.item(service: service, key: key)) != nil
        }

        func held() async throws -> TokenResponse {
            try #require(await f.fake.issueSession(email: Fixture.email))
        }
    }

    static func setup(protectedData: (any ProtectedDataAvailability)? = nil) async -> Setup {
        let f = await Fixture.make()
        let keychain = InMemoryKeychain()
        let source = SupabaseSwiftKeychainSource(keychain: keychain, bundleIdentifier: bundleID, protectedData: protectedData)
        return Setup(f: f, keychain: keychain, source: source)
    }

    @Test func theStorageKeysAreSupabaseSwiftsNewestFirst() {
        #expect(SupabaseSwiftMigration.storageKeys(supabaseURL: Self.projectURL)
            == [Self.currentKey, "supabase.auth.token", "supabase.session"])
        #expect(SupabaseSwiftMigration.storageKeys(supabaseURL: Self.projectURL, storageKey: "my-key").first == "my-key")
        #expect(SupabaseSwiftMigration.storageKeys(supabaseURL: nil) == ["supabase.auth.token", "supabase.session"])
        #expect(SupabaseSwiftKeychainSource(keychain: InMemoryKeychain(), bundleIdentifier: Self.bundleID).services
            == [Self.bundleID, "supabase.gotrue.swift"])
    }

    @Test(arguments: Encoding.allCases, [currentKey, "supabase.auth.token", "supabase.session"])
    func importsEachEncodingAtEachKeyThenRemovesIt(encoding: Encoding, key: String) async throws {
        let s = await Self.setup()
        let held = try await s.held()
        s.plant(encoding.bytes(held), key: key)
        let outcome = await s.migration.run(on: s.f.client)
        guard case .imported(let session) = outcome else { Issue.record("\(encoding) at \(key): got \(outcome)"); return }
        #expect(session.refreshToken == held.refreshToken)
        #expect(try await s.f.store.load()?.refreshToken == held.refreshToken)
        #expect(!s.holds(key: key))
        // Unexpired: confirmed with the server, not refreshed.
        #expect(await s.f.fake.count(.refresh) == 0)
    }

    /// Written by supabase-swift before its version 3, under its fixed service.
    @Test func findsTheItemAtTheServiceOfOlderVersions() async throws {
        let s = await Self.setup()
        let held = try await s.held()
        s.plant(Encoding.storedSessionWrapper.bytes(held), key: "supabase.session", service: "supabase.gotrue.swift")
        guard case .imported = await s.migration.run(on: s.f.client) else { Issue.record("not imported"); return }
        #expect(!s.holds(key: "supabase.session", service: "supabase.gotrue.swift"))
    }

    /// An older copy is removed, never sent: its refresh token may be an ancestor of the newer one's.
    @Test func anOlderCopyIsRemovedNotImported() async throws {
        let s = await Self.setup()
        let newer = try await s.held()
        s.plant(Encoding.plainEncoder.bytes(newer), key: Self.currentKey)
        s.plant(Data(#"{"session":{"access_token":"old.old.old","refresh_token":"OldRefresh123"},"expiration_date":"2025-01-01T00:00:00Z"}"#.utf8),
            key: "supabase.session", service: "supabase.gotrue.swift")
        guard case .imported(let session) = await s.migration.run(on: s.f.client) else { Issue.record("not imported"); return }
        #expect(session.refreshToken == newer.refreshToken)
        #expect(!s.holds(key: "supabase.session", service: "supabase.gotrue.swift"))
        #expect(await s.f.fake.count(.refresh) == 0)
    }

    @Test func anUnreadableItemIsKeptUntilASignOut() async throws {
        let s = await Self.setup()
        s.plant(Data("not a session".utf8), key: Self.currentKey)
        #expect(await s.migration.run(on: s.f.client) == .unrecognised(.decoding))
        #expect(s.holds(key: Self.currentKey))
        try await s.f.signIn()
        try await s.f.client.signOut()
        #expect(!s.holds(key: Self.currentKey))
    }

    /// A locked device: the Keychain refuses the read. Not "nothing to migrate": postponed, kept.
    @Test func aLockedKeychainPostponesAndKeepsTheItem() async throws {
        let s = await Self.setup()
        let held = try await s.held()
        s.plant(Encoding.plainEncoder.bytes(held), key: Self.currentKey)
        s.keychain.failNext(.copy, with: .interactionNotAllowed)
        #expect(await s.migration.run(on: s.f.client) == .postponed(.storeUnavailable))
        #expect(s.holds(key: Self.currentKey))
        #expect(try await s.f.store.load() == nil)
        // The next launch, unlocked, imports it.
        guard case .imported = await s.migration.run(on: s.f.client) else { Issue.record("not imported"); return }
    }

    /// Before the first unlock iOS may answer "no such item" for an item that is there: the probe says so first.
    @Test func protectedDataNotAvailableYetPostpones() async throws {
        let protectedData = ScriptedProtectedData(isAvailable: false)
        let s = await Self.setup(protectedData: protectedData)
        s.plant(Encoding.plainEncoder.bytes(try await s.held()), key: Self.currentKey)
        s.keychain.failNext(.copy, with: .itemNotFound, times: 3)
        #expect(await s.migration.run(on: s.f.client) == .postponed(.storeUnavailable))
        #expect(s.holds(key: Self.currentKey))
    }

    /// Signed in and out with SessionKit since: the leftover item never signs the person back in.
    @Test func aSignOutRecordMeansMigratedAndTheItemGoes() async throws {
        let s = await Self.setup()
        try await s.f.signIn()
        try await s.f.client.signOut()
        let leftover = try await s.held()
        s.plant(Encoding.plainEncoder.bytes(leftover), key: Self.currentKey)
        let userCalls = await s.f.fake.count(.user)
        #expect(await s.migration.run(on: s.f.client) == .alreadyMigrated)
        #expect(!s.holds(key: Self.currentKey))
        #expect(await s.f.fake.count(.user) == userCalls)
        #expect(await s.f.fake.count(.refresh) == 0)
    }

    /// A sign-out after the import removes a copy supabase-swift left at another service.
    @Test func aSignOutAfterTheImportRemovesEveryCopy() async throws {
        let s = await Self.setup()
        let held = try await s.held()
        s.plant(Encoding.snakeCase.bytes(held), key: "supabase.auth.token")
        guard case .imported = await s.migration.run(on: s.f.client) else { Issue.record("not imported"); return }
        s.plant(Encoding.snakeCase.bytes(held), key: "supabase.auth.token", service: "supabase.gotrue.swift")
        try await s.f.client.signOut()
        #expect(!s.holds(key: "supabase.auth.token", service: "supabase.gotrue.swift"))
    }

    @Test func noItemIsNothingToMigrate() async throws {
        let s = await Self.setup()
        #expect(await s.migration.run(on: s.f.client) == .nothingToMigrate)
    }
}
