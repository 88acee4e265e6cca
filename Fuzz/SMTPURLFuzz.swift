import Foundation
#if canImport(Glibc)
import Glibc
#endif

// libFuzzer entry point: any bytes, read as AUTH_SERVER_SMTP_URL, must parse
// or throw MailError — never crash. An accepted configuration:
// - with tls=none and a user name has a host that reaches this machine, judged
//   independently of SMTPConfiguration.isLoopback: `localhost`, or an address
//   the C resolver reads (inet_aton for IPv4, as getaddrinfo does, octal and
//   short forms included; inet_pton for IPv6) as 127.0.0.0/8 or ::1;
// - passes validate(), which SMTPTransport runs before every connection, so a
//   URL accepted at start-up cannot fail only when the first mail goes out.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMTPURL(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let configuration: SMTPConfiguration
    do {
        configuration = try SMTPConfiguration(url: text)
    } catch {
        // A typed rejection is the expected outcome for most inputs.
        return 0
    }
    if configuration.security == .none, configuration.username != nil {
        fuzzCheck(reachesLoopback(configuration.host),
                     "tls=none with credentials to \(configuration.host.debugDescription), which is not loopback: \(text.debugDescription)")
    }
    do {
        try configuration.validate()
    } catch {
        fatalError("accepted \(text.debugDescription) but validate() says: \(error)")
    }
    _ = configuration.description
    return 0
}

func reachesLoopback(_ host: String) -> Bool {
    let name = host.lowercased()
    if name == "localhost" || name == "localhost." { return true }
    var v4 = in_addr()
    if inet_aton(name, &v4) != 0 {
        return UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, name, &v6) == 1 {
        return withUnsafeBytes(of: &v6) { Array($0) } == Array(repeating: 0, count: 15) + [1]
    }
    return false
}
