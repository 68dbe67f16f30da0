/// A one-step method with a fixed step size. Each method is a type, so a loop generic over it is
/// specialized for the method and the system together.
@_spi(Engine) public protocol FixedStepMethod {
    /// The global order of accuracy.
    static var order: Int { get }
    /// Acceleration evaluations per step.
    static var evaluationsPerStep: Int { get }
    /// Advances `state` from `time` by `h`.
    static func step<S: SecondOrderSystem>(
        _ system: S, _ state: PhaseState<S.Vector>, time: Double, by h: Double
    ) -> PhaseState<S.Vector>
    /// The largest stable step on a linear oscillator of angular frequency `omega` and damping
    /// ratio `dampingRatio` (0 when no step is stable).
    static func largestStableStep(omega: Double, dampingRatio: Double) -> Double
    /// `step` on a scene in flat storage, in place: lane for lane the same operations in the same
    /// order (so both agree to the last bit), with no allocation. The default runs `step` on
    /// `FlatVector`'s operators (allocating).
    static func step(_ lanes: FlatStepLanes, by h: Double)
}

extension FixedStepMethod {
    public static func step(_ lanes: FlatStepLanes, by h: Double) {
        var system = SceneSystem<FlatVector>(layout: lanes.layout)
        system.resting = lanes.resting
        let n = lanes.count
        let start = PhaseState<FlatVector>(
            position: FlatVector(Array(UnsafeBufferPointer(start: lanes.x0, count: n))),
            velocity: FlatVector(Array(UnsafeBufferPointer(start: lanes.v0, count: n))))
        let end = step(system, start, time: lanes.time, by: h)
        for i in 0..<n {
            lanes.x1[i] = end.position[lane: i]
            lanes.v1[i] = end.velocity[lane: i]
        }
        lanes.accelerate(lanes.x1, lanes.v1, into: lanes.aEnd)
    }
}

/// One step of a scene in flat storage: n lanes each of the start (x0, v0, and a0, its
/// acceleration), the end (x1, v1, and aEnd, its acceleration, which the method writes) and seven
/// slots of scratch, with the scene's forces.
@_spi(Engine) public struct FlatStepLanes {
    public let count: Int
    public let x0: UnsafePointer<Double>, v0: UnsafePointer<Double>, a0: UnsafePointer<Double>
    public let x1: UnsafeMutablePointer<Double>, v1: UnsafeMutablePointer<Double>, aEnd: UnsafeMutablePointer<Double>
    public let scratch: UnsafeMutablePointer<Double>
    /// The time at the start (a scene's forces do not depend on it).
    public let time: Double
    let layout: SceneLayout
    let resting: [RestingContact]

    /// The acceleration at (x, v) into `a`.
    @inline(__always)
    func accelerate(_ x: UnsafePointer<Double>, _ v: UnsafePointer<Double>, into a: UnsafeMutablePointer<Double>) {
        layout.accelerate(position: x, velocity: v, into: a, resting: resting)
    }

    /// Scratch slot `k` (0 to 6) of n lanes.
    @inline(__always)
    func slot(_ k: Int) -> UnsafeMutablePointer<Double> { scratch + k * count }
}
