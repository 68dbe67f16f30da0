/// A system over `FlatVector`s that writes its acceleration into lanes in place: what the flat
/// storages step, a scene of any size with nothing allocated per evaluation.
@_spi(Engine) public protocol LaneSystem: SecondOrderSystem where Vector == FlatVector {
    /// Lanes of a position, and of a velocity.
    var coordinateCount: Int { get }
    /// The acceleration at `position` and `velocity` (`coordinateCount` lanes each), into `acceleration`.
    func accelerate(
        position: UnsafePointer<Double>, velocity: UnsafePointer<Double>,
        into acceleration: UnsafeMutablePointer<Double>)
}

@_spi(Engine) extension LaneSystem {
    /// The first-order form into `k`: the velocity lanes of `y` (position, then velocity), then
    /// the acceleration.
    @inline(__always)
    public func derivative(of y: UnsafePointer<Double>, into k: UnsafeMutablePointer<Double>) {
        let n = coordinateCount
        k.update(from: y + n, count: n)  // a memmove: a loop here copied lane by lane
        accelerate(position: y, velocity: y + n, into: k + n)
    }
}
