/// A motion's value as a function of time, as the baker's inner loops evaluate it: generic, so
/// that a concrete source (`SampledMotion`) is inlined where a closure would be a call.
protocol MotionValues {
    func value(at t: Double) -> Double
}

extension SampledMotion: MotionValues {}

/// Any other source's values: its closure.
struct ClosureValues: MotionValues {
    let closure: (Double) -> Double
    @inline(__always) func value(at t: Double) -> Double { closure(t) }
}
