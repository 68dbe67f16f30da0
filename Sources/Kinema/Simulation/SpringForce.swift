/// A damped spring from a body to a fixed anchor, or between two bodies.
///
/// Force on the first body: `−(k·(|d| − L) + c·(Δv·n))·n` with `d` the separation, `n = d/|d|`;
/// with rest length `L = 0` it is the linear `−k·d − c·Δv`.
public struct SpringForce: Hashable, Sendable {
    /// What the spring connects.
    public enum Ends: Hashable, Sendable {
        /// Body `body` to the fixed point `at` (zero past the scene's dimensions).
        case anchor(body: Int, at: SIMD3<Double>)
        /// Between two different bodies.
        case bodies(Int, Int)
    }

    /// What it connects.
    public private(set) var ends: Ends
    /// Stiffness k in newtons per metre (≥ 0).
    public private(set) var stiffness: Double
    /// Damping c in newton-seconds per metre (≥ 0), along the spring.
    public private(set) var damping: Double
    /// Rest length L in metres (≥ 0).
    public private(set) var restLength: Double

    /// - Throws: `KinemaError` unless stiffness, damping and restLength are finite and ≥ 0.
    public init(_ ends: Ends, stiffness: Double, damping: Double = 0, restLength: Double = 0) throws {
        try KinemaError.requireNonNegative(stiffness, "spring stiffness")
        try KinemaError.requireNonNegative(damping, "spring damping")
        try KinemaError.requireNonNegative(restLength, "spring restLength")
        if case .anchor(_, let anchor) = ends {
            try KinemaError.requireFinite(anchor, "spring anchor")
        }
        self.ends = ends
        self.stiffness = stiffness
        self.damping = damping
        self.restLength = restLength
    }
}
