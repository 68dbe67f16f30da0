import RealModule

/// Robert Penner's easing equations with their canonical constants, as value and derivative.
///
/// Each family defines an ease-in `f`; the other modes are built from it:
/// ```
/// out(t)   = 1 − f(1 − t)
/// inOut(t) = f(2t)/2 for t < ½,   1 − f(2 − 2t)/2 otherwise
/// ```
/// Constants: back s = 1.70158 (in-out: s·1.525); elastic period 0.3 (in-out: 0.45), amplitude 1;
/// bounce-out 7.5625·t² over breakpoints 1/2.75, 2/2.75, 2.5/2.75; expo pinned to 0 at t = 0 and
/// 1 at t = 1. Penner's bounce-out is *not* Lockwood's bounce (see `LockwoodBounce`).
public struct PennerEasing: EasingCurve, Hashable {
    /// The shape of the easing.
    public enum Family: String, CaseIterable, Sendable {
        /// f(t) = t².
        case quad
        /// f(t) = t³.
        case cubic
        /// f(t) = t⁴.
        case quart
        /// f(t) = t⁵.
        case quint
        /// f(t) = 1 − cos(πt/2).
        case sine
        /// f(t) = 2^(10(t − 1)), pinned to 0 at t = 0.
        case expo
        /// f(t) = 1 − √(1 − t²).
        case circ
        /// f(t) = t²((s + 1)t − s), s = 1.70158 (in-out: s·1.525).
        case back
        /// Amplitude 1, period 0.3 (in-out: 0.45).
        case elastic
        /// Penner's bounce: bounce-out is 7.5625·t² over breakpoints 1/2.75, 2/2.75, 2.5/2.75.
        case bounce
    }

    /// Which end of the motion is eased.
    public enum Mode: String, CaseIterable, Sendable {
        /// Eased at the start: f(t).
        case `in`
        /// Eased at the end: 1 − f(1 − t).
        case out
        /// Eased at both: f(2t)/2, then 1 − f(2 − 2t)/2.
        case inOut = "in-out"
    }

    /// The equation.
    public let family: Family
    /// Which end is eased.
    public let mode: Mode

    /// Creates the easing `family`-`mode`, for example `PennerEasing(.bounce, .out)`.
    public init(_ family: Family, _ mode: Mode) {
        self.family = family
        self.mode = mode
    }

    /// Back's overshoot constant.
    public static let backOvershoot = 1.70158
    /// Back's in-out overshoot: `1.70158 · 1.525`.
    public static let backInOutOvershoot = 1.70158 * 1.525

    /// The eased value; exactly 0 at t = 0 and 1 at t = 1 (d3 and tween.js promise that, and users
    /// compare with `==`: the formulas alone leave sine-in(1), back-out(0) and others an ulp off).
    public func value(at t: Double) -> Double {
        if t == 0 || t == 1 { return t }
        if family == .bounce && mode == .out { return Self.bounceOut(t) }
        switch mode {
        case .in:
            return easeIn(t, inOut: false)
        case .out:
            return 1 - easeIn(1 - t, inOut: false)
        case .inOut:
            return t < 0.5 ? easeIn(2 * t, inOut: true) / 2 : 1 - easeIn(2 - 2 * t, inOut: true) / 2
        }
    }

    public func derivative(at t: Double) -> Double {
        switch mode {
        case .in: return easeInDerivative(t, inOut: false)
        case .out: return easeInDerivative(1 - t, inOut: false)
        case .inOut: return t < 0.5 ? easeInDerivative(2 * t, inOut: true) : easeInDerivative(2 - 2 * t, inOut: true)
        }
    }

    /// Penner's `easeOutBounce`, written as he wrote it (the other bounce modes derive from it).
    public static func bounceOut(_ t: Double) -> Double {
        let n = 7.5625, d = 2.75
        if t < 1 / d { return n * t * t }
        if t < 2 / d { let u = t - 1.5 / d; return n * u * u + 0.75 }
        if t < 2.5 / d { let u = t - 2.25 / d; return n * u * u + 0.9375 }
        let u = t - 2.625 / d
        return n * u * u + 0.984375
    }

    static func bounceOutDerivative(_ t: Double) -> Double {
        let n = 7.5625, d = 2.75
        if t < 1 / d { return 2 * n * t }
        if t < 2 / d { return 2 * n * (t - 1.5 / d) }
        if t < 2.5 / d { return 2 * n * (t - 2.25 / d) }
        return 2 * n * (t - 2.625 / d)
    }

    /// The family's ease-in; `inOut` selects the in-out constants (back, elastic).
    func easeIn(_ u: Double, inOut: Bool) -> Double {
        switch family {
        case .quad: return u * u
        case .cubic: return u * u * u
        case .quart: return u * u * u * u
        case .quint: return u * u * u * u * u
        case .sine: return 1 - Double.cos(u * .pi / 2)
        case .expo: return u == 0 ? 0 : Double.exp2(10 * u - 10)
        case .circ: return 1 - (1 - u * u).squareRoot()
        case .back:
            let s = inOut ? Self.backInOutOvershoot : Self.backOvershoot
            return u * u * ((s + 1) * u - s)
        case .elastic:
            if u == 0 || u == 1 { return u }
            let period = inOut ? 0.45 : 0.3
            return -Double.exp2(10 * u - 10) * Double.sin((u - 1 - period / 4) * 2 * .pi / period)
        case .bounce:
            return 1 - Self.bounceOut(1 - u)
        }
    }

    func easeInDerivative(_ u: Double, inOut: Bool) -> Double {
        switch family {
        case .quad: return 2 * u
        case .cubic: return 3 * u * u
        case .quart: return 4 * u * u * u
        case .quint: return 5 * u * u * u * u
        case .sine: return .pi / 2 * Double.sin(u * .pi / 2)
        case .expo: return 10 * Double.log(2) * Double.exp2(10 * u - 10)
        case .circ: return u / (1 - u * u).squareRoot()
        case .back:
            let s = inOut ? Self.backInOutOvershoot : Self.backOvershoot
            return 3 * (s + 1) * u * u - 2 * s * u
        case .elastic:
            let period = inOut ? 0.45 : 0.3
            let w = 2 * .pi / period
            let phase = (u - 1 - period / 4) * w
            let growth = Double.exp2(10 * u - 10)
            return -growth * (10 * Double.log(2) * Double.sin(phase) + w * Double.cos(phase))
        case .bounce:
            return Self.bounceOutDerivative(1 - u)
        }
    }
}
