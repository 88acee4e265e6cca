import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// `send` beside the actor with DPoP on: the same path as without it
/// (SessionClient+FastPath.swift), with a fresh proof signed on the caller's
/// executor. The proof belongs to the request, so nothing here enters the
/// actor either; a key that cannot sign goes to the actor, which decides
/// what that means for the session (docs/PROTOCOL.md, "Proofs").
extension SessionClient {
    @inline(never)
    nonisolated(nonsending) func sendBesideTheActorWithProof(
        _ request: URLRequest, token: String
    ) async -> Result<(Data, HTTPURLResponse), SessionError> {
        // Read with the token, so a proof never mixes one session's binding with another's token.
        guard let context = tokenSnapshot.proofContext(for: token) else { return await sendThroughTheActor(request) }
        var authorized = request
        authorized.setLongHeader(DPoPWire.authorization(token, bound: context.bound), for: .authorization)
        let answer: (Data, HTTPURLResponse)
        switch await transportSend(authorized, bound: context.bound, offset: context.offsetSeconds) {
        case .success(let received):
            answer = received
        case .failure(let error) where error == .proofKeyLost || error == .proofKeyUnavailable:
            // Nothing was sent: the actor's path meets the same key and ends or keeps the session.
            return await sendThroughTheActor(request)
        case .failure(let error):
            return await settleThroughTheActor(request, sentWith: token, outcome: .failure(error))
        }
        if Self.redirectStatuses.contains(answer.1.statusCode) || Self.rejectsToken(answer.1, answer.0) {
            if planted(.fastPathSkipsRejection), !Self.redirectStatuses.contains(answer.1.statusCode) { return .success(answer) }
            return await settleThroughTheActor(request, sentWith: token, outcome: .success(answer))
        }
        return .success(answer)
    }
}
