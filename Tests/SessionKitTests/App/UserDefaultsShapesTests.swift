import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// Every shape docs/…/MigratingFromAHandRolledSession.md names, stored in real
/// `UserDefaults` the way an app stores it (`set(_:forKey:)` with the value
/// itself, not bytes prepared for the test).
struct UserDefaultsShapesTests {
    typealias Defaults = LegacySessionMigrationTests.Defaults
    static let key = "supabase_session"

    static func held(_ f: Fixture) async throws -> TokenResponse {
        try #require(await f.fake.issueSession(email: Fixture.email))
    }

    static func expiry(_ held: TokenResponse) -> Date {
        Date(timeIntervalSince1970: TimeInterval(held.expiresAt ?? 0))
    }

    /// Stores `value` with `set(_:forKey:)`, runs the migration, and expects the held session imported.
    func expectImported(_ value: (TokenResponse) throws -> Any, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let f = await Fixture.make()
        let held = try await Self.held(f)
        try #require(UserDefaults(suiteName: defaults.suiteName)).set(try value(held), forKey: Self.key)
        let outcome = await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client)
        guard case .imported(let session) = outcome else {
            Issue.record("got \(outcome)", sourceLocation: sourceLocation)
            return
        }
        #expect(session.refreshToken == held.refreshToken, sourceLocation: sourceLocation)
        #expect(UserDefaults(suiteName: defaults.suiteName)?.object(forKey: Self.key) == nil, sourceLocation: sourceLocation)
    }

    /// The article's own example: the seed app's fields, `expiresAt` a `Date`. Failed before: `.nothingToMigrate`.
    @Test func aDictionaryWithADateIsImported() async throws {
        try await expectImported { held in
            [
                "accessToken": held.accessToken, "refreshToken": held.refreshToken, "expiresAt": Self.expiry(held),
                "user": ["id": held.user?.id ?? "", "email": Fixture.email, "createdAt": Date(timeIntervalSince1970: 1_740_000_000)],
            ] as [String: Any]
        }
    }

    /// A Supabase session's snake_case fields as a dictionary, numbers as numbers.
    @Test func aSnakeCaseDictionaryWithNumbersIsImported() async throws {
        try await expectImported { held in
            [
                "access_token": held.accessToken, "token_type": "bearer", "expires_in": 3600,
                "expires_at": held.expiresAt ?? 0, "refresh_token": held.refreshToken,
                "user": ["id": held.user?.id ?? "", "email": Fixture.email],
            ] as [String: Any]
        }
    }

    /// The session nested under `session`, its expiry a `Date` beside it.
    @Test func aNestedDictionaryWithTheExpiryBesideItIsImported() async throws {
        try await expectImported { held in
            [
                "session": ["access_token": held.accessToken, "refresh_token": held.refreshToken] as [String: Any],
                "expirationDate": Self.expiry(held),
            ] as [String: Any]
        }
    }

    /// The JSON shapes, stored as `Data` and as a `String`.
    @Test(arguments: RealBlob.allCases)
    func theJSONShapesAreImportedAsDataAndAsAString(shape: RealBlob) async throws {
        try await expectImported { held in try shape.blob(held) }
        guard shape != .propertyList else { return }
        try await expectImported { held in String(decoding: try shape.blob(held), as: UTF8.self) }
    }

    /// A date read from a property list keeps its instant.
    @Test func aPropertyListDateKeepsItsInstant() throws {
        let date = Date(timeIntervalSince1970: 1_767_229_200)
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["accessToken": "a.b.c", "refreshToken": "Zp9QkR2mXw4L", "expiresAt": date] as [String: Any],
            format: .binary, options: 0)
        #expect(try LegacySession.parse(data).expiresAt == date)
    }

    /// A value that is there but holds no session is kept as unrecognised, never "nothing to migrate",
    /// and the next sign-out removes it. Failed before for the dictionaries: `.nothingToMigrate`, never removed.
    @Test(arguments: ["dateOnly", "array", "number", "noTokens"])
    func aValueThatCannotBeReadIsKeptThenRemovedBySignOut(kind: String) async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        let value: Any =
            switch kind {
            case "dateOnly": ["expiresAt": Date(timeIntervalSince1970: 1_767_229_200)] as [String: Any]
            case "array": ["a.b.c", "Zp9QkR2mXw4L"]
            case "number": 42
            default: ["jwt": "a.b.c", "exp": 1_767_229_200] as [String: Any]
            }
        let suite = try #require(UserDefaults(suiteName: defaults.suiteName))
        suite.set(value, forKey: Self.key)
        let f = await Fixture.make()
        let outcome = await LegacySessionMigration(legacyStore: defaults.store).run(on: f.client)
        #expect(outcome == .unrecognised(.decoding))
        #expect(suite.object(forKey: Self.key) != nil)

        try await f.signIn()
        try await f.client.signOut()
        #expect(suite.object(forKey: Self.key) == nil)
    }

    @Test func anAbsentKeyIsNothingToMigrate() async throws {
        let defaults = Defaults()
        defer { defaults.remove() }
        #expect(defaults.store.data(forKey: Self.key) == nil)
    }
}
