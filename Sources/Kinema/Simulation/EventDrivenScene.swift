import RealModule

/// A scene without forces (no gravity, springs or drag) run as hard-sphere simulations are: every
/// body moves on a straight line between its impacts, each impact is predicted in closed form and
/// kept in a queue, and the space is divided into cells so that a body is only paired with the
/// bodies of its own and the neighbouring cells. An impact updates the two bodies it involves and
/// their predictions, whatever the number of bodies; a body that crosses into another cell is
/// paired with its new neighbours. `exact` runs such scenes this way.
struct EventDrivenScene {
    let scene: PhysicsScene
    private let d: Int
    /// Each body's position and velocity at its own time `since`.
    private var x: [SIMD3<Double>], v: [SIMD3<Double>], since: [Double]
    private let inverseMass: [Double], radius: [Double]
    private let normals: [SIMD3<Double>]
    /// Impacts each body has had: a prediction made before the last one is stale.
    private var impacts: [Int]
    private var queue = EventQueue()
    private let grid: Grid
    private var cellOf: [Int], members: [[Int]]
    private(set) var time = 0.0
    private(set) var processed = 0
    private let eventLimit: Int

    /// Whether `scene` can be run this way: nothing accelerates its bodies between impacts.
    static func applies(to scene: PhysicsScene) -> Bool {
        scene.springs.isEmpty && scene.drag == 0 && scene.gravity == .zero
    }

    /// - Throws: `KinemaError` for a body inside a plane, as every run's start does.
    init(scene: PhysicsScene) throws {
        self.scene = scene
        d = scene.dimensions
        x = scene.bodies.map(\.position)
        v = scene.bodies.map(\.velocity)
        since = Array(repeating: 0, count: scene.bodies.count)
        inverseMass = scene.bodies.map(\.inverseMass)
        radius = scene.bodies.map(\.radius)
        normals = scene.planes.map(\.normal)
        impacts = Array(repeating: 0, count: scene.bodies.count)
        eventLimit = Simulation.eventLimit(bodies: scene.bodies.count)
        // Spheres meet only where the scene has contacts; without, one cell holds every body.
        let grid = Grid(positions: x, dimensions: d, largestRadius: scene.contacts == nil ? 0 : radius.max() ?? 0)
        let cells = x.map { grid.cell(of: $0) }
        var members = [[Int]](repeating: [], count: grid.cellCount)
        for body in cells.indices { members[cells[body]].append(body) }
        (self.grid, cellOf, self.members) = (grid, cells, members)
        try requireOutsidePlanes(rule: "outside every plane at the start")
        for body in x.indices where inverseMass[body] > 0 { predict(body) }
    }

    /// Positions and velocities at `t` (not before the last impact processed), body by body.
    func state(at t: Double) -> (positions: [Double], velocities: [Double]) {
        var positions = [Double](), velocities = [Double]()
        positions.reserveCapacity(x.count * d)
        velocities.reserveCapacity(x.count * d)
        for body in x.indices {
            let p = x[body] + (t - since[body]) * v[body]
            for axis in 0..<d {
                positions.append(p[axis])
                velocities.append(v[body][axis])
            }
        }
        return (positions, velocities)
    }

    /// The samples at `times` (increasing, none before the time reached), recording the impacts
    /// on the way.
    mutating func samples(at times: [Double], events: inout [ImpactEvent]) throws
        -> (times: [Double], positions: [Double], velocities: [Double])
    {
        var positions: [Double] = [], velocities: [Double] = []
        positions.reserveCapacity(times.count * x.count * d)
        velocities.reserveCapacity(times.count * x.count * d)
        for t in times {
            try process(until: t, events: &events)
            let state = state(at: t)
            positions += state.positions
            velocities += state.velocities
        }
        return (times, positions, velocities)
    }

    /// Processes every event up to `t`, recording the impacts.
    mutating func process(until t: Double, events: inout [ImpactEvent]) throws {
        while let next = queue.first, next.time <= t {
            queue.removeFirst()
            guard impacts[next.body] == next.bodyImpacts,
                next.other < 0 || impacts[next.other] == next.otherImpacts
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
            }
            if next.kind.isImpact {
                processed += 1
                if processed > eventLimit { throw SimulationError.tooManyEvents(time: time, limit: eventLimit) }
            }
        }
        time = max(time, t)
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
        since = Array(repeating: t, count: x.count)
        // Every queued prediction is stale: a new count for every body.
        impacts = impacts.map { $0 + 1 }
        queue = EventQueue()
        cellOf = x.map { grid.cell(of: $0) }
        members = Array(repeating: [], count: grid.cellCount)
        for body in x.indices { members[cellOf[body]].append(body) }
        for body in x.indices where inverseMass[body] > 0 { predict(body) }
    }

    /// Throws, naming the body and the plane, where a moving body is inside a plane beyond rounding.
    private func requireOutsidePlanes(rule: String) throws {
        for (b, body) in scene.bodies.enumerated() where !body.isStatic {
            for (p, plane) in scene.planes.enumerated() {
                let gap = (x[b] * normals[p]).sum() - plane.offset - radius[b]
                guard gap >= -1e-12 * max(1, abs(plane.offset) + radius[b]) else {
                    throw KinemaError(
                        parameter: "body '\(body.name)'", value: "\(-gap) inside plane '\(plane.name)'", rule: rule)
                }
            }
        }
    }

    // MARK: Predictions

    private func position(_ body: Int, at t: Double) -> SIMD3<Double> { x[body] + (t - since[body]) * v[body] }

    /// Queues body `body`'s next impacts with planes and with the bodies of its and the
    /// neighbouring cells, and its next crossing into another cell.
    private mutating func predict(_ body: Int) {
        let now = time, xb = position(body, at: now), vb = v[body]
        for (p, plane) in scene.planes.enumerated() {
            let n = normals[p], closing = (vb * n).sum()
            guard closing < 0 else { continue }
            let gap = (xb * n).sum() - plane.offset - radius[body]
            push(.init(time: now + max(0, gap / -closing), kind: .plane(p), body: body, other: -1), body)
        }
        if radius[body] > 0 && scene.contacts != nil {
            for cell in grid.neighbours(of: cellOf[body]) {
                for other in members[cell] where other != body && radius[other] > 0 {
                    guard inverseMass[body] + inverseMass[other] > 0,
                        let s = Self.meeting(xb - position(other, at: now), vb - v[other], radius[body] + radius[other])
                    else { continue }
                    push(.init(time: now + s, kind: .body, body: body, other: other), body)
                }
            }
        }
        if let (s, cell) = grid.crossing(from: xb, velocity: vb, cell: cellOf[body]) {
            push(.init(time: now + s, kind: .cell(cell), body: body, other: -1), body)
        }
    }

    private mutating func push(_ event: Event, _ body: Int) {
        var event = event
        event.bodyImpacts = impacts[body]
        if event.other >= 0 { event.otherImpacts = impacts[event.other] }
        queue.insert(event)
    }

    /// When two spheres at separation `d`, moving apart at `u`, come to distance `reach`: the
    /// smaller root of |d + s·u|² = reach², if they approach; 0 if they approach already touching.
    static func meeting(_ d: SIMD3<Double>, _ u: SIMD3<Double>, _ reach: Double) -> Double? {
        // In units of the largest length and the fastest speed, so that neither |d|² nor |u|²
        // overflows (coordinates and speeds up to 1e308): s = (L/V)·s' with d = L·d', u = V·u'.
        let length = max(abs(d.x), abs(d.y), abs(d.z), reach), speed = max(abs(u.x), abs(u.y), abs(u.z))
        guard speed > 0, speed.isFinite, length > 0, length.isFinite else { return nil }
        return meetingAtUnitScale(d / length, u / speed, reach / length).map { $0 * (length / speed) }
    }

    private static func meetingAtUnitScale(_ d: SIMD3<Double>, _ u: SIMD3<Double>, _ reach: Double) -> Double? {
        let b = (d * u).sum()
        guard b < 0 else { return nil }
        let uu = (u * u).sum(), c = (d * d).sum() - reach * reach
        if c <= 0 { return 0 }
        let discriminant = b * b - uu * c
        guard discriminant >= 0 else { return nil }
        return c / (-b + discriminant.squareRoot())  // the smaller root, without cancellation
    }

    // MARK: Impacts (Collisions' impulses; nothing presses a body here, so none comes to rest)

    private mutating func collide(_ b: Int, plane p: Int, events: inout [ImpactEvent]) {
        let plane = scene.planes[p], n = normals[p]
        var xb = position(b, at: time)
        xb -= ((xb * n).sum() - plane.offset - radius[b]) * n  // exactly on the surface
        let (tangential, speedIn, speedOut) = Collisions.planeBounce(
            v[b], normal: n, restitution: plane.restitution, friction: plane.friction)
        let before = v[b]
        (x[b], v[b], since[b]) = (xb, tangential + speedOut * n, time)
        impacts[b] += 1
        events.append(
            ImpactEvent(
                time: time, body: scene.bodies[b].name, collider: plane.name, speedIn: speedIn, speedOut: speedOut,
                jumps: [.init(body: b, position: xb, before: before, after: v[b])]))
        predict(b)
    }

    private mutating func collide(_ first: Int, _ second: Int, events: inout [ImpactEvent]) {
        guard let contact = scene.contacts else { return }
        let (a, o) = (min(first, second), max(first, second))  // as the stepper reports a pair
        let wa = inverseMass[a], wo = inverseMass[o], (beforeA, beforeO) = (v[a], v[o])
        let separation = position(a, at: time) - position(o, at: time)
        let distance = (separation * separation).sum().squareRoot()
        let n = distance > 0 ? separation / distance : SIMD3<Double>(0, 0, 1)
        let (xa, xo) = Collisions.separated(
            position(a, at: time), position(o, at: time), overlap: -(distance - radius[a] - radius[o]), wa, wo,
            normal: n)
        let speedIn = max(-((beforeA - beforeO) * n).sum(), 0), speedOut = contact.restitution * speedIn
        let (va, vo) = Collisions.exchanged(
            beforeA, beforeO, wa, wo, normal: n, speedIn: speedIn, speedOut: speedOut, friction: contact.friction)
        (x[a], v[a], since[a]) = (xa, va, time)
        (x[o], v[o], since[o]) = (xo, vo, time)
        impacts[a] += 1
        impacts[o] += 1
        events.append(
            ImpactEvent(
                time: time, body: scene.bodies[a].name, collider: scene.bodies[o].name, speedIn: speedIn,
                speedOut: speedOut,
                jumps: [
                    .init(body: a, position: xa, before: beforeA, after: va),
                    .init(body: o, position: xo, before: beforeO, after: vo)
                ]))
        if wa > 0 { predict(a) }
        if wo > 0 { predict(o) }
    }

    // MARK: Events and cells

    struct Event {
        enum Kind {
            case plane(Int), body, cell(Int)
            var isImpact: Bool { if case .cell = self { false } else { true } }
        }
        var time: Double
        var kind: Kind
        var body: Int
        /// The other body of a sphere pair, −1 otherwise.
        var other: Int
        var bodyImpacts = 0, otherImpacts = 0
    }

    /// A binary min-heap of events by time.
    struct EventQueue {
        private var heap: [Event] = []
        var first: Event? { heap.first }

        mutating func insert(_ event: Event) {
            heap.append(event)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].time < heap[parent].time else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        mutating func removeFirst() {
            let last = heap.removeLast()
            guard !heap.isEmpty else { return }
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].time < heap[smallest].time { smallest = left }
                if right < heap.count && heap[right].time < heap[smallest].time { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }

    /// Cells at least a sphere diameter wide over the bodies' starting box; the outermost cells
    /// reach to infinity, so a body never leaves the grid.
    struct Grid {
        let origin: SIMD3<Double>, size: SIMD3<Double>
        let counts: SIMD3<Int>
        var cellCount: Int { counts.x * counts.y * counts.z }

        init(positions: [SIMD3<Double>], dimensions: Int, largestRadius: Double) {
            var low = positions.first ?? .zero, high = low
            for p in positions {
                low = pointwiseMin(low, p)
                high = pointwiseMax(high, p)
            }
            // About one body a cell: n^(1/d) cells an axis, none narrower than a diameter; one
            // cell where nothing collides with anything but planes.
            let perAxis = max(1, Int(Double.pow(Double(positions.count), 1 / Double(dimensions)).rounded(.up)))
            var counts = SIMD3<Int>(1, 1, 1), size = SIMD3<Double>(1, 1, 1)
            for axis in 0..<dimensions {
                // Counted as Doubles: bodies 1e308 apart make the extent infinite, and Int(∞) traps.
                let extent = high[axis] - low[axis]
                let byDiameter = largestRadius > 0 ? (extent / (2 * largestRadius * (1 + 1e-9))).rounded(.down) : 1
                guard extent.isFinite, byDiameter >= 2 else { continue }
                counts[axis] = Int(min(Double(perAxis), byDiameter))
                size[axis] = extent / Double(counts[axis])
            }
            (origin, self.size, self.counts) = (low, size, counts)
        }

        func index(_ c: SIMD3<Int>) -> Int { (c.z * counts.y + c.y) * counts.x + c.x }

        func coordinates(_ cell: Int) -> SIMD3<Int> {
            SIMD3(cell % counts.x, (cell / counts.x) % counts.y, cell / (counts.x * counts.y))
        }

        func cell(of p: SIMD3<Double>) -> Int {
            var c = SIMD3<Int>.zero
            for axis in 0..<3 where counts[axis] > 1 {
                let k = ((p[axis] - origin[axis]) / size[axis]).rounded(.down)
                c[axis] = k.isNaN ? 0 : Int(min(Double(counts[axis] - 1), max(0, k)))
            }
            return index(c)
        }

        /// The cell and its neighbours (3 × 3 × 3 at most).
        func neighbours(of cell: Int) -> [Int] {
            let c = coordinates(cell)
            var result: [Int] = []
            for dz in -1...1 {
                for dy in -1...1 {
                    for dx in -1...1 {
                        let n = c &+ SIMD3(dx, dy, dz)
                        guard (0..<3).allSatisfy({ n[$0] >= 0 && n[$0] < counts[$0] }) else { continue }
                        result.append(index(n))
                    }
                }
            }
            return result
        }

        /// When a body at `p` moving at `u` leaves `cell` through an inner wall, and the cell it enters.
        func crossing(from p: SIMD3<Double>, velocity u: SIMD3<Double>, cell: Int) -> (Double, Int)? {
            let c = coordinates(cell)
            var best: (Double, Int)?
            for axis in 0..<3 where counts[axis] > 1 && u[axis] != 0 {
                let step = u[axis] > 0 ? 1 : -1, next = c[axis] + step
                guard next >= 0 && next < counts[axis] else { continue }
                let wall = origin[axis] + Double(u[axis] > 0 ? next : c[axis]) * size[axis]
                let s = max(0, (wall - p[axis]) / u[axis])
                if best.map({ s < $0.0 }) ?? true {
                    var n = c
                    n[axis] = next
                    best = (s, index(n))
                }
            }
            return best
        }
    }
}

/// Stepped live by `PhysicsSimulator`: each frame processes the impacts up to its time.
extension EventDrivenScene: LiveStepping {
    var steps: Int { processed }

    mutating func advance(to t: Double, events: inout [ImpactEvent]) throws -> (
        positions: [Double], velocities: [Double]
    ) {
        try process(until: t, events: &events)
        return state(at: t)
    }
}
