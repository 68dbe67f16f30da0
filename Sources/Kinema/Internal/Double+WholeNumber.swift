extension Double {
    /// The number as a whole number (rounded by `rule`) where an Int holds it, else as it is
    /// (`inf`, `nan`, `1e+300`): a conversion for messages that never traps.
    package func wholeNumberText(_ rule: FloatingPointRoundingRule = .towardZero) -> String {
        let whole = rounded(rule)
        return abs(whole) < 9e18 ? "\(Int(whole))" : "\(self)"
    }
}
