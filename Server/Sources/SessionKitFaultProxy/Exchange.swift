import NIOCore
import NIOHTTP1

/// One request's trip through the proxy.
struct Exchange {
    let context: ProxyContext
    let responses: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    let upstreamRequests: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>

    func handle(
        _ requestHead: HTTPRequestHead, body: ByteBuffer,
        reader: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    ) async throws -> ProxyConnection.Next {
        var head = requestHead
        head.headers.remove(name: FaultProxy.faultHeader)
        if requestHead.uri.hasPrefix(ProxyFault.portalPath) {
            // A client that followed a `302` fault: the portal answers, once. Clients
            // copy headers onto the redirected request, and applying the fault again
            // made a redirect loop (21 injections per draw, found by reconciling the
            // harness's draws with these statistics).
            context.count { statistics in
                statistics.requests += 1
                statistics.portalPages += 1
            }
            guard case .respond(let status, let contentType, let text, _) = ProxyFault.captivePortal.kind else { return .close }
            let headers = HTTPHeaders([("Content-Type", contentType), ("Content-Length", String(text.utf8.count))])
            try await write(
                HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers),
                ByteBuffer(string: text))
            return .keepAlive
        }
        let fault = context.plan.decide(
            ProxyRequest(
                method: requestHead.method.rawValue, target: requestHead.uri,
                headers: requestHead.headers.map { (name: $0.name, value: $0.value) }))
        context.count { statistics in
            statistics.requests += 1
            if let fault { statistics.faults[fault.name, default: 0] += 1 }
            if fault?.forwards ?? true { statistics.forwarded += 1 }
        }

        switch fault?.kind {
        case .stall: return .hold
        case .resetBeforeForwarding: return .reset
        case .respond(let status, let contentType, let text, let retryAfter):
            var headers = HTTPHeaders([("Content-Type", contentType), ("Content-Length", String(text.utf8.count))])
            if let retryAfter { headers.add(name: "Retry-After", value: String(retryAfter)) }
            try await write(
                HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers),
                ByteBuffer(string: text))
            return .keepAlive
        case .redirect(let location):
            let headers = HTTPHeaders([("Location", location), ("Content-Length", "0")])
            try await write(HTTPResponseHead(version: .http1_1, status: .found, headers: headers), ByteBuffer())
            return .keepAlive
        case .killUpstreamOnResponseHead:
            // The head leaves the server only after its handler returned: the
            // work is committed. Nothing of the answer reaches the client.
            try await send(head, body: body)
            while let part = try await reader.next() {
                guard case .head(let received) = part, received.status != .continue else { continue }
                context.killUpstream?()
                return .reset
            }
            throw UpstreamClosed()
        default: break
        }

        let (responseHead, responseBody) = try await forward(head, body: body, reader: &reader)
        switch fault?.kind {
        case .loseResponse?: return .hold
        case .garbleBody?:
            let garbled = ByteBuffer(bytes: responseBody.readableBytesView.map { $0 ^ 0x5A })
            try await write(responseHead, garbled)
            return responseHead.isKeepAlive ? .keepAlive : .close
        case .trickleBody?:
            try await responses.write(.head(responseHead))
            var remaining = responseBody
            let piece = max(1, remaining.readableBytes / 8)
            while remaining.readableBytes > 0, let slice = remaining.readSlice(length: min(piece, remaining.readableBytes)) {
                try await responses.write(.body(.byteBuffer(slice)))
                try await Task.sleep(for: .milliseconds(60))
            }
            try await responses.write(.end(nil))
            return responseHead.isKeepAlive ? .keepAlive : .close
        case .truncateBody?, .resetMidResponse?:
            // The head still promises the full length; only half of it comes.
            try await responses.write(.head(responseHead))
            let half = responseBody.getSlice(at: responseBody.readerIndex, length: responseBody.readableBytes / 2)
            if let half, half.readableBytes > 0 { try await responses.write(.body(.byteBuffer(half))) }
            return fault == .truncateBody ? .close : .reset
        default:
            try await write(responseHead, responseBody)
            return responseHead.isKeepAlive ? .keepAlive : .close
        }
    }

    private func forward(
        _ head: HTTPRequestHead, body: ByteBuffer,
        reader: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    ) async throws -> (HTTPResponseHead, ByteBuffer) {
        try await send(head, body: body)

        var responseHead: HTTPResponseHead?
        var responseBody = ByteBuffer()
        while let part = try await reader.next() {
            switch part {
            case .head(let received):
                // A 100 Continue is the server's business with the client's body, already sent.
                if received.status == .continue { continue }
                responseHead = received
            case .body(var chunk): responseBody.writeBuffer(&chunk)
            case .end:
                guard let responseHead else { throw UpstreamClosed() }
                return (responseHead, responseBody)
            }
        }
        throw UpstreamClosed()
    }

    private func send(_ head: HTTPRequestHead, body: ByteBuffer) async throws {
        try await upstreamRequests.write(.head(head))
        if body.readableBytes > 0 { try await upstreamRequests.write(.body(.byteBuffer(body))) }
        try await upstreamRequests.write(.end(nil))
    }

    private func write(_ head: HTTPResponseHead, _ body: ByteBuffer) async throws {
        try await responses.write(.head(head))
        if body.readableBytes > 0 { try await responses.write(.body(.byteBuffer(body))) }
        try await responses.write(.end(nil))
    }
}

/// The upstream server closed the connection before a whole response; the
/// proxy closes the client's connection in turn.
struct UpstreamClosed: Error {}
