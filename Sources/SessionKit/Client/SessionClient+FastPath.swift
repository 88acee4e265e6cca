import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// `send` beside the actor: a request for the app's own API with a valid
/// token, whose answer changes nothing the engine keeps, never enters the
/// client actor (issue 44).
///
/// The actor path costs executor hops a request (onto the actor, and back
/// onto it after the transport answers), 6–8 % of a loopback request
/// (docs/BENCHMARKS.md, "Misses, stated plainly"). For the app's other authorized origins
/// those hops do nothing: their answers are no clock sample (only the auth
/// backend's `Date` is) and do not end `offline` (only the auth server's
/// answer does). So such a request reads the token from ``TokenSnapshot``,
/// as ``accessToken()`` does, and enters the actor only with an answer the
/// engine acts on. Why this cannot reorder anything the engine decides:
/// docs/PROTOCOL.md, "Requests beside the actor".
extension SessionClient {
    /// The token `send` may attach without the actor, or nil when the request
    /// goes through it: the auth backend's origin (every answer there is a
    /// clock sample), no session, a token the refresh machine calls expired
    /// (its leeway included), or offline. `origin` is the request's, parsed once by `send`.
    nonisolated func tokenBesideTheActor(for origin: Origin?) -> String? {
        if let origin, origins.backend.contains(origin) { return nil }
        return tokenSnapshot.tokenBesideTheActor(now: configuration.clock.now)
    }

    /// The same, for `request`'s origin.
    nonisolated func tokenBesideTheActor(for request: URLRequest) -> String? {
        tokenBesideTheActor(for: Origin(request.url))
    }

    /// Sends `request` with `token` on the caller's executor. A 2xx or any
    /// other answer the session does not act on is the app's at once; a
    /// rejection, a redirect or a transport error goes to the actor, with the
    /// token that was sent, and is handled there exactly as the actor path
    /// handles the same answer.
    @inline(never)
    nonisolated(nonsending) func sendBesideTheActor(
        _ request: URLRequest, token: String
    ) async -> Result<(Data, HTTPURLResponse), SessionError> {
        // With DPoP on, each request signs a proof of its own (SessionClient+FastPathProofs.swift).
        if proofs != nil { return await sendBesideTheActorWithProof(request, token: token) }
        var authorized = request
        authorized.setBearer(token)
        let answer: (Data, HTTPURLResponse)
        do {
            answer = try await configuration.transport.send(authorized)
        } catch {
            return await settleThroughTheActor(
                request, sentWith: token, outcome: .failure(ResponseClassifier.transportError(error)))
        }
        if Self.redirectStatuses.contains(answer.1.statusCode) {
            return await settleThroughTheActor(request, sentWith: token, outcome: .success(answer))
        }
        if Self.rejectsToken(answer.1, answer.0) {
            // The planted `fast-path-skips-rejection`: the app gets the 401 and the engine never hears of it.
            if planted(.fastPathSkipsRejection) { return .success(answer) }
            return await settleThroughTheActor(request, sentWith: token, outcome: .success(answer))
        }
        return .success(answer)
    }

    /// The actor's part of an answer met beside it: what ``authorizedSend(_:checked:)``
    /// does after its first transport answer, from the same answer and token.
    @inline(never)
    func settleThroughTheActor(
        _ request: URLRequest, sentWith token: String, outcome: Result<(Data, HTTPURLResponse), SessionError>
    ) async -> Result<(Data, HTTPURLResponse), SessionError> {
        do {
            // No answer: thrown as `sendWithToken` throws it. Not the auth
            // backend's origin, so it says nothing about `offline`.
            var answer = try outcome.get()
            var token = token
            if let next = try redirect(after: request, answer: answer.1, hops: 0) {
                // As `sendWithToken` does: each hop authorized afresh, through the engine.
                var session = try await validSession()
                answer = try await sendWithToken(next, session: &session, hops: 1)
                token = session.accessToken
            }
            return .success(try await settle(request, answer: answer, sentWith: token, checked: false))
        } catch {
            return .failure(error)
        }
    }
}
