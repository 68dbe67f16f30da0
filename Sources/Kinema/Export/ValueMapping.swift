/// Values as a layer takes them: `offset + scale × value`. An easing's 0 → 1 onto points or
/// pixels (`ValueMapping(from: 0, to: 300)`), a fraction onto percent (`.percent`), radians onto
/// degrees (`.degrees`). Timing functions are unchanged by it: each segment's progress is the same.
public struct ValueMapping: Sendable, Hashable {
    /// What each unit of value becomes (finite, nonzero).
    public let scale: Double
    /// Where the value 0 lands.
    public let offset: Double

    /// Values as they are.
    public static let identity = ValueMapping(validatedScale: 1, offset: 0)
    /// A fraction as percent: 0.25 → 25.
    public static let percent = ValueMapping(validatedScale: 100, offset: 0)
    /// Radians as degrees: π → 180.
    public static let degrees = ValueMapping(validatedScale: 180 / Double.pi, offset: 0)

    /// - Throws: `KinemaError` for a scale that is 0 or not finite, or an offset that is not finite.
    public init(scale: Double, offset: Double = 0) throws {
        guard scale != 0, scale.isFinite else {
            throw KinemaError(parameter: "scale", value: "\(scale)", rule: "finite and non-zero")
        }
        guard offset.isFinite else { throw KinemaError(parameter: "offset", value: "\(offset)", rule: "finite") }
        self.init(validatedScale: scale, offset: offset)
    }

    /// The value 0 onto `from` and 1 onto `to`.
    /// - Throws: `KinemaError` for ends that are not finite or are equal.
    public init(from: Double, to: Double) throws {
        guard from.isFinite, to.isFinite, from != to, (to - from).isFinite else {
            throw KinemaError(parameter: "range", value: "\(from):\(to)", rule: "two finite, different numbers")
        }
        self.init(validatedScale: to - from, offset: from)
    }

    /// Any finite scale, 0 included (every value onto `offset`).
    init(validatedScale scale: Double, offset: Double) {
        self.scale = scale
        self.offset = offset
    }

    /// `offset + scale × value`.
    public func callAsFunction(_ value: Double) -> Double { offset + scale * value }
}
