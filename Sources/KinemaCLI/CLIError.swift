/// A rejected command-line value: one line naming the flag, the value and the rule.
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// `'--flag' must be RULE (got VALUE).`
    init(flag: String, value: String, rule: String) {
        description = "'\(flag)' must be \(rule) (got \(value))."
    }
}

/// Rules every numeric flag is checked against before use.
enum NumberRule {
    case finite, positive, nonNegative

    var text: String {
        switch self {
        case .finite: return "a finite number"
        case .positive: return "a finite number > 0"
        case .nonNegative: return "a finite number ≥ 0"
        }
    }

    func accepts(_ value: Double) -> Bool {
        switch self {
        case .finite: return value.isFinite
        case .positive: return value.isFinite && value > 0
        case .nonNegative: return value.isFinite && value >= 0
        }
    }
}

/// Throws a `CLIError` unless `value` (when given) obeys `rule`.
func check(_ value: Double?, _ flag: String, _ rule: NumberRule) throws {
    if let value, !rule.accepts(value) {
        throw CLIError(flag: flag, value: "\(value)", rule: rule.text)
    }
}

/// Parses one of a fixed set of names, with a one-line error listing them (argument-parser's own
/// enum parsing would print a multi-line usage error instead).
func choose<T: CaseIterable & RawRepresentable>(_ text: String, _ flag: String, _: T.Type = T.self) throws -> T
where T.RawValue == String {
    guard let value = T(rawValue: text) else {
        throw CLIError(flag: flag, value: "'\(text)'", rule: "one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return value
}
