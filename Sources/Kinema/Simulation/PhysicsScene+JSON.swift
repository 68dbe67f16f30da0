extension PhysicsScene {
    /// Reads a scene from JSON (schema in the README). Unknown keys, wrong types and invalid values
    /// are errors that name the line and column.
    /// - Parameters:
    ///   - text: the JSON document.
    ///   - source: what to call the text in messages (a file name).
    public init(json text: String, source: String = "scene") throws {
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch let error as JSONParser.SyntaxError {
            throw KinemaError(at: "\(source), \(error.location)", "invalid JSON: \(error.message)")
        }
        let reader = SceneReader(source: source)
        self = try reader.scene(root)
    }
}

/// Walks the parsed JSON against the scene schema.
private struct SceneReader {
    let source: String

    func fail(_ location: JSONValue.Location, _ message: String) -> KinemaError {
        KinemaError(at: "\(source), \(location)", message)
    }

    /// The members of an object, after checking every key is allowed and required ones present.
    func members(
        _ value: JSONValue, _ what: String, allowed: [String], required: [String] = [], at location: JSONValue.Location
    )
        throws -> [String: (JSONValue, JSONValue.Location)]
    {
        guard case let .object(list, start) = value else { throw fail(location, "\(what) must be an object") }
        var result: [String: (JSONValue, JSONValue.Location)] = [:]
        result.reserveCapacity(list.count)
        for member in list {
            guard allowed.contains(member.key) else {
                throw fail(
                    member.location,
                    "unknown key '\(member.key)' in \(what) (allowed: \(allowed.joined(separator: ", ")))")
            }
            guard result[member.key] == nil else {
                throw fail(member.location, "duplicate key '\(member.key)' in \(what)")
            }
            result[member.key] = (member.value, member.location)
        }
        for key in required where result[key] == nil { throw fail(start, "\(what) needs '\(key)'") }
        return result
    }

    func number(_ entry: (JSONValue, JSONValue.Location)?, _ name: String) throws -> Double? {
        guard let (value, location) = entry else { return nil }
        guard case let .number(x) = value else { throw fail(location, "'\(name)' must be a number") }
        return x
    }

    func vector(_ entry: (JSONValue, JSONValue.Location)?, _ name: String) throws -> [Double]? {
        guard let (value, location) = entry else { return nil }
        guard case let .array(elements, _) = value else {
            throw fail(location, "'\(name)' must be an array of numbers")
        }
        return try elements.map { element in
            guard case let .number(x) = element else { throw fail(location, "'\(name)' must be an array of numbers") }
            return x
        }
    }

    /// A vector of the scene's `dimensions` components, as the scene's types hold it.
    func vector(
        _ entry: (JSONValue, JSONValue.Location)?, _ name: String, dimensions: Int
    ) throws -> SIMD3<Double>? {
        guard let components = try vector(entry, name) else { return nil }
        guard components.count == dimensions else {
            throw fail(
                entry!.1,
                "'\(name)' must have \(dimensions) component\(dimensions == 1 ? "" : "s"), one per dimension "
                    + "(got \(components.count))")
        }
        return SIMD3(sceneComponents: components)
    }

    func bool(_ entry: (JSONValue, JSONValue.Location)?, _ name: String) throws -> Bool? {
        guard let (value, location) = entry else { return nil }
        guard case let .bool(b) = value else { throw fail(location, "'\(name)' must be true or false") }
        return b
    }

    func string(_ entry: (JSONValue, JSONValue.Location)?, _ name: String) throws -> String? {
        guard let (value, location) = entry else { return nil }
        guard case let .string(s) = value else { throw fail(location, "'\(name)' must be a string") }
        return s
    }

    func list(_ entry: (JSONValue, JSONValue.Location)?, _ name: String) throws -> [JSONValue] {
        guard let (value, location) = entry else { return [] }
        guard case let .array(elements, _) = value else { throw fail(location, "'\(name)' must be an array") }
        return elements
    }

    /// Re-raises a value error with the place it came from.
    func located<T>(_ location: JSONValue.Location, _ make: () throws -> T) throws -> T {
        do { return try make() } catch let error as KinemaError { throw fail(location, error.description) }
    }

    func scene(_ root: JSONValue) throws -> PhysicsScene {
        let origin = JSONValue.Location(line: 1, column: 1)
        let top = try members(
            root, "the scene",
            allowed: [
                "dimensions", "bodies", "springs", "gravity", "drag", "planes",
                "contacts", "restVelocity"
            ],
            required: ["dimensions", "bodies"], at: origin)
        let declared = try number(top["dimensions"], "dimensions")
        guard let declared, declared.rounded() == declared, (1...3).contains(declared) else {
            throw fail(
                top["dimensions"]!.1, "'dimensions' must be 1, 2 or 3 (got \(declared.map { "\($0)" } ?? "none"))")
        }
        let dimensions = Int(declared)
        let location = { (key: String) in top[key]?.1 ?? origin }
        var bodies: [PhysicsBody] = []
        for element in try list(top["bodies"], "bodies") {
            let at = Self.start(of: element) ?? location("bodies")
            let body = try members(element, "a body", allowed: Self.bodyKeys, required: Self.requiredBodyKeys, at: at)
            let name = try string(body["name"], "name")!
            let mass = try number(body["mass"], "mass") ?? 1
            let position = try vector(body["position"], "position", dimensions: dimensions)!
            let velocity = try vector(body["velocity"], "velocity", dimensions: dimensions) ?? .zero
            let radius = try number(body["radius"], "radius") ?? 0
            let isStatic = try bool(body["static"], "static") ?? false
            bodies.append(
                try located(at) {
                    try PhysicsBody(
                        name: name, mass: mass, position: position, velocity: velocity, radius: radius,
                        isStatic: isStatic)
                })
        }
        // By name through a dictionary (the first body of a name; duplicates are refused by the
        // scene): a linear search per spring is quadratic in a chain's length.
        let indexByName = Dictionary(bodies.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        let index = { (name: String, at: JSONValue.Location) throws -> Int in
            guard let i = indexByName[name] else {
                throw self.fail(at, "no body is named '\(name)'")
            }
            return i
        }
        var springs: [SpringForce] = []
        for element in try list(top["springs"], "springs") {
            let at = Self.start(of: element) ?? location("springs")
            let spring = try members(
                element, "a spring", allowed: Self.springKeys, required: Self.requiredSpringKeys, at: at)
            let ends: SpringForce.Ends
            if let pair = spring["bodies"] {
                guard spring["body"] == nil, spring["anchor"] == nil,
                    case let .array(names, _) = pair.0, names.count == 2,
                    case let .string(a) = names[0], case let .string(b) = names[1]
                else {
                    throw fail(pair.1, "'bodies' must be two body names, without 'body' or 'anchor'")
                }
                ends = .bodies(try index(a, pair.1), try index(b, pair.1))
            } else {
                guard let name = try string(spring["body"], "body"),
                    let anchor = try vector(spring["anchor"], "anchor", dimensions: dimensions)
                else {
                    throw fail(at, "a spring needs 'body' and 'anchor', or 'bodies'")
                }
                ends = .anchor(body: try index(name, spring["body"]!.1), at: anchor)
            }
            let stiffness = try number(spring["stiffness"], "stiffness")!
            let damping = try number(spring["damping"], "damping") ?? 0
            let restLength = try number(spring["restLength"], "restLength") ?? 0
            springs.append(
                try located(at) {
                    try SpringForce(ends, stiffness: stiffness, damping: damping, restLength: restLength)
                })
        }
        var planes: [Plane] = []
        for (i, element) in try list(top["planes"], "planes").enumerated() {
            let at = Self.start(of: element) ?? location("planes")
            let plane = try members(
                element, "a plane", allowed: ["name", "normal", "offset", "restitution", "friction"],
                required: ["normal", "restitution"], at: at)
            let name = try string(plane["name"], "name") ?? "plane\(i + 1)"
            let normal = try vector(plane["normal"], "normal", dimensions: dimensions)!
            let offset = try number(plane["offset"], "offset") ?? 0
            let restitution = try number(plane["restitution"], "restitution")!
            let friction = try number(plane["friction"], "friction") ?? 0
            planes.append(
                try located(at) {
                    try Plane(name: name, normal: normal, offset: offset, restitution: restitution, friction: friction)
                })
        }
        var contacts: PhysicsScene.Contacts?
        if let entry = top["contacts"] {
            let contact = try members(
                entry.0, "contacts", allowed: ["restitution", "friction"], required: ["restitution"], at: entry.1)
            let restitution = try number(contact["restitution"], "restitution")!
            let friction = try number(contact["friction"], "friction") ?? 0
            contacts = try located(entry.1) { try PhysicsScene.Contacts(restitution: restitution, friction: friction) }
        }
        let gravity = try vector(top["gravity"], "gravity", dimensions: dimensions) ?? .zero
        let drag = try number(top["drag"], "drag") ?? 0
        let restVelocity = try number(top["restVelocity"], "restVelocity") ?? PhysicsScene.defaultRestVelocity
        return try located(origin) {
            try PhysicsScene(
                dimensions: dimensions, bodies: bodies, springs: springs, gravity: gravity, drag: drag,
                planes: planes, contacts: contacts, restVelocity: restVelocity)
        }
    }

    // Made once, not for every body and spring (a 10,000-body file has 20,000 of them).
    static let bodyKeys = ["name", "mass", "position", "velocity", "radius", "static"],
        requiredBodyKeys = ["name", "position"]
    static let springKeys = ["body", "anchor", "bodies", "stiffness", "damping", "restLength"],
        requiredSpringKeys = ["stiffness"]

    static func start(of value: JSONValue) -> JSONValue.Location? {
        switch value {
        case .object(_, let location), .array(_, let location): return location
        default: return nil
        }
    }
}
