/// Any closed-form easing Kinema knows, by the name the CLI and exports use.
///
/// Names: `linear`, `ease-in`, `ease-out`, `ease-in-out`, `default` (Core Animation's named
/// timing functions; `default` is also CSS's `ease`, which parses to it), `cubic-bezier(x1,y1,x2,y2)`, `{quad,cubic,quart,quint,sine,expo,circ,back,
/// elastic,bounce}-{in,out,in-out}` (Penner), `lockwood-bounce-out`, `damped-cosine(a,b)`, and
/// with parameters `back-MODE(s)`, `elastic-MODE(a,p)`, `poly-MODE(n)` (`ParametricEasing`). Core
/// Animation's, SwiftUI's and Penner's spellings (`easeInEaseOut`, `easeInOut`, `easeOutBounce`)
/// parse too, in any case.
public enum Easing: EasingCurve, Hashable {
    /// A cubic-bezier timing function: Core Animation's and CSS's named ones, or `cubic-bezier(…)`.
    case timingFunction(CubicBezierTimingFunction)
    /// One of Penner's equations, `quad-in` to `bounce-in-out`.
    case penner(PennerEasing)
    /// `back`, `elastic` or `poly` with its parameter.
    case parametric(ParametricEasing)
    /// `lockwood-bounce-out` (`LockwoodBounce`).
    case lockwoodBounce
    /// `damped-cosine(a,b)`: `1 − e^(−a t)cos(b t)`, pinned to 1 at t = 1.
    case dampedCosine(DampedCosine)

    /// Every fixed name (the parameterized `cubic-bezier(…)` and `damped-cosine(…)` aside).
    public static let fixedNames: [String] =
        ["linear", "ease-in", "ease-out", "ease-in-out", "default"]
        + PennerEasing.Family.allCases.flatMap { family in
            PennerEasing.Mode.allCases.map { "\(family.rawValue)-\($0.rawValue)" }
        }
        + ["lockwood-bounce-out"]

    /// The easings with parameters, as the CLI and `kinema easing --help` name them.
    public static let parametricNames = [
        "back-{in,out,in-out}(s)", "elastic-{in,out,in-out}(a,p)", "poly-{in,out,in-out}(n)"
    ]

    /// Parses an easing name.
    /// - Throws: `KinemaError` naming the text and the accepted names, or the bad parameter.
    public init(name: String) throws {
        let text = Self.canonical(name.trimmingSpaces.lowercased())
        switch text {
        case "linear": self = .timingFunction(.linear)
        case "ease-in": self = .timingFunction(.easeIn)
        case "ease-out": self = .timingFunction(.easeOut)
        case "ease-in-out": self = .timingFunction(.easeInEaseOut)
        case "default", "ease": self = .timingFunction(.default)
        case "lockwood-bounce-out": self = .lockwoodBounce
        default:
            if let arguments = try Self.arguments(of: text, function: "cubic-bezier", count: 4, original: name) {
                self = .timingFunction(
                    try CubicBezierTimingFunction(
                        x1: arguments[0], y1: arguments[1], x2: arguments[2], y2: arguments[3]))
            } else if let arguments = try Self.arguments(of: text, function: "damped-cosine", count: 2, original: name)
            {
                self = .dampedCosine(try DampedCosine(decay: arguments[0], frequency: arguments[1]))
            } else if let parametric = try Self.parametric(text, original: name) {
                self = .parametric(parametric)
            } else if let penner = Self.penner(text) {
                self = .penner(penner)
            } else {
                throw KinemaError(
                    parameter: "the easing name", value: "'\(name)'",
                    rule:
                        "one of \(Self.fixedNames.joined(separator: ", ")), cubic-bezier(x1,y1,x2,y2), damped-cosine(a,b), "
                        + Self.parametricNames.joined(separator: ", "))
            }
        }
    }

    /// The name in lower case, other spellings of it as Kinema's: `_` as `-`, Core Animation's and
    /// SwiftUI's `easeIn`, `easeOut`, `easeInEaseOut` and `easeInOut`, Penner's own `easeOutBounce`.
    static func canonical(_ lowercased: String) -> String {
        let text = String(lowercased.map { $0 == "_" ? "-" : $0 })
        switch text {
        case "easein": return "ease-in"
        case "easeout": return "ease-out"
        case "easeineaseout", "easeinout": return "ease-in-out"
        default:
            for (prefix, mode) in [("easeinout", "in-out"), ("easein", "in"), ("easeout", "out")]
            where text.hasPrefix(prefix) {
                let family = text.dropFirst(prefix.count)
                if PennerEasing.Family(rawValue: String(family)) != nil { return "\(family)-\(mode)" }
            }
            return text
        }
    }

    /// `back-MODE(s)`, `elastic-MODE(a,p)` or `poly-MODE(n)`; nil for any other name.
    static func parametric(_ text: String, original: String) throws -> ParametricEasing? {
        for mode in PennerEasing.Mode.allCases {
            if let s = try arguments(of: text, function: "back-\(mode.rawValue)", count: 1, original: original) {
                return try ParametricEasing(.back(overshoot: s[0]), mode)
            }
            if let e = try arguments(of: text, function: "elastic-\(mode.rawValue)", count: 2, original: original) {
                return try ParametricEasing(.elastic(amplitude: e[0], period: e[1]), mode)
            }
            if let n = try arguments(of: text, function: "poly-\(mode.rawValue)", count: 1, original: original) {
                return try ParametricEasing(.poly(exponent: n[0]), mode)
            }
        }
        return nil
    }

    static func penner(_ text: String) -> PennerEasing? {
        for family in PennerEasing.Family.allCases {
            for mode in PennerEasing.Mode.allCases where text == "\(family.rawValue)-\(mode.rawValue)" {
                return PennerEasing(family, mode)
            }
        }
        return nil
    }

    /// The numbers inside `function(…)`, or nil when `text` is not a call of `function`.
    static func arguments(of text: String, function: String, count: Int, original: String) throws -> [Double]? {
        guard text.hasPrefix(function + "(") else { return nil }
        guard text.hasSuffix(")") else {
            throw KinemaError(parameter: "the easing name", value: "'\(original)'", rule: "closed with ')'")
        }
        let inner = text.dropFirst(function.count + 1).dropLast()
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        let numbers = parts.compactMap { Double($0) }
        guard parts.count == count, numbers.count == count else {
            throw KinemaError(
                parameter: "the easing name", value: "'\(original)'",
                rule: "\(function)( with \(count) comma-separated numbers )")
        }
        return numbers
    }

    /// The canonical name, which parses back to the same easing.
    public var name: String {
        switch self {
        case .timingFunction(let f):
            switch f {
            case .linear: return "linear"
            case .easeIn: return "ease-in"
            case .easeOut: return "ease-out"
            case .easeInEaseOut: return "ease-in-out"
            case .default: return "default"
            default: return "cubic-bezier(\(f.x1),\(f.y1),\(f.x2),\(f.y2))"
            }
        case .penner(let p): return "\(p.family.rawValue)-\(p.mode.rawValue)"
        case .parametric(let p): return p.name
        case .lockwoodBounce: return "lockwood-bounce-out"
        case .dampedCosine(let d): return "damped-cosine(\(d.decay),\(d.frequency))"
        }
    }

    public func value(at t: Double) -> Double {
        switch self {
        case .timingFunction(let f): return f.value(at: t)
        case .penner(let p): return p.value(at: t)
        case .parametric(let p): return p.value(at: t)
        case .lockwoodBounce: return LockwoodBounce().value(at: t)
        case .dampedCosine(let d): return d.value(at: t)
        }
    }

    public func derivative(at t: Double) -> Double {
        switch self {
        case .timingFunction(let f): return f.derivative(at: t)
        case .penner(let p): return p.derivative(at: t)
        case .parametric(let p): return p.derivative(at: t)
        case .lockwoodBounce: return LockwoodBounce().derivative(at: t)
        case .dampedCosine(let d): return d.derivative(at: t)
        }
    }
}

extension Easing {
    /// How many times the easing swings over its duration, for an easing that oscillates by a
    /// parameter (an elastic one's period, a damped cosine's frequency); nil for any other. A front
    /// end bounds a bake's work by it before baking: two keyframes a swing.
    @_spi(Studio) public var oscillations: Double? {
        switch self {
        case .parametric(let parametric):
            guard case .elastic(_, let period) = parametric.shape, period > 0 else { return nil }
            return 1 / period
        case .dampedCosine(let cosine): return cosine.frequency / (2 * .pi)
        default: return nil
        }
    }
}
