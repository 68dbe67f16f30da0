/// A cubic-bezier timing function with Core Animation's semantics: the curve from (0, 0) to (1, 1)
/// through control points (x1, y1) and (x2, y2), read as y over x.
///
/// ```
/// x(s) = 3(1−s)²s·x1 + 3(1−s)s²·x2 + s³      y(s) likewise,   value(t) = y(s) where x(s) = t
/// ```
/// x-controls must lie in [0, 1] (so x(s) is monotone and the curve is a function); y-controls are
/// unrestricted (overshoot). The solve for `s` is a bracketed Newton iteration that stops at machine
/// precision, so `value(at:)` is within 1e-12 of the exact curve (for y-controls past ±100, within
/// 1e-14 of the largest), not within the classic `1 / (200·duration)` epsilon that allows errors
/// near 1e-2; it is exactly 0 at t = 0 and 1 at t = 1. Controls x1 = 1/3, x2 = 2/3 make x(s) = s,
/// and that case skips the solve.
public struct CubicBezierTimingFunction: EasingCurve, Hashable, Codable {
    /// The first control point's x (time), in [0, 1].
    public let x1: Double
    /// The first control point's y (progress), any finite value (past [0, 1]: overshoot).
    public let y1: Double
    /// The second control point's x (time), in [0, 1].
    public let x2: Double
    /// The second control point's y (progress), any finite value.
    public let y2: Double

    /// Creates the timing function with control points (x1, y1) and (x2, y2).
    /// - Throws: `KinemaError` when an x-control lies outside [0, 1] or a y-control outside
    ///   ±`largestControl` (beyond it the curve's own arithmetic, 3·y, overflows).
    public init(x1: Double, y1: Double, x2: Double, y2: Double) throws {
        for (name, x) in [("x1", x1), ("x2", x2)] where !(x.isFinite && x >= 0 && x <= 1) {
            throw KinemaError(parameter: "cubic-bezier \(name)", value: "\(x)", rule: "a number in [0, 1]")
        }
        for (name, y) in [("y1", y1), ("y2", y2)] where !(abs(y) <= Self.largestControl) {
            throw KinemaError(
                parameter: "cubic-bezier \(name)", value: "\(y)",
                rule: "a number in [−\(Self.largestControl), \(Self.largestControl)]")
        }
        self.init(uncheckedX1: x1, y1: y1, x2: x2, y2: y2)
    }

    /// The largest |y| of a control point: values of the curve stay finite up to it.
    package static var largestControl: Double { 1e300 }

    @usableFromInline
    init(uncheckedX1 x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// `kCAMediaTimingFunctionLinear`: (0, 0, 1, 1).
    public static let linear = Self(uncheckedX1: 0, y1: 0, x2: 1, y2: 1)
    /// `kCAMediaTimingFunctionEaseIn`: (0.42, 0, 1, 1).
    public static let easeIn = Self(uncheckedX1: 0.42, y1: 0, x2: 1, y2: 1)
    /// `kCAMediaTimingFunctionEaseOut`: (0, 0, 0.58, 1).
    public static let easeOut = Self(uncheckedX1: 0, y1: 0, x2: 0.58, y2: 1)
    /// `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0, 0.58, 1).
    public static let easeInEaseOut = Self(uncheckedX1: 0.42, y1: 0, x2: 0.58, y2: 1)
    /// `kCAMediaTimingFunctionDefault`: (0.25, 0.1, 0.25, 1).
    public static let `default` = Self(uncheckedX1: 0.25, y1: 0.1, x2: 0.25, y2: 1)

    /// True when the x-controls are (1/3, 2/3), which makes x(s) = s.
    @inlinable
    package var isIdentityInX: Bool { x1 == 1.0 / 3.0 && x2 == 2.0 / 3.0 }

    /// True when both controls lie on the diagonal (x1 = y1, x2 = y2), which makes the curve y = t
    /// exactly, as for `linear`.
    @inlinable
    public var isDiagonal: Bool { x1 == y1 && x2 == y2 }

    /// The value at `t`. Outside [0, 1] (which Core Animation never asks for: its time is clamped
    /// first) the curve goes on along its end tangents as CSS Easing Level 1 specifies, so value
    /// and `derivative` agree there too: `startSlope · t` before 0, `1 + endSlope · (t − 1)` after 1.
    @inlinable
    public func value(at t: Double) -> Double {
        if t < 0 { return startSlope * t }
        if t > 1 { return 1 + endSlope * (t - 1) }
        if isDiagonal { return t }
        return Self.bernstein(y1, y2, at: parameter(at: t))
    }

    /// CSS Easing Level 1's tangent before 0: the line from P0 through P1 when x1 > 0, else through
    /// P2 when x2 > 0, else flat.
    @inlinable
    public var startSlope: Double { x1 > 0 ? y1 / x1 : x2 > 0 ? y2 / x2 : 0 }

    /// CSS Easing Level 1's tangent after 1: the line from P2 through P3 when x2 < 1, else from P1
    /// when x1 < 1, else flat.
    @inlinable
    public var endSlope: Double { x2 < 1 ? (1 - y2) / (1 - x2) : x1 < 1 ? (1 - y1) / (1 - x1) : 0 }

    /// The slope `dy/dx` at `t` (the end tangents outside [0, 1]); ±∞ where x'(s) = 0 but y'(s) ≠ 0.
    @inlinable
    public func derivative(at t: Double) -> Double {
        if t < 0 { return startSlope }
        if t > 1 { return endSlope }
        if isDiagonal { return 1 }
        let s = parameter(at: t)
        let dx = Self.cubicDerivative(x1, x2, at: s)
        let dy = Self.cubicDerivative(y1, y2, at: s)
        if abs(dx) > 1e-9 { return dy / dx }
        if abs(dy) > 1e-9 { return dy / max(dx, 0) }
        // 0/0 at an end where both first derivatives vanish: take the ratio of the next derivatives.
        let ddx = Self.cubicSecondDerivative(x1, x2, at: s)
        let ddy = Self.cubicSecondDerivative(y1, y2, at: s)
        if abs(ddx) > 1e-12 { return ddy / ddx }
        return (1 - 3 * (y2 - y1)) / (1 - 3 * (x2 - x1))
    }

    /// The bezier parameter `s` with x(s) = t, for `t` clamped to [0, 1] (Core Animation's time).
    ///
    /// Newton's method inside a shrinking bracket, falling back to bisection whenever a Newton step
    /// leaves the bracket; it stops when x(s) = t exactly or the step is below 1e-16.
    /// - Complexity: at most 100 iterations; typically 3–6.
    @inlinable
    package func parameter(at t: Double) -> Double {
        if !(t > 0) { return 0 }
        if t >= 1 { return 1 }
        if isIdentityInX { return t }
        var lower = 0.0, upper = 1.0, s = t
        for _ in 0..<100 {
            let error = Self.cubic(x1, x2, at: s) - t
            if error == 0 { return s }
            if error > 0 { upper = s } else { lower = s }
            let slope = Self.cubicDerivative(x1, x2, at: s)
            var next = s - error / slope
            if !(slope > 0) || !(next > lower && next < upper) { next = 0.5 * (lower + upper) }
            if abs(next - s) <= 1e-16 || upper - lower <= 1e-16 { return next }
            s = next
        }
        return s
    }

    /// `3(1−s)²s·p1 + 3(1−s)s²·p2 + s³` in Horner form, for x(s): with controls in [0, 1] its
    /// coefficients (at most 6) round about as little as the terms, and the solve runs it a few
    /// times per value, where the Bernstein form costs a quarter more.
    @inlinable
    static func cubic(_ p1: Double, _ p2: Double, at s: Double) -> Double {
        Polynomial(p1, p2).value(at: s)
    }

    /// The same in Bernstein form, for y(s): exactly 0 and 1 at the ends whatever the controls.
    /// The Horner form's coefficients are up to 6× the y-controls, and so is its rounding: with
    /// y-controls of ±1e300 its value at s = 1 is 6e284 off.
    @inlinable
    static func bernstein(_ p1: Double, _ p2: Double, at s: Double) -> Double {
        let u = 1 - s
        return (3 * u * u * s * p1 + 3 * u * s * s * p2) + s * s * s
    }

    /// `cubic`'s coefficients, for a loop that evaluates one curve at many s.
    @usableFromInline
    struct Polynomial {
        @usableFromInline let a, b, c: Double

        @inlinable
        init(_ p1: Double, _ p2: Double) {
            c = 3 * p1
            b = 3 * (p2 - p1) - c
            a = 1 - c - b
        }

        @inlinable
        func value(at s: Double) -> Double { ((a * s + b) * s + c) * s }

        @inlinable
        func derivative(at s: Double) -> Double { (3 * a * s + 2 * b) * s + c }

        /// `value` on four parameters at once, lane by lane the same arithmetic.
        @_spi(Engine) @inlinable @inline(__always)
        public func value(at s: SIMD4<Double>) -> SIMD4<Double> { ((a * s + b) * s + c) * s }

        @_spi(Engine) @inlinable @inline(__always)
        public func derivative(at s: SIMD4<Double>) -> SIMD4<Double> { (3 * a * s + 2 * b) * s + c }
    }

    @inlinable
    static func cubicDerivative(_ p1: Double, _ p2: Double, at s: Double) -> Double {
        Polynomial(p1, p2).derivative(at: s)
    }

    @inlinable
    static func cubicSecondDerivative(_ p1: Double, _ p2: Double, at s: Double) -> Double {
        let c = 3 * p1
        let b = 3 * (p2 - p1) - c
        let a = 1 - c - b
        return 6 * a * s + 2 * b
    }
}
