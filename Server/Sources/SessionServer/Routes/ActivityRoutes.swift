import Foundation
import Hummingbird
import SessionCore

/// `GET/POST /v1/activities`, `GET/DELETE /v1/activities/{id}`: the sample
/// protected resource, each row owned by its user.
struct ActivityRoutes: Sendable {
    let store: AuthStore
    let clock: any SessionClock

    func register(on group: RouterGroup<AuthRequestContext>) {
        group.get("activities") { _, context in
            let identity = try context.requireIdentity()
            return try JSONResponse.success(try await store.activities(userID: identity.userID))
        }
        group.post("activities") { request, context in
            let identity = try context.requireIdentity()
            let new = try await RequestDecoding.decode(NewActivity.self, from: request)
            try Self.validate(new)
            let activity = try await store.createActivity(new, userID: identity.userID, now: clock.now)
            return try JSONResponse.success(activity, status: .created)
        }
        group.get("activities/:id") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.require("id")
            guard let activity = try await store.activity(id: id, userID: identity.userID) else { throw AuthError.notFound }
            return try JSONResponse.success(activity)
        }
        group.delete("activities/:id") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.require("id")
            guard try await store.deleteActivity(id: id, userID: identity.userID) else { throw AuthError.notFound }
            return try JSONResponse.success(["deleted": true])
        }
    }

    static func validate(_ new: NewActivity) throws {
        let name = new.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 200 else {
            throw AuthError.invalidRequest(field: "name", "name must be 1 to 200 characters.")
        }
        guard new.distanceM.isFinite, new.distanceM >= 0, new.distanceM < 1e8 else {
            throw AuthError.invalidRequest(field: "distance_m", "distance_m must be a non-negative number of metres.")
        }
    }
}
