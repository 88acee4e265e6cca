import Foundation

// libFuzzer entry point: any bytes, read as a provider's token or user-info
// answer, go through the same steps as ProviderCodeExchange.account (which
// itself needs Logging and an HTTP client, so it is not compiled here): decode
// a JSON object, read the account id at a dotted path, pick the profile, drop
// tokens, read the email and whether it is verified, build user_metadata.
// The same bytes are decoded as a JWK and a JWKS (Apple's keys come this way).
// Never a crash; and:
// - an account id is non-empty, trimmed, at most 255 characters, and a
//   numeric id reads back as the same whole number;
// - email_verified is true only when one of its keys says true or "true";
// - user_metadata names the account id as sub and provider_id, and carries
//   email and email_verified only with an email;
// - a decoded JWK/JWKS encodes and decodes back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProviderResponse(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)

    if let jwks = try? JSONDecoder().decode(JWKS.self, from: data) {
        let again = try? JSONDecoder().decode(JWKS.self, from: JSONEncoder().encode(jwks))
        fuzzCheck(again == jwks, "a JWKS does not survive encoding: \(jwks)")
    }
    if let jwk = try? JSONDecoder().decode(JWK.self, from: data) {
        let again = try? JSONDecoder().decode(JWK.self, from: JSONEncoder().encode(jwk))
        fuzzCheck(again == jwk, "a JWK does not survive encoding: \(jwk)")
    }

    guard let body = try? JSONDecoder().decode([String: JSONValue].self, from: data) else { return 0 }
    // The fields providers use, and every dotted path the body itself has (to depth 3).
    var paths = ["id", "sub", "user_id", "athlete.id", "user.id", "data.id", "", ".", "a..b"]
    for (key, value) in body.prefix(20) {
        paths.append(key)
        if case .object(let inner) = value {
            for (innerKey, innerValue) in inner.prefix(20) {
                paths.append("\(key).\(innerKey)")
                if case .object(let deepest) = innerValue {
                    for deepestKey in deepest.keys.prefix(20) { paths.append("\(key).\(innerKey).\(deepestKey)") }
                }
            }
        }
    }
    for path in paths {
        // Once as a token answer with a profile field (Strava), once as a user-info answer.
        checkAccount(body: body, idField: path, profileField: path.split(separator: ".").first.map(String.init), userInfo: false)
        checkAccount(body: body, idField: path, profileField: nil, userInfo: true)
    }
    return 0
}

func checkAccount(body: [String: JSONValue], idField: String, profileField: String?, userInfo: Bool) {
    let raw = ProviderAccount.value(at: idField, in: body)
    guard let id = ProviderAccount.accountID(raw) else { return }
    fuzzCheck(!id.isEmpty && id.count <= 255, "account id \(id.debugDescription) from \(String(describing: raw))")
    fuzzCheck(id == id.trimmingCharacters(in: .whitespaces), "account id \(id.debugDescription) is not trimmed")
    if case .number(let number)? = raw {
        fuzzCheck(Int64(id).map(Double.init) == number, "account id \(id) from the number \(number)")
    }

    var profile: [String: JSONValue] = [:]
    if let profileField, case .object(let object)? = ProviderAccount.value(at: profileField, in: body) {
        profile = object
    } else if userInfo {
        profile = body
    }
    for key in ["access_token", "refresh_token", "id_token"] { profile.removeValue(forKey: key) }
    // ProviderCodeExchange also normalizes the address (SessionService.normalize); the raw text stands in here.
    let email = body["email"]?.stringValue ?? profile["email"]?.stringValue
    let verified = email != nil && ProviderAccount.emailVerified(in: body, profile: profile)
    if verified {
        let saysTrue = [body, profile].contains { object in
            ["email_verified", "verified_email"].contains { key in
                switch object[key] {
                case .bool(true)?: true
                case .string(let text)?: text.lowercased() == "true"
                default: false
                }
            }
        }
        fuzzCheck(saysTrue, "email_verified is true though no key says so: \(body)")
    }

    let account = ProviderAccount(id: id, profile: profile, email: email, emailVerified: verified)
    let metadata = account.userMetadata
    fuzzCheck(metadata["sub"] == .string(id) && metadata["provider_id"] == .string(id), "user_metadata lost the id")
    if let email {
        fuzzCheck(metadata["email"] == .string(email) && metadata["email_verified"] == .bool(verified), "user_metadata email")
    } else {
        fuzzCheck(metadata["email"] == nil && metadata["email_verified"] == nil, "user_metadata has an email without one")
    }
    for key in ["access_token", "refresh_token", "id_token"] {
        fuzzCheck(metadata[key] == nil, "user_metadata carries \(key)")
    }
}
