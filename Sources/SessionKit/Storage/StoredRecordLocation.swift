import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a stored record is kept: a file, or a keychain item.
///
/// ``SessionStoreError/corrupt(detail:movedTo:)`` names the place an
/// unreadable record was moved to, so nothing stored is lost.
public struct StoredRecordLocation: Sendable, Hashable, CustomStringConvertible {
    private enum Place: Sendable, Hashable {
        case file(URL)
        case keychain(KeychainItem)
    }

    private let place: Place

    private init(_ place: Place) {
        self.place = place
    }

    /// A file, as ``FileSessionStore`` keeps records.
    public static func file(_ url: URL) -> Self { Self(.file(url)) }

    /// A keychain item, as ``KeychainSessionStore`` keeps records.
    public static func keychain(_ item: KeychainItem) -> Self { Self(.keychain(item)) }

    /// The file, when the record is one.
    public var fileURL: URL? {
        if case .file(let url) = place { url } else { nil }
    }

    /// The keychain item, when the record is one.
    public var keychainItem: KeychainItem? {
        if case .keychain(let item) = place { item } else { nil }
    }

    public var description: String {
        switch place {
        case .file(let url): url.path
        case .keychain(let item): item.description
        }
    }
}
