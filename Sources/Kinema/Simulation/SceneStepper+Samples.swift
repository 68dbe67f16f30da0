extension SceneStepper {
    /// Steps through `times` (as `advance(through:)`), the states reported there recorded as a
    /// trajectory of `scene`. Each time is reported once, in order, so the states go straight into
    /// storage of that size (no append per value, each checking uniqueness and capacity), and the
    /// times are the ones asked for.
    mutating func samples(
        at times: [Double], stepLimit: Double, scene: PhysicsScene,
        events: inout [ImpactEvent]
    ) throws -> (times: [Double], positions: [Double], velocities: [Double]) {
        let lanes = scene.coordinateCount, size = times.count * lanes
        var samples = 0
        var velocities: [Double] = []
        let positions = try [Double](unsafeUninitializedCapacity: size) { positions, positionCount in
            velocities = try [Double](unsafeUninitializedCapacity: size) { velocities, velocityCount in
                try advance(through: times, stepLimit: stepLimit, events: &events) { _, state in
                    let row = samples * lanes
                    guard row + lanes <= size else { return }
                    for j in 0..<lanes {
                        positions[row + j] = state.position[lane: j]
                        velocities[row + j] = state.velocity[lane: j]
                    }
                    samples += 1
                    (positionCount, velocityCount) = (row + lanes, row + lanes)
                }
            }
        }
        return (samples == times.count ? times : Array(times.prefix(samples)), positions, velocities)
    }
}
