import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// DPoP proofs on the wire (RFC 9449; docs/DPOP.md): every request the
/// client sends to the auth server or authorizes for an API goes out through
/// ``transportSend(_:bound:offset:)``, which signs a fresh proof for it and
/// retries once when the server asks for its nonce.
extension SessionClient {
    /// Sends `request` through the transport; with DPoP on, with a fresh proof,
    /// and once more (a new proof, the server's nonce) on `use_dpop_nonce`.
    ///
    /// - Parameters:
    ///   - bound: the session this request serves is bound to the key (a refresh
    ///     of a bound session); a request whose `Authorization` says `DPoP` is bound too.
    ///   - offset: the server's clock minus the device's, as the client estimates it:
    ///     a proof's `iat` is server time (docs/PROTOCOL.md, "The server's clock").
    /// - Returns: the answer, or ``SessionError/proofKeyLost`` / ``SessionError/proofKeyUnavailable``
    ///   (nothing sent), or the transport's error.
    nonisolated(nonsending) func transportSend(
        _ request: URLRequest, bound: Bool, offset: TimeInterval
    ) async -> Result<(Data, HTTPURLResponse), SessionError> {
        guard let proofs else { return await Self.transportAnswer(configuration.transport, request) }
        var askedForNonce = false
        while true {
            var signed = request
            if let failure = attachProof(to: &signed, proofs: proofs, bound: bound, offset: offset) { return .failure(failure) }
            let answer: (Data, HTTPURLResponse)
            switch await Self.transportAnswer(configuration.transport, signed) {
            case .success(let received): answer = received
            case .failure(let error): return .failure(error)
            }
            proofs.noteNonce(of: answer.1, from: request.url)
            // Once: a server that asks again with every answer would otherwise loop (docs/DPOP.md, "Nonces").
            guard !askedForNonce, DPoPWire.asksForNonce(answer.1, answer.0) else { return .success(answer) }
            askedForNonce = true
            logger.info("The server asked for its DPoP nonce; sending again with it", metadata: ["status": "\(answer.1.statusCode)"])
        }
    }

    /// Signs a proof for `request` as it is now (its method, URL and `Authorization`) and sets `DPoP`.
    nonisolated func attachProof(
        to request: inout URLRequest, proofs: DPoPProofs, bound: Bool, offset: TimeInterval
    ) -> SessionError? {
        let authorization = DPoPWire.token(inAuthorization: request.value(forHTTPHeaderField: "Authorization"))
        let now = configuration.clock.now
        // The planted `dpop-iat-from-device-clock`: `iat` from a device clock that may be hours off.
        let serverNow = planted(.dpopIATFromDeviceClock) ? now : now.addingTimeInterval(offset)
        switch proofs.proof(
            for: request, accessToken: authorization?.token, bound: bound || authorization?.bound == true, serverNow: serverNow)
        {
        case .success(let proof):
            // Base64url and dots only, so the byte check of `setLongHeader` always applies.
            request.setLongHeader(proof, for: .dpop)
            return nil
        case .failure(.keyLost):
            return .proofKeyLost
        case .failure(.unavailable(let detail)):
            logger.notice("No DPoP proof could be made right now; keeping the session", metadata: ["reason": "\(detail)"])
            return SessionError.proofKeyUnavailable.with(underlying: detail)
        }
    }

    /// `Authorization` for `session`'s access token: `DPoP` when it is bound, else `Bearer`.
    nonisolated func authorization(for session: Session) -> String {
        DPoPWire.authorization(session.accessToken, bound: session.isProofBound)
    }

    /// Ends a bound session whose key is gone, once: the first caller ends it
    /// and announces ``SessionError/proofKeyLost``; later callers find it ended.
    func endSessionWithLostKey(_ session: Session) async {
        guard let current, current.refreshToken == session.refreshToken else { return }
        logger.notice("This device no longer holds the key the session is bound to; ending the session")
        await endSession(.expired(.proofKeyLost))
    }

    /// At launch: a bound stored session on a device without its key (restored
    /// from a backup, a reset keychain) ends now, once, rather than on first use.
    /// A key that cannot be read right now (a locked device) decides nothing.
    func checkProofKey(for session: Session) async -> Bool {
        guard let proofs, session.isProofBound else { return true }
        switch proofs.keyIsPresent() {
        case .success(true), .failure: return true
        case .success(false):
            await endSessionWithLostKey(session)
            return false
        }
    }

    private nonisolated(nonsending) static func transportAnswer(
        _ transport: any HTTPTransport, _ request: URLRequest
    ) async -> Result<(Data, HTTPURLResponse), SessionError> {
        do {
            return .success(try await transport.send(request))
        } catch {
            return .failure(ResponseClassifier.transportError(error))
        }
    }
}
