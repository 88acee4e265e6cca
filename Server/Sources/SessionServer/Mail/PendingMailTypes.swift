// TEMPORARY: replaced by the SMTP client's files.
import Foundation

public struct MailMessage: Sendable, Equatable {
    public var from: MailAddress
    public var to: MailAddress
    public var subject: String
    public var text: String
    public var html: String?
    public init(from: MailAddress, to: MailAddress, subject: String, text: String, html: String? = nil) {
        self.from = from; self.to = to; self.subject = subject; self.text = text; self.html = html
    }
}
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    public var address: String
    public var name: String?
    public init(_ address: String, name: String? = nil) throws(MailError) {
        self.address = address; self.name = name
    }
    public var description: String { address }
}
public protocol MailTransport: Sendable {
    func send(_ message: MailMessage) async throws
}
public struct MailError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String { "mail" }
    public var isTransient: Bool { true }
}
