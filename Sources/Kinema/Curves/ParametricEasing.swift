import RealModule

/// The easings peers expose with a parameter, built from an ease-in `f` as `PennerEasing` builds
/// its modes (out(t) = 1 − f(1 − t); in-out: f(2t)/2, then 1 − f(2 − 2t)/2):
///
/// - `back-{in,out,in-out}(s)`: f(u) = u²((s + 1)u − s), the overshoot s as d3's
///   `easeBack*.overshoot(s)` and React Native's `Easing.back(s)` take it (the same s in every
///   mode; Penner's canonical `back-in-out` is `back-in-out(2.5949095)`, 1.70158 × 1.525).
/// - `elastic-{in,out,in-out}(a,p)`: Penner's elastic with amplitude a ≥ 1 and period p > 0,
///   f(u) = −a·2^(10(u−1))·sin((u − 1 − s)·2π/p) with s = p/(2π)·asin(1/a) (a = 1: s = p/4, the
///   canonical curves at p = 0.3, and 0.45 for in-out).
/// - `poly-{in,out,in-out}(n)`: f(u) = uⁿ, n > 0 (d3's `easePoly*.exponent(n)`; n = 2…5 are quad…quint).
///
/// Exactly 0 at t = 0 and 1 at t = 1, like every easing here.
public struct ParametricEasing: EasingCurve, Hashable {
    /// The family and its parameter.
    public enum Shape: Hashable, Sendable {
        /// Back: f(u) = u²((s + 1)u − s) with overshoot s (any finite value).
        case back(overshoot: Double)
        /// Penner's elastic with amplitude a ≥ 1 and period p > 0.
        case elastic(amplitude: Double, period: Double)
        /// f(u) = uⁿ with exponent n > 0.
        case poly(exponent: Double)

        /// The family's name in easing names.
        public var family: String {
            switch self {
            case .back: "back"
            case .elastic: "elastic"
            case .poly: "poly"
            }
        }
    }

    /// Which end is eased, as for Penner's equations.
    public typealias Mode = PennerEasing.Mode

    /// The family and its parameter.
    public let shape: Shape
    /// Which end is eased.
    public let mode: Mode

    /// - Throws: `KinemaError` for a non-finite parameter, an elastic amplitude below 1 or a
    ///   period ≤ 0, a poly exponent ≤ 0.
    public init(_ shape: Shape, _ mode: Mode) throws {
        switch shape {
        case .back(let s):
            try KinemaError.requireFinite(s, "back overshoot")
        case .elastic(let a, let p):
            guard a.isFinite, a >= 1 else {
                throw KinemaError(parameter: "elastic amplitude", value: "\(a)", rule: "a finite number ≥ 1")
            }
            try KinemaError.requirePositive(p, "elastic period")
        case .poly(let n):
            try KinemaError.requirePositive(n, "poly exponent")
        }
        self.shape = shape
        self.mode = mode
    }

    /// `family-mode(parameters)`, which `Easing(name:)` parses back.
    public var name: String {
        let parameters: String
        switch shape {
        case .back(let s): parameters = "\(s)"
        case .elastic(let a, let p): parameters = "\(a),\(p)"
        case .poly(let n): parameters = "\(n)"
        }
        return "\(shape.family)-\(mode.rawValue)(\(parameters))"
    }

    public func value(at t: Double) -> Double {
        if t == 0 || t == 1 { return t }
        switch mode {
        case .in: return easeIn(t)
        case .out: return 1 - easeIn(1 - t)
        case .inOut: return t < 0.5 ? easeIn(2 * t) / 2 : 1 - easeIn(2 - 2 * t) / 2
        }
    }

    public func derivative(at t: Double) -> Double {
        switch mode {
        case .in: return easeInDerivative(t)
        case .out: return easeInDerivative(1 - t)
        case .inOut: return t < 0.5 ? easeInDerivative(2 * t) : easeInDerivative(2 - 2 * t)
        }
    }

    /// Penner's phase shift s = p/(2π)·asin(1/a) (exactly p/4 at a = 1).
    static func elasticShift(_ a: Double, _ p: Double) -> Double { a == 1 ? p / 4 : p / (2 * .pi) * Double.asin(1 / a) }

    func easeIn(_ u: Double) -> Double {
        switch shape {
        case .back(let s): return u * u * ((s + 1) * u - s)
        case .elastic(let a, let p):
            if u == 0 || u == 1 { return u }
            return -a * Double.exp2(10 * u - 10) * Double.sin((u - 1 - Self.elasticShift(a, p)) * 2 * .pi / p)
        case .poly(let n): return Double.pow(u, n)
        }
    }

    func easeInDerivative(_ u: Double) -> Double {
        switch shape {
        case .back(let s): return 3 * (s + 1) * u * u - 2 * s * u
        case .elastic(let a, let p):
            let w = 2 * .pi / p, phase = (u - 1 - Self.elasticShift(a, p)) * w
            return -a * Double.exp2(10 * u - 10) * (10 * Double.log(2) * Double.sin(phase) + w * Double.cos(phase))
        case .poly(let n): return u == 0 ? (n < 1 ? .infinity : n == 1 ? 1 : 0) : n * Double.pow(u, n - 1)
        }
    }
}
