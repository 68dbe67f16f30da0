/// A keyframe animation as Core Animation's `CAKeyframeAnimation` describes one: values (each a
/// vector of components: a scalar, a point, a size, an RGBA color, a 4×4 transform…), keyTimes in
/// [0, 1], a cubic-bezier timing function per segment, a calculation mode and a duration.
///
/// Validated on construction; evaluate with `value(at:)` (normalized time) or through
/// `MediaTiming` (parent time).
public struct KeyframeAnimation: Hashable, Sendable {
    /// How values are interpolated between keyframes.
    public enum CalculationMode: String, CaseIterable, Sendable {
        /// Component-wise interpolation, eased by the segment's timing function.
        case linear
        /// Each value held until the next keyTime (keyTimes: values + 1).
        case discrete
        /// Linear, with keyTimes computed so the speed (distance per time) is constant.
        case paced
        /// A Kochanek–Bartels (Catmull–Rom by default) spline through the values.
        case cubic
        /// The cubic spline with keyTimes from the distances between values.
        case cubicPaced
    }

    /// The animated property, as Core Animation names it (`position.y`, `opacity`).
    public let keyPath: String
    /// One value per keyframe, each with the property's components.
    public let values: [[Double]]
    /// Each keyframe's time as a fraction of `duration`: from 0 to 1, increasing.
    public let keyTimes: [Double]
    /// One per segment (values − 1): the pacing between two keyframes.
    public let timingFunctions: [CubicBezierTimingFunction]
    /// How values between keyframes are found.
    public let calculationMode: CalculationMode
    /// Seconds (> 0).
    public let duration: Double
    /// Kochanek–Bartels parameters per keyframe, for the cubic modes (0: Catmull–Rom).
    public let tensionValues: [Double]
    /// Kochanek–Bartels continuity per keyframe (empty: 0).
    public let continuityValues: [Double]
    /// Kochanek–Bartels bias per keyframe (empty: 0).
    public let biasValues: [Double]

    /// - Throws: `KinemaError` naming the problem: no values, values of different sizes or not
    ///   finite, keyTimes of the wrong count, outside [0, 1], decreasing, not starting at 0 and
    ///   ending at 1, timing functions ≠ values − 1, a non-positive duration, KB arrays of the
    ///   wrong count.
    public init(
        keyPath: String = "value", values: [[Double]], keyTimes: [Double]? = nil,
        timingFunctions: [CubicBezierTimingFunction]? = nil, calculationMode: CalculationMode = .linear,
        duration: Double = 1, tensionValues: [Double] = [], continuityValues: [Double] = [],
        biasValues: [Double] = []
    ) throws {
        guard let width = values.first?.count, width > 0 else {
            throw KinemaError(
                parameter: "values", value: "\(values.count) values", rule: "at least one non-empty value")
        }
        for (i, value) in values.enumerated() {
            guard value.count == width, value.allSatisfy(\.isFinite) else {
                throw KinemaError(
                    parameter: "values[\(i)]", value: "\(value)", rule: "\(width) finite components like values[0]")
            }
        }
        try KinemaError.requirePositive(duration, "duration")
        let expectedKeyTimes = calculationMode == .discrete ? values.count + 1 : values.count
        let times =
            keyTimes
            ?? (0..<expectedKeyTimes).map { expectedKeyTimes == 1 ? 0 : Double($0) / Double(expectedKeyTimes - 1) }
        if calculationMode != .paced && calculationMode != .cubicPaced {
            guard times.count == expectedKeyTimes else {
                throw KinemaError(
                    parameter: "keyTimes", value: "\(times.count) keyTimes",
                    rule: "\(expectedKeyTimes) (values\(calculationMode == .discrete ? " + 1, for discrete" : "")) ")
            }
            for (i, t) in times.enumerated() {
                guard t.isFinite, t >= 0, t <= 1 else {
                    throw KinemaError(parameter: "keyTimes[\(i)]", value: "\(t)", rule: "in [0, 1]")
                }
                if i > 0 && t < times[i - 1] {
                    throw KinemaError(
                        parameter: "keyTimes[\(i)]", value: "\(t)",
                        rule: "≥ keyTimes[\(i - 1)] = \(times[i - 1]) (non-decreasing)")
                }
            }
            guard times.first == 0, times.last == 1 || times.count == 1 else {
                throw KinemaError(
                    parameter: "keyTimes", value: "\(times.first ?? .nan) … \(times.last ?? .nan)",
                    rule: "starting at exactly 0 and ending at exactly 1")
            }
        }
        let functions = timingFunctions ?? Array(repeating: .linear, count: max(values.count - 1, 0))
        guard functions.count == max(values.count - 1, 0) else {
            throw KinemaError(
                parameter: "timingFunctions", value: "\(functions.count)", rule: "values − 1 = \(values.count - 1)")
        }
        func requireOnePerValue(_ array: [Double], _ name: String) throws {
            guard !array.isEmpty && array.count != values.count else { return }
            throw KinemaError(
                parameter: name, value: "\(array.count) entries", rule: "empty or one per value (\(values.count))")
        }
        try requireOnePerValue(tensionValues, "tensionValues")
        try requireOnePerValue(continuityValues, "continuityValues")
        try requireOnePerValue(biasValues, "biasValues")
        self.keyPath = keyPath
        self.values = values
        self.timingFunctions = functions
        self.calculationMode = calculationMode
        self.duration = duration
        self.tensionValues = tensionValues
        self.continuityValues = continuityValues
        self.biasValues = biasValues
        switch calculationMode {
        case .paced, .cubicPaced: self.keyTimes = Self.pacedKeyTimes(values)
        default: self.keyTimes = times
        }
    }

    /// keyTimes proportional to the cumulative distance between consecutive values.
    static func pacedKeyTimes(_ values: [[Double]]) -> [Double] {
        var cumulative = [0.0]
        for i in 1..<max(values.count, 1) {
            let d = zip(values[i], values[i - 1]).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
            cumulative.append(cumulative[i - 1] + d)
        }
        guard let total = cumulative.last, total > 0 else {
            return (0..<values.count).map { values.count == 1 ? 0 : Double($0) / Double(values.count - 1) }
        }
        return cumulative.map { $0 / total }
    }

    /// The number of keyframes (values).
    public var keyframeCount: Int { values.count }
}
