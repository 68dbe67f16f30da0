/// A motion's value as a function of time, as the baker's inner loops evaluate it: generic, so
/// that a concrete source (`SampledMotion`) is inlined where a closure would be a call.
protocol MotionValues {
    func value(at t: Double) -> Double
    /// `value(at:)` at four times, lane by lane the same arithmetic.
    func values(at t: SIMD4<Double>) -> SIMD4<Double>
}

extension MotionValues {
    @inline(__always)
    func values(at t: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(value(at: t[0]), value(at: t[1]), value(at: t[2]), value(at: t[3]))
    }
}

extension SampledMotion: MotionValues {}

/// Any other source's values: its closure.
struct ClosureValues: MotionValues {
    let closure: (Double) -> Double
    @inline(__always) func value(at t: Double) -> Double { closure(t) }
}
