extension KeychainStatus {
    /// `errSecUserCanceled`: the person cancelled the authentication sheet.
    public static let userCanceled = Self(rawValue: -128)
}
