import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// `/auth/v1/admin/*` in GoTrue's shapes, behind ``AdminMiddleware``
/// (docs/ADMIN.md).
struct AdminRoutes: Sendable {
    let admin: AdminService
    let externalURL: URL?
    let redirects: RedirectAllowList
    let ip: @Sendable (Request, AuthRequestContext) -> String?

    func register(on group: RouterGroup<AuthRequestContext>) {
        group.get("users") { request, _ in
            let (page, perPage) = try Self.pagination(request)
            let (users, total) = try await admin.store.users(page: page, perPage: perPage)
            var response = try JSONResponse.make(UserList(users: users.map(\.sessionUser)))
            response.headers[HTTPField.Name("X-Total-Count")!] = String(total)
            if let link = Self.linkHeader(request, page: page, perPage: perPage, total: total) {
                response.headers[HTTPField.Name("Link")!] = link
            }
            return response
        }
        group.post("users") { request, context in
            let attributes = try await RequestDecoding.decode(AdminUserAttributes.self, from: request)
            return try JSONResponse.make(try await admin.createUser(attributes, ip: ip(request, context)).sessionUser)
        }
        group.get("users/:id") { _, context in
            guard let user = try await admin.store.user(id: try Self.userID(context)) else { throw AuthError.notFound }
            return try JSONResponse.make(user.sessionUser)
        }
        group.put("users/:id") { request, context in
            let attributes = try await RequestDecoding.decode(AdminUserAttributes.self, from: request)
            let user = try await admin.updateUser(id: try Self.userID(context), attributes, ip: ip(request, context))
            return try JSONResponse.make(user.sessionUser)
        }
        group.delete("users/:id") { request, context in
            try await admin.deleteUser(id: try Self.userID(context), ip: ip(request, context))
            return try JSONResponse.make([String: String]())
        }
        group.post("users/:id/logout") { request, context in
            try await admin.signOutEverywhere(id: try Self.userID(context), ip: ip(request, context))
            return Response(status: .noContent)
        }
        group.post("generate_link") { request, context in
            let body = try await RequestDecoding.decode(GenerateLinkRequest.self, from: request)
            let redirect = request.uri.queryParameters.get("redirect_to").flatMap { redirects.allows($0) ? $0 : nil }
            let root = try OAuthRoutes.publicRoot(externalURL: externalURL, authority: request.head.authority)
            let link = try await admin.generateLink(body, root: root, redirectTo: redirect, ip: ip(request, context))
            return try Self.linkResponse(link)
        }
        group.get("audit") { request, _ in
            let (page, perPage) = try Self.pagination(request)
            let (entries, total) = try await admin.store.auditLog(page: page, perPage: perPage)
            var response = try JSONResponse.make(entries.map(AuditRecord.init))
            response.headers[HTTPField.Name("X-Total-Count")!] = String(total)
            return response
        }
    }

    /// `page` (from 1) and `per_page` (1 to 1000, default 50), as GoTrue reads them.
    static func pagination(_ request: Request) throws -> (page: Int, perPage: Int) {
        let query = request.uri.queryParameters
        // Empty counts as absent: supabase_auth sends `?page=&per_page=` for "the defaults".
        func value(_ name: String) -> String? { query.get(name).flatMap { $0.isEmpty ? nil : $0 } }
        let page = try value("page").map { text in
            guard let value = Int(text), value >= 1, value <= 1_000_000 else {
                throw AuthError.invalidRequest(field: "page", "page must be a whole number from 1.")
            }
            return value
        } ?? 1
        let perPage = try value("per_page").map { text in
            guard let value = Int(text), (1...1000).contains(value) else {
                throw AuthError.invalidRequest(field: "per_page", "per_page must be a whole number from 1 to 1000.")
            }
            return value
        } ?? 50
        return (page, perPage)
    }

    /// GoTrue's `Link` header: the next page (when there is one) and the last.
    static func linkHeader(_ request: Request, page: Int, perPage: Int, total: Int) -> String? {
        let last = max(1, (total + perPage - 1) / perPage)
        let path = request.uri.path
        var links: [String] = []
        if page < last { links.append("<\(path)?page=\(page + 1)&per_page=\(perPage)>; rel=\"next\"") }
        links.append("<\(path)?page=\(last)&per_page=\(perPage)>; rel=\"last\"")
        return links.joined(separator: ", ")
    }

    static func userID(_ context: AuthRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), id.count <= 64 else { throw AuthError.notFound }
        return id.lowercased()
    }

    /// The user's fields with the link's beside them, flat, as GoTrue answers.
    static func linkResponse(_ link: AdminService.GeneratedLink) throws -> Response {
        let userJSON = try WireCoding.encoder().encode(link.user.sessionUser)
        var object = try JSONDecoder().decode([String: JSONValue].self, from: userJSON)
        object["action_link"] = .string(link.actionLink)
        object["email_otp"] = .string(link.emailOTP)
        object["hashed_token"] = .string(link.hashedToken)
        object["redirect_to"] = .string(link.redirectTo)
        object["verification_type"] = .string(link.verificationType)
        return try JSONResponse.make(object)
    }
}

/// `GET /admin/users` body.
struct UserList: Sendable, Encodable {
    var users: [SessionUser]
    var aud = "authenticated"
}

/// One audit entry on the wire, in GoTrue's shape (`payload` says who did what).
struct AuditRecord: Sendable, Encodable {
    var id: String
    var createdAt: Date
    var ipAddress: String
    var payload: [String: JSONValue]

    init(_ entry: AuthStore.AuditEntry) {
        id = entry.id
        createdAt = entry.createdAt
        ipAddress = entry.ip ?? ""
        payload = [
            "actor_id": .string(entry.actor), "action": .string(entry.action),
            "target": entry.target.map(JSONValue.string) ?? .null, "traits": .object(entry.details),
        ]
    }

    enum CodingKeys: String, CodingKey {
        case id, payload
        case createdAt = "created_at"
        case ipAddress = "ip_address"
    }
}
