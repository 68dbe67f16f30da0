import Kinema

/// A numeric field of a scene, as `kinema sweep --set PATH=RANGE` names it: `gravity.1`, `drag`,
/// `restVelocity`, `contacts.restitution`, `bodies.ball.mass`, `bodies.ball.position.0`,
/// `springs.0.stiffness`, `planes.floor.restitution`. Bodies and planes by name or by index,
/// springs (which have no names) by index; vector components by index from 0.
struct ScenePath: Hashable, Sendable {
    enum Field: Hashable, Sendable {
        case gravity(Int), drag, restVelocity, contactsRestitution, contactsFriction
        case body(Int, BodyField)
        case spring(Int, SpringField)
        case plane(Int, PlaneField)
    }
    enum BodyField: Hashable, Sendable { case mass, radius, position(Int), velocity(Int) }
    enum SpringField: Hashable, Sendable { case stiffness, damping, restLength, anchor(Int) }
    enum PlaneField: Hashable, Sendable { case restitution, friction, offset, normal(Int) }

    /// The path as written, which is also its CSV column.
    let text: String
    let field: Field

    /// Resolves `text` against `scene`.
    /// - Throws: `CLIError` naming the path and listing what the scene offers where it went wrong.
    init(_ text: String, in scene: PhysicsScene) throws {
        self.text = text
        let d = scene.dimensions
        func fail(_ reason: String) -> CLIError { CLIError("'--set' path '\(text)': \(reason).") }
        func component(_ rest: Substring, of vector: String) throws -> Int {
            guard let i = Int(rest), (0..<d).contains(i) else {
                throw fail(
                    d == 1
                        ? "'\(vector)' has one component, \(vector).0, in this 1-D scene"
                        : "'\(vector)' has components \(vector).0–\(d - 1) in this \(d)-D scene")
            }
            return i
        }
        /// The element `rest` starts with (a name, or an index), and the rest after its dot.
        func element(_ rest: Substring, names: [String], kind: String, plural: String) throws -> (Int, Substring) {
            // The longest name that is followed by a dot: names may contain dots.
            let byName = names.indices.filter { rest.hasPrefix(names[$0] + ".") }
                .max { names[$0].count < names[$1].count }
            if let i = byName { return (i, rest.dropFirst(names[i].count + 1)) }
            // The element alone (`bodies.ball`): no field, which the field's error lists.
            if let i = names.firstIndex(of: String(rest)) { return (i, "") }
            let head = rest.prefix { $0 != "." }
            if let i = Int(head), names.indices.contains(i) { return (i, rest.dropFirst(head.count + 1)) }
            if rest.isEmpty { throw fail("name a \(kind) and its field; the scene's \(plural): \(Self.listed(names))") }
            throw fail("the scene has no \(kind) '\(head)'; its \(plural): \(Self.listed(names))")
        }
        let vectorHint = d == 1 ? ".0" : ".0–\(d - 1)"
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let rest = parts.count > 1 ? parts[1] : ""
        switch parts[0] {
        case "gravity": field = .gravity(try component(rest, of: "gravity"))
        case "drag" where rest.isEmpty: field = .drag
        case "restVelocity" where rest.isEmpty: field = .restVelocity
        case "contacts":
            guard scene.contacts != nil else { throw fail("the scene has no 'contacts'") }
            switch rest {
            case "restitution": field = .contactsRestitution
            case "friction": field = .contactsFriction
            default: throw fail("contacts' fields: restitution, friction")
            }
        case "bodies":
            let (i, tail) = try element(rest, names: scene.bodies.map(\.name), kind: "body", plural: "bodies")
            let name = tail.split(separator: ".", maxSplits: 1).first ?? ""
            let index = tail.dropFirst(name.count + 1)
            switch name {
            case "mass" where index.isEmpty: field = .body(i, .mass)
            case "radius" where index.isEmpty: field = .body(i, .radius)
            case "position": field = .body(i, .position(try component(index, of: "position")))
            case "velocity": field = .body(i, .velocity(try component(index, of: "velocity")))
            default: throw fail("a body's fields: mass, radius, position\(vectorHint), velocity\(vectorHint)")
            }
        case "springs":
            let (i, tail) = try element(
                rest, names: scene.springs.indices.map { "\($0)" }, kind: "spring", plural: "springs (by index)")
            let name = tail.split(separator: ".", maxSplits: 1).first ?? ""
            switch name {
            case "stiffness" where name.count == tail.count: field = .spring(i, .stiffness)
            case "damping" where name.count == tail.count: field = .spring(i, .damping)
            case "restLength" where name.count == tail.count: field = .spring(i, .restLength)
            case "anchor":
                guard case .anchor = scene.springs[i].ends else {
                    throw fail("spring \(i) joins two bodies: no anchor")
                }
                field = .spring(i, .anchor(try component(tail.dropFirst(name.count + 1), of: "anchor")))
            default: throw fail("a spring's fields: stiffness, damping, restLength, anchor\(vectorHint)")
            }
        case "planes":
            let (i, tail) = try element(rest, names: scene.planes.map(\.name), kind: "plane", plural: "planes")
            let name = tail.split(separator: ".", maxSplits: 1).first ?? ""
            switch name {
            case "restitution" where name.count == tail.count: field = .plane(i, .restitution)
            case "friction" where name.count == tail.count: field = .plane(i, .friction)
            case "offset" where name.count == tail.count: field = .plane(i, .offset)
            case "normal": field = .plane(i, .normal(try component(tail.dropFirst(name.count + 1), of: "normal")))
            default: throw fail("a plane's fields: restitution, friction, offset, normal\(vectorHint)")
            }
        default:
            var offered = ["bodies", "springs", "planes", "contacts", "gravity\(vectorHint)", "drag", "restVelocity"]
            if scene.springs.isEmpty { offered.removeAll { $0 == "springs" } }
            if scene.planes.isEmpty { offered.removeAll { $0 == "planes" } }
            if scene.contacts == nil { offered.removeAll { $0 == "contacts" } }
            throw fail("the scene's fields: \(offered.joined(separator: ", "))")
        }
    }

    /// Up to 12 names, then how many more.
    static func listed(_ names: [String]) -> String {
        if names.isEmpty { return "none" }
        let shown = names.prefix(12).joined(separator: ", ")
        return names.count > 12 ? "\(shown), … (\(names.count) in all)" : shown
    }
}

extension PhysicsScene {
    /// This scene with each path's field set to its value, validated as a scene built with
    /// those values would be (a mass of 0 is refused, naming the body).
    func setting(_ values: [(path: ScenePath, value: Double)]) throws -> PhysicsScene {
        if values.isEmpty { return self }
        var bodies = self.bodies, springs = self.springs, planes = self.planes
        var gravity = self.gravity, drag = self.drag, restVelocity = self.restVelocity
        var contacts = self.contacts.map { (restitution: $0.restitution, friction: $0.friction) }
        for (path, value) in values {
            switch path.field {
            case .gravity(let i): gravity[i] = value
            case .drag: drag = value
            case .restVelocity: restVelocity = value
            case .contactsRestitution: contacts?.restitution = value
            case .contactsFriction: contacts?.friction = value
            case .body(let i, let field):
                let b = bodies[i]
                var (mass, radius, position, velocity) = (b.mass, b.radius, b.position, b.velocity)
                switch field {
                case .mass: mass = value
                case .radius: radius = value
                case .position(let k): position[k] = value
                case .velocity(let k): velocity[k] = value
                }
                bodies[i] = try PhysicsBody(
                    name: b.name, mass: mass, position: position, velocity: velocity, radius: radius,
                    isStatic: b.isStatic)
            case .spring(let i, let field):
                let s = springs[i]
                var (ends, stiffness, damping, restLength) = (s.ends, s.stiffness, s.damping, s.restLength)
                switch field {
                case .stiffness: stiffness = value
                case .damping: damping = value
                case .restLength: restLength = value
                case .anchor(let k):
                    if case .anchor(let body, var at) = ends {
                        at[k] = value
                        ends = .anchor(body: body, at: at)
                    }
                }
                springs[i] = try SpringForce(ends, stiffness: stiffness, damping: damping, restLength: restLength)
            case .plane(let i, let field):
                let p = planes[i]
                var (normal, offset, restitution, friction) = (p.normal, p.offset, p.restitution, p.friction)
                switch field {
                case .restitution: restitution = value
                case .friction: friction = value
                case .offset: offset = value
                case .normal(let k): normal[k] = value
                }
                planes[i] = try Plane(
                    name: p.name, normal: normal, offset: offset, restitution: restitution, friction: friction)
            }
        }
        return try PhysicsScene(
            dimensions: dimensions, bodies: bodies, springs: springs, gravity: gravity, drag: drag, planes: planes,
            contacts: try contacts.map {
                try PhysicsScene.Contacts(restitution: $0.restitution, friction: $0.friction)
            },
            restVelocity: restVelocity)
    }
}
