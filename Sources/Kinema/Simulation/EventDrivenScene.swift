import RealModule

/// A scene without springs or drag, run as hard-sphere simulations are: between impacts every
/// body moves under a constant acceleration (uniform gravity, or none), on a parabola or a straight
/// line; each impact is predicted in closed form (a quadratic, or the first root of a quartic
/// against a body resting on a plane) and kept in a queue, and the space is divided into cells so
/// that a body is only paired with the bodies of its own and the neighbouring cells. An impact
/// updates the bodies it involves and their predictions, whatever the number of bodies; a body
/// that crosses into another cell is paired with its new neighbours. `exact` runs such scenes this way.
///
/// A body that comes to rest on a plane (a bounce slower than the rest velocity, pressed there by
/// gravity) stays in the queue: it slides on the plane under gravity's component along it, with
/// Coulomb friction decelerating it to a stop where friction holds it. An impact the queue's
/// pairwise impulses cannot resolve (a ball on the floor hit from above) is resolved as the stepper
/// resolves it, every touching body in one impulse problem, and the queue goes on from there.
/// What the queue does not model — two spheres at rest on each other, a body pressed into two
/// planes, friction turning a sliding body's direction — ends it (`handedOff`): the run goes on
/// under the stepper from the state at that instant.
struct EventDrivenScene {
    let scene: PhysicsScene
    let d: Int
    /// Each body's motion from its own time `since`: `x + s·v + s²/2·a` at `s` after it.
    var x: [SIMD3<Double>], v: [SIMD3<Double>], a: [SIMD3<Double>], since: [Double]
    /// The plane each body rests on (pressed there by gravity), −1 for a body in flight.
    var restsOn: [Int]
    let inverseMass: [Double], radius: [Double]
    let normals: [SIMD3<Double>]
    /// Changes of each body's motion: a prediction made before the last one is stale.
    var changes: [Int]
    var queue = EventQueue()
    let grid: Grid
    var cellOf: [Int], members: [[Int]]
    var time = 0.0
    var processed = 0
    let eventLimit: Int
    /// Whether the queue stopped at `time` in a state it does not model; the stepper goes on from
    /// `state(at: time)`, resolving `pendingImpact` first where there is one.
    var handedOff = false
    var pendingImpact: (body: Int, collider: Collisions.Collider)?
    /// The last handed-off impact resolved in the queue (`resolvePendingImpact`).
    var resolvedHandOff: (time: Double, body: Int, collider: Collisions.Collider)?

    /// Whether `scene` can be run this way: nothing but a uniform gravity accelerates its bodies
    /// between impacts.
    static func applies(to scene: PhysicsScene) -> Bool {
        scene.springs.isEmpty && scene.drag == 0
    }

    /// - Throws: `KinemaError` for a body inside a plane, as every run's start does.
    init(scene: PhysicsScene) throws {
        self.scene = scene
        d = scene.dimensions
        x = scene.bodies.map(\.position)
        v = scene.bodies.map(\.velocity)
        let count = scene.bodies.count
        a = Array(repeating: .zero, count: count)
        since = Array(repeating: 0, count: count)
        restsOn = Array(repeating: -1, count: count)
        inverseMass = scene.bodies.map(\.inverseMass)
        radius = scene.bodies.map(\.radius)
        normals = scene.planes.map(\.normal)
        changes = Array(repeating: 0, count: count)
        eventLimit = Simulation.eventLimit(bodies: count)
        // Spheres meet only where the scene has contacts; without, one cell holds every body.
        grid = Grid(positions: x, dimensions: d, largestRadius: scene.contacts == nil ? 0 : radius.max() ?? 0)
        cellOf = []
        members = []
        try requireOutsidePlanes(rule: "outside every plane at the start")
        start(at: 0)
    }

    /// Body `body`'s position and velocity at `t`.
    @inline(__always)
    func motion(_ body: Int, at t: Double) -> (position: SIMD3<Double>, velocity: SIMD3<Double>) {
        let s = t - since[body]
        return (x[body] + s * v[body] + (0.5 * s * s) * a[body], v[body] + s * a[body])
    }

    /// Positions and velocities at `t` (not before the last impact processed), body by body.
    func state(at t: Double) -> (positions: [Double], velocities: [Double]) {
        var positions = [Double](), velocities = [Double]()
        positions.reserveCapacity(x.count * d)
        velocities.reserveCapacity(x.count * d)
        for body in x.indices {
            let (p, u) = motion(body, at: t)
            for axis in 0..<d {
                positions.append(p[axis])
                velocities.append(u[axis])
            }
        }
        return (positions, velocities)
    }

    /// The samples at `times` (increasing, none before the time reached), recording the impacts
    /// on the way; only those before the queue hands off (`handedOff`), where it does.
    mutating func samples(at times: [Double], events: inout [ImpactEvent]) throws
        -> (times: [Double], positions: [Double], velocities: [Double])
    {
        var positions: [Double] = [], velocities: [Double] = []
        positions.reserveCapacity(times.count * x.count * d)
        velocities.reserveCapacity(times.count * x.count * d)
        var reached = 0
        for t in times {
            try process(until: t, events: &events)
            if handedOff { break }
            let state = state(at: t)
            positions += state.positions
            velocities += state.velocities
            reached += 1
        }
        return (reached == times.count ? times : Array(times.prefix(reached)), positions, velocities)
    }

    /// Processes every event up to `t`, recording the impacts, unless the queue hands off first.
    mutating func process(until t: Double, events: inout [ImpactEvent]) throws {
        while !handedOff, let next = queue.first, next.time <= t {
            queue.removeFirst()
            guard changes[next.body] == next.bodyChanges,
                next.other < 0 || changes[next.other] == next.otherChanges
            else { continue }
            time = next.time
            switch next.kind {
            case .cell(let cell):
                members[cellOf[next.body]].removeAll { $0 == next.body }
                cellOf[next.body] = cell
                members[cell].append(next.body)
                predict(next.body)
            case .plane(let p):
                collide(next.body, plane: p, events: &events)
            case .body:
                collide(next.body, next.other, events: &events)
            case .stop:
                stop(next.body)
            }
            if next.kind.isImpact {
                processed += 1
                if handedOff { try resolvePendingImpact(events: &events) }
                if processed > eventLimit { throw SimulationError.tooManyEvents(time: time, limit: eventLimit) }
            }
        }
        if !handedOff { time = max(time, t) }
    }

    /// Takes the bodies from `positions` and `velocities` at `t` (a gesture set one) and predicts
    /// everything anew.
    /// - Throws: `KinemaError` for a body inside a plane, as at the start of a run.
    mutating func restart(at t: Double, positions: [Double], velocities: [Double]) throws {
        for body in x.indices {
            for axis in 0..<d {
                x[body][axis] = positions[body * d + axis]
                v[body][axis] = velocities[body * d + axis]
            }
        }
        try requireOutsidePlanes(rule: "outside every plane")
        time = t
        (handedOff, pendingImpact) = (false, nil)
        start(at: t)
    }

    /// Every body's motion from its position and velocity at `t` (`x`, `v`): at rest on a plane
    /// it touches, moves into no faster than the rest velocity and is pressed on by gravity (as
    /// the stepper's initial contacts), in flight otherwise; then every prediction. Hands off
    /// where two spheres are at rest on each other (a stack), or a body on two planes.
    private mutating func start(at t: Double) {
        since = Array(repeating: t, count: x.count)
        // Every queued prediction is stale: a new count for every body.
        changes = changes.map { $0 + 1 }
        queue = EventQueue()
        cellOf = x.map { grid.cell(of: $0) }
        members = Array(repeating: [], count: grid.cellCount)
        for body in x.indices { members[cellOf[body]].append(body) }
        for body in x.indices {
            restsOn[body] = -1
            guard inverseMass[body] > 0 else {
                a[body] = .zero
                continue
            }
            for (p, plane) in scene.planes.enumerated() {
                let n = normals[p], gap = (x[body] * n).sum() - plane.offset - radius[body]
                guard gap <= ContactTolerances.rounding * max(1, abs(plane.offset) + radius[body]),
                    scene.rests(movingAt: abs((v[body] * n).sum()), pressed: (scene.gravity * n).sum() < 0)
                else { continue }
                guard restsOn[body] < 0 else { return handOff() }
                restsOn[body] = p
                x[body] -= gap * n
                v[body] -= (v[body] * n).sum() * n
            }
            setAcceleration(body)
            if handedOff { return }
        }
        if scene.contacts != nil && hasSpheresAtRestOnEachOther() { return handOff() }
        for body in x.indices where inverseMass[body] > 0 { predict(body) }
    }

    /// Whether two spheres touch, neither approach nor part faster than the rest velocity, and are
    /// pressed together (what the stepper holds by a resting contact's force).
    private func hasSpheresAtRestOnEachOther() -> Bool {
        for body in x.indices where radius[body] > 0 {
            for cell in grid.neighbours(of: cellOf[body]) {
                for other in members[cell] where other > body && radius[other] > 0 {
                    guard inverseMass[body] + inverseMass[other] > 0 else { continue }
                    let separation = x[body] - x[other], distance = (separation * separation).sum().squareRoot()
                    let reach = radius[body] + radius[other]
                    guard distance > 0, distance - reach <= ContactTolerances.touching * max(1, reach) else { continue }
                    let n = separation / distance
                    if scene.rests(
                        movingAt: abs(((v[body] - v[other]) * n).sum()), pressed: isPressed(body, other, normal: n))
                    {
                        return true
                    }
                }
            }
        }
        return false
    }

    /// Whether bodies `first` and `second`, touching along `n` (from the second to the first),
    /// accelerate towards each other.
    func isPressed(_ first: Int, _ second: Int, normal n: SIMD3<Double>) -> Bool {
        ((a[first] - a[second]) * n).sum() < 0
    }

    /// Stops the queue at `time`: the stepper goes on from the state there.
    mutating func handOff() {
        handedOff = true
    }

    /// Throws, naming the body and the plane, where a moving body is inside a plane beyond rounding.
    private func requireOutsidePlanes(rule: String) throws {
        for (b, body) in scene.bodies.enumerated() where !body.isStatic {
            for (p, plane) in scene.planes.enumerated() {
                let gap = (x[b] * normals[p]).sum() - plane.offset - radius[b]
                guard gap >= -ContactTolerances.rounding * max(1, abs(plane.offset) + radius[b]) else {
                    throw KinemaError(
                        parameter: "body '\(body.name)'", value: "\(-gap) inside plane '\(plane.name)'", rule: rule)
                }
            }
        }
    }
}
