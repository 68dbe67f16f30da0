/// A curve of normalized time: a value and its derivative at any `t`, usually in [0, 1].
///
/// Timing functions, Penner easings, Lockwood's bounce and the damped cosine all conform, so the
/// keyframe adapter and the CLI treat them alike.
public protocol EasingCurve: Sendable {
    /// The curve's value at normalized time `t`.
    func value(at t: Double) -> Double
    /// The curve's derivative `d value / d t` at normalized time `t`.
    func derivative(at t: Double) -> Double
}
