import Kinema

/// A rejected command-line value: one line naming the flag, the value and the rule.
///
/// Exit codes, one policy for every command: 64 when the command line cannot be parsed (an unknown
/// flag, a missing value, a value that is not a number: argument-parser's usage errors, and the
/// same for the numbers inside a sweep's ranges); 1 when it parses but a value breaks its rule or
/// the run fails; 141 when the reader of stdout goes away; 0 otherwise.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    /// The command line is malformed (exit 64), rather than a value rejected (exit 1).
    let isUsage: Bool

    /// The command is valid but asks for more work than the command does (a front end's 422).
    var isOverLimit = false

    init(_ description: String, isUsage: Bool = false) {
        self.description = description
        self.isUsage = isUsage
    }

    /// A valid command that asks for more work than the command does.
    static func overLimit(_ description: String) -> CLIError {
        var error = CLIError(description)
        error.isOverLimit = true
        return error
    }

    /// `'--flag' must be RULE (got VALUE).`, VALUE as the user typed it when the flag is on the
    /// command line (so a typed `1e400` is not shown as `inf`).
    init(flag: String, value: String, rule: String, isUsage: Bool = false) {
        let typed = RawArguments.value(of: flag).map { "'\($0)'" }
        description = "'\(flag)' must be \(rule) (got \(typed ?? value))."
        self.isUsage = isUsage
    }

    var exitCode: Int32 { isUsage ? 64 : 1 }
}

/// The arguments of the running command, as typed, for error messages (bound for the duration of
/// `KinemaCommand.run(arguments:)`; empty elsewhere, where messages show the parsed value).
enum RawArguments {
    @TaskLocal static var current: [String] = []

    /// The text after `flag` (`--flag X` or `--flag=X`), when the flag was given exactly once.
    static func value(of flag: String) -> String? {
        var found: [String] = []
        for (i, argument) in current.enumerated() {
            if argument == flag, i + 1 < current.count { found.append(current[i + 1]) }
            if argument.hasPrefix(flag + "=") { found.append(String(argument.dropFirst(flag.count + 1))) }
        }
        return found.count == 1 ? found[0] : nil
    }
}

/// Rules every numeric flag is checked against before use.
enum NumberRule {
    case finite, positive, nonNegative
    /// Finite, between `lower` and `upper`, each end included or not; `text` says so.
    case interval(Double, Double, includesLower: Bool, includesUpper: Bool, text: String)

    var text: String {
        switch self {
        case .finite: return "a finite number"
        case .positive: return "a finite number > 0"
        case .nonNegative: return "a finite number ≥ 0"
        case .interval(_, _, _, _, let text): return text
        }
    }

    func accepts(_ value: Double) -> Bool {
        switch self {
        case .finite: return value.isFinite
        case .positive: return value.isFinite && value > 0
        case .nonNegative: return value.isFinite && value >= 0
        case let .interval(lower, upper, includesLower, includesUpper, _):
            return value.isFinite && (includesLower ? value >= lower : value > lower)
                && (includesUpper ? value <= upper : value < upper)
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
        throw CLIError(
            flag: flag, value: "'\(text)'", rule: "one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return value
}

extension CLIError {
    /// A simulation that stopped: the library's message, then the flags and integrators that act on it.
    /// - Parameter budget: the hint for a run past its step budget (a command without
    ///   `--max-steps` names what it can change instead).
    init(_ error: SimulationError, budget: String = "the step budget is '--max-steps'") {
        var hints: [String] = []
        switch error {
        case .tooManyEvents:
            hints.append("the rest velocity is '--rest-velocity' with --drop, \"restVelocity\" in a scene file")
        case .tooManySteps:
            hints.append(budget)
        case .overBudget(_, _, let advice):
            if advice.contains("implicit method") { hints.append("the implicit methods are gsl-msbdf and gsl-bsimp") }
            hints.append(budget)
        case .stepSizeUnderflow, .unstable, .contactLost:
            break
        }
        self.init(error.description + (hints.isEmpty ? "" : " Here " + hints.joined(separator: "; ") + "."))
    }
}
