/// The mailbox an address delivers to, for counting mail per recipient
/// (issue 37, item 10): `Ada+news@Example.com` and `ada@example.com` fill one
/// inbox, and so do Gmail's dotted variants, so they share one budget. Only
/// for limits: the account's address is stored and mailed as given.
enum CanonicalMailbox {
    /// Domains whose mailboxes ignore dots in the local part (Gmail's documented behaviour).
    static let dotBlindDomains: Set<String> = ["gmail.com", "googlemail.com"]

    /// `local+tag@domain` → `local@domain`, lowercased; dots dropped for Gmail; `googlemail.com` is `gmail.com`.
    static func of(_ email: String) -> String {
        let lowered = email.lowercased()
        guard let at = lowered.lastIndex(of: "@") else { return lowered }
        var local = String(lowered[..<at])
        var domain = String(lowered[lowered.index(after: at)...])
        if let plus = local.firstIndex(of: "+"), plus != local.startIndex { local = String(local[..<plus]) }
        if dotBlindDomains.contains(domain) {
            local.removeAll { $0 == "." }
            domain = "gmail.com"
        }
        return local + "@" + domain
    }
}
