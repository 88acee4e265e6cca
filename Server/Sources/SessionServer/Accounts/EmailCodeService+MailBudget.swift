import Foundation
import Logging

/// The domain's and the server's mail budgets (docs/DESIGN.md, "Rate limits";
/// issue 37, item 3).
extension EmailCodeService {
    /// Counts one mail against the recipient domain's and the server's
    /// budgets, and says whether to queue it.
    ///
    /// Only mail that would be queued counts, so requests for addresses nobody
    /// holds spend nothing. A spent budget is never an error: the answer is the
    /// one a sent mail gets (an error for a known address only would say who has
    /// an account), and the mail is dropped. Bulk mail (sign-ups, codes that
    /// would create an account) may spend only its share of each budget, so the
    /// rest stays for mail to accounts that exist (sign-in, recovery, a repeated
    /// sign-up's code, nonces): a flood to unknown addresses cannot block a real
    /// person's code.
    ///
    /// - Parameter deliver: `false` for an address that gets no mail: the same
    ///   limiter calls are made on a decoy key, so both paths do the same work.
    func spendMailBudget(to email: String, priority: MailQueue.Priority, deliver: Bool) async throws -> Bool {
        let domain = String(email.split(separator: "@").last ?? "")
        var budgets: [(limiter: any RateLimiting, key: String)] = []
        if priority == .bulk { budgets += [(domainBulkLimiter, domain), (globalBulkLimiter, "all")] }
        budgets += [(domainLimiter, domain), (globalLimiter, "all")]
        guard deliver else {
            for budget in budgets { _ = try await budget.limiter.attempt("decoy") }
            return false
        }
        for budget in budgets {
            guard case .limited = try await budget.limiter.attempt(budget.key) else { continue }
            sessions.metrics.mail(outcome: "over_budget")
            logger.warning(
                "A mail was not queued: the mail budget is spent",
                metadata: ["priority": "\(priority == .bulk ? "bulk" : "account")", "domain": "\(domain)"])
            return false
        }
        return true
    }
}
