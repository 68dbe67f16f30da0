import Testing

@_spi(Engine) @testable import Kinema

/// Scenes in flat storage (`FlatVector`, any size) against the packed SIMD path, analytic
/// oscillators and static bodies. GSL's check of a 1,000-body chain is in KinemaReferenceTests.
struct FlatStorageTests {
    /// `count` bodies in 2-D joined by springs of rest length 0.3 (a chain hung from an anchor),
    /// under gravity, over a floor, colliding with each other as spheres.
    static func chain2D(_ count: Int) throws -> PhysicsScene {
        var bodies: [PhysicsBody] = []
        for i in 0..<count {
            let x = 0.3 * Double(i + 1), y = 1.5 + 0.02 * Double(i), vx = 0.1 * Double(i % 3)
            bodies.append(
                try PhysicsBody(
                    name: "b\(i)", mass: 1 + 0.05 * Double(i), position: SIMD3(x, y, 0), velocity: SIMD3(vx, -0.2, 0),
                    radius: 0.05))
        }
        var springs = [
            try SpringForce(.anchor(body: 0, at: SIMD3(0, 1.5, 0)), stiffness: 300, damping: 0.5, restLength: 0.3)
        ]
        for i in 1..<count {
            springs.append(try SpringForce(.bodies(i - 1, i), stiffness: 300, damping: 0.5, restLength: 0.3))
        }
        return try PhysicsScene(
            dimensions: 2, bodies: bodies, springs: springs, gravity: SIMD3(0, -9.81, 0),
            planes: [Plane.floor(dimensions: 2, restitution: 0.7)],
            contacts: PhysicsScene.Contacts(restitution: 0.9))
    }

    static let methods: [IntegrationMethod] = [
        .euler(timeStep: 1e-4), .semiImplicitEuler(timeStep: 1e-3), .verlet(timeStep: 1e-3), .rk4(timeStep: 1e-3),
        .adams(timeStep: 1e-3, order: 8), .adams(timeStep: 7e-4, order: 12), .adams(timeStep: 2e-3, order: 2),
        .dopri5(tolerance: 1e-8), .dop853(tolerance: 1e-10)
    ]

    /// 8 bodies in 2-D fill a SIMD16 exactly, so norms and forces see the same lanes either way:
    /// flat storage (every method in place) is the same arithmetic and must give the same
    /// trajectory and impacts to the last bit. Adams at 0.7 ms ends off its grid (a DOP853 step).
    @Test(arguments: methods)
    func flatStorageStepsLikeThePackedVector(_ method: IntegrationMethod) throws {
        let scene = try Self.chain2D(8)
        #expect(scene.coordinateCount == 16)
        let packed = try Simulation(scene: scene).run(method: method, duration: 1.5, sampleRate: 100)
        var flat = Simulation(scene: scene)
        flat.largestPackedScene = 0
        let inPlace = try flat.run(method: method, duration: 1.5, sampleRate: 100)
        #expect(!packed.events.isEmpty, "the scene collides")
        #expect(inPlace.positions == packed.positions)
        #expect(inPlace.velocities == packed.velocities)
        #expect(inPlace.events == packed.events)
        #expect(inPlace.steps == packed.steps)
    }

    /// A method of the caller's own (the explicit midpoint rule), written once over the registers,
    /// steps a SIMD16 and flat storage to the same bits.
    @Test func aMethodOfTheCallersOwnStepsBothStoragesAlike() throws {
        enum Midpoint: FixedStepMethod {
            static let order = 2
            static let evaluationsPerStep = 2
            static func step<R: StepRegisters>(_ r: inout R, _ system: R.System, time: Double, by h: Double) {
                r.forEachLane { r, i in
                    r[.s0, i] = r[.x0, i] + (0.5 * h) * r[.v0, i]
                    r[.s1, i] = r[.v0, i] + (0.5 * h) * r[.a0, i]
                }
                r.accelerate(.s0, .s1, into: .s2, time: time + 0.5 * h, system)
                r.forEachLane { r, i in
                    r[.x1, i] = r[.x0, i] + h * r[.s1, i]
                    r[.v1, i] = r[.v0, i] + h * r[.s2, i]
                }
            }
            static func largestStableStep(omega: Double, dampingRatio: Double) -> Double { 2 / omega }
        }
        let scene = try Self.chain2D(8)
        let packedSystem = SceneSystem<SIMD16<Double>>(scene: scene), flatSystem = SceneSystem<FlatVector>(scene: scene)
        var packed = FixedStepIntegrator(
            system: packedSystem, method: Midpoint.self, state: packedSystem.initialState, timeStep: 1e-3)
        var flat = FixedStepIntegrator(
            system: flatSystem, storage: FlatStepStorage.self, method: Midpoint.self, state: flatSystem.initialState,
            timeStep: 1e-3)
        for _ in 0..<300 {
            try packed.advance(toward: .infinity)
            try flat.advance(toward: .infinity)
        }
        #expect(flat.time == packed.time && flat.time > 0.29)
        // The midpoint rule's state after 0.3 s of the chain moved, and is finite.
        #expect(packed.state.position != packedSystem.initialState.position && packed.state.allLanesFinite)
        for lane in 0..<16 {
            #expect(flat.state.position.lanes[lane] == packed.state.position[lane])
            #expect(flat.state.velocity.lanes[lane] == packed.state.velocity[lane])
        }
    }

    /// 200 bodies in 3-D (600 coordinates) each on its own anchor spring: every coordinate follows
    /// its own analytic oscillator, through the in-place RK4.
    @Test func twoHundredIndependentOscillatorsThroughInPlaceRK4() throws {
        var bodies: [PhysicsBody] = [], springs: [SpringForce] = []
        for i in 0..<200 {
            let d = Double(i % 20)
            bodies.append(
                try PhysicsBody(
                    name: "b\(i)", mass: 1 + 0.1 * d, position: SIMD3(d, -d, 0.5 * d), velocity: SIMD3(1, 0, -1)))
            springs.append(
                try SpringForce(.anchor(body: i, at: SIMD3(0, 1, 2)), stiffness: 50 + 10 * d, damping: 0.5 + 0.2 * d))
        }
        let scene = try PhysicsScene(dimensions: 3, bodies: bodies, springs: springs)
        let trajectory = try Simulation(scene: scene).run(method: .rk4(timeStep: 1e-3), duration: 1, sampleRate: 20)
        var worst = 0.0
        for (i, body) in bodies.enumerated() {
            for axis in 0..<3 {
                let exact = try DampedHarmonicOscillator(
                    mass: body.mass, stiffness: springs[i].stiffness, damping: springs[i].damping,
                    target: [0.0, 1, 2][axis], initialPosition: body.position[axis],
                    initialVelocity: body.velocity[axis])
                for s in 0..<trajectory.count {
                    worst = max(
                        worst,
                        abs(
                            trajectory.position(atSample: s, coordinate: 3 * i + axis)
                                - exact.position(at: trajectory.times[s])))
                }
            }
        }
        // RK4's global error at ω ≤ 15 rad/s, h = 1 ms, amplitude ≤ 20: about C·(ωh)⁴·ωt·A ≈ 1e-7.
        #expect(worst <= 1e-6)
        #expect(worst > 0)
    }

    /// A static body is a pin: under gravity it stays where it is, and a body hung from it by a
    /// spring moves exactly as one hung from an anchor at the same place.
    @Test func staticBodyIsAPin() throws {
        let pin = try PhysicsBody(name: "pin", mass: 1e12, position: SIMD3(0, 2, 0), isStatic: true)
        let bob = try PhysicsBody(name: "bob", position: SIMD3(0.4, 1.5, 0), velocity: SIMD3(1, 0, 0))
        let pinned = try PhysicsScene(
            dimensions: 2, bodies: [pin, bob],
            springs: [SpringForce(.bodies(0, 1), stiffness: 80, damping: 0.3, restLength: 0.5)],
            gravity: SIMD3(0, -9.81, 0))
        let anchored = try PhysicsScene(
            dimensions: 2, bodies: [bob],
            springs: [SpringForce(.anchor(body: 0, at: SIMD3(0, 2, 0)), stiffness: 80, damping: 0.3, restLength: 0.5)],
            gravity: SIMD3(0, -9.81, 0))
        // RK4 does the same arithmetic either way; Dormand–Prince's error norm also counts the pin's
        // (zero) lanes, so its steps differ and both are only as close as their tolerance.
        for (method, bound) in [(IntegrationMethod.rk4(timeStep: 1e-3), 1e-12), (.dopri5(tolerance: 1e-11), 1e-8)] {
            let a = try Simulation(scene: pinned).run(method: method, duration: 2, sampleRate: 50)
            let b = try Simulation(scene: anchored).run(method: method, duration: 2, sampleRate: 50)
            for s in 0..<a.count {
                #expect(
                    a.position(atSample: s, coordinate: 0) == 0 && a.position(atSample: s, coordinate: 1) == 2
                        && a.velocity(atSample: s, coordinate: 0) == 0 && a.velocity(atSample: s, coordinate: 1) == 0)
                #expect(
                    abs(a.position(atSample: s, coordinate: 2) - b.position(atSample: s, coordinate: 0)) <= bound
                        && abs(a.position(atSample: s, coordinate: 3) - b.position(atSample: s, coordinate: 1)) <= bound
                )
            }
        }
    }

    /// A sphere hitting a static sphere head-on leaves at e × its speed; the static one stays.
    @Test func sphereBouncesOffAStaticSphere() throws {
        let wall = try PhysicsBody(name: "wall", position: SIMD3(0, 0, 0), radius: 0.5, isStatic: true)
        let ball = try PhysicsBody(name: "ball", position: SIMD3(2, 0, 0), velocity: SIMD3(-3, 0, 0), radius: 0.5)
        let scene = try PhysicsScene(
            dimensions: 1, bodies: [wall, ball], contacts: PhysicsScene.Contacts(restitution: 0.6))
        let trajectory = try Simulation(scene: scene).run(method: .rk4(timeStep: 0.01), duration: 1, sampleRate: 10)
        #expect(trajectory.events.count == 1)
        let event = try #require(trajectory.events.first)
        #expect(abs(event.time - 1.0 / 3) <= 1e-12)
        #expect(abs(event.speedOut - 1.8) <= 1e-12)
        let last = trajectory.count - 1
        #expect(trajectory.position(atSample: last, coordinate: 0) == 0)
        #expect(abs(trajectory.velocity(atSample: last, coordinate: 1) - 1.8) <= 1e-12)
        #expect(abs(trajectory.position(atSample: last, coordinate: 1) - (1 + 1.8 * (1 - 1.0 / 3))) <= 1e-12)
    }

    @Test func staticBodiesAreReadFromJSONAndMustNotMove() throws {
        let scene = try PhysicsScene(
            json: """
                {"dimensions": 1, "bodies": [{"name": "pin", "position": [0], "static": true}, {"name": "b", "position": [1]}],
                 "springs": [{"bodies": ["pin", "b"], "stiffness": 10}]}
                """)
        #expect(scene.bodies[0].isStatic && !scene.bodies[1].isStatic)
        #expect(throws: KinemaError.self) {
            try PhysicsScene(
                json:
                    #"{"dimensions": 1, "bodies": [{"name": "pin", "position": [0], "velocity": [1], "static": true}]}"#
            )
        }
        #expect(throws: KinemaError.self) {
            try PhysicsScene(json: #"{"dimensions": 1, "bodies": [{"name": "pin", "position": [0], "static": 1}]}"#)
        }
    }
}
