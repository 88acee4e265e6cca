import Foundation

/// `/.well-known/apple-app-site-association`: the apps that may use this
/// server's domain for passkeys (`webcredentials`) and, when paths are
/// given, open its links (`applinks`). Apple's format:
/// https://developer.apple.com/documentation/xcode/supporting-associated-domains
public struct AppleAppSiteAssociation: Sendable, Hashable, Encodable {
    /// `TEAMID.bundle.id` of each app.
    public var appIDs: [String]
    /// URL path patterns the apps open (`/auth/v1/callback*`); empty leaves `applinks` out.
    public var linkPaths: [String]

    public init(appIDs: [String], linkPaths: [String] = []) {
        self.appIDs = appIDs
        self.linkPaths = linkPaths
    }

    /// Whether `text` is an app ID: a 10-character team ID, a dot, a bundle ID.
    static func isAppID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 10, !parts[1].isEmpty, text.utf8.count <= 255 else { return false }
        return parts[0].allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
            && parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }

    private struct Apps: Encodable { var apps: [String] }
    private struct Detail: Encodable {
        var appIDs: [String]
        var components: [[String: String]]
    }
    private struct AppLinks: Encodable { var details: [Detail] }

    enum CodingKeys: String, CodingKey { case webcredentials, applinks }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Apps(apps: appIDs), forKey: .webcredentials)
        if !linkPaths.isEmpty {
            try container.encode(
                AppLinks(details: [Detail(appIDs: appIDs, components: linkPaths.map { ["/": $0] })]), forKey: .applinks)
        }
    }
}
