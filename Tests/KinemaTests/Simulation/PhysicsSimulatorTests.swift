import Testing

@_spi(Engine) @testable import Kinema

/// The live simulator against the batch run (same loop) and against closed forms after a gesture.
struct PhysicsSimulatorTests {
    /// Frame durations around 60 and 120 Hz with ±10 % jitter, from a fixed seed.
    static func jitteredFrames(_ count: Int, seed: UInt64) -> [Double] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in (next() < 0.5 ? 1.0 / 60 : 1.0 / 120) * (0.9 + 0.2 * next()) }
    }

    /// A 2-D ball on a spring over a floor with friction, and a 1-D drop: both collide.
    static let scenes: [PhysicsScene] = {
        let ball = try! PhysicsBody(name: "ball", position: SIMD3(0.5, 1, 0), velocity: SIMD3(1, 0, 0), radius: 0.05)
        let swing = try! PhysicsScene(
            dimensions: 2, bodies: [ball],
            springs: [SpringForce(.anchor(body: 0, at: SIMD3(0, 1, 0)), stiffness: 40, damping: 0.5, restLength: 0.5)],
            gravity: SIMD3(0, -9.81, 0), planes: [Plane.floor(dimensions: 2, restitution: 0.6, friction: 0.1)])
        return [swing, try! PhysicsScene.drop(height: 1, restitution: 0.7)]
    }()

    /// Frame by frame at jittered 60/120 Hz equals `run(method:frameDurations:)`; the batch run goes
    /// 1 s further, so its last step (cut at its end) lies beyond the frames compared.
    @Test(arguments: [IntegrationMethod.rk4(timeStep: 1.0 / 240), .semiImplicitEuler(timeStep: 1e-3)], [0, 1])
    func frameByFrameEqualsTheBatchRun(_ method: IntegrationMethod, _ sceneIndex: Int) throws {
        let scene = Self.scenes[sceneIndex]
        let frames = Self.jitteredFrames(240, seed: 7)
        let batch = try Simulation(scene: scene).run(
            method: method, frameDurations: frames + Array(repeating: 1.0 / 60, count: 60))
        var live = try PhysicsSimulator(scene: scene, method: method)
        var events: [ImpactEvent] = []
        #expect(live.positions == (0..<scene.coordinateCount).map { batch.position(atSample: 0, coordinate: $0) })
        var worst = 0.0
        for (i, frame) in frames.enumerated() {
            let impacts = live.advance(by: frame)
            #expect(impacts == live.lastFrameEvents)
            events += impacts
            #expect(live.time == batch.times[i + 1])
            for c in 0..<scene.coordinateCount {
                worst = max(
                    worst, abs(live.positions[c] - batch.position(atSample: i + 1, coordinate: c)),
                    abs(live.velocities[c] - batch.velocity(atSample: i + 1, coordinate: c)))
            }
        }
        #expect(worst <= 1e-12)
        let batchEvents = batch.events.filter { $0.time <= live.time }
        #expect(!batchEvents.isEmpty)
        #expect(events == batchEvents)
    }

    /// A velocity set between frames takes effect at that frame: the motion after it is the
    /// closed-form oscillator from the position reached and the new velocity.
    @Test func velocitySetBetweenFramesTakesEffectThen() throws {
        let spring = try DampedSpring(stiffness: 170, damping: 10)
        var live = try PhysicsSimulator(scene: .spring(spring, from: 0, to: 1), method: .dopri5(tolerance: 1e-12))
        let before = try spring.motion(from: 0, to: 1, initialVelocity: 0)
        let frames = Self.jitteredFrames(120, seed: 3)
        for frame in frames.prefix(40) {
            live.advance(by: frame)
            #expect(abs(live.positions[0] - before.position(at: live.time)) <= 1e-9)
        }
        let changedAt = live.time, from = live.positions[0]
        try live.setVelocity(SIMD3(-6, 0, 0), ofBody: 0)
        let after = try spring.motion(from: from, to: 1, initialVelocity: -6)
        for frame in frames.dropFirst(40) {
            live.advance(by: frame)
            #expect(abs(live.positions[0] - after.position(at: live.time - changedAt)) <= 1e-9)
            #expect(abs(live.velocities[0] - after.velocity(at: live.time - changedAt)) <= 1e-8)
        }
    }

    /// A ball at rest on the floor, flicked upward: it leaves the contact and follows the parabola
    /// (RK4 is exact on it) until it lands, at the closed-form time.
    @Test func flickedBallLeavesTheFloorOnTheParabola() throws {
        let ball = try PhysicsBody(name: "ball", position: SIMD3(0, 0, 0))
        let scene = try PhysicsScene(
            dimensions: 1, bodies: [ball], gravity: SIMD3(-9.81, 0, 0),
            planes: [Plane.floor(dimensions: 1, restitution: 0.5)])
        var live = try PhysicsSimulator(scene: scene, method: .rk4(timeStep: 1.0 / 240))
        for _ in 0..<30 { live.advance(by: 1.0 / 60) }
        #expect(live.positions[0] == 0 && live.velocities[0] == 0)
        let t0 = live.time
        try live.setVelocity(SIMD3(3, 0, 0), ofBody: 0)
        var landed: ImpactEvent?
        while landed == nil {
            live.advance(by: 1.0 / 60)
            landed = live.lastFrameEvents.first
            if landed == nil {
                let s = live.time - t0
                #expect(abs(live.positions[0] - (3 * s - 0.5 * 9.81 * s * s)) <= 1e-12)
            }
        }
        #expect(abs(landed!.time - (t0 + 6 / 9.81)) <= 1e-12)
        #expect(abs(landed!.speedIn - 3) <= 1e-12)
    }

    /// A spring's anchor moved mid-motion: the body carries on from where it is, towards the new target.
    @Test func movedAnchorRetargetsTheSpring() throws {
        let spring = try DampedSpring(stiffness: 100, damping: 4)
        var live = try PhysicsSimulator(scene: .spring(spring, from: 0, to: 1), method: .exact)
        for _ in 0..<20 { live.advance(by: 1.0 / 60) }
        let changedAt = live.time, x = live.positions[0], v = live.velocities[0]
        try live.setAnchor(SIMD3(-2, 0, 0), ofSpring: 0)
        let after = try spring.motion(from: x, to: -2, initialVelocity: v)
        for _ in 0..<60 {
            live.advance(by: 1.0 / 60)
            #expect(abs(live.positions[0] - after.position(at: live.time - changedAt)) <= 1e-12)
        }
    }

    /// A run streamed in chunks of 7 samples (impacts falling inside and across chunks) gives the
    /// batch run's samples, impacts and work to the last bit.
    @Test(
        arguments: [IntegrationMethod.rk4(timeStep: 1e-3), .dopri5(tolerance: 1e-10), .dop853(tolerance: 1e-10)], [0, 1]
    )
    func streamedRunEqualsTheBatchRun(_ method: IntegrationMethod, _ sceneIndex: Int) throws {
        let simulation = Simulation(scene: Self.scenes[sceneIndex])
        let batch = try simulation.run(method: method, duration: 3, sampleRate: 100)
        var times: [Double] = [], positions: [Double] = [], velocities: [Double] = [], chunks = 0
        let summary = try simulation.run(method: method, duration: 3, sampleRate: 100, samplesPerChunk: 7) { chunk in
            #expect(chunk.count <= 7)
            times += chunk.times
            positions += chunk.positions
            velocities += chunk.velocities
            chunks += 1
        }
        #expect(chunks == (batch.count + 6) / 7)
        #expect(times == batch.times && positions == batch.positions && velocities == batch.velocities)
        #expect(summary.count == 0 && summary.events == batch.events && !batch.events.isEmpty)
        #expect(summary.steps == batch.steps && summary.evaluations == batch.evaluations)
    }

    /// A force-free box under `exact` runs from its event queue live too: the frames are the batch
    /// run's samples (to 1e-12; 1/60 s added up frame by frame differs from i/60 by rounding), and
    /// a sphere flicked between frames goes on in a straight line from there until its next impact.
    @Test func eventDrivenBoxSteppedLiveIsTheBatchRun() throws {
        let scene = try ExactSceneTests.box(gravity: 0, perSide: 4, spacing: 0.45, radius: 0.08, seed: 3)
        let batch = try Simulation(scene: scene).run(method: .exact, duration: 1, sampleRate: 60)
        var live = try PhysicsSimulator(scene: scene, method: .exact)
        var impacts = 0
        for i in 1...60 {
            live.advance(by: 1.0 / 60)
            impacts += live.lastFrameEvents.count
            for lane in 0..<scene.coordinateCount {
                #expect(
                    abs(live.positions[lane] - batch.position(atSample: i, coordinate: lane)) <= 1e-12,
                    "frame \(i), lane \(lane)")
            }
            // Body by body as SIMD3, from the same lanes.
            for body in scene.bodies.indices {
                let x = batch.position(atSample: i, ofBody: body), v = batch.velocity(atSample: i, ofBody: body)
                let lane = 3 * body
                #expect(x == SIMD3(batch.positions[(i * 3 * scene.bodies.count + lane)...].prefix(3)))
                #expect(v == SIMD3(batch.velocities[(i * 3 * scene.bodies.count + lane)...].prefix(3)))
                let gap = live.position(ofBody: body) - x
                #expect(max(abs(gap.x), abs(gap.y), abs(gap.z)) <= 1e-12)
            }
        }
        #expect(impacts == batch.events.count && impacts > 20 && live.steps == impacts)
        // A flick: body 0 sent along x at 0.1 m/s, checked over a frame it has no impact in.
        try live.setVelocity(SIMD3(0.1, 0, 0), ofBody: 0)
        let start = live.position(ofBody: 0)
        live.advance(by: 1.0 / 240)
        if !live.lastFrameEvents.contains(where: { $0.body == "s0" || $0.collider == "s0" }) {
            #expect(abs(live.position(ofBody: 0)[0] - (start[0] + 0.1 / 240)) <= 1e-15)
            #expect(live.position(ofBody: 0)[1] == start[1] && live.position(ofBody: 0)[2] == start[2])
        }
        #expect(throws: KinemaError.self) { try live.setState(ofBody: 0, position: SIMD3(5, 0, 0), velocity: nil) }
    }

    @Test func badInputIsRefusedByName() throws {
        let pin = try PhysicsBody(name: "pin", position: SIMD3(0, 0, 0), isStatic: true)
        let bob = try PhysicsBody(name: "bob", position: SIMD3(1, 0, 0))
        let scene = try PhysicsScene(
            dimensions: 1, bodies: [pin, bob], springs: [SpringForce(.bodies(0, 1), stiffness: 5)])
        var live = try PhysicsSimulator(scene: scene, method: .rk4(timeStep: 0.01))
        live.advance(to: 0.5)
        live.advance(by: 0)
        #expect(throws: KinemaError.self) { try live.setVelocity(SIMD3(1, 2, 0), ofBody: 1) }
        #expect(throws: KinemaError.self) { try live.setVelocity(SIMD3(1, 0, 0), ofBody: 0) }
        #expect(throws: KinemaError.self) { try live.setVelocity(SIMD3(.infinity, 0, 0), ofBody: 1) }
        #expect(throws: KinemaError.self) { try live.setVelocity(SIMD3(1, 0, 0), ofBody: 2) }
        #expect(throws: KinemaError.self) { try live.setAnchor(SIMD3(1, 0, 0), ofSpring: 0) }
        #expect(throws: KinemaError.self) {
            try PhysicsSimulator(scene: scene, method: .rk4(timeStep: 0.01), stepBudget: 0)
        }
        #expect(throws: SimulationError.self) { try PhysicsSimulator(scene: scene, method: .rk4(timeStep: 10)) }
        #expect(live.time == 0.5)
    }

    /// Scene vectors are SIMD3 in every dimension: a component past the scene's dimensions that
    /// is not zero is refused by name, and a scene file's vector must have one number per dimension.
    @Test func componentsPastTheDimensionsAreRefused() throws {
        let flat = try PhysicsBody(name: "b", position: SIMD3(1, 2, 0))
        let raised = try PhysicsBody(name: "b", position: SIMD3(1, 2, 3))
        let cases: [(String, () throws -> Void)] = [
            ("body 'b' position", { _ = try PhysicsScene(dimensions: 2, bodies: [raised]) }),
            ("gravity", { _ = try PhysicsScene(dimensions: 2, bodies: [flat], gravity: SIMD3(0, -9.81, 1)) }),
            (
                "spring anchor",
                {
                    _ = try PhysicsScene(
                        dimensions: 2, bodies: [flat],
                        springs: [SpringForce(.anchor(body: 0, at: SIMD3(0, 0, 1)), stiffness: 1)])
                }
            ),
            (
                "plane 'p' normal",
                {
                    _ = try PhysicsScene(
                        dimensions: 2, bodies: [flat],
                        planes: [Plane(name: "p", normal: SIMD3(0, 1, 1), restitution: 1)])
                }
            ),
            (
                "body 'b' velocity",
                {
                    var live = try PhysicsSimulator(
                        scene: PhysicsScene(dimensions: 2, bodies: [flat]), method: .rk4(timeStep: 0.01))
                    try live.setVelocity(SIMD3(0, 0, 1), ofBody: 0)
                }
            )
        ]
        for (parameter, make) in cases {
            do {
                try make()
                Issue.record("\(parameter) past the dimensions accepted")
            } catch let error as KinemaError {
                #expect(
                    error.parameter == parameter && error.description.contains("zero past the scene's 2 dimensions"))
            }
        }
        let file = #"{"dimensions": 2, "bodies": [{"name": "b", "position": [1, 2, 3]}]}"#
        #expect { try PhysicsScene(json: file) } throws: { error in
            "\(error)".contains("'position' must have 2 components, one per dimension (got 3)")
        }
    }

    /// A frame that needs more than the step budget stops the simulator where it was, with the
    /// reason in `failure`; later frames leave it there, and a gesture starts it again.
    @Test func aFailedFrameStopsTheSimulatorWithTheReason() throws {
        var live = try PhysicsSimulator(scene: .drop(height: 2), method: .rk4(timeStep: 0.001), stepBudget: 100)
        live.advance(by: 0.05)
        let (time, position) = (live.time, live.positions)
        #expect(live.failure == nil && time == 0.05)
        live.advance(by: 0.5)  // 500 steps
        guard case .tooManySteps(_, let limit)? = live.failure else {
            Issue.record("expected tooManySteps, got \(String(describing: live.failure))")
            return
        }
        #expect(limit == 100 && live.time == time && live.positions == position && live.lastFrameEvents.isEmpty)
        live.advance(by: 0.01)
        #expect(live.time == time && live.positions == position)
        try live.setVelocity(SIMD3(0, 0, 0), ofBody: 0)
        #expect(live.failure == nil)
        live.advance(by: 0.05)
        #expect(live.failure == nil && abs(live.time - 0.1) <= 1e-15)
        // Free fall from rest at 2 − g·0.05²/2, for another 0.05 s (RK4 is exact on a parabola).
        let restart = 2 - 0.5 * 9.81 * 0.05 * 0.05
        #expect(abs(live.positions[0] - (restart - 0.5 * 9.81 * 0.05 * 0.05)) <= 1e-12)
    }

    /// A gesture that leaves a resting column as it is (the top ball's velocity set to zero) keeps
    /// every contact: the restart finds what presses from the forces alone. It used to judge the
    /// press with the old contacts' forces cancelling it, so the column fell onto the floor again.
    @Test(arguments: [IntegrationMethod.rk4(timeStep: 1e-3), .dopri5(tolerance: 1e-9), .exact])
    func aGestureKeepsARestingColumnsContacts(_ method: IntegrationMethod) throws {
        let heights = [0.1, 0.3, 0.5]
        var live = try PhysicsSimulator(scene: ContactTests.column(heights), method: method)
        live.advance(to: 0.25)
        try live.setVelocity(.zero, ofBody: 2)
        var impacts = 0
        for frame in 1...15 {
            live.advance(to: 0.25 + Double(frame) / 60)
            impacts += live.lastFrameEvents.count
        }
        #expect(live.failure == nil && impacts == 0, "\(method): \(impacts) impacts after the gesture")
        for (b, height) in heights.enumerated() {
            #expect(
                abs(live.position(ofBody: b).x - height) <= 1e-12, "\(method): b\(b) at \(live.position(ofBody: b).x)")
        }
    }
}
