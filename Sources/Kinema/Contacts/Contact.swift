/// One contact of a time step: a body against a plane or against another sphere, with its
/// normal, its gap and the impulses the velocity solve gives it.
struct Contact {
    typealias Other = Collisions.Collider

    let body: Int
    let other: Other
    /// From the other side towards `body`.
    var normal: SIMD3<Double>
    /// Distance between the surfaces (negative: overlapping).
    var gap: Double
    /// The contact's length scale, for the relative tolerances (`ContactTolerances`).
    let scale: Double
    /// 1 / (sum of the two sides' inverse masses): the impulse that changes the normal
    /// relative velocity by 1.
    let mass: Double
    var restitution: Double
    let friction: Double
    /// The normal relative velocity the solve must reach at least: a bounce's speed, 0 to hold,
    /// or minus the gap over the step for a contact that may close within it.
    var target = 0.0
    /// The speed the sides met at, where they touch at the step's start (0 for a gap): an impact
    /// where it is not 0.
    var impactSpeed = 0.0
    /// For a gap at the step's start, the speed it closes at there: remembered as the impact's
    /// speed where the solve closes it.
    var closingSpeed = 0.0
    var normalImpulse = 0.0
    var tangentImpulse = SIMD3<Double>.zero

    /// The other body, nil for a plane.
    var partner: Int? {
        if case .body(let o) = other { return o }
        return nil
    }

    /// A key that names the contact from one step to the next, among `bodies` bodies.
    func key(bodies: Int) -> Int {
        switch other {
        case .body(let o): return body * (bodies + 64) + o
        case .plane(let p): return body * (bodies + 64) + bodies + p
        }
    }
}
